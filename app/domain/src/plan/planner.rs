//! [`plan`]: every quote × node count × pricing through the cost engine, then the front and
//! the choice.

use super::basis::{Basis, basis};
use super::choose;
use super::front;
use super::input::{PlanRequest, PlanScenario, QuoteSupply};
use super::result::{Plan, PlanResult, QuotePlanning, Unstated, Weighed};
use super::{DEFAULT_MAX_NODES, MAX_NODES, MAX_WEIGHED};
use crate::rentals::Instant;
use crate::tco::{
    Assumptions, Currency, ErrorReason, Pricing, PricingChoice, Scenario, TcoError, check_scenario, compared_total,
    estimate_priced, seconds_ms, throughput::Efficiency,
};
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};

/// The deadline and the start, in whole seconds.
struct Timing {
    start: Option<Instant>,
    deadline_s: Option<u64>,
}

/// Plans `input`: see the module documentation for the rules. Errors name the field at
/// fault (and the quote, for a quote's inputs), as [`crate::tco::run_scenario`] does.
pub fn plan(input: &PlanScenario) -> Result<PlanResult, TcoError> {
    plan_for(&input.scenario, &input.plan)
}

/// [`plan`] for a scenario and a request held apart (a page that built its scenario from the
/// database does not copy it into a [`PlanScenario`]).
pub fn plan_for(s: &Scenario, r: &PlanRequest) -> Result<PlanResult, TcoError> {
    let compare = check_scenario(s)?;
    let cap = cap(r)?;
    let timing = timing(r)?;
    if r.budget.is_some_and(|b| b < Decimal::ZERO) {
        return Err(TcoError::new("plan.budget", ErrorReason::Negative));
    }
    let supplies = supply_by_id(s, r)?;
    let chosen = weighed(s, r, &supplies, compare, cap)?;
    let mut plans = Vec::new();
    let mut quotes = Vec::with_capacity(s.quotes.len().min(MAX_WEIGHED));
    for q in s
        .quotes
        .iter()
        .filter(|q| chosen.as_ref().is_none_or(|c| c.contains(q.id.as_str())))
    {
        let supply = supplies.get(q.id.as_str()).copied();
        let planned = basis(s, q, r, supply)
            .and_then(|b| quote_plans(s, &b, compare, cap, &timing, r.budget, &mut plans))
            .map_err(|e| e.for_quote(&q.id))?;
        quotes.push(planned);
    }
    let dominators = front::dominators(&plans);
    let limits = choose::Limits {
        deadline_s: timing.deadline_s,
        budget: r.budget,
    };
    let choice = choose::choose(&mut plans, &dominators, &quotes, limits);
    let (mut front, mut others): (Vec<Plan>, Vec<Plan>) = plans.into_iter().partition(|p| p.on_front);
    front.sort_by(front::by_finish);
    others.sort_by(front::by_cost);
    Ok(PlanResult {
        title: s.title.clone(),
        compare_currency: compare,
        earliest_start: timing.start,
        deadline_s: timing.deadline_s,
        deadline_at: timing.start.zip(timing.deadline_s).and_then(|(a, d)| at(a, d)),
        budget: r.budget,
        gpu_use: r.gpu_use,
        max_nodes: cap,
        quotes,
        recommended: choice.recommended,
        no_plan: choice.no_plan,
        cheapest_in_time: choice.cheapest_in_time,
        fastest_within_budget: choice.fastest_within_budget,
        front,
        others,
        weighed: chosen.map(|c| Weighed {
            weighed: u32::try_from(c.len()).unwrap_or(u32::MAX),
            of: u32::try_from(s.quotes.len()).unwrap_or(u32::MAX),
        }),
    })
}

/// The quotes weighed in full when there are more than [`MAX_WEIGHED`]: the cheapest by one
/// estimate each (the fewest nodes one job needs, the cheaper of on demand and the monthly
/// commitment), ties by id; quotes that cannot give those nodes last. `None`: all of them.
/// One estimate per quote instead of one per node count and pricing keeps 20,000 quotes to
/// well under a second.
fn weighed<'s>(
    s: &'s Scenario,
    r: &PlanRequest,
    supplies: &HashMap<&str, &QuoteSupply>,
    compare: Currency,
    cap: u32,
) -> Result<Option<HashSet<&'s str>>, TcoError> {
    if s.quotes.len() <= MAX_WEIGHED {
        return Ok(None);
    }
    let mut ranked = Vec::with_capacity(s.quotes.len());
    for q in &s.quotes {
        let supply = supplies.get(q.id.as_str()).copied();
        let first = basis(s, q, r, supply)
            .and_then(|b| cheapest_first_plan(s, &b, compare, cap))
            .map_err(|e| e.for_quote(&q.id))?;
        ranked.push((first, q.id.as_str()));
    }
    ranked.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.1.cmp(b.1)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.1.cmp(b.1),
    });
    Ok(Some(ranked.into_iter().take(MAX_WEIGHED).map(|(_, id)| id).collect()))
}

