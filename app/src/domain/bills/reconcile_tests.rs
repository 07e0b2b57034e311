//! Each variance reason with figures computed by hand (in the comments).

use super::*;
use crate::domain::bills::{BillLine, ChargeKind, Component};
use rust_decimal_macros::dec;

fn charge(component: Component, quantity: Decimal, unit: &str, price: Option<Decimal>, cost: Decimal) -> BillLine {
    BillLine {
        line: 2,
        resource_id: "i-0abc".into(),
        period_start: 0,
        period_end: 3600,
        component,
        kind: ChargeKind::Usage,
        description: String::new(),
        sku: String::new(),
        quantity,
        unit: unit.into(),
        unit_price: price,
        cost,
        currency: "USD".into(),
    }
}

fn compute_plan() -> Planned {
    // 48 node-hours at 86.64 = 4158.72.
    Planned {
        component: Component::Compute,
        unit: PlannedUnit::Hours,
        quantity: dec!(48),
        unit_price: Some(dec!(86.64)),
        cost: dec!(4158.72),
    }
}

fn run(planned: &[Planned], lines: &[BillLine], ran: Option<Decimal>, threshold: Decimal) -> Reconciliation {
    let mut billed = Billed::default();
    lines.iter().for_each(|l| billed.add(l));
    reconcile(&Inputs {
        currency: Currency::USD,
        planned,
        billed: &billed,
        bill_currency: Currency::USD,
        rate: None,
        ran_node_hours: ran,
        threshold_pct: threshold,
    })
    .expect("same currency")
}

#[test]
fn the_worked_example_price_drift_more_hours_and_minimum_billing_add_up() {
    // Billed 50 h at 90.00 = 4500.00; the rental ran 49 node-hours.
    let lines = [charge(
        Component::Compute,
        dec!(50),
        "Hours",
        Some(dec!(90.00)),
        dec!(4500.00),
    )];
    let r = run(&[compute_plan()], &lines, Some(dec!(49)), dec!(10));
    let row = &r.rows[0];
    assert_eq!(
        (row.estimated, row.billed, row.difference),
        (dec!(4158.72), dec!(4500.00), dec!(341.28))
    );
    assert_eq!(
        row.reasons,
        vec![
            // (90.00 − 86.64) × 50 = 168.00
            Reason::PriceDrift {
                quoted: dec!(86.64),
                billed: dec!(90),
                quantity: dec!(50),
                effect: dec!(168.00)
            },
            // (49 − 48) × 86.64 = 86.64
            Reason::MoreHours {
                estimated: dec!(48),
                billed: dec!(49),
                effect: dec!(86.64)
            },
            // (50 − 49) × 86.64 = 86.64
            Reason::MinimumBilling {
                ran: dec!(49),
                billed: dec!(50),
                effect: dec!(86.64)
            },
        ]
    );
    // 341.28 ÷ 4158.72 = 8.2 %: under the 10 % threshold, over a 5 % one.
    assert_eq!((r.variance_pct, r.flagged), (Some(dec!(8.2)), false));
    assert!(run(&[compute_plan()], &lines, Some(dec!(49)), dec!(5)).flagged);
}

#[test]
fn fewer_hours_at_the_quoted_price_is_a_negative_more_hours_and_nothing_else() {
    // 40 h at 86.64 = 3465.60; (40 − 48) × 86.64 = −693.12.
    let lines = [charge(
        Component::Compute,
        dec!(40),
        "Hours",
        Some(dec!(86.64)),
        dec!(3465.60),
    )];
    let r = run(&[compute_plan()], &lines, None, dec!(10));
    assert_eq!(
        r.rows[0].reasons,
        vec![Reason::MoreHours {
            estimated: dec!(48),
            billed: dec!(40),
            effect: dec!(-693.12)
        }]
    );
    // −693.12 ÷ 4158.72 = −16.7 %: a bill far under the estimate is flagged too.
    assert_eq!((r.variance_pct, r.flagged), (Some(dec!(-16.7)), true));
}

#[test]
fn a_stopped_disk_the_estimate_did_not_have_is_unplanned() {
    // The node was stopped, not released: 400 GB-Mo × 0.03 = 12.00 of disk, estimated 0.
    let lines = [
        charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72)),
        charge(Component::Disk, dec!(400), "GB-Mo", Some(dec!(0.03)), dec!(12.00)),
    ];
    let r = run(&[compute_plan()], &lines, None, dec!(10));
    assert_eq!(r.rows.len(), 2);
    assert_eq!(r.rows[0].reasons, vec![], "compute as estimated");
    let disk = &r.rows[1];
    assert_eq!(
        (disk.component, disk.estimated, disk.billed),
        (Component::Disk, dec!(0), dec!(12.00))
    );
    assert_eq!(disk.reasons, vec![Reason::Unplanned { effect: dec!(12.00) }]);
    assert_eq!(r.difference, dec!(12.00));
}

