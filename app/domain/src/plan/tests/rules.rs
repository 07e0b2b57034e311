//! One test per rule: reasons (late, over budget, at risk, capacity, dominated, costlier),
//! lead time, GPU use, efficiency from runs, pricings, estimated quotes and input errors.

use super::fixtures::{all, on_demand, quote, run, scenario, supply};
use crate::plan::{
    EfficiencySource, LossReason, NoPlan, Pessimism, PlanKey, PlanScenario, RunFigure, Unstated, VendorQuestion, plan,
};
use crate::rentals::Instant;
use crate::runs::GpuUse;
use crate::tco::Pricing;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

/// 36,000 tokens (1 h at 10 tokens/s) over the given quotes, efficiency 1, one node each.
fn small(quotes: Vec<crate::tco::Quote>) -> PlanScenario {
    let ids: Vec<String> = quotes.iter().map(|q| q.id.clone()).collect();
    let mut s = scenario(dec!(36000), Decimal::ONE, quotes);
    s.plan.quotes = ids.iter().map(|id| supply(id, Some(1), Some(dec!(0)))).collect();
    s
}

fn reasons_of(r: &crate::plan::PlanResult, key: &PlanKey) -> Vec<LossReason> {
    all(r).find(|p| &p.key() == key).expect("planned").reasons.clone()
}

#[test]
fn a_plan_over_budget_loses_by_how_much() {
    // Rule: a plan whose compared total is over the budget is not a candidate; its reason
    // says by how much.
    let mut s = small(vec![
        quote("cheap", dec!(10), 1, dec!(10)),
        quote("dear", dec!(30), 1, dec!(20)),
    ]);
    s.plan.budget = Some(dec!(12));
    let r = run(&s);
    assert_eq!(
        r.recommended.as_ref().map(|x| x.plan.key()),
        Some(on_demand("cheap", 1))
    );
    // dear: 0.5 h billed as 1 h at 30 = 30.00, 18.00 over.
    assert_eq!(
        reasons_of(&r, &on_demand("dear", 1)),
        vec![LossReason::OverBudget { by: dec!(18.00) }]
    );
    assert_eq!(r.fastest_within_budget, Some(on_demand("cheap", 1)));
}

#[test]
fn nothing_in_time_or_nothing_within_budget_recommends_nothing_and_says_which() {
    // Rule: no candidate, no recommendation; `no_plan` tells late from over budget from both.
    let mut s = small(vec![
        quote("cheap", dec!(10), 1, dec!(10)),
        quote("dear", dec!(30), 1, dec!(20)),
    ]);
    s.plan.deadline_h = Some(dec!(0.25));
    assert_eq!(run(&s).no_plan, Some(NoPlan::NoneInTime));
    s.plan.deadline_h = None;
    s.plan.budget = Some(dec!(5));
    assert_eq!(run(&s).no_plan, Some(NoPlan::NoneWithinBudget));
    // cheap is in budget but late (1 h), dear in time (0.5 h) but over budget.
    s.plan.deadline_h = Some(dec!(0.75));
    s.plan.budget = Some(dec!(10));
    let r = run(&s);
    assert_eq!(
        (r.recommended.is_none(), r.no_plan),
        (true, Some(NoPlan::NoneInTimeAndBudget))
    );
    assert_eq!(
        reasons_of(&r, &on_demand("cheap", 1)),
        vec![
            LossReason::Late { by_s: 900 },
            LossReason::CapacityReached { capacity: 1 }
        ]
    );
}

#[test]
fn a_plan_no_dearer_and_no_later_dominates() {
    // Rule: A dominates B when A costs no more and finishes no later, one strictly; B is off
    // the front and names A.
    let r = run(&small(vec![
        quote("good", dec!(10), 1, dec!(10)),
        quote("worse", dec!(12), 1, dec!(10)),
    ]));
    assert_eq!(
        r.front.iter().map(crate::plan::Plan::key).collect::<Vec<_>>(),
        vec![on_demand("good", 1)]
    );
    assert_eq!(
        reasons_of(&r, &on_demand("worse", 1)),
        vec![LossReason::Dominated {
            by: on_demand("good", 1)
        }]
    );
}

