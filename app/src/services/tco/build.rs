//! The comparison built from what was loaded — no database, no clock: the workload chosen, the
//! shared assumptions with their field errors, the quote choices, one engine run per quote
//! chosen (rule 5 for its throughput), the ranking (rule 6) and the budget (rule 7).

use super::{
    Computed, Costed,
    fields::{FIELDS, field_text, fill},
    pool::{Measured, RunPool, measured},
    request::{CostRequest, QuoteSelection},
    row::{shown, signed, unit_cost_scale},
    scenario::{budget_in_base, tco_quote},
    texts::{decimal, error_sentence, field_error, quote_input_error, rate_note},
};
use crate::{
    domain::{
        money::format_money,
        quotes::{self as quotes_domain, Date, RequirementKind, RequirementStatus, Workload},
        runs::{AtTarget, ResponseTarget},
        tco::{
            Assumptions, Currency, Demand, ExchangeRate, Quote, RateWarning, Scenario, WhatIfProfiles, ranking_order,
            rate_warnings, run_scenario, what_if,
        },
    },
    i18n::{Locale, Msg},
    store::quotes::QuoteSummary,
    views::{
        Stored,
        tco::{AssumptionField, CostComparison, CostProblem, QuoteChoice},
    },
};
use rust_decimal::Decimal;

mod keep;
use keep::rank_and_keep;
pub use keep::{KEPT_ROWS, LetGo};
mod notes;
use notes::{budget_note, response_note, with_rate_warnings, with_response_note};

/// Everything a comparison is built from, as the store gave it.
#[derive(Clone, Debug)]
pub(super) struct Loaded {
    /// The team's workloads, in the store's order (the first is the default).
    pub workloads: Vec<Stored<Workload>>,
    /// The team's base currency, which totals are ranked in.
    pub base: Currency,
    /// The team's exchange rates.
    pub rates: Vec<ExchangeRate>,
    /// Days after which a rate is warned of as stale (the team's setting).
    pub stale_rate_days: i64,
    /// The chosen workload's budget and its currency, if set.
    pub budget: Option<(Decimal, Currency)>,
    /// The day quote validity is judged on.
    pub today: Date,
    /// Each of the team's quotes at the revision costed (the latest unless the request names one).
    pub quotes: std::sync::Arc<Vec<QuoteSummary>>,
    /// The label of each quote id (quotes without one are not offered).
    pub labels: std::sync::Arc<Vec<(i64, String)>>,
    /// The chosen workload's runs (empty when nothing is costed).
    pub runs: RunPool,
}

/// The workload `request` asks for, else the team's first.
pub(super) fn chosen_workload<'a>(
    workloads: &'a [Stored<Workload>],
    request: &CostRequest,
) -> Option<&'a Stored<Workload>> {
    request
        .workload_id
        .and_then(|id| workloads.iter().find(|w| w.id == id))
        .or(workloads.first())
}

/// The unit the workload's work is counted in ("tokens"), or empty.
fn work_unit(workload: Option<&Workload>) -> String {
    workload
        .and_then(|w| w.total_work.as_ref())
        .map_or_else(String::new, |w| w.unit.clone())
}