/// The compared total of `b`'s cheapest plan on the fewest nodes one job needs; `None` when the
/// vendor cannot give them or the sheet prices neither way.
fn cheapest_first_plan(s: &Scenario, b: &Basis<'_>, compare: Currency, cap: u32) -> Result<Option<Decimal>, TcoError> {
    let q = b.quote;
    let per_node = q.node_shape.gpus_per_node;
    if per_node == 0 {
        return Err(TcoError::new("node_shape.gpus_per_node", ErrorReason::NotPositive));
    }
    let nodes = s.workload.gpus_needed.div_ceil(per_node).max(1);
    if nodes > b.capacity.map_or(cap, |c| c.min(cap)) {
        return Ok(None);
    }
    let expected = Assumptions {
        nodes: Some(nodes),
        ..b.expected.clone()
    };
    let mut best: Option<Decimal> = None;
    for choice in [PricingChoice::OnDemand, PricingChoice::Monthly] {
        if let Some(e) = estimate_priced(&q.price_sheet, &q.node_shape, &b.workload, &expected, choice)? {
            let (compared, _) = compared_total(s, e.total, e.currency, compare)?;
            best = Some(best.map_or(compared, |x| x.min(compared)));
        }
    }
    Ok(best)
}

/// The node-count cap: `max_nodes` (1 to [`MAX_NODES`]) or [`DEFAULT_MAX_NODES`].
fn cap(r: &PlanRequest) -> Result<u32, TcoError> {
    match r.max_nodes {
        None => Ok(DEFAULT_MAX_NODES),
        Some(n) if (1..=MAX_NODES).contains(&n) => Ok(n),
        Some(_) => Err(TcoError::new(
            "plan.max_nodes",
            ErrorReason::OutOfRange { allowed: "[1, 64]" },
        )),
    }
}

/// The deadline in whole seconds from the start: `deadline_h` × 3600 rounded down (never later
/// than stated), or `deadline_at` − `earliest_start`.
fn timing(r: &PlanRequest) -> Result<Timing, TcoError> {
    let deadline_s = match (r.deadline_h, r.deadline_at) {
        (Some(_), Some(_)) => {
            let reason = ErrorReason::OutOfRange {
                allowed: "one of deadline_h and deadline_at",
            };
            return Err(TcoError::new("plan.deadline_at", reason));
        }
        (Some(h), None) => {
            if h < Decimal::ZERO {
                return Err(TcoError::new("plan.deadline_h", ErrorReason::Negative));
            }
            let s = h.checked_mul(Decimal::from(3600)).map(|s| s.floor());
            Some(
                s.and_then(|s| u64::try_from(s).ok())
                    .ok_or_else(|| TcoError::overflow("plan.deadline_h"))?,
            )
        }
        (None, Some(at)) => {
            let Some(start) = r.earliest_start else {
                return Err(TcoError::new("plan.earliest_start", ErrorReason::Missing));
            };
            let reason = ErrorReason::OutOfRange {
                allowed: "after earliest_start",
            };
            let s = at.unix().checked_sub(start.unix()).filter(|s| *s > 0);
            Some(
                s.and_then(|s| u64::try_from(s).ok())
                    .ok_or_else(|| TcoError::new("plan.deadline_at", reason))?,
            )
        }
        (None, None) => None,
    };
    Ok(Timing {
        start: r.earliest_start,
        deadline_s,
    })
}

/// Every entry of `plan.quotes` names a scenario quote, once.
fn supply_by_id<'r>(s: &Scenario, r: &'r PlanRequest) -> Result<HashMap<&'r str, &'r QuoteSupply>, TcoError> {
    // Maps by id, so 20,000 quotes are checked in linear time, not 20,000².
    let known: HashSet<&str> = s.quotes.iter().map(|q| q.id.as_str()).collect();
    let mut supplies = HashMap::with_capacity(r.quotes.len());
    for q in &r.quotes {
        if supplies.insert(q.id.as_str(), q).is_some() {
            let reason = ErrorReason::Duplicate { value: q.id.clone() };
            return Err(TcoError::new("plan.quotes.id", reason));
        }
        if !known.contains(q.id.as_str()) {
            let reason = ErrorReason::OutOfRange {
                allowed: "the ids of scenario.quotes",
            };
            return Err(TcoError::new("plan.quotes.id", reason).for_quote(&q.id));
        }
    }
    Ok(supplies)
}

fn add(a: Decimal, b: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    a.checked_add(b).ok_or_else(|| TcoError::overflow(field))
}

/// `start` + `seconds`, if representable.
fn at(start: Instant, seconds: u64) -> Option<Instant> {
    let s = i64::try_from(seconds).ok()?;
    start.unix().checked_add(s).map(Instant::from_unix)
}