#[test]
fn a_cheaper_plan_at_risk_loses_to_a_safe_one() {
    // Rule: the recommendation is not at risk when a safe candidate exists; the cheaper plan
    // whose slowest valid run would miss the deadline says so.
    let mut s = small(vec![
        quote("risky", dec!(10), 1, dec!(10)),
        quote("safe", dec!(12), 1, dec!(10)),
    ]);
    s.plan.deadline_h = Some(dec!(1.5));
    // risky: runs at 10, 10 and 5 tokens/s: expected 1 h, slowest 2 h (0.5 h after the deadline).
    s.plan.quotes[0].runs = [dec!(10), dec!(10), dec!(5)]
        .map(|per_s| RunFigure { per_s, nodes: 1 })
        .to_vec();
    let r = run(&s);
    let rec = r.recommended.expect("safe is in time");
    assert_eq!(rec.plan.key(), on_demand("safe", 1));
    let risky = rec.cheapest.expect("risky is cheaper");
    assert!(risky.at_risk && !risky.late);
    assert_eq!(risky.pessimistic_finish_s, 7200);
    assert_eq!(risky.reasons, vec![LossReason::AtRisk { by_s: 1800 }]);
    assert_eq!(r.cheapest_in_time, Some(on_demand("risky", 1)), "in time, risk aside");
    // With every candidate at risk, the cheapest is recommended, marked at risk.
    s.plan.quotes[1].runs = s.plan.quotes[0].runs.clone();
    let rec = run(&s).recommended.expect("in time");
    assert_eq!((rec.plan.key(), rec.plan.at_risk), (on_demand("risky", 1), true));
}

#[test]
fn the_lead_time_delays_the_finish_and_its_date() {
    // Rule: finish = lead time + busy hours; days count 24 h; the date is the start + finish.
    let mut s = small(vec![quote("a", dec!(10), 1, dec!(10))]);
    s.plan.quotes[0].lead_time_h = None;
    s.plan.quotes[0].lead_time_days = Some(dec!(1.5));
    s.plan.earliest_start = Instant::parse("2026-12-01T08:00:00Z");
    s.plan.deadline_at = Instant::parse("2026-12-02T21:00:00Z");
    let r = run(&s);
    assert_eq!(r.deadline_s, Some(37 * 3600));
    let p = &r.recommended.expect("finishing at the deadline is in time").plan;
    assert_eq!((p.lead_time_h, p.finish_s), (dec!(36), 37 * 3600));
    assert_eq!(p.finish_at, Instant::parse("2026-12-02T21:00:00Z"));
    assert_eq!(r.quotes[0].questions, Vec::<VendorQuestion>::new());
    // One second earlier it is late by one second.
    s.plan.deadline_at = Instant::parse("2026-12-02T20:59:59Z");
    let r = run(&s);
    assert_eq!(r.no_plan, Some(NoPlan::NoneInTime));
    assert_eq!(reasons_of(&r, &on_demand("a", 1))[0], LossReason::Late { by_s: 1 });
}

#[test]
fn one_task_per_gpu_scales_linearly_one_job_uses_the_efficiency() {
    // Rule: one task per GPU has efficiency 1 on any node count; one job across nodes uses the
    // stated efficiency (here 0.5: two nodes are no faster than one).
    let mut s = scenario(dec!(72000), dec!(0.5), vec![quote("a", dec!(10), 1, dec!(10))]);
    s.plan.max_nodes = Some(2);
    let two = |s: &PlanScenario| {
        let r = run(s);
        let p = all(&r).find(|p| p.nodes == 2).expect("planned").clone();
        (p.efficiency, p.finish_s, r.quotes[0].efficiency_source)
    };
    assert_eq!(two(&s), (dec!(0.5), 7200, EfficiencySource::Assumption));
    s.plan.gpu_use = GpuUse::TaskPerGpu;
    assert_eq!(two(&s), (dec!(1), 3600, EfficiencySource::TaskPerGpu));
}

