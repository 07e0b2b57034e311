//! What both bill targets check of the lines that read: no usage line is a negative charge (billed
//! or effective), no period ends before it starts; and the lines, matched (taxes too) and placed
//! against a rental, added as they are and converted at a kept rate, and reconciled with an
//! estimate, give a reconciliation or an error — never a panic, whatever the figures.

use nodeledger_domain::bills::{
    BillReader, ChargeKind, Component,
    matching::{RentalSpan, match_line, match_taxes, placement},
    reconcile::{Billed, Inputs, Planned, PlannedUnit, reconcile},
};
use nodeledger_domain::tco::Currency;
use rust_decimal::Decimal;

/// Reads every line, checks each that reads, and reconciles them with a 48-hour estimate.
pub fn read_and_reconcile<R: std::io::Read>(reader: BillReader<R>) {
    let rental = RentalSpan {
        resources: vec!["i-1".into(), "vol-1".into()],
        started_at: 1_764_576_000,
        released_at: Some(1_764_748_800),
    };
    let mut lines = Vec::new();
    for line in reader.flatten() {
        assert!(line.period_end >= line.period_start);
        if line.kind == ChargeKind::Usage {
            assert!(!line.cost.is_sign_negative() || line.cost.is_zero());
            assert!(!line.effective_cost.is_sign_negative() || line.effective_cost.is_zero());
        }
        let unmatched = match_line(&line, &rental).err();
        lines.push((line, unmatched));
    }
    match_taxes(&mut lines);
    let (mut billed, mut converted) = (Billed::default(), Billed::default());
    for (line, _) in lines.iter().filter(|(_, u)| u.is_none()) {
        billed.add(line, placement(line, &rental));
        converted.add_converted(line, placement(line, &rental), Decimal::new(72, 1));
    }
    let planned = [Planned {
        component: Component::Compute,
        unit: PlannedUnit::Hours,
        quantity: Decimal::from(48),
        unit_price: Some(Decimal::new(8664, 2)),
        cost: Decimal::new(415_872, 2),
    }];
    for billed in [&billed, &converted] {
        let _ = reconcile(&Inputs {
            currency: Currency::USD,
            planned: &planned,
            billed,
            bill_currency: Currency::USD,
            rate: None,
            ran_node_hours: Some(Decimal::from(49)),
            gpus_per_node: Some(8),
            threshold_pct: Decimal::TEN,
        });
    }
}
