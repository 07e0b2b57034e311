//! Billing increments, minimum duration, monthly commitment and price basis.

use super::fixtures::{run, sheet};
use crate::tco::{
    BillingIncrement, BreakEven, ComponentKind, PriceBasis, PriceSheet, Pricing, TcoWarning, billable_hours,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn billed(increment: BillingIncrement, busy_h: Decimal) -> Decimal {
    let s = PriceSheet {
        billing_increment: increment,
        ..sheet(dec!(36.00))
    };
    run(&s, 1, 1, busy_h).on_demand_compute.expect("on demand offered")
}

#[test]
fn per_second_billing_rounds_up_to_the_started_second() {
    // 1.0001 h = 3600.36 s → 3601 s → 3601 × 36 ÷ 3600.
    assert_eq!(billed(BillingIncrement::SECOND, dec!(1.0001)), dec!(36.01));
    assert_eq!(billed(BillingIncrement::SECOND, dec!(1)), dec!(36.00));
}

#[test]
fn per_minute_billing_rounds_up_to_the_started_minute() {
    // 1.0001 h = 60.006 min → 61 min.
    assert_eq!(billed(BillingIncrement::MINUTE, dec!(1.0001)), dec!(36.60));
    assert_eq!(billed(BillingIncrement::MINUTE, dec!(1.5)), dec!(54.00));
}

#[test]
fn per_hour_billing_rounds_up_to_the_started_hour() {
    assert_eq!(billed(BillingIncrement::HOUR, dec!(1.0001)), dec!(72.00));
    assert_eq!(billed(BillingIncrement::HOUR, dec!(2)), dec!(72.00));
    assert_eq!(
        billable_hours(BillingIncrement::HOUR, Decimal::ZERO, dec!(0.1)),
        Ok(dec!(1))
    );
}

#[test]
fn minimum_billable_duration_applies_only_when_longer() {
    let s = PriceSheet {
        minimum_billable_hours: dec!(10),
        ..sheet(dec!(10.00))
    };
    let short = run(&s, 1, 1, dec!(3));
    assert_eq!((short.billable_h, short.total), (dec!(10), dec!(100.00)));
    assert!(
        short
            .warnings
            .contains(&TcoWarning::MinimumBillableApplied { minimum_h: dec!(10) })
    );
    let long = run(&s, 1, 1, dec!(11));
    assert_eq!((long.billable_h, long.total), (dec!(11), dec!(110.00)));
    assert!(
        !long
            .warnings
            .iter()
            .any(|w| matches!(w, TcoWarning::MinimumBillableApplied { .. }))
    );
}

fn monthly_sheet(term: u32) -> PriceSheet {
    PriceSheet {
        monthly_price: Some(dec!(5000)),
        commitment_months: Some(term),
        ..sheet(dec!(10.00))
    }
}

#[test]
fn monthly_versus_on_demand_around_break_even() {
    let below = run(&monthly_sheet(1), 1, 1, dec!(499));
    // v2: 1 month × 5000 ÷ 10/h = 500 busy hours, within the 730 h of the term.
    assert_eq!(below.break_even, Some(BreakEven::WithinTerm { hours: dec!(500) }));
    assert_eq!((below.pricing_used, below.total), (Pricing::OnDemand, dec!(4990.00)));
    assert_eq!(below.monthly_compute, Some(dec!(5000.00)));

    let at = run(&monthly_sheet(1), 1, 1, dec!(500));
    assert_eq!(
        (at.on_demand_compute, at.monthly_compute),
        (Some(dec!(5000.00)), Some(dec!(5000.00)))
    );
    assert_eq!(at.pricing_used, Pricing::OnDemand, "a tie keeps on-demand");

    let above = run(&monthly_sheet(1), 1, 1, dec!(501));
    assert_eq!((above.pricing_used, above.total), (Pricing::Monthly, dec!(5000.00)));
    assert!(above.component(&ComponentKind::MonthlyCommitment).is_some());
    assert!(above.component(&ComponentKind::OnDemandCompute).is_none());
    assert_eq!(above.on_demand_compute, Some(dec!(5010.00)));
}

#[test]
fn monthly_commitment_counts_started_months_and_the_term() {
    // 800 h → ⌈800 ÷ 730⌉ = 2 months → 10,000 > 8,000 on demand.
    let long = run(&monthly_sheet(1), 1, 1, dec!(800));
    assert_eq!(long.monthly_compute, Some(dec!(10000.00)));
    assert_eq!(long.pricing_used, Pricing::OnDemand);
    // A 3-month term bills 3 months even for 700 h.
    let term = run(&monthly_sheet(3), 1, 1, dec!(700));
    assert_eq!(term.monthly_compute, Some(dec!(15000.00)));
    // Two nodes: twice the commitment.
    let two = run(&monthly_sheet(1), 1, 2, dec!(700));
    assert_eq!((two.pricing_used, two.total), (Pricing::Monthly, dec!(10000.00)));
}

#[test]
fn per_gpu_price_is_multiplied_by_gpus_per_node() {
    let per_gpu = PriceSheet {
        basis: PriceBasis::PerGpu,
        ..sheet(dec!(2.50))
    };
    let e = run(&per_gpu, 8, 8, dec!(10));
    assert_eq!((e.node_hourly, e.total), (Some(dec!(20.00)), dec!(200.00)));
    let per_node = run(&sheet(dec!(2.50)), 8, 8, dec!(10));
    assert_eq!((per_node.node_hourly, per_node.total), (Some(dec!(2.50)), dec!(25.00)));
}