#[test]
fn runs_on_one_and_on_several_nodes_measure_the_efficiency() {
    // Rule: with one-node and multi-node runs, efficiency = median of T_run ÷ (n_run × T1),
    // in place of the stated one; the median run sets the expected throughput.
    let mut s = scenario(dec!(72000), dec!(0.5), vec![quote("a", dec!(10), 1, dec!(1))]);
    s.plan.max_nodes = Some(4);
    s.plan.quotes = vec![supply("a", None, None)];
    s.plan.quotes[0].runs = vec![
        RunFigure {
            per_s: dec!(10),
            nodes: 1,
        },
        RunFigure {
            per_s: dec!(18),
            nodes: 2,
        },
        RunFigure {
            per_s: dec!(36),
            nodes: 4,
        },
    ];
    let r = run(&s);
    assert_eq!(r.quotes[0].efficiency_source, EfficiencySource::Runs);
    assert_eq!(r.quotes[0].efficiency, dec!(0.9));
    let four = all(&r).find(|p| p.nodes == 4).expect("planned");
    // 72,000 ÷ (10 × 4 × 0.9) = 2000 s.
    assert_eq!(four.finish_s, 2000);
}

#[test]
fn each_node_count_is_priced_on_demand_and_under_the_commitment() {
    // Rule: both pricings are planned when the sheet offers a commitment, each forced; the
    // dearer one at the same finish is dominated by the cheaper.
    let mut q = quote("a", dec!(10), 1, dec!(10));
    q.price_sheet.monthly_price = Some(dec!(5000));
    q.price_sheet.commitment_months = Some(1);
    let mut s = small(vec![q]);
    s.plan.quotes[0].capacity_nodes = Some(2);
    let r = run(&s);
    assert!(r.quotes[0].monthly_offered);
    let mut priced: Vec<_> = all(&r).map(|p| (p.nodes, p.pricing, p.compared_total)).collect();
    priced.sort_by_key(|x| (x.0, x.1 == Pricing::Monthly));
    assert_eq!(
        priced,
        vec![
            (1, Pricing::OnDemand, dec!(10.00)),
            (1, Pricing::Monthly, dec!(5000.00)),
            (2, Pricing::OnDemand, dec!(20.00)),
            (2, Pricing::Monthly, dec!(10000.00)),
        ]
    );
    let monthly = PlanKey {
        quote_id: "a".into(),
        nodes: 1,
        pricing: Pricing::Monthly,
    };
    assert_eq!(
        reasons_of(&r, &monthly),
        vec![LossReason::Dominated { by: on_demand("a", 1) }]
    );
}

#[test]
fn an_estimated_quote_scales_its_run_length_and_its_pessimistic_finish_is_longer() {
    // Rule: a stated run length is the run on the nodes the workload needs, scaled by the
    // efficiency on other counts; the pessimistic finish is the run length × 1.3.
    let mut s = scenario(dec!(1), Decimal::ONE, vec![quote("a", dec!(10), 1, dec!(1))]);
    s.scenario.quotes[0].measured_throughput_per_s = None;
    s.scenario.workload.total_work = None;
    s.scenario.workload.run_hours = Some(dec!(72));
    s.plan.max_nodes = Some(2);
    let r = run(&s);
    assert_eq!(r.quotes[0].pessimism, Pessimism::LongerRun { multiplier: dec!(1.3) });
    let mut f: Vec<_> = all(&r).map(|p| (p.nodes, p.finish_s, p.pessimistic_finish_s)).collect();
    f.sort_unstable();
    // 93.6 h = 336,960 s; on two nodes half of each.
    assert_eq!(f, vec![(1, 259_200, 336_960), (2, 129_600, 168_480)]);
}

#[test]
fn a_vendor_without_enough_nodes_for_one_job_gets_no_plan() {
    // Rule: node counts start at ⌈GPUs needed ÷ GPUs per node⌉; a capacity below that plans
    // nothing and says so.
    let mut s = small(vec![quote("a", dec!(10), 1, dec!(10))]);
    s.scenario.workload.gpus_needed = 2;
    let r = run(&s);
    assert!(r.quotes[0].too_few_nodes);
    assert_eq!((r.quotes[0].min_nodes, r.quotes[0].max_nodes), (2, 1));
    assert_eq!(r.no_plan, Some(NoPlan::NoQuotePlanned));
}

