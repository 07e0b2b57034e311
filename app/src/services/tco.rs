//! The cost comparison of a workload across the team's quotes: reads the query (the page is a
//! GET form, so a comparison is a link), the workload, quotes, runs, rates and budget; runs the
//! TCO engine per quote; ranks in the team's base currency. The page, its charts and its exports
//! all come from here, so they always agree.

use crate::{
    domain::{
        money::{format_money, format_unit_price, group},
        quotes::{self as quotes_domain, QuoteDraft, RequirementKind, Status as ReqStatus, Workload},
        runs::Status as RunStatus,
        tco::{
            Assumptions, ComponentKind, Currency, ExchangeRate, Pricing, Quote, RankedQuote, Scenario, ScenarioResult, TcoError,
            TcoWarning, Unit, WhatIf, WhatIfProfiles, run_scenario, what_if,
        },
    },
    error::AppError,
    i18n::{Locale, Msg},
    model::tco::{AssumptionField, ComponentLine, CostComparison, CostProblem, CostRow, QuoteChoice},
    store::{self, Db, runs::RunFilter},
};
use rust_decimal::{Decimal, prelude::FromPrimitive};
use std::str::FromStr;

/// Most nodes the comparison accepts.
pub const MAX_NODES: u32 = 64;

/// The shared assumption fields, in form order.
pub const FIELDS: [&str; 13] = crate::model::tco::ASSUMPTION_FIELDS;

/// A parsed `application/x-www-form-urlencoded` query, repeated keys kept.
#[derive(Clone, Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Parses a raw query string (with or without the leading `?`).
    #[must_use]
    pub fn parse(raw: &str) -> Self {
        Self(serde_urlencoded::from_str(raw.trim_start_matches('?')).unwrap_or_default())
    }

    /// The last value of `key`, trimmed, if not empty.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.trim()).filter(|v| !v.is_empty())
    }

    /// Every value of `key`.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> {
        self.0.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.trim())
    }
}

/// One quote as costed, with what the page needs besides the engine's estimate.
#[derive(Clone, Debug)]
pub struct Costed {
    /// Quote id.
    pub quote_id: i64,
    /// Revision number.
    pub revision: i64,
    /// The quote.
    pub draft: QuoteDraft,
    /// The assumptions this quote was costed under (shared ones plus its throughput and nodes).
    pub assumptions: Assumptions,
    /// The engine's result, ranked.
    pub ranked: RankedQuote,
    /// Low / expected / high and throughput sensitivity.
    pub what_if: Option<WhatIf>,
    /// The run whose throughput was used, and its status.
    pub run: Option<(i64, RunStatus)>,
    /// Invalid runs of this quote and workload (not used).
    pub invalid_runs: Vec<i64>,
    /// The throughput was typed on the page.
    pub throughput_typed: bool,
    /// Requirements the node fails.
    pub failing: Vec<RequirementKind>,
    /// The quote's validity has ended.
    pub expired: bool,
}

/// A whole comparison: the page model, the domain results behind it, the scenario that
/// reproduces it.
#[derive(Clone, Debug)]
pub struct Computed {
    /// What the page shows.
    pub view: CostComparison,
    /// Ranked quotes with their domain results.
    pub costed: Vec<Costed>,
    /// The workload (domain form), when one exists.
    pub workload: Option<Workload>,
    /// The team's base currency.
    pub base: Currency,
}

fn decimal(d: Decimal) -> String {
    d.normalize().to_string()
}

/// Default value of an assumption field for a workload.
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

/// Reads the shared assumptions; every bad field is named, none is replaced by a default.
/// A checked assumption value.
#[derive(Clone, Copy)]
enum Value {
    /// A decimal figure (hours, GB, percent).
    Figure(Decimal),
    /// A node count, or none for "as the workload needs".
    Nodes(Option<u32>),
}

