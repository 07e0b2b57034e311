//! One test per cost rule: nodes, hours, stopped, disk, IP, traffic, snapshots, fees, idle,
//! rounding and the per-unit figures.

use super::fixtures::{assumptions, cost, hours, run, shape, sheet, with_disks, work};
use crate::tco::{Assumptions, ComponentKind as K, Currency, Fee, NodeShape, PriceSheet, TcoWarning, estimate};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn with(sheet: &PriceSheet, a: &Assumptions, run_hours: Decimal) -> crate::tco::Estimate {
    estimate(sheet, &shape(1), &hours(run_hours, 1), a).unwrap()
}

#[test]
fn nodes_are_gpus_needed_divided_by_gpus_per_node_rounded_up() {
    let s = sheet(dec!(1));
    assert_eq!(run(&s, 8, 9, dec!(1)).nodes, 2);
    assert_eq!(run(&s, 8, 16, dec!(1)).nodes, 2);
    assert_eq!(run(&s, 8, 17, dec!(1)).nodes, 3);
    assert_eq!(run(&s, 8, 0, dec!(1)).nodes, 1, "at least one node");
    assert_eq!(run(&s, 8, 17, dec!(1)).total, dec!(3.00));
}

#[test]
fn user_node_count_overrides_and_warns_when_too_few() {
    let a = Assumptions {
        nodes: Some(1),
        ..assumptions()
    };
    let e = estimate(&sheet(dec!(1)), &shape(8), &hours(dec!(1), 16), &a).unwrap();
    assert_eq!(e.nodes, 1);
    assert!(
        e.warnings
            .contains(&TcoWarning::NodesBelowRequirement { needed: 2, chosen: 1 })
    );
}

#[test]
fn efficiency_slows_multi_node_runs_but_not_a_single_node() {
    // 57,600 units at 1 unit/s per node: 16 h on one node.
    let mut a = Assumptions {
        measured_throughput_per_s: Some(dec!(1)),
        efficiency: dec!(0.8),
        ..assumptions()
    };
    let one = estimate(&sheet(dec!(1)), &shape(1), &work(dec!(57600), 1), &a).unwrap();
    assert_eq!((one.compute_h, one.efficiency_used), (dec!(16), Some(dec!(1))));
    a.nodes = Some(2);
    let two = estimate(&sheet(dec!(1)), &shape(1), &work(dec!(57600), 1), &a).unwrap();
    assert_eq!(two.compute_h, dec!(10), "16 ÷ (2 × 0.8)");
    assert_eq!(two.total, dec!(20.00));
}

#[test]
fn busy_hours_add_overheads_and_the_rerun_share() {
    let a = Assumptions {
        setup_h: dec!(1),
        data_prep_h: dec!(2),
        download_h: dec!(0.5),
        export_h: dec!(0.25),
        idle_h: dec!(1),
        rerun_share: dec!(0.25),
        ..assumptions()
    };
    let e = with(&sheet(dec!(10)), &a, dec!(10));
    assert_eq!(e.busy_h, dec!(17.25), "4.75 overhead + 10 × 1.25");
    assert_eq!((e.billable_h, e.total), (dec!(18), dec!(180.00)));
}

#[test]
fn stopped_compute_bills_only_when_the_sheet_says_so() {
    let a = Assumptions {
        stopped_h: dec!(5),
        ..assumptions()
    };
    let off = with(&sheet(dec!(10)), &a, dec!(1));
    assert_eq!((cost(&off, &K::StoppedCompute), off.rental_h), (dec!(0.00), dec!(6)));
    let on_sheet = PriceSheet {
        stopped_bills_compute: true,
        ..sheet(dec!(10))
    };
    let on = with(&on_sheet, &a, dec!(1));
    assert_eq!((cost(&on, &K::StoppedCompute), on.total), (dec!(50.00), dec!(60.00)));
}

#[test]
fn disk_and_public_ip_bill_for_the_whole_rental_on_every_node() {
    let s = PriceSheet {
        disk_price_gb_month: dec!(0.73),
        public_ip_hourly: dec!(0.02),
        ..sheet(dec!(0))
    };
    let node = with_disks(1, dec!(100), dec!(400));
    let a = Assumptions {
        stopped_h: dec!(23),
        nodes: Some(2),
        ..assumptions()
    };
    let e = estimate(&s, &node, &hours(dec!(50), 1), &a).unwrap();
    // 500 GB × 0.73 × 73 h ÷ 730 × 2 nodes; 0.02 × 73 h × 2.
    assert_eq!(cost(&e, &K::Disk), dec!(73.00));
    assert_eq!(cost(&e, &K::PublicIp), dec!(2.92));
}