#[test]
fn bad_input_names_the_field() {
    // Rule: invalid input is an error naming the field (and the quote), never a guess.
    let base = small(vec![quote("a", dec!(10), 1, dec!(10))]);
    let field = |f: &dyn Fn(&mut PlanScenario)| {
        let mut s = base.clone();
        f(&mut s);
        let e = plan(&s).expect_err("rejected");
        (e.field, e.reason.code(), e.quote)
    };
    assert_eq!(
        field(&|s| {
            s.plan.deadline_h = Some(dec!(1));
            s.plan.deadline_at = Instant::parse("2026-12-01T00:00:00Z");
        }),
        ("plan.deadline_at", "out_of_range", None)
    );
    assert_eq!(
        field(&|s| s.plan.deadline_at = Instant::parse("2026-12-01T00:00:00Z")),
        ("plan.earliest_start", "missing", None)
    );
    assert_eq!(
        field(&|s| s.plan.quotes[0].id = "nope".into()),
        ("plan.quotes.id", "out_of_range", Some("nope".into()))
    );
    assert_eq!(
        field(&|s| s.plan.quotes[0].capacity_nodes = Some(0)),
        ("plan.quotes.capacity_nodes", "not_positive", Some("a".into()))
    );
    assert_eq!(
        field(&|s| s.plan.quotes[0].lead_time_days = Some(dec!(1))),
        ("plan.quotes.lead_time_days", "out_of_range", Some("a".into()))
    );
    assert_eq!(
        field(&|s| s.plan.max_nodes = Some(65)),
        ("plan.max_nodes", "out_of_range", None)
    );
    assert_eq!(
        field(&|s| s.plan.budget = Some(dec!(-1))),
        ("plan.budget", "negative", None)
    );
}

/// A vendor who states less does not win by it: "silent" states neither capacity nor lead time
/// and is cheaper; "honest" states 4 nodes ready in 24 h. With a deadline honest meets, honest
/// is recommended and every silent plan says it rests on what was not stated; when only silent
/// meets the deadline, it is recommended and says so.
#[test]
fn a_plan_on_unstated_capacity_or_lead_time_is_recommended_only_when_no_stated_plan_meets_the_goal() {
    let mut s = scenario(
        dec!(36000),
        Decimal::ONE,
        vec![
            quote("silent", dec!(8), 1, dec!(10)),
            quote("honest", dec!(10), 1, dec!(10)),
        ],
    );
    s.plan.quotes = vec![supply("honest", Some(4), Some(dec!(24)))];
    s.plan.max_nodes = Some(2);
    s.plan.deadline_h = Some(dec!(48));
    let r = run(&s);
    let rec = r.recommended.as_ref().expect("a plan");
    assert_eq!(rec.plan.key(), on_demand("honest", 1));
    assert!(rec.plan.rests_on.is_empty());
    let silent = all(&r).find(|p| p.key() == on_demand("silent", 1)).expect("planned");
    assert_eq!(silent.rests_on, [Unstated::Capacity, Unstated::LeadTime]);
    assert_eq!(
        silent.reasons,
        vec![LossReason::RestsOnUnstated {
            what: vec![Unstated::Capacity, Unstated::LeadTime]
        }],
        "cheaper, in time, but resting on what the vendor has not said"
    );
    s.plan.deadline_h = Some(dec!(12));
    let r = run(&s);
    let rec = r.recommended.as_ref().expect("a plan");
    assert_eq!(
        rec.plan.key(),
        on_demand("silent", 1),
        "honest's lead time alone misses 12 h"
    );
    assert_eq!(rec.plan.rests_on, [Unstated::Capacity, Unstated::LeadTime]);
}

