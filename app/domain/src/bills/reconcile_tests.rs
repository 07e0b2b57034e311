//! Each variance reason with figures computed by hand (in the comments).

use super::*;
use crate::bills::{BillLine, ChargeKind, Component, matching::Placement};
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
        effective_cost: cost,
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
    let placed: Vec<(BillLine, Placement)> = lines.iter().map(|l| (l.clone(), Placement::Rental)).collect();
    run_placed(planned, &placed, ran, None, threshold)
}

fn run_placed(
    planned: &[Planned],
    lines: &[(BillLine, Placement)],
    ran: Option<Decimal>,
    gpus_per_node: Option<u32>,
    threshold: Decimal,
) -> Reconciliation {
    let mut billed = Billed::default();
    lines.iter().for_each(|(l, p)| billed.add(l, *p));
    reconcile(&Inputs {
        currency: Currency::USD,
        planned,
        billed: &billed,
        bill_currency: Currency::USD,
        rate: None,
        ran_node_hours: ran,
        gpus_per_node,
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
                agreed: dec!(86.64),
                effect: dec!(86.64)
            },
            // (50 − 49) × 86.64 = 86.64
            Reason::MinimumBilling {
                ran: dec!(49),
                billed: dec!(50),
                agreed: dec!(86.64),
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
            agreed: dec!(86.64),
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
            agreed: dec!(0.1),
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
    lines.iter().for_each(|l| billed.add(l, Placement::Rental));
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
        gpus_per_node: None,
        threshold_pct: dec!(10),
    };
    let r = reconcile(&inputs).expect("a rate");
    assert_eq!(r.rows[0].billed, dec!(29942.78));
    assert_eq!(r.rows[0].reasons, vec![Reason::Other { effect: dec!(-9.22) }]);
    inputs.rate = None;
    assert_eq!(
        reconcile(&inputs),
        Err(ReconcileError::NoRate {
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

fn disk_plan() -> Planned {
    // 2,000 GB for 48 h: 2000 × 48 ÷ 730 = 131.5068… GB-months at 0.10 = 13.15.
    Planned {
        component: Component::Disk,
        unit: PlannedUnit::GbMonth,
        quantity: dec!(131.5068),
        unit_price: Some(dec!(0.10)),
        cost: dec!(13.15),
    }
}

#[test]
fn a_disk_left_behind_after_release_is_inside_the_variance_and_flags() {
    // Compute as estimated, the disk as estimated, then 3 more days of the same disk after the
    // release: 2000 GB × 72 h ÷ 730 × 0.10 = 19.73. D = 19.73 = 0.5 % of 4171.87, under the
    // 10 % threshold, and still flagged: a charge after release is what the seeds warn of.
    let disk = |cost, quantity| charge(Component::Disk, quantity, "GB-Mo", Some(dec!(0.10)), cost);
    let lines = [
        (
            charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72)),
            Placement::Rental,
        ),
        (disk(dec!(13.15), dec!(131.5068)), Placement::Rental),
        (disk(dec!(19.73), dec!(197.2603)), Placement::AfterRelease),
    ];
    let r = run_placed(&[compute_plan(), disk_plan()], &lines, None, None, dec!(10));
    let row = &r.rows[1];
    assert_eq!((row.estimated, row.billed), (dec!(13.15), dec!(32.88)));
    assert_eq!(
        row.reasons,
        vec![Reason::AfterRelease { effect: dec!(19.73) }],
        "the in-rental quantity matches the estimate, so nothing else"
    );
    assert_eq!(
        (r.after_release, r.difference, r.variance_pct),
        (dec!(19.73), dec!(19.73), Some(dec!(0.5)))
    );
    assert!(r.flagged);
    let in_rental_only = run_placed(&[compute_plan(), disk_plan()], &lines[..2], None, None, dec!(10));
    assert!(!in_rental_only.flagged && in_rental_only.after_release.is_zero());
}

#[test]
fn after_release_charges_of_an_unplanned_component_are_not_also_unplanned() {
    // A snapshot kept after release, 5.00, nothing estimated: one reason, not two.
    let snap = charge(Component::Snapshots, dec!(50), "GB-Mo", Some(dec!(0.10)), dec!(5.00));
    let r = run_placed(
        &[compute_plan()],
        &[(snap, Placement::AfterRelease)],
        None,
        None,
        dec!(10),
    );
    let row = r
        .rows
        .iter()
        .find(|r| r.component == Component::Snapshots)
        .expect("a row");
    assert_eq!(row.reasons, vec![Reason::AfterRelease { effect: dec!(5.00) }]);
}

// Units: FOCUS leaves `ConsumedUnit` and `PricingUnit` to the provider ("provider-specified
// measurement unit", FOCUS 1.0 as Microsoft's FocusCost metadata documents it,
// learn.microsoft.com/cloud-computing/finops/focus/metadata; Azure's own usage files write
// "Hours", "GB"); so a GPU cloud pricing per GPU-hour writes that unit, as `GPU-Hours` or `卡时`
// here, and the reader must not take it for node-hours.
#[test]
fn a_bill_in_gpu_hours_that_equals_its_node_hour_estimate_has_no_reason() {
    // 48 node-hours of an 8-GPU node at 86.64 = 4158.72, billed as 384 GPU-hours at 10.83
    // (86.64 ÷ 8) = 4158.72. Read as hours, it was "price drift (10.83 − 86.64) × 384" and
    // "more hours (384 − 48) × 86.64", cancelling to 0: two large, false reasons.
    let gpu_hours = charge(
        Component::Compute,
        dec!(384),
        "GPU-Hours",
        Some(dec!(10.83)),
        dec!(4158.72),
    );
    let r = run_placed(
        &[compute_plan()],
        &[(gpu_hours, Placement::Rental)],
        Some(dec!(48)),
        Some(8),
        dec!(10),
    );
    let row = &r.rows[0];
    assert_eq!(
        (row.difference, row.reasons.clone(), row.per_gpu),
        (dec!(0), vec![], Some(8))
    );
    assert!(!r.flagged);
}

#[test]
fn gpu_hours_reasons_are_stated_in_gpu_hours() {
    // Billed 400 GPU-hours at 11.25 = 4500.00; the rental ran 49 node-hours = 392 GPU-hours.
    // Per GPU-hour: quoted 86.64 ÷ 8 = 10.83; drift (11.25 − 10.83) × 400 = 168.00; more hours
    // (392 − 384) × 10.83 = 86.64; minimum billing (400 − 392) × 10.83 = 86.64 — the worked
    // example's figures, in the bill's unit.
    let gpu_hours = charge(
        Component::Compute,
        dec!(400),
        "GPU-Hours",
        Some(dec!(11.25)),
        dec!(4500.00),
    );
    let r = run_placed(
        &[compute_plan()],
        &[(gpu_hours, Placement::Rental)],
        Some(dec!(49)),
        Some(8),
        dec!(10),
    );
    assert_eq!(
        r.rows[0].reasons,
        vec![
            Reason::PriceDrift {
                quoted: dec!(10.83),
                billed: dec!(11.25),
                quantity: dec!(400),
                effect: dec!(168.00)
            },
            Reason::MoreHours {
                estimated: dec!(384),
                billed: dec!(392),
                agreed: dec!(10.83),
                effect: dec!(86.64)
            },
            Reason::MinimumBilling {
                ran: dec!(392),
                billed: dec!(400),
                agreed: dec!(10.83),
                effect: dec!(86.64)
            },
        ]
    );
}

#[test]
fn gpu_hours_without_the_gpus_per_node_are_not_compared() {
    let gpu_hours = charge(Component::Compute, dec!(384), "卡时", Some(dec!(10.83)), dec!(4158.72));
    let r = run_placed(
        &[compute_plan()],
        &[(gpu_hours, Placement::Rental)],
        None,
        None,
        dec!(10),
    );
    assert_eq!((r.rows[0].reasons.clone(), r.rows[0].per_gpu), (vec![], None));
}

#[test]
fn gb_hours_count_as_gb_months_and_terabytes_as_gigabytes() {
    // 96,000 GB-hours ÷ 730 = 131.5068… GB-months: the disk estimate, priced 0.10 per GB-month
    // as 0.000137 per GB-hour, billed 13.15: no more usage.
    let gb_hours = charge(Component::Disk, dec!(96000), "GB-Hours", None, dec!(13.15));
    let r = run_placed(&[disk_plan()], &[(gb_hours, Placement::Rental)], None, None, dec!(10));
    assert_eq!(r.rows[0].reasons, vec![], "{:?}", r.rows[0].reasons);
    // 1.2 TB of egress at 0.09 per GB = 108.00 against 1,000 GB estimated = 90.00:
    // more usage (1200 − 1000) × 0.09 = 18.00.
    let traffic = Planned {
        component: Component::Traffic,
        unit: PlannedUnit::Gb,
        quantity: dec!(1000),
        unit_price: Some(dec!(0.09)),
        cost: dec!(90.00),
    };
    let tb = charge(Component::Traffic, dec!(1.2), "TB", None, dec!(108.00));
    let r = run_placed(&[traffic], &[(tb, Placement::Rental)], None, None, dec!(10));
    assert_eq!(
        r.rows[0].reasons,
        vec![Reason::MoreUsage {
            estimated: dec!(1000),
            billed: dec!(1200),
            agreed: dec!(0.09),
            effect: dec!(18.00)
        }]
    );
}

/// The largest figures a bill may hold (a trillion each, `cells::MAX_AMOUNT`) on many lines:
/// sums and products leave `Decimal`'s range, and the answer is an error, never a panic.
#[test]
fn figures_beyond_any_real_bill_are_refused_not_a_panic() {
    let max = crate::bills::MAX_AMOUNT;
    let line = charge(Component::Compute, max, "Hours", Some(max), max);
    let mut billed = Billed::default();
    for _ in 0..200_000 {
        billed.add(&line, Placement::Rental);
    }
    let inputs = Inputs {
        currency: Currency::USD,
        planned: &[compute_plan()],
        billed: &billed,
        bill_currency: Currency::USD,
        rate: None,
        ran_node_hours: Some(dec!(48)),
        gpus_per_node: None,
        threshold_pct: dec!(10),
    };
    assert_eq!(reconcile(&inputs), Err(ReconcileError::TooLarge));
    // Decimal's largest value as a cost once panicked in the sums; a rate that makes the
    // conversion overflow is refused the same way.
    let mut huge = Billed::default();
    let top = charge(Component::Compute, dec!(1), "Hours", None, Decimal::MAX);
    huge.add(&top, Placement::Rental);
    huge.add(&top, Placement::Rental);
    assert_eq!(
        reconcile(&Inputs {
            billed: &huge,
            ..inputs
        }),
        Err(ReconcileError::TooLarge)
    );
    assert!(flagged(dec!(1), Decimal::MAX, dec!(10)));
    assert!(flagged(Decimal::MIN, Decimal::MAX, dec!(10)));
}

/// A CNY bill of a 72-hour rental quoted at ¥12.50/h, 100 GB-months of disk at ¥0.50 and a
/// public IP at ¥0.05/h: the figures an accountant checks.
mod accountant {
    use super::*;

    fn plan(component: Component, unit: PlannedUnit, quantity: Decimal, price: Decimal) -> Planned {
        Planned {
            component,
            unit,
            quantity,
            unit_price: Some(price),
            cost: quantity * price,
        }
    }

    fn cny(planned: &[Planned], lines: &[BillLine]) -> Reconciliation {
        let mut billed = Billed::default();
        lines.iter().for_each(|l| billed.add(l, Placement::Rental));
        reconcile(&Inputs {
            currency: Currency::CNY,
            planned,
            billed: &billed,
            bill_currency: Currency::CNY,
            rate: None,
            ran_node_hours: None,
            gpus_per_node: None,
            threshold_pct: dec!(10),
        })
        .expect("same currency")
    }

    #[test]
    fn a_price_change_on_part_of_the_hours_is_those_hours_at_the_new_price_not_an_average() {
        // 48 h at the agreed ¥12.50 = 600.00 and 24 h at ¥13.10 = 314.40: billed 914.40 against
        // 72 × 12.50 = 900.00. The average (¥12.70 on 72 h) says nothing an accountant can check;
        // 24 × 13.10 = 314.40 against 24 × 12.50 = 300.00 does: +14.40.
        let lines = [
            charge(Component::Compute, dec!(48), "Hours", Some(dec!(12.50)), dec!(600.00)),
            charge(Component::Compute, dec!(24), "Hours", Some(dec!(13.10)), dec!(314.40)),
        ];
        let planned = [plan(Component::Compute, PlannedUnit::Hours, dec!(72), dec!(12.50))];
        let row = &cny(&planned, &lines).rows[0];
        assert_eq!(row.difference, dec!(14.40));
        assert_eq!(
            row.reasons,
            vec![Reason::PriceDrift {
                quoted: dec!(12.5),
                billed: dec!(13.1),
                quantity: dec!(24),
                effect: dec!(14.40)
            }]
        );
    }

    #[test]
    fn less_disk_than_planned_is_less_usage_and_an_unbilled_ip_is_named_not_rounding() {
        // Disk: 80 of the 100 GB-months planned at ¥0.50: (80 − 100) × 0.50 = −10.00.
        // IP: 72 h × ¥0.05 = 3.60 planned, nothing billed: −3.60.
        let planned = [
            plan(Component::Disk, PlannedUnit::GbMonth, dec!(100), dec!(0.50)),
            plan(Component::Ip, PlannedUnit::Hours, dec!(72), dec!(0.05)),
        ];
        let lines = [charge(
            Component::Disk,
            dec!(80),
            "GB-Month",
            Some(dec!(0.50)),
            dec!(40.00),
        )];
        let r = cny(&planned, &lines);
        let disk = r
            .rows
            .iter()
            .find(|row| row.component == Component::Disk)
            .expect("disk");
        assert_eq!(
            disk.reasons,
            vec![Reason::MoreUsage {
                estimated: dec!(100),
                billed: dec!(80),
                agreed: dec!(0.50),
                effect: dec!(-10.00)
            }]
        );
        let ip = r.rows.iter().find(|row| row.component == Component::Ip).expect("ip");
        assert_eq!(ip.reasons, vec![Reason::NotBilled { effect: dec!(-3.60) }]);
        assert!(
            r.rows
                .iter()
                .flat_map(|row| &row.reasons)
                .all(|why| !matches!(why, Reason::Other { .. }))
        );
    }
}

/// FOCUS bills as the specification defines them (FOCUS 1.2, columns EffectiveCost, ChargeClass,
/// CommitmentDiscountStatus and ChargeCategory).
mod focus_rules {
    use super::*;

    fn with(line: BillLine, f: impl FnOnce(&mut BillLine)) -> BillLine {
        let mut line = line;
        f(&mut line);
        line
    }

    /// "EffectiveCost MUST be 0 when ChargeCategory is "Purchase" and the purchase is intended to
    /// cover future eligible charges"; the usage it covers is billed 0 with
    /// `CommitmentDiscountStatus = Used` and an effective cost of its share.
    #[test]
    fn usage_covered_by_a_commitment_is_reconciled_at_its_effective_cost_not_as_not_billed() {
        let covered = with(
            charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(0)),
            |l| l.effective_cost = dec!(4158.72),
        );
        let purchase = with(charge(Component::Fees, dec!(1), "Months", None, dec!(4158.72)), |l| {
            l.effective_cost = dec!(0);
        });
        let r = run(&[compute_plan()], &[covered, purchase], None, dec!(10));
        let compute = &r.rows[0];
        assert_eq!(
            (compute.estimated, compute.billed, compute.invoiced),
            (dec!(4158.72), dec!(4158.72), dec!(0))
        );
        assert_eq!(compute.reasons, Vec::<Reason>::new(), "no 'not billed, −100 %'");
        let fees = &r.rows[1];
        assert_eq!((fees.billed, fees.invoiced), (dec!(0), dec!(4158.72)));
        assert_eq!((r.billed, r.invoiced), (dec!(4158.72), dec!(4158.72)));
        assert_eq!(r.variance_pct, Some(dec!(0.0)));
        assert!(!r.flagged);
    }

    /// FOCUS writes a correction in a later bill "with the ChargePeriod of the charge it
    /// corrects": it is its own reason, named by that period, and the original plus the
    /// correction is what the period finally cost.
    #[test]
    fn a_correction_is_applied_to_the_period_it_corrects() {
        let day = |d: i64| 1_764_547_200 + d * 86_400; // 2025-12-01 + d days
        let original = with(
            charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72)),
            |l| (l.period_start, l.period_end) = (day(0), day(2)),
        );
        let correction = with(
            charge(Component::Compute, dec!(-2), "Hours", Some(dec!(86.64)), dec!(-173.28)),
            |l| {
                l.kind = ChargeKind::Correction;
                (l.period_start, l.period_end) = (day(0), day(2));
            },
        );
        let r = run(&[compute_plan()], &[original, correction], None, dec!(10));
        let row = &r.rows[0];
        assert_eq!(row.billed, dec!(3985.44), "4158.72 − 173.28");
        assert_eq!(
            row.reasons[0],
            Reason::Correction {
                period_start: day(0),
                period_end: day(2),
                effect: dec!(-173.28)
            }
        );
        assert_eq!(row.reasons.iter().map(Reason::effect).sum::<Decimal>(), row.difference);
    }

    /// Tax is its own row; the estimate is before tax, so the flag reads the variance before tax:
    /// a bill exactly as estimated plus 13 % VAT is not flagged at a 10 % threshold.
    #[test]
    fn tax_is_shown_apart_and_the_flag_reads_the_variance_before_tax() {
        let usage = charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72));
        let vat = charge(Component::Tax, dec!(0), "", None, dec!(540.63));
        let r = run(&[compute_plan()], &[usage, vat], None, dec!(10));
        assert_eq!(
            r.rows.iter().map(|x| x.component).collect::<Vec<_>>(),
            [Component::Compute, Component::Tax]
        );
        assert_eq!(
            (r.billed, r.tax, r.difference),
            (dec!(4699.35), dec!(540.63), dec!(540.63))
        );
        assert_eq!(
            (r.difference_before_tax, r.variance_before_tax_pct),
            (dec!(0), Some(dec!(0.0)))
        );
        assert_eq!(r.variance_pct, Some(dec!(13.0)));
        assert!(!r.flagged, "13 % is the tax, not the vendor's drift");
    }

    /// A bill converted at the rate it kept (7.20 CNY per USD) gives the same figures whatever rate
    /// the team enters later: the conversion is done as lines are added, with the kept factor.
    #[test]
    fn a_bill_keeps_the_rate_it_was_converted_at() {
        let plan = Planned {
            unit_price: Some(dec!(624.00)),
            cost: dec!(29952.00),
            ..compute_plan()
        };
        let line = with(
            charge(Component::Compute, dec!(48), "Hours", Some(dec!(86.64)), dec!(4158.72)),
            |l| l.currency = "USD".into(),
        );
        let at = |factor: Decimal| {
            let mut billed = Billed::default();
            billed.add_converted(&line, Placement::Rental, factor);
            reconcile(&Inputs {
                currency: Currency::CNY,
                planned: std::slice::from_ref(&plan),
                billed: &billed,
                bill_currency: Currency::CNY,
                rate: None,
                ran_node_hours: None,
                gpus_per_node: None,
                threshold_pct: dec!(10),
            })
            .expect("converted")
        };
        let kept = at(dec!(7.20));
        assert_eq!(kept.rows[0].billed, dec!(29942.78), "as the currency test above");
        assert_eq!(kept.rows[0].reasons, vec![Reason::Other { effect: dec!(-9.22) }]);
        let later = ExchangeRate {
            from: Currency::CNY,
            to: Currency::USD,
            rate: dec!(0.1389),
            date: "2026-12-20".into(),
        };
        let kept_rate = ExchangeRate {
            from: Currency::USD,
            to: Currency::CNY,
            rate: dec!(7.20),
            date: "2026-11-30".into(),
        };
        assert_eq!(
            conversion_factor(&kept_rate, Currency::USD, Currency::CNY),
            Some(dec!(7.20))
        );
        let inverse = conversion_factor(&later, Currency::USD, Currency::CNY).expect("inverse");
        assert_ne!(
            at(inverse).billed,
            kept.billed,
            "another rate would give another figure"
        );
        assert_eq!(
            at(dec!(7.20)),
            kept,
            "the kept factor always gives the same reconciliation"
        );
    }

    proptest::proptest! {
        /// Whatever the amounts, an original charge plus its correction is what the row bills,
        /// and the reasons add up to the difference.
        #[test]
        fn a_correction_plus_its_original_equals_the_corrected_amount(
            cents in 0_i64..100_000_000,
            back in 0_i64..100_000_000,
            planned_cents in 0_i64..100_000_000,
        ) {
            let original = charge(Component::Compute, dec!(10), "Hours", None, Decimal::new(cents, 2));
            let correction = with(charge(Component::Compute, dec!(0), "Hours", None, -Decimal::new(back, 2)), |l| {
                l.kind = ChargeKind::Correction;
            });
            let plan = Planned {
                component: Component::Compute,
                unit: PlannedUnit::Hours,
                quantity: dec!(10),
                unit_price: None,
                cost: Decimal::new(planned_cents, 2),
            };
            let r = run(&[plan], &[original, correction], None, dec!(10));
            let row = &r.rows[0];
            proptest::prop_assert_eq!(row.billed, Decimal::new(cents - back, 2));
            proptest::prop_assert_eq!(row.reasons.iter().map(Reason::effect).sum::<Decimal>(), row.difference);
        }
    }
}
