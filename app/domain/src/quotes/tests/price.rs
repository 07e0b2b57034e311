//! Price normalisation per node and per GPU.

use super::fixtures::{draft, sheet};
use crate::quotes::{hourly_per_gpu, hourly_per_node};
use crate::tco::{BillingIncrement, Currency, PriceBasis};
use rust_decimal_macros::dec;

#[test]
fn per_node_price_divides_by_gpus() {
    let s = sheet(dec!(220.00));
    assert_eq!(hourly_per_gpu(&s, 8), Some(dec!(27.50)));
    assert_eq!(hourly_per_node(&s, 8), Some(dec!(220.00)));
}

#[test]
fn per_gpu_price_multiplies_by_gpus() {
    let mut s = sheet(dec!(6.80));
    s.basis = PriceBasis::PerGpu;
    assert_eq!(hourly_per_gpu(&s, 4), Some(dec!(6.80)));
    assert_eq!(hourly_per_node(&s, 4), Some(dec!(27.20)));
}

#[test]
fn per_gpu_share_keeps_two_extra_digits() {
    let s = sheet(dec!(10.00));
    assert_eq!(hourly_per_gpu(&s, 3), Some(dec!(3.3333)));
    let mut yen = sheet(dec!(1000));
    yen.currency = Currency::JPY;
    assert_eq!(hourly_per_gpu(&yen, 3), Some(dec!(333.33)));
}

#[test]
fn zero_gpus_has_no_normalised_price() {
    assert_eq!(hourly_per_gpu(&sheet(dec!(1)), 0), None);
    assert_eq!(hourly_per_node(&sheet(dec!(1)), 0), None);
}

#[test]
fn draft_helpers_use_its_spec() {
    let d = draft();
    assert_eq!(d.hourly_per_gpu(), Some(dec!(27.50)));
    assert_eq!(d.hourly_per_node(), Some(dec!(220.00)));
}

#[test]
fn an_on_demand_sheet_states_its_price_and_billing_and_nothing_else() {
    let s = crate::tco::on_demand_sheet(Currency::USD, dec!(2.45), BillingIncrement::SECOND, true);
    assert_eq!(
        (
            s.currency,
            s.basis,
            s.on_demand_hourly,
            s.billing_increment,
            s.stopped_bills_compute
        ),
        (
            Currency::USD,
            PriceBasis::PerNode,
            Some(dec!(2.45)),
            BillingIncrement::SECOND,
            true
        )
    );
    assert_eq!(s.minimum_billable_hours, dec!(0));
    assert_eq!((s.monthly_price, s.commitment_months), (None, None));
    let extras = [
        s.disk_price_gb_month,
        s.snapshot_price_gb_month,
        s.egress_price_gb,
        s.free_egress_gb,
        s.ingress_price_gb,
        s.public_ip_hourly,
    ];
    assert!(extras.iter().all(rust_decimal::Decimal::is_zero), "{extras:?}");
    // A catalogue does not state disk, snapshot or traffic prices: not stated, never free.
    assert_eq!(
        s.not_stated,
        [
            crate::tco::UnstatedPrice::Disk,
            crate::tco::UnstatedPrice::Snapshot,
            crate::tco::UnstatedPrice::Egress,
            crate::tco::UnstatedPrice::Ingress,
        ]
    );
    assert!(s.other_fees.is_empty());
    assert_eq!(hourly_per_gpu(&s, 4), Some(dec!(0.6125)));
}