/// One job across GPUs measured on 1 and 2 nodes: a plan on 4 nodes is estimated beyond what was
/// measured, and is not recommended while a measured node count meets the goal.
#[test]
fn a_plan_beyond_the_nodes_measured_is_marked_and_ranked_after_measured_plans() {
    let mut s = scenario(dec!(72000), dec!(0.9), vec![quote("q", dec!(10), 1, dec!(10))]);
    s.plan.gpu_use = GpuUse::OneJob;
    s.plan.max_nodes = Some(4);
    s.plan.quotes = vec![crate::plan::QuoteSupply {
        runs: vec![
            RunFigure {
                per_s: dec!(10),
                nodes: 1,
            },
            RunFigure {
                per_s: dec!(19),
                nodes: 2,
            },
        ],
        ..supply("q", Some(8), Some(dec!(0)))
    }];
    let r = run(&s);
    let four = all(&r).find(|p| p.key() == on_demand("q", 4)).expect("planned");
    assert_eq!(four.rests_on, [Unstated::BeyondMeasured { measured_nodes: 2 }]);
    let two = all(&r).find(|p| p.key() == on_demand("q", 2)).expect("planned");
    assert!(two.rests_on.is_empty());
    let rec = r.recommended.as_ref().expect("a plan");
    assert!(
        rec.plan.nodes <= 2,
        "a measured node count meets the goal: {:?}",
        rec.plan.key()
    );
}

/// Runs on 1, 2 and 4 nodes (10, 19 and 32/s: 0.95 and 0.8): the plan on 3 nodes uses the
/// efficiency between them, 0.875, and rests on what was measured; 5 nodes are beyond it.
#[test]
fn a_plan_between_measured_node_counts_interpolates_the_efficiency() {
    let mut s = scenario(dec!(72000), dec!(0.9), vec![quote("q", dec!(10), 1, dec!(10))]);
    s.plan.gpu_use = GpuUse::OneJob;
    s.plan.max_nodes = Some(5);
    let figure = |per_s, nodes| RunFigure { per_s, nodes };
    s.plan.quotes = vec![crate::plan::QuoteSupply {
        runs: vec![figure(dec!(10), 1), figure(dec!(19), 2), figure(dec!(32), 4)],
        ..supply("q", Some(8), Some(dec!(0)))
    }];
    let r = run(&s);
    let at = |n| all(&r).find(|p| p.key() == on_demand("q", n)).expect("planned").clone();
    assert_eq!(
        (at(2).efficiency, at(3).efficiency, at(4).efficiency),
        (dec!(0.95), dec!(0.875), dec!(0.8))
    );
    assert!(at(3).rests_on.is_empty() && at(4).rests_on.is_empty());
    assert_eq!(at(5).rests_on, [Unstated::BeyondMeasured { measured_nodes: 4 }]);
    assert_eq!(
        at(5).efficiency,
        dec!(0.8),
        "the largest count's figure, flagged as an estimate"
    );
}

/// Rule "many quotes": past 200 quotes only the 200 cheapest by one estimate each are weighed,
/// the result says 200 of how many, and the cheapest quote still wins.
#[test]
fn past_200_quotes_the_200_cheapest_are_weighed_and_the_result_says_so() {
    // 250 one-GPU quotes at 10 tokens/s, priced 5.00, 5.01, … 7.49 an hour, listed dearest first.
    let r = run(&small(priced(250).into_iter().rev().collect()));
    let weighed = r.weighed.expect("the cap applies");
    assert_eq!((weighed.weighed, weighed.of), (200, 250));
    assert_eq!(r.quotes.len(), 200);
    assert!(
        r.quotes.iter().all(|q| q.id.as_str() < "q200"),
        "the 50 dearest are left out"
    );
    assert_eq!(r.recommended.as_ref().map(|x| x.plan.quote_id.as_str()), Some("q000"));
    // At 200 or fewer, every quote is weighed and the result says nothing.
    assert_eq!(run(&small(priced(200))).weighed, None);
}

/// `n` one-GPU quotes `q000`, `q001`, … at 10 tokens/s, priced 5.00, 5.01, … an hour.
fn priced(n: u32) -> Vec<crate::tco::Quote> {
    (0..n)
        .map(|i| {
            quote(
                &format!("q{i:03}"),
                dec!(5.00) + Decimal::new(i64::from(i), 2),
                1,
                dec!(10),
            )
        })
        .collect()
}
