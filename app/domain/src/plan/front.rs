//! The Pareto front: plan A dominates plan B when A's compared total ≤ B's and A's finish ≤
//! B's, one of them strictly. The orders every list is sorted by, so output is deterministic.

use super::result::Plan;
use crate::tco::Pricing;
use std::cmp::Ordering;

/// On demand before the monthly commitment, for tie-breaking.
fn pricing_rank(p: Pricing) -> u8 {
    match p {
        Pricing::OnDemand => 0,
        Pricing::Monthly => 1,
    }
}

/// The tie-break after cost and finish: label, quote id, nodes, pricing.
fn tie(a: &Plan, b: &Plan) -> Ordering {
    (&a.label, &a.quote_id, a.nodes, pricing_rank(a.pricing)).cmp(&(
        &b.label,
        &b.quote_id,
        b.nodes,
        pricing_rank(b.pricing),
    ))
}

/// Cheapest first, then soonest, then [`tie`].
pub(super) fn by_cost(a: &Plan, b: &Plan) -> Ordering {
    (a.compared_total, a.finish_s)
        .cmp(&(b.compared_total, b.finish_s))
        .then_with(|| tie(a, b))
}

/// Soonest first, then cheapest, then [`tie`].
pub(super) fn by_finish(a: &Plan, b: &Plan) -> Ordering {
    (a.finish_s, a.compared_total)
        .cmp(&(b.finish_s, b.compared_total))
        .then_with(|| tie(a, b))
}

/// Whether `a` dominates `b`.
#[must_use]
pub fn dominates(a: &Plan, b: &Plan) -> bool {
    a.compared_total <= b.compared_total
        && a.finish_s <= b.finish_s
        && (a.compared_total < b.compared_total || a.finish_s < b.finish_s)
}

/// For each plan, a plan that dominates it (index), or `None` when it is on the front.
/// O(n log n): one sweep in [`by_finish`] order keeping the cheapest plan that finished
/// strictly earlier.
pub(super) fn dominators(plans: &[Plan]) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..plans.len()).collect();
    order.sort_by(|a, b| by_finish(&plans[*a], &plans[*b]));
    let mut out = vec![None; plans.len()];
    // The cheapest plan among strictly earlier finishes (the first in order at that cost).
    let mut best: Option<usize> = None;
    let mut i = 0;
    while i < order.len() {
        let finish = plans[order[i]].finish_s;
        let group_end = order[i..]
            .iter()
            .position(|k| plans[*k].finish_s != finish)
            .map_or(order.len(), |p| i + p);
        let first = order[i];
        let group_min = plans[first].compared_total;
        for &k in &order[i..group_end] {
            let cost = plans[k].compared_total;
            out[k] = if cost > group_min {
                Some(first)
            } else {
                best.filter(|b| plans[*b].compared_total <= cost)
            };
        }
        if best.is_none_or(|b| group_min < plans[b].compared_total) {
            best = Some(first);
        }
        i = group_end;
    }
    out
}
