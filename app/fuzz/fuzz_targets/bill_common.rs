//! What both bill targets check of the lines that read: no usage line is a negative charge, no
//! period ends before it starts; and the lines, matched and placed against a rental and
//! reconciled with an estimate, give a reconciliation or an error — never a panic, whatever the
//! figures.

use app::domain::bills::{
    BillReader, ChargeKind, Component,
    matching::{RentalSpan, match_line},
    reconcile::{Billed, Inputs, Planned, PlannedUnit, reconcile},
};
use app::domain::tco::Currency;
use rust_decimal::Decimal;

/// Reads every line, checks each that reads, and reconciles them with a 48-hour estimate.
pub fn read_and_reconcile<R: std::io::Read>(reader: BillReader<R>) {
    let rental = RentalSpan {
        resources: vec!["i-1".into(), "vol-1".into()],
        started_at: 1_764_576_000,
        released_at: Some(1_764_748_800),
    };
    let mut billed = Billed::default();
    for line in reader.flatten() {
        assert!(line.period_end >= line.period_start);
        if line.kind == ChargeKind::Usage {
            assert!(!line.cost.is_sign_negative() || line.cost.is_zero());
        }
        if let Ok(placement) = match_line(&line, &rental) {
            billed.add(&line, placement);
        }
    }
    let planned = [Planned {
        component: Component::Compute,
        unit: PlannedUnit::Hours,
        quantity: Decimal::from(48),
        unit_price: Some(Decimal::new(8664, 2)),
        cost: Decimal::new(415_872, 2),
    }];
    let _ = reconcile(&Inputs {
        currency: Currency::USD,
        planned: &planned,
        billed: &billed,
        bill_currency: Currency::USD,
        rate: None,
        ran_node_hours: Some(Decimal::from(49)),
        gpus_per_node: Some(8),
        threshold_pct: Decimal::TEN,
    });
}
