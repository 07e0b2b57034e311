//! A FOCUS cost-and-usage header before arbitrary bytes, read to the end and reconciled: every
//! line yields a bill line or its errors (line and column), never a panic; a line that reads is
//! never a negative charge, its period never ends before it starts, and the lines that read,
//! matched and placed against a rental and reconciled with an estimate, give a reconciliation
//! or an error — never a panic, whatever the figures.
#![no_main]

use app::domain::bills::{
    ChargeKind, Component, open,
    matching::{RentalSpan, match_line},
    reconcile::{Billed, Inputs, Planned, PlannedUnit, reconcile},
};
use app::domain::tco::Currency;
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

const HEADER: &[u8] = b"ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ResourceId,ServiceName,SkuId\n";

fuzz_target!(|data: &[u8]| {
    let _ = open(data).map(|reader| reader.count());
    let file = [HEADER, data].concat();
    let Ok(reader) = open(file.as_slice()) else { return };
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
});
