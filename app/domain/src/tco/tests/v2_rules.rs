//! One test per rule of cost model v2, with the figures in it.

use super::fixtures::{assumptions, hours, run, shape, sheet, what_if_36k_tokens, work};
use crate::tco::{
    Assumptions, BillingIncrement, BreakEven, ComponentKind, Currency, ExchangeRate, PriceBasis, PriceSheet, Pricing,
    Quote, QuoteGroup, RunThroughput, Scenario, billable_hours, estimate, latest_rate, run_scenario, throughput,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn billed(increment: BillingIncrement, busy_h: Decimal) -> (Decimal, Decimal) {
    let s = PriceSheet {
        billing_increment: increment,
        ..sheet(dec!(36.00))
    };
    let e = run(&s, 1, 1, busy_h);
    (e.billable_h, e.on_demand_compute.expect("on demand offered"))
}

// Rule 1 ------------------------------------------------------------------------------------

#[test]
fn rule1_two_thirds_of_an_hour_bills_2400_seconds_not_2401() {
    let two_thirds = dec!(2) / dec!(3); // 0.6666666666666666666666666667 h
    // 2400 s × 36 ÷ 3600 = 24.00 (v1: 2401 s → 24.01).
    let (h, cost) = billed(BillingIncrement::SECOND, two_thirds);
    assert_eq!((h, cost), (dec!(2400) / dec!(3600), dec!(24.00)));
    // 40 minutes, not 41 (v1: 24.60).
    assert_eq!(billed(BillingIncrement::MINUTE, two_thirds).1, dec!(24.00));
    // 3 × (2/3 h) = 2.0000000000000000000000000001 h bills 2 h, not 3.
    assert_eq!(
        billable_hours(BillingIncrement::HOUR, Decimal::ZERO, two_thirds * dec!(3)),
        Ok(dec!(2))
    );
    // Whole milliseconds are rounded half-up: 1 h + 0.0005 s bills the started second.
    let half_ms = dec!(1) + dec!(0.0005) / dec!(3600);
    assert_eq!(billed(BillingIncrement::SECOND, half_ms).1, dec!(36.01));
    // From a throughput: 2400 tokens at 1 token/s is 2/3 h of compute, billed 2400 s.
    let a = Assumptions {
        measured_throughput_per_s: Some(dec!(1)),
        ..assumptions()
    };
    let s = PriceSheet {
        billing_increment: BillingIncrement::SECOND,
        ..sheet(dec!(36.00))
    };
    let e = estimate(&s, &shape(1), &work(dec!(2400), 1), &a).unwrap();
    assert_eq!(e.total, dec!(24.00));
}

// Rule 2 ------------------------------------------------------------------------------------

#[test]
fn rule2_a_two_node_run_at_1800_per_s_planned_on_two_nodes_is_exactly_1800() {
    let run = RunThroughput {
        per_s: dec!(1800),
        nodes: 2,
    };
    for e in [dec!(0.9), dec!(0.7), dec!(1)] {
        assert_eq!(throughput::planned(run, 2, e), Ok(dec!(1800)), "e = {e}");
    }
    assert_eq!(throughput::one_node(run, dec!(0.9)), Ok(dec!(1000)));
    assert_eq!(throughput::planned(run, 1, dec!(0.9)), Ok(dec!(1000)));
    assert_eq!(throughput::planned(run, 4, dec!(0.9)), Ok(dec!(3600)));

    // 6,480,000 units on 2 nodes at 1800/s: 1 h (v1 applied e again: 0.56 h).
    let a = Assumptions {
        measured_throughput_per_s: Some(dec!(1800)),
        n_run: Some(2),
        nodes: Some(2),
        efficiency: dec!(0.9),
        ..assumptions()
    };
    let e = estimate(&sheet(dec!(10)), &shape(1), &work(dec!(6480000), 2), &a).unwrap();
    assert_eq!(e.compute_h, dec!(1));
    assert_eq!(
        (e.planned_throughput_per_s, e.one_node_throughput_per_s, e.n_run),
        (Some(dec!(1800)), Some(dec!(1000)), Some(2))
    );
    assert_eq!((e.efficiency_used, e.total), (Some(dec!(0.9)), dec!(20.00)));
    // The same run planned on one node: 1000/s, 1.8 h, billed 2 h.
    let one = Assumptions {
        nodes: Some(1),
        ..a.clone()
    };
    let e = estimate(&sheet(dec!(10)), &shape(1), &work(dec!(6480000), 1), &one).unwrap();
    assert_eq!((e.compute_h, e.efficiency_used), (dec!(1.8), Some(dec!(1))));
    // Without n_run the throughput is for one node (old scenario files).
    let old = Assumptions { n_run: None, ..a };
    let e = estimate(&sheet(dec!(10)), &shape(1), &work(dec!(6480000), 2), &old).unwrap();
    assert_eq!(e.planned_throughput_per_s, Some(dec!(3240)));
}

// Rule 3 ------------------------------------------------------------------------------------

fn monthly(term: u32, stopped_bills: bool) -> PriceSheet {
    PriceSheet {
        monthly_price: Some(dec!(5000)),
        commitment_months: Some(term),
        stopped_bills_compute: stopped_bills,
        ..sheet(dec!(10.00))
    }
}

fn with_stopped(s: &PriceSheet, busy: Decimal, stopped: Decimal) -> crate::tco::Estimate {
    let a = Assumptions {
        stopped_h: stopped,
        ..assumptions()
    };
    estimate(s, &shape(1), &hours(busy, 1), &a).unwrap()
}

#[test]
fn rule3_the_commitment_covers_stopped_hours_and_its_unused_hours_are_idle() {
    // 400 h busy + 200 h stopped (billed on demand): on demand 4000 + 2000 = 6000; the
    // commitment covers the 600 rented hours in 1 month: 5000, stopped costs nothing extra.
    let e = with_stopped(&monthly(1, true), dec!(400), dec!(200));
    assert_eq!(
        (e.pricing_used, e.on_demand_compute, e.monthly_compute),
        (Pricing::Monthly, Some(dec!(6000.00)), Some(dec!(5000.00)))
    );
    assert_eq!(e.total, dec!(5000.00));
    let stopped = e.component(&ComponentKind::StoppedCompute).unwrap();
    assert_eq!((stopped.quantity, stopped.cost), (dec!(200), dec!(0.00)));
    // 730 − 600 = 130 h paid but unused; idle = (200 + 130) h × 5000 ÷ 730 = 2260.27.
    assert_eq!(e.unused_commitment_h, Some(dec!(130)));
    assert_eq!(e.idle_cost, dec!(2260.27));

    // 700 h busy + 100 h stopped = 800 h rented → 2 months = 10000 > 7000 + 1000 on demand.
    // (v1 counted busy hours only: 1 month, 5000, and billed the stopped hours on top.)
    let e = with_stopped(&monthly(1, true), dec!(700), dec!(100));
    assert_eq!(
        (e.pricing_used, e.monthly_compute, e.total),
        (Pricing::OnDemand, Some(dec!(10000.00)), dec!(8000.00))
    );
    assert_eq!(e.unused_commitment_h, None);

    // Stopped compute not billed: on demand 6000; 700 h rented → 1 month 5000; 30 h unused.
    let e = with_stopped(&monthly(1, false), dec!(600), dec!(100));
    assert_eq!((e.pricing_used, e.total), (Pricing::Monthly, dec!(5000.00)));
    // (100 + 30) × 5000 ÷ 730 = 890.41.
    assert_eq!((e.unused_commitment_h, e.idle_cost), (Some(dec!(30)), dec!(890.41)));

    // A tie goes to on demand: 500 h busy on a 1-month term, 5000 either way.
    let e = with_stopped(&monthly(1, false), dec!(500), dec!(0));
    assert_eq!(e.pricing_used, Pricing::OnDemand);
}

// Rule 4 ------------------------------------------------------------------------------------

#[test]
fn rule4_break_even_of_a_3_month_term_at_5000_and_10_per_hour_is_1500_hours() {
    let e = with_stopped(&monthly(3, false), dec!(1499), dec!(0));
    assert_eq!(e.break_even, Some(BreakEven::WithinTerm { hours: dec!(1500) }));
    // Either side of it: 14990 on demand < 15000; 15010 > 15000.
    assert_eq!((e.pricing_used, e.total), (Pricing::OnDemand, dec!(14990.00)));
    let after = with_stopped(&monthly(3, false), dec!(1501), dec!(0));
    assert_eq!((after.pricing_used, after.total), (Pricing::Monthly, dec!(15000.00)));
    // 5000 a month at 5/h: 1000 h > 730 h of a month — never within the term.
    let cheap = PriceSheet {
        on_demand_hourly: Some(dec!(5)),
        ..monthly(1, false)
    };
    assert_eq!(run(&cheap, 1, 1, dec!(10)).break_even, Some(BreakEven::NeverWithinTerm));
    let free = PriceSheet {
        on_demand_hourly: Some(dec!(0)),
        ..monthly(1, false)
    };
    assert_eq!(run(&free, 1, 1, dec!(10)).break_even, Some(BreakEven::NeverWithinTerm));
    assert_eq!(run(&sheet(dec!(10)), 1, 1, dec!(10)).break_even, None);
    // Serialised as a tagged value, never a bare number.
    let json = serde_json::to_value(BreakEven::WithinTerm { hours: dec!(1500) }).unwrap();
    assert_eq!(json, serde_json::json!({ "kind": "within_term", "hours": "1500" }));
    let json = serde_json::to_value(BreakEven::NeverWithinTerm).unwrap();
    assert_eq!(json, serde_json::json!({ "kind": "never_within_term" }));
}

/// 2.00 per GPU-hour and 1,200 per GPU-month (1-month term) on an 8-GPU node, the monthly
/// price on `monthly_basis`.
fn per_gpu_month(monthly_basis: Option<PriceBasis>) -> PriceSheet {
    PriceSheet {
        basis: PriceBasis::PerGpu,
        monthly_price: Some(dec!(1200)),
        monthly_basis,
        commitment_months: Some(1),
        ..sheet(dec!(2.00))
    }
}

#[test]
fn a_per_gpu_monthly_price_is_multiplied_by_the_gpus_of_the_node() {
    // 1,200 per GPU-month × 8 GPUs = 9,600 per node-month; on demand 2.00 × 8 = 16.00 per
    // node-hour, so the break-even is 9,600 ÷ 16 = 600 h (read per node it was 75 h).
    let s = per_gpu_month(Some(PriceBasis::PerGpu));
    assert_eq!(s.monthly_per_node(8), Some(dec!(9600)));
    let short = run(&s, 8, 8, dec!(100));
    assert_eq!(short.node_hourly, Some(dec!(16.00)));
    assert_eq!(short.break_even, Some(BreakEven::WithinTerm { hours: dec!(600) }));
    // 100 h: 1,600 on demand < 9,600 a month.
    assert_eq!((short.pricing_used, short.total), (Pricing::OnDemand, dec!(1600.00)));
    assert_eq!(short.monthly_compute, Some(dec!(9600.00)));
    // 700 h: 11,200 on demand > 9,600 a month, one node-month at 9,600.
    let long = run(&s, 8, 8, dec!(700));
    assert_eq!((long.pricing_used, long.total), (Pricing::Monthly, dec!(9600.00)));
    let line = long.component(&ComponentKind::MonthlyCommitment).unwrap();
    assert_eq!((line.quantity, line.unit_price), (dec!(1), Some(dec!(9600))));
    // A per-node monthly price on a per-GPU hourly basis is taken as it is.
    let per_node = run(&per_gpu_month(Some(PriceBasis::PerNode)), 8, 8, dec!(100));
    assert_eq!(per_node.break_even, Some(BreakEven::WithinTerm { hours: dec!(75) }));
}

#[test]
fn a_sheet_without_a_monthly_basis_keeps_reading_its_monthly_price_per_node() {
    // Quotes and scenario files written before `monthly_basis` existed read the monthly price
    // per node whatever `basis` said; they keep that meaning, and serialise as they were.
    let old = per_gpu_month(None);
    assert_eq!(old.monthly_per_node(8), Some(dec!(1200)));
    let e = run(&old, 8, 8, dec!(100));
    assert_eq!(e.break_even, Some(BreakEven::WithinTerm { hours: dec!(75) }));
    assert_eq!((e.pricing_used, e.total), (Pricing::Monthly, dec!(1200.00)));
    let json = serde_json::to_value(&old).unwrap();
    assert!(json.get("monthly_basis").is_none(), "{json}");
    let new = serde_json::to_value(per_gpu_month(Some(PriceBasis::PerGpu))).unwrap();
    assert_eq!(new["monthly_basis"], "per_gpu");
}

// Rule 5 ------------------------------------------------------------------------------------

fn t(per_s: Decimal, nodes: u32) -> RunThroughput {
    RunThroughput { per_s, nodes }
}

#[test]
fn rule5_the_median_run_sets_the_throughput_and_the_slowest_the_what_if() {
    // Odd count: 2000, 900, 1000 → the middle run (1000/s, index 2) exactly; slowest 900/s.
    let runs = [t(dec!(2000), 1), t(dec!(900), 1), t(dec!(1000), 1)];
    let r = throughput::from_runs(&runs, dec!(0.9)).unwrap().unwrap();
    assert_eq!((r.expected, r.expected_runs), (t(dec!(1000), 1), vec![2]));
    assert_eq!((r.slowest, r.slowest_run), (t(dec!(900), 1), 1));
    // Even count: 900, 1000, 1200, 2000 → (1000 + 1200) ÷ 2 = 1100/s.
    let runs = [t(dec!(900), 1), t(dec!(2000), 1), t(dec!(1200), 1), t(dec!(1000), 1)];
    let r = throughput::from_runs(&runs, dec!(0.9)).unwrap().unwrap();
    assert_eq!((r.expected, r.expected_runs), (t(dec!(1100), 1), vec![3, 2]));
    // Mixed node counts compare one-node T1: 1800/s on 2 nodes at e 0.9 is T1 = 1000/s.
    let runs = [t(dec!(1800), 2), t(dec!(1200), 1)];
    let r = throughput::from_runs(&runs, dec!(0.9)).unwrap().unwrap();
    assert_eq!(r.expected, t(dec!(1100), 1));
    assert_eq!(r.slowest, t(dec!(1800), 2));
    // Both middle runs on 2 nodes: the mean stays on 2 nodes, exact: (1800 + 2000) ÷ 2.
    let runs = [t(dec!(1800), 2), t(dec!(2000), 2)];
    let r = throughput::from_runs(&runs, dec!(0.9)).unwrap().unwrap();
    assert_eq!(r.expected, t(dec!(1900), 2));
    assert_eq!(throughput::from_runs(&[], dec!(0.9)), Ok(None));

    // The what-if runs the slowest valid run: 36,000 tokens at 10/s (1 h) vs 5/s (2 h).
    let w = what_if_36k_tokens(dec!(10), Some(t(dec!(5), 1)));
    assert_eq!(w.expected.total, dec!(10.00));
    let slowest = w.slowest_run.unwrap();
    assert_eq!((slowest.compute_h, slowest.total), (dec!(2), dec!(20.00)));
}

// Rule 6 ------------------------------------------------------------------------------------

#[test]
fn rule6_a_quote_without_a_run_ranks_in_the_estimated_group_below_measured_ones() {
    let measured = Quote {
        id: "m".into(),
        label: "Measured 1×GPU".into(),
        price_sheet: sheet(dec!(10.00)),
        node_shape: shape(1),
        measured_throughput_per_s: Some(dec!(10)),
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    };
    let estimated = Quote {
        id: "e".into(),
        label: "Estimated 1×GPU".into(),
        price_sheet: sheet(dec!(1.00)),
        measured_throughput_per_s: None,
        ..measured.clone()
    };
    let mut workload = work(dec!(2592000), 1);
    workload.run_hours = Some(dec!(72));
    let s = Scenario {
        title: None,
        workload,
        assumptions: assumptions(),
        quotes: vec![estimated, measured],
        compare_currency: None,
        exchange_rates: Vec::new(),
    };
    let r = run_scenario(&s).unwrap();
    let got: Vec<_> = r
        .quotes
        .iter()
        .map(|q| (q.rank, q.id.as_str(), q.group, q.compared_total))
        .collect();
    // 72.00 is cheaper than 720.00, but estimated ranks after every measured quote.
    assert_eq!(
        got,
        vec![
            (1, "m", QuoteGroup::Measured, dec!(720.00)),
            (2, "e", QuoteGroup::Estimated, dec!(72.00)),
        ]
    );
}

#[test]
fn rule6_a_throughput_typed_by_hand_ranks_as_stated_after_measured_and_before_estimated() {
    let measured = Quote {
        id: "m".into(),
        label: "Measured".into(),
        price_sheet: sheet(dec!(10.00)),
        node_shape: shape(1),
        measured_throughput_per_s: Some(dec!(10)),
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    };
    // A vendor's brochure says 20/s: 36 h at 10.00 = 360.00, cheaper than the measured 720.00.
    let stated = Quote {
        id: "s".into(),
        label: "Brochure".into(),
        measured_throughput_per_s: Some(dec!(20)),
        throughput_stated: true,
        ..measured.clone()
    };
    let estimated = Quote {
        id: "e".into(),
        label: "Estimated".into(),
        price_sheet: sheet(dec!(1.00)),
        measured_throughput_per_s: None,
        ..measured.clone()
    };
    let mut workload = work(dec!(2592000), 1);
    workload.run_hours = Some(dec!(72));
    let s = Scenario {
        title: None,
        workload,
        assumptions: assumptions(),
        quotes: vec![estimated, stated, measured],
        compare_currency: None,
        exchange_rates: Vec::new(),
    };
    let r = run_scenario(&s).unwrap();
    let got: Vec<_> = r
        .quotes
        .iter()
        .map(|q| (q.rank, q.id.as_str(), q.group, q.compared_total))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "m", QuoteGroup::Measured, dec!(720.00)),
            (2, "s", QuoteGroup::Stated, dec!(360.00)),
            (3, "e", QuoteGroup::Estimated, dec!(72.00)),
        ]
    );
    assert_eq!(serde_json::to_value(QuoteGroup::Stated).unwrap(), "stated");
    // Written only when true, so scenario files of measured quotes are unchanged.
    let json = serde_json::to_value(&s.quotes[2]).unwrap();
    assert!(json.get("throughput_stated").is_none(), "{json}");
    assert_eq!(serde_json::to_value(&s.quotes[1]).unwrap()["throughput_stated"], true);
}