/// Builds the comparison `request` asks for from `loaded`; `can_set_budget` shows the budget
/// form.
pub(super) fn build(request: &CostRequest, loaded: Loaded, locale: Locale, can_set_budget: bool) -> Computed {
    let chosen = chosen_workload(&loaded.workloads, request);
    let workload = chosen.map(|w| w.record.clone());
    let workload_id = chosen.map(|w| w.id);
    let (fields, assumptions) = shared_assumptions(request, workload.as_ref(), locale);
    let (choices, selected) = choose_quotes(&loaded, workload.as_ref(), &request.quotes);
    let base = loaded.base;
    let (costed, problems, let_go) = match (workload.as_ref(), assumptions.as_ref()) {
        (Some(w), Some(shared)) => cost_kept(&loaded, (w, shared), request, selected, locale),
        _ => (Vec::new(), Vec::new(), LetGo::default()),
    };
    let (choices, choices_not_shown) = kept_choices(choices, &costed, let_go.quotes);
    let budget_base = loaded.budget.map(|b| budget_in_base(b, base, &loaded.rates));
    let budget_amount = budget_base.as_ref().and_then(|b| b.as_ref().ok()).map(|b| b.0);
    let work = workload.as_ref().and_then(|w| w.total_work.as_ref()).map(|w| w.amount);
    let unit_scale = unit_cost_scale(&costed, work);
    let signed: Vec<_> = costed
        .iter()
        .map(|c| signed(c, base, budget_amount, &loaded.rates, workload.as_ref(), unit_scale))
        .collect();
    let today = loaded.today.day_number();
    let target = workload.as_ref().and_then(|w| w.response_target);
    let unit = work_unit(workload.as_ref());
    let rows = signed
        .iter()
        .zip(&costed)
        .map(|(s, c)| {
            let row = with_rate_warnings(
                shown(locale, s),
                s,
                (&loaded.rates, loaded.stale_rate_days),
                today,
                locale,
            );
            with_response_note(row, target.zip(c.at_target), &unit, locale)
        })
        .collect();
    let view = CostComparison {
        workloads: loaded.workloads.iter().map(|w| (w.id, w.record.name.clone())).collect(),
        workload_id,
        workload_name: workload.as_ref().map(|w| w.name.clone()).unwrap_or_default(),
        quotes: choices,
        assumptions: fields,
        base_currency: base.code().to_string(),
        budget: loaded.budget.map(|(amount, currency)| format_money(amount, currency)),
        budget_exact: loaded.budget.map(|(amount, _)| decimal(amount)),
        response_target: target.as_ref().map(crate::texts::response::target_text),
        budget_note: budget_base.as_ref().and_then(|b| budget_note(locale, b, base)),
        budget_unconverted: matches!(budget_base, Some(Err(_))),
        rows,
        problems,
        query: request.to_query(),
        can_set_budget,
        rows_not_shown: let_go.quotes,
        choices_not_shown,
        rows_in_exports: 0,
    };
    Computed {
        unit_scale,
        budget_base: budget_amount,
        view,
        signed,
        costed,
        workload,
        base,
        shared: assumptions,
        rates: loaded.rates,
        let_go_eligible: let_go.eligible,
        plan: std::sync::Arc::default(),
    }
}

/// The default of a shared field for workload `w`, as the form writes it: setup 1 h, 10 %
/// re-runs, egress = the checkpoints, ingress = the data, 90 % scaling efficiency, nodes as
/// the workload needs, 0 otherwise.
fn default_value(name: &str, w: Option<&Workload>) -> String {
    match name {
        "setup_h" => "1".into(),
        "rerun_pct" => "10".into(),
        "egress_gb" => w.map_or_else(|| "0".into(), |w| decimal(w.checkpoint_gb)),
        "ingress_gb" => w.map_or_else(|| "0".into(), |w| decimal(w.data_gb)),
        "nodes" => String::new(),
        "efficiency_pct" => "90".into(),
        _ => "0".into(),
    }
}

/// The assumptions form (each field as typed, else as set, else its default, with its error)
/// and the shared assumptions — none when any field is bad: nothing is replaced by a default.
fn shared_assumptions(
    request: &CostRequest,
    w: Option<&Workload>,
    locale: Locale,
) -> (Vec<AssumptionField>, Option<Assumptions>) {
    let fields = FIELDS
        .iter()
        .map(|name| AssumptionField {
            name: (*name).to_string(),
            value: request
                .typed
                .shared
                .get(name)
                .cloned()
                .or_else(|| field_text(&request.shared, name))
                .unwrap_or_else(|| default_value(name, w)),
            error: request.typed.shared_errors.get(name).map(|e| field_error(locale, *e)),
        })
        .collect();
    (fields, shared_of(request, w))
}

/// The shared assumptions `request` costs under for `w`: each field as set, else its default;
/// none when a typed field did not read.
pub(super) fn shared_of(request: &CostRequest, w: Option<&Workload>) -> Option<Assumptions> {
    request
        .typed
        .shared_errors
        .is_empty()
        .then(|| fill(&request.shared, |name| default_value(name, w)).apply(&Assumptions::NONE))
}

/// A quote chosen for costing, with what the page says about it besides its cost.
struct Chosen<'a> {
    /// The quote as the catalogue holds it (copied only into the quotes kept).
    summary: &'a QuoteSummary,
    label: String,
    failing: Vec<RequirementKind>,
    expired: bool,
}