/// Checks one assumption field; the error is the message shown next to it.
fn check_field(name: &str, value: &str, locale: Locale) -> Result<Value, String> {
    if name == "nodes" {
        return match value {
            "" => Ok(Value::Nodes(None)),
            v => match v.parse::<u32>() {
                Ok(n) if (1..=MAX_NODES).contains(&n) => Ok(Value::Nodes(Some(n))),
                _ => Err(locale.fmt(Msg::TcoErrNodes, &[("max", &MAX_NODES.to_string())])),
            },
        };
    }
    match Decimal::from_str(value) {
        Err(_) => Err(locale.t(Msg::TcoErrNumber).to_string()),
        Ok(d) if d.is_sign_negative() && !d.is_zero() => Err(locale.t(Msg::TcoErrNegative).to_string()),
        Ok(d) if name == "rerun_pct" && d >= Decimal::ONE_HUNDRED => Err(locale.fmt(Msg::TcoErrPercent, &[("min", "0"), ("max", "99")])),
        Ok(d) if name == "efficiency_pct" && (d <= Decimal::ZERO || d > Decimal::ONE_HUNDRED) => {
            Err(locale.fmt(Msg::TcoErrPercent, &[("min", "1"), ("max", "100")]))
        }
        Ok(d) => Ok(Value::Figure(d)),
    }
}

/// Sets one checked field in `a`.
fn apply(a: &mut Assumptions, name: &str, value: Value) {
    let hundred = Decimal::ONE_HUNDRED;
    match (name, value) {
        (_, Value::Nodes(n)) => a.nodes = n,
        ("setup_h", Value::Figure(d)) => a.setup_h = d,
        ("data_prep_h", Value::Figure(d)) => a.data_prep_h = d,
        ("download_h", Value::Figure(d)) => a.download_h = d,
        ("export_h", Value::Figure(d)) => a.export_h = d,
        ("idle_h", Value::Figure(d)) => a.idle_h = d,
        ("stopped_h", Value::Figure(d)) => a.stopped_h = d,
        ("rerun_pct", Value::Figure(d)) => a.rerun_share = d / hundred,
        ("egress_gb", Value::Figure(d)) => a.egress_gb = d,
        ("ingress_gb", Value::Figure(d)) => a.ingress_gb = d,
        ("snapshot_gb", Value::Figure(d)) => a.snapshot_gb = d,
        ("snapshot_months", Value::Figure(d)) => a.snapshot_months = d,
        ("efficiency_pct", Value::Figure(d)) => a.efficiency = d / hundred,
        _ => {}
    }
}

/// Reads the shared assumptions; every bad field is named, none is replaced by a default.
fn read_assumptions(q: &Query, w: Option<&Workload>, locale: Locale) -> (Vec<AssumptionField>, Option<Assumptions>) {
    let mut fields = Vec::new();
    let mut a = Assumptions {
        setup_h: Decimal::ZERO,
        data_prep_h: Decimal::ZERO,
        download_h: Decimal::ZERO,
        export_h: Decimal::ZERO,
        idle_h: Decimal::ZERO,
        stopped_h: Decimal::ZERO,
        rerun_share: Decimal::ZERO,
        egress_gb: Decimal::ZERO,
        ingress_gb: Decimal::ZERO,
        snapshot_gb: Decimal::ZERO,
        snapshot_months: Decimal::ZERO,
        nodes: None,
        efficiency: Decimal::ONE,
        measured_throughput_per_s: None,
    };
    let mut ok = true;
    for name in FIELDS {
        let typed = q.0.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_string());
        let value = typed.unwrap_or_else(|| default_value(name, w));
        let error = match check_field(name, &value, locale) {
            Ok(v) => {
                apply(&mut a, name, v);
                None
            }
            Err(e) => Some(e),
        };
        ok &= error.is_none();
        fields.push(AssumptionField { name: name.to_string(), value, error });
    }
    (fields, ok.then_some(a))
}