/// Hours as whole seconds: to milliseconds half-up (rule 1 of the cost model), then up to the
/// next whole second.
fn whole_seconds(hours: Decimal, field: &'static str) -> Result<u64, TcoError> {
    let s = seconds_ms(hours, field)?.ceil();
    u64::try_from(s).map_err(|_| TcoError::overflow(field))
}

/// Busy hours per node on `nodes` nodes with the pessimistic throughput or run length.
fn pessimistic_busy_h(b: &Basis<'_>, nodes: u32) -> Result<Decimal, TcoError> {
    let q = b.quote;
    let pessimistic = Assumptions {
        nodes: Some(nodes),
        ..b.pessimistic.clone()
    };
    let choice = PricingChoice::OnDemand;
    let slow = estimate_priced(
        &q.price_sheet,
        &q.node_shape,
        &b.pessimistic_workload,
        &pessimistic,
        choice,
    )?;
    slow.map(|e| e.busy_h)
        .ok_or_else(|| TcoError::overflow("plan.pessimistic_finish_s"))
}

/// What a plan of `b` on `nodes` nodes rests on that was not stated or measured.
fn rests_on(b: &Basis<'_>, nodes: u32) -> Vec<Unstated> {
    let mut out = Vec::new();
    if b.capacity.is_none() {
        out.push(Unstated::Capacity);
    }
    if b.lead_time_h.is_none() {
        out.push(Unstated::LeadTime);
    }
    if let Some(measured_nodes) = b.measured_nodes.filter(|m| nodes > *m) {
        out.push(Unstated::BeyondMeasured { measured_nodes });
    }
    out
}

/// The plans of one quote for every node count it can run on, each priced on demand and,
/// when offered, under the monthly commitment; appended to `out`.
fn quote_plans(
    s: &Scenario,
    b: &Basis<'_>,
    compare: Currency,
    cap: u32,
    timing: &Timing,
    budget: Option<Decimal>,
    out: &mut Vec<Plan>,
) -> Result<QuotePlanning, TcoError> {
    let q = b.quote;
    let per_node = q.node_shape.gpus_per_node;
    if per_node == 0 {
        return Err(TcoError::new("node_shape.gpus_per_node", ErrorReason::NotPositive));
    }
    let min_nodes = s.workload.gpus_needed.div_ceil(per_node).max(1);
    let max_nodes = b.capacity.map_or(cap, |c| c.min(cap));
    let lead_h = b.lead_time_h.unwrap_or(Decimal::ZERO);
    let mut monthly_offered = false;
    for nodes in min_nodes..=max_nodes {
        let slow_h = add(lead_h, pessimistic_busy_h(b, nodes)?, "plan.pessimistic_finish_s")?;
        let slow_s = whole_seconds(slow_h, "plan.pessimistic_finish_s")?;
        let expected = Assumptions {
            nodes: Some(nodes),
            ..b.expected.clone()
        };
        for choice in [PricingChoice::OnDemand, PricingChoice::Monthly] {
            let priced = estimate_priced(&q.price_sheet, &q.node_shape, &b.workload, &expected, choice)?;
            let Some(e) = priced else { continue };
            let (compared, rate_date) = compared_total(s, e.total, e.currency, compare)?;
            let finish_s = whole_seconds(add(lead_h, e.busy_h, "plan.finish_s")?, "plan.finish_s")?;
            monthly_offered |= e.pricing_used == Pricing::Monthly;
            let pessimistic_finish_s = slow_s.max(finish_s);
            let late = timing.deadline_s.is_some_and(|d| finish_s > d);
            let at_risk = timing.deadline_s.is_some_and(|d| pessimistic_finish_s > d);
            out.push(Plan {
                quote_id: q.id.clone(),
                label: q.label.clone(),
                group: b.group,
                nodes,
                pricing: match choice {
                    PricingChoice::Monthly => Pricing::Monthly,
                    _ => Pricing::OnDemand,
                },
                total: e.total,
                currency: e.currency,
                compared_total: compared,
                rate_date,
                efficiency: b.expected.scaling().on(nodes),
                lead_time_h: lead_h,
                busy_h: e.busy_h,
                finish_s,
                finish_at: timing.start.and_then(|a| at(a, finish_s)),
                pessimistic_finish_s,
                pessimistic_finish_at: timing.start.and_then(|a| at(a, pessimistic_finish_s)),
                late,
                at_risk,
                over_budget: budget.is_some_and(|limit| compared > limit),
                on_front: false,
                reasons: Vec::new(),
                rests_on: rests_on(b, nodes),
            });
        }
    }
    Ok(QuotePlanning {
        id: q.id.clone(),
        label: q.label.clone(),
        capacity_nodes: b.capacity,
        lead_time_h: b.lead_time_h,
        min_nodes,
        max_nodes,
        efficiency: b.expected.efficiency,
        efficiency_source: b.efficiency_source,
        pessimism: b.pessimism.clone(),
        monthly_offered,
        too_few_nodes: min_nodes > max_nodes,
        questions: b.questions.clone(),
    })
}
