//! Property tests (128 cases each): invariants of the front and the choice for any valid input.

use super::fixtures::{all, quote, run, scenario, supply};
use crate::plan::{PlanScenario, dominates};
use proptest::prelude::*;
use rust_decimal::Decimal;

prop_compose! {
    /// A quote: hourly price, GPUs per node, throughput, an optional monthly price, capacity
    /// and lead time.
    fn quote_input()(
        hourly in 1i64..5000, gpus in 1u32..=8, per_s in 1i64..2000,
        monthly in proptest::option::of(1i64..2_000_000), capacity in proptest::option::of(1u32..=6),
        lead in proptest::option::of(0i64..100),
    ) -> QuoteInput {
        (Decimal::new(hourly, 2), gpus, Decimal::from(per_s), monthly.map(|m| Decimal::new(m, 2)),
         capacity, lead.map(Decimal::from))
    }
}

/// A generated quote: hourly price, GPUs per node, throughput, monthly price, capacity, lead time.
type QuoteInput = (Decimal, u32, Decimal, Option<Decimal>, Option<u32>, Option<Decimal>);

/// A plan input of 1–6 quotes, efficiency `efficiency`, with optional deadline and budget.
fn build(
    quotes: &[QuoteInput],
    efficiency: Decimal,
    deadline_h: Option<Decimal>,
    budget: Option<Decimal>,
) -> PlanScenario {
    let built = quotes
        .iter()
        .enumerate()
        .map(|(i, (hourly, gpus, per_s, monthly, _, _))| {
            let mut q = quote(&format!("q{i}"), *hourly, *gpus, *per_s);
            q.price_sheet.monthly_price = *monthly;
            q.price_sheet.commitment_months = monthly.map(|_| 1);
            q
        })
        .collect();
    let mut s = scenario(Decimal::from(3_600_000), efficiency, built);
    s.plan.quotes = quotes
        .iter()
        .enumerate()
        .map(|(i, (_, _, _, _, capacity, lead))| supply(&format!("q{i}"), *capacity, *lead))
        .collect();
    s.plan.max_nodes = Some(6);
    s.plan.deadline_h = deadline_h;
    s.plan.budget = budget;
    s
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(128) })]

    #[test]
    fn no_plan_on_the_front_is_dominated_and_every_other_plan_is(
        quotes in proptest::collection::vec(quote_input(), 1..6), e in 50i64..=100,
        deadline in proptest::option::of(1i64..500), budget in proptest::option::of(1i64..100_000),
    ) {
        // Rule: the front is exactly the plans no other plan dominates.
        let s = build(&quotes, Decimal::new(e, 2), deadline.map(Decimal::from), budget.map(Decimal::from));
        let r = run(&s);
        let plans: Vec<_> = all(&r).collect();
        for p in &plans {
            let dominated = plans.iter().any(|o| dominates(o, p));
            prop_assert_eq!(p.on_front, !dominated, "{:?}", p.key());
        }
        prop_assert!(r.front.windows(2).all(|w| w[0].finish_s <= w[1].finish_s));
    }

    #[test]
    fn more_nodes_never_finish_later_when_efficiency_is_at_least_one_over_n(
        hourly in 1i64..5000, per_s in 1i64..2000, e in 50i64..=100, work in 1i64..10_000_000,
    ) {
        // Rule: with e ≥ 1/2 (so n × e(n) ≥ 1 for every n ≥ 2, and grows with n), T(n) never
        // falls as n grows: the finish of n + 1 nodes is never after that of n nodes.
        let mut s = scenario(Decimal::from(work), Decimal::new(e, 2), vec![quote("a", Decimal::new(hourly, 2), 1, Decimal::from(per_s))]);
        s.plan.max_nodes = Some(16);
        let r = run(&s);
        let mut by_nodes: Vec<_> = all(&r).map(|p| (p.nodes, p.finish_s)).collect();
        by_nodes.sort_unstable();
        prop_assert_eq!(by_nodes.len(), 16);
        for w in by_nodes.windows(2) {
            prop_assert!(w[1].1 <= w[0].1, "{} nodes finish at {} s, {} nodes at {} s", w[1].0, w[1].1, w[0].0, w[0].1);
        }
    }

    #[test]
    fn a_plan_that_misses_the_deadline_is_never_recommended(
        quotes in proptest::collection::vec(quote_input(), 1..6), e in 10i64..=100,
        deadline in proptest::option::of(1i64..500), budget in proptest::option::of(1i64..100_000),
    ) {
        // Rule: the recommendation is in time and within budget, has no reason to lose, and
        // every other plan has at least one; the same input plans the same way twice.
        let s = build(&quotes, Decimal::new(e, 2), deadline.map(Decimal::from), budget.map(Decimal::from));
        let r = run(&s);
        if let Some(rec) = &r.recommended {
            prop_assert!(!rec.plan.late && !rec.plan.over_budget);
            prop_assert!(r.deadline_s.is_none_or(|d| rec.plan.finish_s <= d));
            prop_assert!(rec.plan.reasons.is_empty());
            prop_assert!(all(&r).filter(|p| p.key() != rec.plan.key()).all(|p| !p.reasons.is_empty()));
        } else {
            prop_assert!(all(&r).all(|p| p.late || p.over_budget));
        }
        prop_assert_eq!(run(&s), r);
    }
}