#[test]
fn free_egress_is_deducted_but_never_below_zero() {
    let s = PriceSheet {
        egress_price_gb: dec!(0.80),
        free_egress_gb: dec!(100),
        ingress_price_gb: dec!(0.5),
        ..sheet(dec!(0))
    };
    let above = with(
        &s,
        &Assumptions {
            egress_gb: dec!(150),
            ..assumptions()
        },
        dec!(1),
    );
    assert_eq!(cost(&above, &K::Traffic), dec!(40.00));
    let below = with(
        &s,
        &Assumptions {
            egress_gb: dec!(50),
            ..assumptions()
        },
        dec!(1),
    );
    assert_eq!(cost(&below, &K::Traffic), dec!(0.00));
    let both = with(
        &s,
        &Assumptions {
            egress_gb: dec!(150),
            ingress_gb: dec!(10),
            ..assumptions()
        },
        dec!(1),
    );
    let line = both.component(&K::Traffic).unwrap();
    assert_eq!(
        (line.cost, line.quantity, line.unit_price),
        (dec!(45.00), dec!(60), None)
    );
}

#[test]
fn snapshots_and_fixed_fees_are_their_own_lines() {
    let fees = vec![
        Fee {
            label: "setup".into(),
            amount: dec!(99),
        },
        Fee {
            label: "support".into(),
            amount: dec!(1.5),
        },
    ];
    let s = PriceSheet {
        snapshot_price_gb_month: dec!(0.1),
        other_fees: fees,
        ..sheet(dec!(0))
    };
    let a = Assumptions {
        snapshot_gb: dec!(200),
        snapshot_months: dec!(3),
        ..assumptions()
    };
    let e = with(&s, &a, dec!(1));
    assert_eq!(cost(&e, &K::Snapshots), dec!(60.00));
    assert_eq!(cost(&e, &K::OtherFee("setup".into())), dec!(99.00));
    assert_eq!(cost(&e, &K::OtherFee("support".into())), dec!(1.50));
    assert_eq!(e.total, dec!(160.50));
}

#[test]
fn components_round_half_away_from_zero_and_the_total_sums_rounded_lines() {
    let s = PriceSheet {
        egress_price_gb: dec!(0.005),
        snapshot_price_gb_month: dec!(0.005),
        ..sheet(dec!(0))
    };
    let a = Assumptions {
        egress_gb: dec!(1),
        snapshot_gb: dec!(1),
        snapshot_months: dec!(1),
        ..assumptions()
    };
    let e = with(&s, &a, dec!(1));
    assert_eq!(cost(&e, &K::Traffic), dec!(0.01), "0.005 → 0.01");
    assert_eq!(e.total, dec!(0.02), "sum of rounded lines, not rounded sum (0.01)");
    let banker = with(
        &PriceSheet {
            egress_price_gb: dec!(0.125),
            ..s.clone()
        },
        &a,
        dec!(1),
    );
    assert_eq!(cost(&banker, &K::Traffic), dec!(0.13), "not banker's 0.12");
    assert_eq!(Currency::USD.round(dec!(-0.005)), dec!(-0.01));
    assert_eq!(serde_json::to_value(Currency::USD.round(dec!(5))).unwrap(), "5.00");
}

#[test]
fn yen_has_no_minor_unit() {
    let s = PriceSheet {
        currency: Currency::JPY,
        ..sheet(dec!(1000.5))
    };
    let e = run(&s, 1, 1, dec!(1));
    assert_eq!(e.total, dec!(1001));
    assert_eq!(serde_json::to_value(e.total).unwrap(), "1001");
    assert_eq!(Currency::JPY.round(dec!(2.5)), dec!(3));
    assert_eq!(Currency::JPY.round(dec!(1.4)), dec!(1));
}

#[test]
fn idle_cost_is_idle_compute_share_plus_stopped_compute_disk_and_ip() {
    let s = PriceSheet {
        stopped_bills_compute: true,
        disk_price_gb_month: dec!(0.73),
        public_ip_hourly: dec!(0.1),
        ..sheet(dec!(10))
    };
    let node = NodeShape {
        system_disk_gb: dec!(100),
        ..shape(1)
    };
    let a = Assumptions {
        idle_h: dec!(2),
        stopped_h: dec!(5),
        ..assumptions()
    };
    let e = estimate(&s, &node, &hours(dec!(8), 1), &a).unwrap();
    // compute 100 × 2/10 = 20; stopped 50; disk 100 × 0.73 × 5 ÷ 730 = 0.50; IP 0.50.
    assert_eq!(e.idle_cost, dec!(71.00));
    assert!(e.idle_cost <= e.total);
}