#[test]
fn more_disk_usage_than_estimated_is_more_usage() {
    // Estimated 100 GB-month at 0.10 = 10.00; billed 120 at 0.10 = 12.00: (120 − 100) × 0.10 = 2.00.
    let plan = Planned {
        component: Component::Disk,
        unit: PlannedUnit::GbMonth,
        quantity: dec!(100),
        unit_price: Some(dec!(0.10)),
        cost: dec!(10.00),
    };
    let lines = [charge(
        Component::Disk,
        dec!(120),
        "GB-Mo",
        Some(dec!(0.10)),
        dec!(12.00),
    )];
    let r = run(&[plan], &lines, None, dec!(10));
    assert_eq!(
        r.rows[0].reasons,
        vec![Reason::MoreUsage {
            estimated: dec!(100),
            billed: dec!(120),
            effect: dec!(2.00)
        }]
    );
}

#[test]
fn credits_are_their_own_reason_and_what_is_left_is_other() {
    let mut credit = charge(Component::Compute, dec!(0), "", None, dec!(-50.00));
    credit.kind = ChargeKind::Credit;
    // A fee estimated at 20.00, billed 25.00 as one item: nothing to compare but the amount.
    let fee = Planned {
        component: Component::Fees,
        unit: PlannedUnit::Other,
        quantity: dec!(1),
        unit_price: Some(dec!(20.00)),
        cost: dec!(20.00),
    };
    let lines = [
        charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72)),
        credit,
        charge(Component::Fees, dec!(1), "Month", Some(dec!(25.00)), dec!(25.00)),
    ];
    let r = run(&[compute_plan(), fee], &lines, None, dec!(10));
    assert_eq!(r.rows[0].reasons, vec![Reason::Credits { effect: dec!(-50.00) }]);
    assert_eq!(r.rows[0].difference, dec!(-50.00));
    assert_eq!(r.rows[1].reasons, vec![Reason::Other { effect: dec!(5.00) }]);
    // 4158.72 + 20.00 estimated; 4108.72 + 25.00 billed.
    assert_eq!(
        (r.estimated, r.billed, r.difference),
        (dec!(4178.72), dec!(4133.72), dec!(-45.00))
    );
}

#[test]
fn a_bill_in_another_currency_converts_with_the_rate_or_is_refused() {
    // The estimate in CNY: 48 h at 624.00 = 29952.00. The bill in USD: 48 h at 86.64 = 4158.72,
    // at 7.20 CNY per USD = 29942.78 (86.64 × 7.2 = 623.808 per hour: 0.03 % off, no drift).
    let plan = Planned {
        unit_price: Some(dec!(624.00)),
        cost: dec!(29952.00),
        ..compute_plan()
    };
    let lines = [charge(
        Component::Compute,
        dec!(48),
        "Hours",
        Some(dec!(86.64)),
        dec!(4158.72),
    )];
    let mut billed = Billed::default();
    lines.iter().for_each(|l| billed.add(l));
    let rate = ExchangeRate {
        from: Currency::USD,
        to: Currency::CNY,
        rate: dec!(7.20),
        date: "2026-11-20".into(),
    };
    let mut inputs = Inputs {
        currency: Currency::CNY,
        planned: std::slice::from_ref(&plan),
        billed: &billed,
        bill_currency: Currency::USD,
        rate: Some(&rate),
        ran_node_hours: None,
        threshold_pct: dec!(10),
    };
    let r = reconcile(&inputs).expect("a rate");
    assert_eq!(r.rows[0].billed, dec!(29942.78));
    assert_eq!(r.rows[0].reasons, vec![Reason::Other { effect: dec!(-9.22) }]);
    inputs.rate = None;
    assert_eq!(
        reconcile(&inputs),
        Err(NoRate {
            from: Currency::USD,
            to: Currency::CNY
        })
    );
}

#[test]
fn nothing_estimated_and_something_billed_flags() {
    let lines = [charge(
        Component::Traffic,
        dec!(100),
        "GB",
        Some(dec!(0.09)),
        dec!(9.00),
    )];
    let r = run(&[], &lines, None, dec!(10));
    assert_eq!((r.variance_pct, r.flagged), (None, true));
    assert_eq!(r.rows[0].reasons, vec![Reason::Unplanned { effect: dec!(9.00) }]);
}