// Rule 7 ------------------------------------------------------------------------------------

#[test]
fn rule7_the_latest_rate_of_a_pair_in_either_direction_converts() {
    let rate = |from, to, rate, date: &str| ExchangeRate {
        from,
        to,
        rate,
        date: date.into(),
    };
    let rates = [
        rate(Currency::USD, Currency::CNY, dec!(7.10), "2026-11-01"),
        rate(Currency::CNY, Currency::USD, dec!(0.14), "2026-11-20"),
        rate(Currency::EUR, Currency::CNY, dec!(7.80), "2026-11-30"),
    ];
    let latest = latest_rate(&rates, Currency::USD, Currency::CNY).unwrap();
    assert_eq!(latest.date, "2026-11-20", "the inverse rate is newer");
    // A 100.00 USD budget is 100 ÷ 0.14 = 714.29 CNY.
    assert_eq!(latest.convert(dec!(100.00), Currency::USD), Ok(dec!(714.29)));
    assert!(latest_rate(&rates, Currency::JPY, Currency::CNY).is_none());
    assert!(latest_rate(&rates, Currency::CNY, Currency::CNY).is_none());
    // Same date: the direct rate wins, as for totals.
    let tie = [
        rate(Currency::CNY, Currency::USD, dec!(0.14), "2026-11-20"),
        rate(Currency::USD, Currency::CNY, dec!(7.20), "2026-11-20"),
    ];
    assert_eq!(
        latest_rate(&tie, Currency::USD, Currency::CNY).unwrap().rate,
        dec!(7.20)
    );
}