/// Every labelled quote as a choice of the form, and those compared: the ones picked, else
/// every quote still valid that meets the workload's requirements.
fn choose_quotes<'a>(
    loaded: &'a Loaded,
    workload: Option<&Workload>,
    selection: &QuoteSelection,
) -> (Vec<QuoteChoice>, Vec<Chosen<'a>>) {
    let mut choices = Vec::new();
    let mut selected = Vec::new();
    let labels: std::collections::HashMap<i64, &String> = loaded.labels.iter().map(|(id, l)| (*id, l)).collect();
    for summary in loaded.quotes.iter() {
        let Some(&label) = labels.get(&summary.quote_id) else {
            continue;
        };
        let failing: Vec<RequirementKind> = workload
            .map(|w| {
                quotes_domain::check(w, &summary.draft.spec)
                    .into_iter()
                    .filter(|r| r.status == RequirementStatus::Fail)
                    .map(|r| r.kind)
                    .collect()
            })
            .unwrap_or_default();
        let expired = summary.draft.is_expired(loaded.today);
        let on = match selection {
            QuoteSelection::Picked(ids) => ids.contains(&summary.quote_id),
            QuoteSelection::Suitable => !expired && failing.is_empty(),
        };
        choices.push(QuoteChoice {
            id: summary.quote_id,
            label: label.clone(),
            selected: on,
            expired,
            fails_requirements: !failing.is_empty(),
        });
        if on {
            selected.push(Chosen {
                summary,
                label: label.clone(),
                failing,
                expired,
            });
        }
    }
    (choices, selected)
}

/// The picker's choices a comparison keeps: the quotes it kept ranked (every quote picked, when
/// none was let go), then up to
/// [`crate::views::tco::SHOWN_CHOICES`] of those not compared, in the picker's order; with how
/// many were let go (a page lists at most that many: [`CostComparison::page_view`]).
fn kept_choices(choices: Vec<QuoteChoice>, costed: &[Costed], not_kept: usize) -> (Vec<QuoteChoice>, usize) {
    let kept: std::collections::HashSet<i64> = costed.iter().map(|c| c.quote_id).collect();
    let total = choices.len();
    let mut others = 0;
    // Nothing let go: every quote picked stays ticked, also one that could not be costed.
    let all_kept = not_kept == 0;
    let choices: Vec<QuoteChoice> = choices
        .into_iter()
        .filter(|q| {
            kept.contains(&q.id)
                || (q.selected && all_kept)
                || (!q.selected && {
                    others += 1;
                    others <= crate::views::tco::SHOWN_CHOICES
                })
        })
        .collect();
    let let_go = total - choices.len();
    (choices, let_go)
}

/// What every quote of one comparison is costed against.
struct Context<'a> {
    workload: &'a Workload,
    demand: Demand,
    shared: &'a Assumptions,
    runs: &'a RunPool,
    base: Currency,
    rates: &'a [ExchangeRate],
    locale: Locale,
}

/// Costs every chosen quote and keeps the [`KEPT_ROWS`] cheapest, ranked; a quote that cannot
/// be costed becomes a problem, in order. Returns those kept, the problems and what was costed
/// but let go. The ranking is a total order, so keeping the cheapest of each batch as it
/// goes keeps the same quotes as ranking all at the end, while at most twice [`KEPT_ROWS`] are
/// held at once, however large the catalogue.
fn cost_all(
    ctx: &Context<'_>,
    request: &CostRequest,
    selected: Vec<Chosen<'_>>,
) -> (Vec<Costed>, Vec<CostProblem>, LetGo) {
    let mut costed = Vec::new();
    let mut problems = Vec::new();
    let mut let_go = LetGo::default();
    for chosen in selected {
        let label = chosen.label.clone();
        match cost_one(ctx, request, chosen) {
            Ok(c) => costed.push(c),
            Err(message) => problems.push(CostProblem { label, message }),
        }
        if costed.len() == 2 * KEPT_ROWS {
            let_go += rank_and_keep(&mut costed, KEPT_ROWS);
        }
    }
    let_go += rank_and_keep(&mut costed, KEPT_ROWS);
    (costed, problems, let_go)
}

/// The quote's valid runs, with the scaling efficiency set by the one rule the plan and the
/// order use ([`throughput::scaling_efficiency`]: 1 for one task per GPU, else what runs on one
/// node and on several measured, else the assumption); the runs' one-node throughput is read
/// at that efficiency.
fn scaled_runs(
    ctx: &Context<'_>,
    quote: (i64, i64),
    spec: &quotes_domain::NodeSpec,
    a: &mut Assumptions,
) -> Result<Measured, crate::domain::tco::TcoError> {
    let Some(work) = &ctx.workload.total_work else {
        return Ok(Measured::default());
    };
    let gpu_use = ctx.workload.gpu_use;
    let workload = (gpu_use, ctx.workload.response_target.as_ref());
    let first = measured(ctx.runs, quote, spec, &work.unit, a.scaling(), workload)?;
    let before = (a.efficiency, a.efficiency_by_nodes.clone());
    a.apply_scaling(gpu_use, &first.valid)?;
    if before == (a.efficiency, a.efficiency_by_nodes.clone()) {
        return Ok(first);
    }
    measured(ctx.runs, quote, spec, &work.unit, a.scaling(), workload)
}

