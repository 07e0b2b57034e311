//! The choice: the cheapest plan in time and within budget, not at risk when such a plan
//! exists; the cheapest in time; the soonest within budget; and why each other plan lost.

use super::front::{by_cost, by_finish};
use super::result::{LossReason, NoPlan, Plan, PlanKey, QuotePlanning, Recommendation};
use rust_decimal::Decimal;

/// What [`choose`] decides.
pub(super) struct Choice {
    pub recommended: Option<Recommendation>,
    pub no_plan: Option<NoPlan>,
    pub cheapest_in_time: Option<PlanKey>,
    pub fastest_within_budget: Option<PlanKey>,
}

/// Marks the front, chooses, and writes every other plan's reasons.
pub(super) fn choose(
    plans: &mut [Plan],
    dominators: &[Option<usize>],
    quotes: &[QuotePlanning],
    limits: Limits,
) -> Choice {
    for (p, d) in plans.iter_mut().zip(dominators) {
        p.on_front = d.is_none();
    }
    let cheapest_in_time = plans
        .iter()
        .filter(|p| !p.late)
        .min_by(|a, b| by_cost(a, b))
        .map(Plan::key);
    let fastest_within_budget = plans
        .iter()
        .filter(|p| !p.over_budget)
        .min_by(|a, b| by_finish(a, b))
        .map(Plan::key);
    let chosen = pick(plans);
    let rec = chosen.map(|i| (plans[i].compared_total, plans[i].at_risk, plans[i].rests_on.is_empty()));
    let capacities: std::collections::HashMap<&str, Option<u32>> =
        quotes.iter().map(|q| (q.id.as_str(), q.capacity_nodes)).collect();
    for i in 0..plans.len() {
        if Some(i) == chosen {
            continue;
        }
        let by = dominators[i].map(|d| plans[d].key());
        let capacity = capacities.get(plans[i].quote_id.as_str()).copied().flatten();
        plans[i].reasons = reasons(&plans[i], limits, by, capacity, rec);
    }
    let Some(i) = chosen else {
        return Choice {
            recommended: None,
            no_plan: Some(no_plan(plans)),
            cheapest_in_time,
            fastest_within_budget,
        };
    };
    let plan = plans[i].clone();
    let cheapest = plans
        .iter()
        .min_by(|a, b| by_cost(a, b))
        .filter(|c| c.key() != plan.key())
        .cloned();
    let fewer_nodes = plans
        .iter()
        .find(|p| p.quote_id == plan.quote_id && p.pricing == plan.pricing && p.nodes + 1 == plan.nodes)
        .cloned();
    Choice {
        recommended: Some(Recommendation {
            plan,
            cheapest,
            fewer_nodes,
        }),
        no_plan: None,
        cheapest_in_time,
        fastest_within_budget,
    }
}

/// The recommendation among the candidates (in time, within budget): on stated facts before
/// resting on unknowns, then not at risk before at risk, then cheapest.
fn pick(plans: &[Plan]) -> Option<usize> {
    let candidate = |p: &Plan| !p.late && !p.over_budget;
    let tiers: [fn(&Plan) -> bool; 4] = [
        |p| p.rests_on.is_empty() && !p.at_risk,
        |p| p.rests_on.is_empty(),
        |p| !p.at_risk,
        |_| true,
    ];
    tiers.iter().find_map(|tier| {
        plans
            .iter()
            .enumerate()
            .filter(|(_, p)| candidate(p) && tier(p))
            .min_by(|a, b| by_cost(a.1, b.1))
            .map(|(i, _)| i)
    })
}

/// The limits a plan is judged against.
#[derive(Clone, Copy)]
pub(super) struct Limits {
    pub deadline_s: Option<u64>,
    pub budget: Option<Decimal>,
}

/// Why `p` lost: late, over budget, at risk (when a safe plan was chosen), late on all the
/// vendor's nodes, dominated, resting on unknowns (when a plan on stated facts was chosen), or
/// simply dearer than the recommendation (`recommended`: its compared total, whether it is at
/// risk, and whether it rests on stated facts only).
fn reasons(
    p: &Plan,
    limits: Limits,
    dominated_by: Option<PlanKey>,
    capacity: Option<u32>,
    recommended: Option<(Decimal, bool, bool)>,
) -> Vec<LossReason> {
    let after = |finish: u64| limits.deadline_s.map_or(0, |d| finish.saturating_sub(d));
    let mut out = Vec::new();
    if p.late {
        out.push(LossReason::Late {
            by_s: after(p.finish_s),
        });
    }
    if p.over_budget {
        let by = limits.budget.map_or(Decimal::ZERO, |b| p.compared_total - b);
        out.push(LossReason::OverBudget { by });
    }
    if !p.late && p.at_risk && recommended.is_some_and(|(_, risky, _)| !risky) {
        out.push(LossReason::AtRisk {
            by_s: after(p.pessimistic_finish_s),
        });
    }
    if p.late && capacity == Some(p.nodes) {
        out.push(LossReason::CapacityReached { capacity: p.nodes });
    }
    if let Some(by) = dominated_by {
        out.push(LossReason::Dominated { by });
    }
    // Only where the unknown is what cost the plan the choice: a dearer plan lost on price.
    let lost_on_unknowns = recommended.is_some_and(|(total, _, facts)| facts && p.compared_total <= total);
    if !p.late && !p.over_budget && !p.rests_on.is_empty() && lost_on_unknowns {
        out.push(LossReason::RestsOnUnstated {
            what: p.rests_on.clone(),
        });
    }
    if out.is_empty()
        && let Some((total, _, _)) = recommended
    {
        out.push(LossReason::Costlier {
            by: p.compared_total - total,
        });
    }
    out
}

/// Why no plan is in time and within budget.
fn no_plan(plans: &[Plan]) -> NoPlan {
    if plans.is_empty() {
        NoPlan::NoQuotePlanned
    } else if plans.iter().all(|p| p.late) {
        NoPlan::NoneInTime
    } else if plans.iter().all(|p| p.over_budget) {
        NoPlan::NoneWithinBudget
    } else {
        NoPlan::NoneInTimeAndBudget
    }
}
