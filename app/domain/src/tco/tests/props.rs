//! Property tests (256 cases each): invariants that must hold for any valid input.

use super::fixtures::{assumptions, shape, sheet};
use crate::tco::{
    Assumptions, BillingIncrement, BreakEven, Currency, Demand, ExchangeRate, PriceBasis, PriceSheet, RunThroughput,
    billable_hours, estimate, throughput,
};
use proptest::prelude::*;
use rust_decimal::Decimal;

/// A non-negative decimal below `max_units` with up to `max_scale` digits after the point.
fn dec(max_units: i64, max_scale: u32) -> impl Strategy<Value = Decimal> {
    (0..=max_units, 0..=max_scale).prop_map(|(m, s)| Decimal::new(m, s))
}

fn increment() -> impl Strategy<Value = BillingIncrement> {
    prop_oneof![
        Just(BillingIncrement::SECOND),
        Just(BillingIncrement::MINUTE),
        Just(BillingIncrement::HOUR)
    ]
}

prop_compose! {
    fn price_sheet()(
        hourly in dec(100_000, 2), per_gpu in any::<bool>(), inc in increment(), minimum in dec(2_400, 2),
        monthly in proptest::option::of((dec(10_000_000, 2), 1u32..=12)), stopped in any::<bool>(),
        prices in proptest::array::uniform6(dec(1_000, 3)), free in dec(10_000, 0),
    ) -> PriceSheet {
        PriceSheet {
            basis: if per_gpu { PriceBasis::PerGpu } else { PriceBasis::PerNode },
            billing_increment: inc,
            minimum_billable_hours: minimum,
            monthly_price: monthly.map(|m| m.0),
            commitment_months: monthly.map(|m| m.1),
            stopped_bills_compute: stopped,
            disk_price_gb_month: prices[0],
            snapshot_price_gb_month: prices[1],
            egress_price_gb: prices[2],
            ingress_price_gb: prices[3],
            public_ip_hourly: prices[4],
            free_egress_gb: free,
            other_fees: vec![crate::tco::Fee { label: "fee".into(), amount: prices[5] }],
            ..sheet(hourly)
        }
    }
}

prop_compose! {
    fn usage()(
        hours in proptest::array::uniform6(dec(50_000, 2)), rerun in 0i64..100,
        gb in proptest::array::uniform4(dec(100_000, 1)), nodes in proptest::option::of(1u32..=4),
    ) -> Assumptions {
        Assumptions {
            setup_h: hours[0], data_prep_h: hours[1], download_h: hours[2],
            export_h: hours[3], idle_h: hours[4], stopped_h: hours[5],
            rerun_share: Decimal::new(rerun, 2),
            egress_gb: gb[0], ingress_gb: gb[1], snapshot_gb: gb[2], snapshot_months: gb[3] / Decimal::from(1000),
            nodes,
            ..assumptions()
        }
    }
}

fn workload(run_hours: Decimal, gpus: u32) -> Demand {
    Demand {
        gpu_use: None,
        gpus_needed: gpus,
        total_work: None,
        run_hours: Some(run_hours),
    }
}

