//! Every rejected input names its field and reason.

use super::fixtures::{assumptions, hours, shape, sheet, work};
use crate::tco::{
    Assumptions, Currency, Demand, ErrorReason as R, ExchangeRate, Fee, NodeShape, PriceSheet, TcoError, estimate,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

type Inputs = (PriceSheet, NodeShape, Demand, Assumptions);

fn base() -> Inputs {
    (sheet(dec!(10)), shape(1), hours(dec!(1), 1), assumptions())
}

fn rejects(change: impl FnOnce(&mut Inputs), field: &'static str, reason: R) {
    let mut i = base();
    change(&mut i);
    assert_eq!(
        estimate(&i.0, &i.1, &i.2, &i.3),
        Err(TcoError::new(field, reason)),
        "{field}"
    );
}

const OPEN_UNIT: R = R::OutOfRange { allowed: "(0, 1]" };
const HALF_OPEN_UNIT: R = R::OutOfRange { allowed: "[0, 1)" };

#[test]
fn base_inputs_are_valid() {
    let i = base();
    assert!(estimate(&i.0, &i.1, &i.2, &i.3).is_ok());
}

#[test]
fn throughput_must_be_positive() {
    let w = |i: &mut Inputs| i.2 = work(dec!(100), 1);
    rejects(
        |i| {
            w(i);
            i.3.measured_throughput_per_s = Some(dec!(0));
        },
        "assumptions.measured_throughput_per_s",
        R::NotPositive,
    );
    rejects(
        |i| {
            w(i);
            i.3.measured_throughput_per_s = Some(dec!(-1));
        },
        "assumptions.measured_throughput_per_s",
        R::NotPositive,
    );
}

#[test]
fn efficiency_must_lie_in_zero_to_one() {
    rejects(|i| i.3.efficiency = dec!(0), "assumptions.efficiency", OPEN_UNIT);
    rejects(|i| i.3.efficiency = dec!(1.01), "assumptions.efficiency", OPEN_UNIT);
    rejects(|i| i.3.efficiency = dec!(-0.5), "assumptions.efficiency", OPEN_UNIT);
}

#[test]
fn rerun_share_must_lie_in_zero_to_below_one() {
    rejects(|i| i.3.rerun_share = dec!(1), "assumptions.rerun_share", HALF_OPEN_UNIT);
    rejects(
        |i| i.3.rerun_share = dec!(-0.1),
        "assumptions.rerun_share",
        HALF_OPEN_UNIT,
    );
}

#[test]
fn negative_hours_are_rejected() {
    let neg = dec!(-0.5);
    rejects(|i| i.3.setup_h = neg, "assumptions.setup_h", R::Negative);
    rejects(|i| i.3.data_prep_h = neg, "assumptions.data_prep_h", R::Negative);
    rejects(|i| i.3.download_h = neg, "assumptions.download_h", R::Negative);
    rejects(|i| i.3.export_h = neg, "assumptions.export_h", R::Negative);
    rejects(|i| i.3.idle_h = neg, "assumptions.idle_h", R::Negative);
    rejects(|i| i.3.stopped_h = neg, "assumptions.stopped_h", R::Negative);
    rejects(|i| i.2.run_hours = Some(neg), "workload.run_hours", R::Negative);
    rejects(
        |i| i.0.minimum_billable_hours = neg,
        "price_sheet.minimum_billable_hours",
        R::Negative,
    );
    rejects(
        |i| i.3.snapshot_months = neg,
        "assumptions.snapshot_months",
        R::Negative,
    );
}

#[test]
fn negative_prices_are_rejected() {
    let neg = dec!(-0.01);
    rejects(
        |i| i.0.on_demand_hourly = Some(neg),
        "price_sheet.on_demand_hourly",
        R::Negative,
    );
    rejects(
        |i| i.0.disk_price_gb_month = neg,
        "price_sheet.disk_price_gb_month",
        R::Negative,
    );
    rejects(
        |i| i.0.snapshot_price_gb_month = neg,
        "price_sheet.snapshot_price_gb_month",
        R::Negative,
    );
    rejects(
        |i| i.0.egress_price_gb = neg,
        "price_sheet.egress_price_gb",
        R::Negative,
    );
    rejects(
        |i| i.0.ingress_price_gb = neg,
        "price_sheet.ingress_price_gb",
        R::Negative,
    );
    rejects(
        |i| i.0.public_ip_hourly = neg,
        "price_sheet.public_ip_hourly",
        R::Negative,
    );
    rejects(
        |i| {
            i.0.other_fees = vec![Fee {
                label: "x".into(),
                amount: neg,
            }];
        },
        "price_sheet.other_fees.amount",
        R::Negative,
    );
    rejects(
        |i| {
            i.0.monthly_price = Some(neg);
            i.0.commitment_months = Some(1);
        },
        "price_sheet.monthly_price",
        R::Negative,
    );
}

#[test]
fn negative_gigabytes_are_rejected() {
    let neg = dec!(-1);
    rejects(|i| i.0.free_egress_gb = neg, "price_sheet.free_egress_gb", R::Negative);
    rejects(|i| i.1.system_disk_gb = neg, "node_shape.system_disk_gb", R::Negative);
    rejects(|i| i.1.data_disk_gb = neg, "node_shape.data_disk_gb", R::Negative);
    rejects(|i| i.3.egress_gb = neg, "assumptions.egress_gb", R::Negative);
    rejects(|i| i.3.ingress_gb = neg, "assumptions.ingress_gb", R::Negative);
    rejects(|i| i.3.snapshot_gb = neg, "assumptions.snapshot_gb", R::Negative);
}

#[test]
fn counts_must_be_positive() {
    rejects(|i| i.1.gpus_per_node = 0, "node_shape.gpus_per_node", R::NotPositive);
    rejects(|i| i.3.nodes = Some(0), "assumptions.nodes", R::NotPositive);
    rejects(|i| i.2 = work(dec!(0), 1), "workload.total_work.amount", R::NotPositive);
}

#[test]
fn monthly_price_and_term_come_together() {
    rejects(
        |i| i.0.monthly_price = Some(dec!(1)),
        "price_sheet.commitment_months",
        R::Missing,
    );
    rejects(
        |i| i.0.commitment_months = Some(1),
        "price_sheet.monthly_price",
        R::Missing,
    );
    rejects(
        |i| {
            i.0.monthly_price = Some(dec!(1));
            i.0.commitment_months = Some(0);
        },
        "price_sheet.commitment_months",
        R::NotPositive,
    );
}

#[test]
fn a_work_size_is_required_and_never_assumed() {
    rejects(|i| i.2.run_hours = None, "workload.run_hours", R::NoWorkSize);
    rejects(|i| i.2 = work(dec!(100), 1), "workload.run_hours", R::NoWorkSize);
}

#[test]
fn overflowing_hours_are_errors_not_panics() {
    rejects(
        |i| i.2.run_hours = Some(Decimal::MAX),
        "estimate.billable_h",
        R::Overflow,
    );
    rejects(
        |i| {
            i.2.run_hours = Some(Decimal::MAX);
            i.3.setup_h = Decimal::MAX;
        },
        "estimate.busy_h",
        R::Overflow,
    );
    rejects(
        |i| {
            i.3.stopped_h = Decimal::MAX;
            i.0.on_demand_hourly = Some(dec!(0));
        },
        "estimate.rental_h",
        R::Overflow,
    );
    rejects(
        |i| {
            i.3.snapshot_gb = Decimal::MAX;
            i.3.snapshot_months = dec!(2);
        },
        "estimate.snapshots",
        R::Overflow,
    );
}

#[test]
fn currencies_must_be_known_iso_codes() {
    assert_eq!(Currency::parse("XYZ"), Err(R::UnknownCurrency { code: "XYZ".into() }));
    assert_eq!(
        Currency::parse("usd"),
        Err(R::InvalidCurrencyCode { code: "usd".into() })
    );
    assert_eq!(Currency::parse("US"), Err(R::InvalidCurrencyCode { code: "US".into() }));
    let err = serde_json::from_str::<Currency>(r#""XYZ""#).unwrap_err().to_string();
    assert!(err.contains("currency `XYZ` is not supported"), "{err}");
    assert_eq!(serde_json::from_str::<Currency>(r#""JPY""#).unwrap(), Currency::JPY);
}

#[test]
fn exchange_rates_must_be_positive_dated_and_matching() {
    let rate = |r: Decimal, d: &str| ExchangeRate {
        from: Currency::USD,
        to: Currency::CNY,
        rate: r,
        date: d.into(),
    };
    let f = |e: TcoError| (e.field, e.reason);
    assert_eq!(
        rate(dec!(0), "2024-01-31").validate().map_err(f),
        Err(("exchange_rate.rate", R::NotPositive))
    );
    for bad in ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01x", "2024-04-31"] {
        let reason = R::InvalidDate { value: bad.into() };
        assert_eq!(
            rate(dec!(7), bad).validate().map_err(f),
            Err(("exchange_rate.date", reason))
        );
    }
    assert!(rate(dec!(7), "2024-02-29").validate().is_ok());
    let same = ExchangeRate {
        to: Currency::USD,
        ..rate(dec!(1), "2024-01-31")
    };
    assert_eq!(same.validate().map_err(f), Err(("exchange_rate.to", R::SameCurrency)));
    let mismatch = rate(dec!(7), "2024-01-31").convert(dec!(1), Currency::EUR).map_err(f);
    assert_eq!(mismatch.unwrap_err().1.code(), "currency_mismatch");
}

#[test]
fn errors_read_well_and_carry_stable_codes() {
    let e = TcoError::new("assumptions.efficiency", OPEN_UNIT).for_quote("a");
    assert_eq!(e.to_string(), "quote `a`: assumptions.efficiency: must lie in (0, 1]");
    assert_eq!(e.reason.code(), "out_of_range");
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["field"], "assumptions.efficiency");
    assert_eq!(json["reason"], "out_of_range");
}