/// Applies the overrides of one quote (`{field}_{quote id}` in the query) to the shared
/// assumptions; the first bad one is returned as "field: message".
fn quote_overrides(q: &Query, quote_id: i64, shared: &Assumptions, locale: Locale) -> Result<Assumptions, String> {
    let mut a = shared.clone();
    for name in FIELDS {
        if let Some(v) = q.get(&format!("{name}_{quote_id}")) {
            let value = check_field(name, v, locale).map_err(|e| format!("{}: {e}", locale.t(Msg::from_key(&format!("tco.f_{name}")).unwrap_or(Msg::TcoAssumptions))))?;
            apply(&mut a, name, value);
        }
    }
    Ok(a)
}

/// Whether a run's throughput unit measures the workload's unit of work ("tokens/s" for
/// "tokens").
fn unit_matches(run_unit: &str, work_unit: &str) -> bool {
    let singular = |s: &str| s.trim().trim_end_matches("/s").trim().trim_end_matches('s').to_ascii_lowercase();
    !work_unit.trim().is_empty() && singular(run_unit) == singular(work_unit)
}

/// The best trusted run (valid or warn) of a quote for a workload, per node, in the workload's
/// unit; and the invalid runs that were left out.
async fn measured(db: &Db, team_id: i64, quote_id: i64, workload_id: i64, unit: &str) -> Result<(Option<(i64, RunStatus, Decimal)>, Vec<i64>), AppError> {
    let runs = store::runs::list(db, team_id, RunFilter { quote_id: Some(quote_id), workload_id: Some(workload_id) }, 500).await?;
    let mut best: Option<(i64, RunStatus, f64)> = None;
    let mut invalid = Vec::new();
    for r in runs {
        let (Some(value), Some(run_unit)) = (r.throughput_value, r.throughput_unit.as_deref()) else { continue };
        if !unit_matches(run_unit, unit) || !value.is_finite() || value <= 0.0 {
            continue;
        }
        if r.status == RunStatus::Invalid {
            invalid.push(r.id);
            continue;
        }
        #[expect(clippy::cast_precision_loss, reason = "node counts are small")]
        let per_node = value / r.nodes.max(1) as f64;
        if best.is_none_or(|(_, _, b)| per_node > b) {
            best = Some((r.id, r.status, per_node));
        }
    }
    let best = best.and_then(|(id, status, v)| Decimal::from_f64(v).map(|d| (id, status, d.round_dp(6))));
    Ok((best, invalid))
}

fn reason_text(locale: Locale, e: &TcoError) -> String {
    let reason = Msg::from_key(&format!("tco_error.{}", e.reason.code())).map_or_else(|| e.reason.to_string(), |m| locale.t(m).to_string());
    locale.fmt(Msg::TcoErrorLine, &[("field", e.field), ("reason", &reason)])
}

fn component_line(locale: Locale, c: &crate::domain::tco::CostComponent, currency: Currency) -> ComponentLine {
    let (code, name) = match &c.kind {
        ComponentKind::OnDemandCompute => ("on_demand_compute", locale.t(Msg::TcoCOnDemandCompute).to_string()),
        ComponentKind::MonthlyCommitment => ("monthly_commitment", locale.t(Msg::TcoCMonthlyCommitment).to_string()),
        ComponentKind::StoppedCompute => ("stopped_compute", locale.t(Msg::TcoCStoppedCompute).to_string()),
        ComponentKind::Disk => ("disk", locale.t(Msg::TcoCDisk).to_string()),
        ComponentKind::PublicIp => ("public_ip", locale.t(Msg::TcoCPublicIp).to_string()),
        ComponentKind::Traffic => ("traffic", locale.t(Msg::TcoCTraffic).to_string()),
        ComponentKind::Snapshots => ("snapshots", locale.t(Msg::TcoCSnapshots).to_string()),
        ComponentKind::OtherFee(label) => ("other_fee", locale.fmt(Msg::TcoCOtherFee, &[("label", label)])),
    };
    let unit = locale.t(match c.unit {
        Unit::NodeHour => Msg::TcoUNodeHour,
        Unit::NodeMonth => Msg::TcoUNodeMonth,
        Unit::GbMonth => Msg::TcoUGbMonth,
        Unit::Gb => Msg::TcoUGb,
        Unit::IpHour => Msg::TcoUIpHour,
        Unit::Item => Msg::TcoUItem,
    });
    ComponentLine {
        code: code.into(),
        name,
        unit: unit.into(),
        quantity: group(c.quantity.round_dp(4).normalize(), c.quantity.round_dp(4).normalize().scale()),
        price: c.unit_price.map(|p| format_unit_price(p, currency, 4)).unwrap_or_default(),
        cost: format_money(c.cost, currency),
        cost_exact: decimal(c.cost),
    }
}

