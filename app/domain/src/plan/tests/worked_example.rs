//! The seed's worked example: 72 h on one card for 720.00, or 24 h on four for 840.00.

use super::fixtures::{all, example, on_demand, quote, run, scenario, supply};
use crate::plan::VendorQuestion::{CapacityNotStated, LeadTimeNotStated};
use crate::plan::{LossReason, NoPlan};
use crate::rentals::Instant;
use rust_decimal_macros::dec;

#[test]
fn a_48_hour_deadline_picks_the_four_card_node_and_says_why() {
    // Rule: recommended = the cheapest plan in time; the cheaper one-card plan is 24 h late and
    // its vendor has no second node, and the recommendation carries that as facts.
    let r = run(&example());
    let rec = r.recommended.as_ref().expect("a plan is in time");
    assert_eq!(rec.plan.key(), on_demand("big", 1));
    assert_eq!((rec.plan.compared_total, rec.plan.finish_s), (dec!(840.00), 24 * 3600));
    assert_eq!(rec.plan.finish_at, Instant::parse("2026-12-14T08:00:00Z"));
    assert!(rec.plan.reasons.is_empty() && !rec.plan.at_risk);
    let cheaper = rec.cheapest.as_ref().expect("the one-card plan is cheaper");
    assert_eq!(cheaper.key(), on_demand("a", 1));
    assert_eq!(cheaper.compared_total, dec!(720.00));
    assert_eq!(
        cheaper.reasons,
        vec![
            LossReason::Late { by_s: 24 * 3600 },
            LossReason::CapacityReached { capacity: 1 }
        ]
    );
    assert_eq!(rec.fewer_nodes, None, "one node: there is no fewer");
    assert_eq!(r.deadline_s, Some(48 * 3600));
    assert_eq!(r.deadline_at, Instant::parse("2026-12-15T08:00:00Z"));
    assert_eq!(r.cheapest_in_time, Some(on_demand("big", 1)));
    assert_eq!(r.fastest_within_budget, Some(on_demand("big", 1)));
    // Both plans are on the front: one is cheaper, the other sooner.
    let front: Vec<_> = r.front.iter().map(crate::plan::Plan::key).collect();
    assert_eq!(front, vec![on_demand("big", 1), on_demand("a", 1)]);
}

#[test]
fn without_a_deadline_the_cheaper_one_card_plan_is_recommended() {
    // Rule: with no deadline the recommendation is the cheapest plan; the sooner four-card
    // plan stays on the front and lost only on price.
    let mut s = example();
    s.plan.deadline_h = None;
    let r = run(&s);
    let rec = r
        .recommended
        .clone()
        .expect("no deadline, no budget: something is recommended");
    assert_eq!(rec.plan.key(), on_demand("a", 1));
    assert_eq!((rec.plan.compared_total, rec.plan.finish_s), (dec!(720.00), 72 * 3600));
    assert_eq!(rec.cheapest, None, "the recommended plan is the cheapest");
    let big = all(&r).find(|p| p.quote_id == "big").expect("planned");
    assert!(big.on_front && !big.late);
    assert_eq!(big.reasons, vec![LossReason::Costlier { by: dec!(120.00) }]);
    assert_eq!((r.deadline_s, r.no_plan), (None, None));
}

#[test]
fn capacity_and_lead_time_not_stated_are_vendor_questions_never_silent() {
    // Rule: an unstated capacity is planned up to the cap and asked; an unstated lead time is
    // planned as 0 h and asked. The example states a's lead time but not big's.
    let r = run(&example());
    let questions: Vec<_> = r.quotes.iter().map(|q| (q.id.as_str(), q.questions.clone())).collect();
    assert_eq!(questions, vec![("big", vec![LeadTimeNotStated]), ("a", vec![])]);
    let big = &r.recommended.as_ref().unwrap().plan;
    assert_eq!(big.lead_time_h, dec!(0));
    let mut s = example();
    s.plan.quotes.clear();
    s.plan.max_nodes = Some(3);
    let r = run(&s);
    assert!(
        r.quotes
            .iter()
            .all(|q| q.questions == vec![CapacityNotStated, LeadTimeNotStated])
    );
    assert!(r.quotes.iter().all(|q| (q.min_nodes, q.max_nodes) == (1, 3)));
    assert_eq!(all(&r).count(), 6, "2 quotes × 3 node counts × on demand only");
}

#[test]
fn more_one_card_nodes_beat_the_big_node_when_the_vendor_has_them() {
    // Rule: every node count up to the capacity is planned; at 90 % scaling two one-card
    // nodes finish in 40 h for 800.00, in time and cheaper than the four-card node's 840.00,
    // and the same plan with one node fewer is the "1 node would be late" fact.
    let s = {
        let mut s = scenario(
            dec!(2592000),
            dec!(0.9),
            vec![
                quote("a", dec!(10.00), 1, dec!(10)),
                quote("big", dec!(35.00), 4, dec!(30)),
            ],
        );
        s.plan.deadline_h = Some(dec!(48));
        s.plan.quotes = vec![
            supply("a", Some(2), Some(dec!(0))),
            supply("big", Some(1), Some(dec!(0))),
        ];
        s
    };
    let r = run(&s);
    let rec = r.recommended.expect("in time");
    assert_eq!(rec.plan.key(), on_demand("a", 2));
    assert_eq!((rec.plan.compared_total, rec.plan.finish_s), (dec!(800.00), 40 * 3600));
    assert_eq!(rec.plan.efficiency, dec!(0.9));
    let fewer = rec.fewer_nodes.expect("2 nodes: 1 node is the fewer");
    assert_eq!(fewer.reasons, vec![LossReason::Late { by_s: 24 * 3600 }]);
    assert_eq!(r.no_plan, None::<NoPlan>);
}