#[test]
fn cost_per_unit_picks_a_scale_showing_at_least_a_cent() {
    let big = estimate(
        &sheet(dec!(10)),
        &shape(1),
        &hours_work(dec!(2592000), dec!(72)),
        &assumptions(),
    )
    .unwrap();
    let per = big.cost_per_unit.unwrap();
    assert_eq!(
        (per.per, per.amount, per.unit.as_str()),
        (1_000, dec!(0.2778), "tokens")
    );
    let small = estimate(
        &sheet(dec!(100)),
        &shape(1),
        &hours_work(dec!(10), dec!(1)),
        &assumptions(),
    )
    .unwrap();
    assert_eq!(small.cost_per_unit.map(|c| (c.per, c.amount)), Some((1, dec!(10))));
    let tiny = estimate(
        &sheet(dec!(1)),
        &shape(1),
        &hours_work(dec!(1000000000), dec!(1)),
        &assumptions(),
    )
    .unwrap();
    assert_eq!(
        tiny.cost_per_unit.map(|c| (c.per, c.amount)),
        Some((1_000_000, dec!(0.001)))
    );
    assert_eq!(run(&sheet(dec!(1)), 1, 1, dec!(1)).cost_per_unit, None);
}

fn hours_work(amount: Decimal, run_hours: Decimal) -> crate::tco::Demand {
    crate::tco::Demand {
        run_hours: Some(run_hours),
        ..work(amount, 1)
    }
}

#[test]
fn a_price_not_stated_is_costed_at_zero_and_flags_the_total_as_a_lower_bound() {
    use crate::tco::UnstatedPrice as P;
    let s = PriceSheet {
        not_stated: vec![P::Disk, P::Snapshot, P::Egress, P::Ingress],
        ..sheet(dec!(10.00))
    };
    // No disk, no snapshots, no traffic: nothing unknown is used, nothing to flag.
    let e = estimate(&s, &shape(1), &hours(dec!(10), 1), &assumptions()).unwrap();
    assert!(
        !e.warnings
            .iter()
            .any(|w| matches!(w, TcoWarning::PriceNotStated { .. }))
    );
    // 100 GB of disk, 50 GB of snapshots for a month, 20 GB out (10 free), 5 GB in: each
    // used price unknown is a warning, and its line costs 0.
    let a = Assumptions {
        snapshot_gb: dec!(50),
        snapshot_months: dec!(1),
        egress_gb: dec!(20),
        ingress_gb: dec!(5),
        ..assumptions()
    };
    let s = PriceSheet {
        free_egress_gb: dec!(10),
        ..s
    };
    let e = estimate(&s, &with_disks(1, dec!(100), dec!(0)), &hours(dec!(10), 1), &a).unwrap();
    let unknown: Vec<_> = e
        .warnings
        .iter()
        .filter_map(|w| match w {
            TcoWarning::PriceNotStated { price } => Some(*price),
            _ => None,
        })
        .collect();
    assert_eq!(unknown, [P::Disk, P::Snapshot, P::Egress, P::Ingress]);
    assert_eq!(cost(&e, &K::Disk), dec!(0.00));
    assert_eq!(e.total, dec!(100.00), "a lower bound: compute only");
    // Egress within the free allowance needs no price.
    let within = Assumptions {
        egress_gb: dec!(10),
        ..a
    };
    let e = estimate(&s, &shape(1), &hours(dec!(10), 1), &within).unwrap();
    assert!(!e.warnings.contains(&TcoWarning::PriceNotStated { price: P::Egress }));
    let json = serde_json::to_value(TcoWarning::PriceNotStated { price: P::Disk }).unwrap();
    assert_eq!(json, serde_json::json!({ "code": "price_not_stated", "price": "disk" }));
}

#[test]
fn stopped_hours_on_a_sheet_silent_about_stopped_compute_are_a_lower_bound() {
    use crate::tco::UnstatedPrice as P;
    let s = PriceSheet {
        not_stated: vec![P::StoppedCompute],
        ..sheet(dec!(10.00))
    };
    let unknown = TcoWarning::PriceNotStated {
        price: P::StoppedCompute,
    };
    let never_stopped = estimate(&s, &shape(1), &hours(dec!(10), 1), &assumptions()).unwrap();
    assert!(
        !never_stopped.warnings.contains(&unknown),
        "no stopped hours: the answer does not matter"
    );
    // 5 h stopped: costed as not billing (0), flagged; had the vendor said yes, 5 × 10.00.
    let stopped = Assumptions {
        stopped_h: dec!(5),
        ..assumptions()
    };
    let e = estimate(&s, &shape(1), &hours(dec!(10), 1), &stopped).unwrap();
    assert!(e.warnings.contains(&unknown));
    assert_eq!(cost(&e, &K::StoppedCompute), dec!(0.00));
    let said_yes = PriceSheet {
        stopped_bills_compute: true,
        not_stated: Vec::new(),
        ..s
    };
    let e = estimate(&said_yes, &shape(1), &hours(dec!(10), 1), &stopped).unwrap();
    assert_eq!(cost(&e, &K::StoppedCompute), dec!(50.00));
    assert!(!e.warnings.contains(&unknown));
}