/// One quote through the engine: the shared assumptions with its overrides, its throughput
/// typed or from its valid runs (rule 5), and the what-if; the error is the sentence shown.
fn cost_one(ctx: &Context<'_>, request: &CostRequest, chosen: Chosen<'_>) -> Result<Costed, String> {
    let Chosen {
        summary,
        label,
        failing,
        expired,
    } = chosen;
    let id = summary.quote_id;
    if let Some(e) = request.quote_error(id) {
        return Err(quote_input_error(ctx.locale, e));
    }
    let mut a = request
        .overrides
        .get(&id)
        .map_or_else(|| ctx.shared.clone(), |o| o.apply(ctx.shared));
    let typed = request.throughput.get(&id).copied();
    let runs = scaled_runs(ctx, (id, summary.revision), &summary.draft.spec, &mut a)
        .map_err(|e| error_sentence(ctx.locale, &e, ctx.workload))?;
    (a.measured_throughput_per_s, a.n_run) = match typed {
        Some(t) => (Some(t.per_s), t.n_run),
        None => (runs.expected.map(|t| t.per_s), runs.expected.map(|t| t.nodes)),
    };
    let scenario = Scenario {
        title: None,
        workload: ctx.demand.clone(),
        assumptions: a.clone(),
        quotes: vec![Quote {
            // A typed throughput is a stated figure (a vendor's brochure …), not a measurement.
            throughput_stated: typed.is_some(),
            ..tco_quote(id, &label, &summary.draft)
        }],
        compare_currency: Some(ctx.base),
        exchange_rates: ctx.rates.to_vec(),
    };
    let mut result = run_scenario(&scenario).map_err(|e| {
        // No run meets the response-time target: that, not a missing run, is what to fix.
        match (runs.at_target, ctx.workload.response_target, typed) {
            (Some(at @ AtTarget::NoneMeets { .. }), Some(target), None) => {
                let unit = ctx.workload.total_work.as_ref().map_or("", |w| w.unit.as_str());
                response_note(ctx.locale, &target, &at, unit)
            }
            _ => error_sentence(ctx.locale, &e, ctx.workload),
        }
    })?;
    let ranked = result.quotes.remove(0);
    let slowest = runs.slowest.filter(|_| typed.is_none());
    let from_runs = typed.is_none() && runs.expected.is_some();
    Ok(Costed {
        quote_id: id,
        revision: summary.revision,
        draft: summary.draft.clone(),
        assumptions: a,
        ranked,
        what_if: None,
        slowest_throughput: slowest.map(|(_, t)| t),
        runs_used: if from_runs { runs.used } else { Vec::new() },
        runs_scaled: if from_runs { runs.scaled } else { Vec::new() },
        slowest_run: slowest.map(|(id, _)| id),
        valid_runs: if from_runs { runs.valid } else { Vec::new() },
        left_out: runs.left_out,
        throughput_typed: typed.is_some(),
        failing,
        expired,
        at_target: runs.at_target.filter(|_| typed.is_none()),
        curve: if typed.is_none() { runs.curve } else { Vec::new() },
    })
}

/// The chosen quotes costed for `workload` under `shared`, the [`KEPT_ROWS`] cheapest kept
/// with their what-if; with the problems and how many were let go ([`cost_all`]).
fn cost_kept(
    loaded: &Loaded,
    (workload, shared): (&Workload, &Assumptions),
    request: &CostRequest,
    selected: Vec<Chosen<'_>>,
    locale: Locale,
) -> (Vec<Costed>, Vec<CostProblem>, LetGo) {
    let ctx = Context {
        workload,
        demand: workload.to_tco(),
        shared,
        runs: &loaded.runs,
        base: loaded.base,
        rates: &loaded.rates,
        locale,
    };
    let (mut costed, problems, let_go) = cost_all(&ctx, request, selected);
    for c in &mut costed {
        add_what_if(&ctx, c);
    }
    (costed, problems, let_go)
}

/// The quote's low / expected / high and throughput sensitivity (for a kept quote only: the
/// page and the exports show it).
fn add_what_if(ctx: &Context<'_>, c: &mut Costed) {
    c.what_if = what_if(
        &c.draft.price,
        &c.draft.spec.shape(),
        &ctx.demand,
        &c.assumptions,
        &WhatIfProfiles::default(),
        c.slowest_throughput,
    )
    .ok();
}

#[cfg(test)]
mod tests;