proptest! {
    // No regression files: the module directory stays clean.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(256) })]

    #[test]
    fn total_is_the_sum_of_rounded_components(
        s in price_sheet(), a in usage(), run in dec(1_000_000, 3), gpus in 0u32..20, per_node in 1u32..9,
    ) {
        let e = estimate(&s, &shape(per_node), &workload(run, gpus), &a).unwrap();
        let sum: Decimal = e.components.iter().map(|c| c.cost).sum();
        prop_assert_eq!(e.total, sum);
        for c in &e.components {
            prop_assert_eq!(c.cost, Currency::CNY.round(c.cost));
        }
        prop_assert!(e.idle_cost <= e.total);
        prop_assert!(e.billable_h >= e.busy_h - Decimal::new(5, 4) / Decimal::from(3600));
    }

    #[test]
    fn more_busy_hours_never_cost_less(
        s in price_sheet(), a in usage(), run in dec(1_000_000, 3), extra in dec(100_000, 3), which in 0usize..3,
    ) {
        let before = estimate(&s, &shape(1), &workload(run, 1), &a).unwrap();
        let (mut a2, mut run2) = (a.clone(), run);
        match which {
            0 => a2.setup_h += extra,
            1 => a2.idle_h += extra,
            _ => run2 += extra,
        }
        let after = estimate(&s, &shape(1), &workload(run2, 1), &a2).unwrap();
        prop_assert!(after.busy_h >= before.busy_h);
        prop_assert!(after.total >= before.total, "{} < {}", after.total, before.total);
    }

    #[test]
    fn more_stopped_hours_never_cost_less(
        s in price_sheet(), a in usage(), run in dec(1_000_000, 3), extra in dec(100_000, 3),
    ) {
        let before = estimate(&s, &shape(1), &workload(run, 1), &a).unwrap();
        let more = Assumptions { stopped_h: a.stopped_h + extra, ..a.clone() };
        let after = estimate(&s, &shape(1), &workload(run, 1), &more).unwrap();
        prop_assert!(after.total >= before.total, "{} < {}", after.total, before.total);
    }

    #[test]
    fn planned_on_the_runs_own_node_count_reproduces_its_throughput(
        t in (1i64..10_000_000_000, 0u32..=6), n_run in 1u32..=16, e in 1i64..=100, work in 1i64..1_000_000_000,
    ) {
        let t_run = Decimal::new(t.0, t.1);
        let efficiency = Decimal::new(e, 2);
        let run = RunThroughput { per_s: t_run, nodes: n_run };
        prop_assert_eq!(throughput::planned(run, n_run, efficiency).unwrap(), t_run);
        let a = Assumptions {
            measured_throughput_per_s: Some(t_run), n_run: Some(n_run), nodes: Some(n_run), efficiency,
            ..assumptions()
        };
        let w = Demand {
            gpu_use: None,
            gpus_needed: 1,
            total_work: Some(crate::tco::TotalWork { amount: Decimal::from(work), unit: "tokens".into() }),
            run_hours: None,
        };
        let e = estimate(&sheet(Decimal::ONE), &shape(1), &w, &a).unwrap();
        prop_assert_eq!(e.planned_throughput_per_s, Some(t_run));
        // T1 on n_run nodes at e(n_run) is the run again (within rounding of the division).
        let t1 = e.one_node_throughput_per_s.unwrap();
        let back = t1 * Decimal::from(n_run) * throughput::efficiency_on(n_run, efficiency);
        prop_assert!((back - t_run).abs() <= Decimal::new(1, 20) * t_run.max(Decimal::ONE), "{back} vs {t_run}");
    }

    #[test]
    fn break_even_never_exceeds_the_terms_hours(s in price_sheet(), per_node in 1u32..9) {
        let e = estimate(&s, &shape(per_node), &workload(Decimal::ONE, 1), &assumptions()).unwrap();
        match (e.break_even, s.commitment_months) {
            (Some(BreakEven::WithinTerm { hours }), Some(term)) => {
                prop_assert!(hours <= Decimal::from(term) * Decimal::from(730));
                prop_assert!(hours >= Decimal::ZERO);
            }
            (Some(BreakEven::NeverWithinTerm), Some(_)) => {}
            (None, None) => {}
            (b, t) => prop_assert!(false, "break-even {b:?} for term {t:?}"),
        }
    }

    #[test]
    fn rounding_never_lowers_a_billable_time(inc in increment(), minimum in dec(1_000, 2), busy in dec(100_000_000, 6)) {
        let billed = billable_hours(inc, minimum, busy).unwrap();
        // Busy time is rounded to whole milliseconds first (rule 1), so billed ≥ busy within ½ ms.
        prop_assert!(billed >= busy - Decimal::new(5, 4) / Decimal::from(3600) && billed >= minimum);
        if billed > minimum {
            prop_assert!(billed - busy < inc.hours());
            let increments = billed / inc.hours();
            prop_assert!((increments - increments.round()).abs() < Decimal::new(1, 12), "whole increments");
        }
    }

    #[test]
    fn converting_there_and_back_stays_within_one_minor_unit(
        pair in (0usize..Currency::ALL.len(), 0usize..Currency::ALL.len()),
        rate in (1i64..100_000_000, 0u32..=8), amount in dec(1_000_000_000_000, 2),
    ) {
        prop_assume!(pair.0 != pair.1);
        let (from, to) = (Currency::ALL[pair.0], Currency::ALL[pair.1]);
        let r = ExchangeRate { from, to, rate: Decimal::new(rate.0, rate.1), date: "2024-06-30".into() };
        let start = from.round(amount);
        let there = r.convert(start, from).unwrap();
        let back = r.convert(there, to).unwrap();
        let coarser = from.minor_unit().max(to.minor_unit() / r.rate);
        prop_assert!((back - start).abs() <= coarser, "{start} → {there} → {back}");
    }
}

#[test]
fn usd_to_eur_and_back_is_within_a_cent() {
    let r = ExchangeRate {
        from: Currency::USD,
        to: Currency::EUR,
        rate: Decimal::new(9234, 4),
        date: "2024-06-30".into(),
    };
    for cents in [1, 5, 99, 12_345, 9_999_999] {
        let usd = Decimal::new(cents, 2);
        let back = r
            .convert(r.convert(usd, Currency::USD).unwrap(), Currency::EUR)
            .unwrap();
        assert!((back - usd).abs() <= Decimal::new(1, 2), "{usd} → {back}");
    }
}