fn hours(d: Decimal) -> String {
    group(d.round_dp(2).normalize(), d.round_dp(2).normalize().scale())
}

/// Builds the comparison for the active team from the page's query.
pub async fn compute(db: &Db, team_id: i64, raw_query: &str, locale: Locale, can_set_budget: bool) -> Result<Computed, AppError> {
    let q = Query::parse(raw_query);
    let workloads = store::workloads::list(db, team_id).await?;
    let chosen = q.get("workload").and_then(|v| v.parse::<i64>().ok()).and_then(|id| workloads.iter().find(|w| w.id == id)).or(workloads.first());
    let workload = chosen.map(|w| w.record.clone());
    let workload_id = chosen.map(|w| w.id);
    let base = store::teams::base_currency(db, team_id).await?.unwrap_or(Currency::parse("CNY").map_err(|_| AppError::Internal)?);
    let rates: Vec<ExchangeRate> = store::exchange_rates::list(db, team_id).await?.into_iter().map(|r| r.record).collect();
    let budget = match workload_id {
        Some(id) => store::budgets::get(db, team_id, id).await?,
        None => None,
    };
    let today = store::today();
    let drafts = store::quotes::latest_all(db, team_id).await?;
    let labels = store::runs::quote_labels(db, team_id).await?;
    let (fields, assumptions) = read_assumptions(&q, workload.as_ref(), locale);

    let picked: Vec<i64> = q.all("q").filter_map(|v| v.parse().ok()).collect();
    let explicit = q.get("picked").is_some() || !picked.is_empty();
    let mut choices = Vec::new();
    let mut selected = Vec::new();
    for (summary, label) in drafts.iter().filter_map(|d| labels.iter().find(|(id, _)| *id == d.quote_id).map(|(_, l)| (d, l.clone()))) {
        let failing: Vec<RequirementKind> = workload
            .as_ref()
            .map(|w| quotes_domain::check(w, &summary.draft.spec).into_iter().filter(|r| r.status == ReqStatus::Fail).map(|r| r.kind).collect())
            .unwrap_or_default();
        let expired = summary.draft.is_expired(today);
        let on = if explicit { picked.contains(&summary.quote_id) } else { !expired && failing.is_empty() };
        choices.push(QuoteChoice { id: summary.quote_id, label: label.clone(), selected: on, expired, fails_requirements: !failing.is_empty() });
        if on {
            selected.push((summary.clone(), label, failing, expired));
        }
    }

    let mut costed = Vec::new();
    let mut problems = Vec::new();
    if let (Some(w), Some(wid), Some(shared)) = (workload.as_ref(), workload_id, assumptions.as_ref()) {
        let tco_workload = w.to_tco();
        for (summary, label, failing, expired) in selected {
            let id = summary.quote_id;
            let mut a = match quote_overrides(&q, id, shared, locale) {
                Ok(a) => a,
                Err(message) => {
                    problems.push(CostProblem { label, message });
                    continue;
                }
            };
            let typed = q.get(&format!("tp_{id}")).and_then(|v| Decimal::from_str(v).ok());
            let (run, invalid_runs) = match &w.total_work {
                Some(work) => measured(db, team_id, id, wid, &work.unit).await?,
                None => (None, Vec::new()),
            };
            a.measured_throughput_per_s = typed.or(run.map(|(_, _, tp)| tp));
            let quote = Quote {
                id: id.to_string(),
                label: label.clone(),
                price_sheet: summary.draft.price.clone(),
                node_shape: summary.draft.spec.shape(),
                measured_throughput_per_s: None,
                assumption_overrides: None,
            };
            let scenario = Scenario {
                title: None,
                workload: tco_workload.clone(),
                assumptions: a.clone(),
                quotes: vec![quote],
                compare_currency: Some(base),
                exchange_rates: rates.clone(),
            };
            match run_scenario(&scenario) {
                Ok(mut result) => {
                    let ranked = result.quotes.remove(0);
                    let what_if = what_if(&summary.draft.price, &summary.draft.spec.shape(), &tco_workload, &a, &WhatIfProfiles::default()).ok();
                    costed.push(Costed {
                        quote_id: id,
                        revision: summary.revision,
                        draft: summary.draft.clone(),
                        assumptions: a,
                        ranked,
                        what_if,
                        run: run.map(|(id, status, _)| (id, status)),
                        invalid_runs,
                        throughput_typed: typed.is_some(),
                        failing,
                        expired,
                    });
                }
                Err(e) => problems.push(CostProblem { label, message: reason_text(locale, &e) }),
            }
        }
    }
    costed.sort_by(|a, b| a.ranked.compared_total.cmp(&b.ranked.compared_total).then_with(|| a.ranked.label.cmp(&b.ranked.label)));
    for (i, c) in costed.iter_mut().enumerate() {
        c.ranked.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    let rows = costed.iter().map(|c| row(locale, c, base, budget, &rates)).collect();
    let view = CostComparison {
        workloads: workloads.iter().map(|w| (w.id, w.record.name.clone())).collect(),
        workload_id,
        workload_name: workload.as_ref().map(|w| w.name.clone()).unwrap_or_default(),
        quotes: choices,
        assumptions: fields,
        base_currency: base.code().to_string(),
        budget: budget.map(|(amount, currency)| format_money(amount, currency)),
        budget_exact: budget.map(|(amount, _)| decimal(amount)),
        rows,
        problems,
        query: raw_query.trim_start_matches('?').to_string(),
        can_set_budget,
    };
    Ok(Computed { view, costed, workload, base })
}

fn row(locale: Locale, c: &Costed, base: Currency, budget: Option<(Decimal, Currency)>, rates: &[ExchangeRate]) -> CostRow {
    let e = &c.ranked.estimate;
    let cur = e.currency;
    let mut warnings = Vec::new();
    if c.expired {
        warnings.push(locale.t(Msg::TcoWExpired).to_string());
    }
    for kind in &c.failing {
        warnings.push(locale.fmt(Msg::TcoWRequirement, &[("requirement", locale.t(crate::pages::quotes::compare::requirement_msg(*kind)))]));
    }
    for w in &e.warnings {
        warnings.push(match w {
            TcoWarning::ThroughputAssumed => locale.t(Msg::TcoWThroughputAssumed).to_string(),
            TcoWarning::StatedRunLengthIgnored { run_hours } => locale.fmt(Msg::TcoWRunLengthIgnored, &[("hours", &hours(*run_hours))]),
            TcoWarning::NodesBelowRequirement { needed, chosen } => {
                locale.fmt(Msg::TcoWNodesBelow, &[("needed", &needed.to_string()), ("chosen", &chosen.to_string())])
            }
            TcoWarning::MinimumBillableApplied { minimum_h } => locale.fmt(Msg::TcoWMinimum, &[("hours", &hours(*minimum_h))]),
        });
    }
    if let Some((id, RunStatus::Warn)) = c.run {
        warnings.push(locale.fmt(Msg::TcoWRunWarn, &[("id", &id.to_string())]));
    }
    for id in &c.invalid_runs {
        warnings.push(locale.fmt(Msg::TcoWRunInvalid, &[("id", &id.to_string())]));
    }
    let over_budget = budget.is_some_and(|(amount, currency)| currency == base && c.ranked.compared_total > amount);
    if let Some((amount, currency)) = budget.filter(|_| over_budget) {
        warnings.push(locale.fmt(Msg::TcoWOverBudget, &[("budget", &format_money(amount, currency))]));
    }
    let rate_note = c.ranked.rate_date.as_ref().and_then(|date| {
        rates
            .iter()
            .filter(|r| &r.date == date && ((r.from == cur && r.to == base) || (r.from == base && r.to == cur)))
            .map(|r| locale.fmt(Msg::TcoRateNote, &[("from", r.from.code()), ("rate", &format!("{:.4}", r.rate)), ("to", r.to.code()), ("date", date)]))
            .next()
    });
    let pricing_note = match (e.monthly_compute, e.break_even_hours) {
        (Some(monthly), Some(be)) => {
            let args = [("monthly", format_money(monthly, cur)), ("on_demand", format_money(e.on_demand_compute, cur)), ("hours", hours(be))];
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            Some(locale.fmt(if e.pricing_used == Pricing::Monthly { Msg::TcoPricingMonthly } else { Msg::TcoPricingOnDemand }, &args))
        }
        _ => None,
    };
    let what_if = c
        .what_if
        .as_ref()
        .map(|w| {
            let pct = "20";
            let mut out = vec![
                (locale.t(Msg::TcoWiLow).to_string(), format_money(w.low.total, cur)),
                (locale.t(Msg::TcoWiExpected).to_string(), format_money(w.expected.total, cur)),
                (locale.t(Msg::TcoWiHigh).to_string(), format_money(w.high.total, cur)),
            ];
            if let Some(s) = &w.slower_throughput {
                out.push((locale.fmt(Msg::TcoWiSlower, &[("pct", pct)]), format_money(s.total, cur)));
            }
            if let Some(f) = &w.faster_throughput {
                out.push((locale.fmt(Msg::TcoWiFaster, &[("pct", pct)]), format_money(f.total, cur)));
            }
            out
        })
        .unwrap_or_default();
    let throughput = c.assumptions.measured_throughput_per_s.map(|tp| {
        let value = format!("{} {}/s", group(tp.round_dp(3).normalize(), tp.round_dp(3).normalize().scale()), c.ranked.estimate.cost_per_unit.as_ref().map_or("", |u| u.unit.as_str()));
        match (c.throughput_typed, c.run) {
            (false, Some((id, _))) => locale.fmt(Msg::TcoThroughputFromRun, &[("value", &value), ("id", &id.to_string())]),
            _ => locale.fmt(Msg::TcoThroughputTyped, &[("value", &value)]),
        }
    });
    CostRow {
        rank: c.ranked.rank,
        quote_id: c.quote_id,
        revision: c.revision,
        label: c.ranked.label.clone(),
        currency: cur.code().to_string(),
        total: format_money(e.total, cur),
        total_exact: decimal(e.total),
        compared_total: format_money(c.ranked.compared_total, base),
        compared_exact: decimal(c.ranked.compared_total),
        rate_note,
        cost_per_unit: e.cost_per_unit.as_ref().map(|u| {
            locale.fmt(Msg::TcoPerUnit, &[("amount", &format_unit_price(u.amount, cur, 2)), ("per", &group(Decimal::from(u.per), 0)), ("unit", &u.unit)])
        }),
        gpu_hour: e.effective_gpu_hour_price.map(|p| format_unit_price(p, cur, 2)),
        time_to_finish: format!("{} h", hours(e.time_to_finish_h)),
        hours_note: locale.fmt(
            Msg::TcoHours,
            &[("nodes", &e.nodes.to_string()), ("busy", &hours(e.busy_h)), ("billable", &hours(e.billable_h)), ("rental", &hours(e.rental_h))],
        ),
        nodes: e.nodes,
        idle: format_money(e.idle_cost, cur),
        pricing_note,
        components: e.components.iter().map(|comp| component_line(locale, comp, cur)).collect(),
        what_if,
        warnings,
        run_id: c.run.map(|(id, _)| id),
        throughput,
        over_budget,
    }
}

/// The scenario file that reproduces a comparison (`nodeledger tco` reads it) and its result.
#[must_use]
pub fn scenario_of(computed: &Computed, rates: Vec<ExchangeRate>) -> Option<(Scenario, ScenarioResult)> {
    let w = computed.workload.as_ref()?;
    let first = computed.costed.first()?;
    let quotes = computed
        .costed
        .iter()
        .map(|c| Quote {
            id: c.quote_id.to_string(),
            label: c.ranked.label.clone(),
            price_sheet: c.draft.price.clone(),
            node_shape: c.draft.spec.shape(),
            measured_throughput_per_s: c.assumptions.measured_throughput_per_s,
            assumption_overrides: (c.assumptions.nodes != first.assumptions.nodes).then(|| crate::domain::tco::AssumptionOverrides {
                nodes: c.assumptions.nodes,
                ..Default::default()
            }),
        })
        .collect();
    let scenario = Scenario {
        title: Some(w.name.clone()),
        workload: w.to_tco(),
        assumptions: Assumptions { measured_throughput_per_s: None, ..first.assumptions.clone() },
        quotes,
        compare_currency: Some(computed.base),
        exchange_rates: rates,
    };
    let result = run_scenario(&scenario).ok()?;
    Some((scenario, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_keep_repeated_keys_and_the_last_value_wins() {
        let q = Query::parse("?q=1&q=2&setup_h=+2+&setup_h=3&empty=");
        assert_eq!(q.all("q").collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(q.get("setup_h"), Some("3"));
        assert_eq!(q.get("empty"), None);
    }

    #[test]
    fn units_match_with_or_without_per_second() {
        assert!(unit_matches("tokens/s", "tokens"));
        assert!(unit_matches("samples/s", "sample"));
        assert!(!unit_matches("requests/s", "tokens"));
    }

    #[test]
    fn bad_assumptions_are_named_and_nothing_is_assumed() {
        let q = Query::parse("setup_h=-1&rerun_pct=100&efficiency_pct=0&nodes=0&egress_gb=lots");
        let (fields, parsed) = read_assumptions(&q, None, Locale::En);
        assert!(parsed.is_none());
        let err = |n: &str| fields.iter().find(|f| f.name == n).and_then(|f| f.error.clone()).unwrap_or_default();
        assert_eq!(err("setup_h"), "Must not be negative.");
        assert_eq!(err("rerun_pct"), "Must lie between 0 and 99 %.");
        assert_eq!(err("efficiency_pct"), "Must lie between 1 and 100 %.");
        assert!(err("nodes").contains("1 to 64"));
        assert_eq!(err("egress_gb"), "Enter a number, e.g. 1.5.");
        assert_eq!(fields.iter().find(|f| f.name == "egress_gb").unwrap().value, "lots", "the typed value is kept");
        let (_, ok) = read_assumptions(&Query::parse("rerun_pct=25&efficiency_pct=80&nodes=2"), None, Locale::En);
        let a = ok.unwrap();
        assert_eq!((a.rerun_share, a.efficiency, a.nodes, a.setup_h), (Decimal::new(25, 2), Decimal::new(8, 1), Some(2), Decimal::ONE));
    }
}
