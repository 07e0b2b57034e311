//! The cost comparison of a workload across the team's quotes: reads the query (the page is a
//! GET form, so a comparison is a link), the workload, quotes, runs, rates and budget; runs the
//! TCO engine per quote; ranks in the team's base currency. The page, its charts and its exports
//! all come from here, so they always agree.

use crate::{
    domain::{
        money::{format_money, format_unit_price, group},
        quotes::NodeSpec,
        quotes::{self as quotes_domain, QuoteDraft, RequirementKind, RequirementStatus, Workload},
        runs::RunStatus,
        tco::{
            AssumptionOverrides, Assumptions, BreakEven, ComponentKind, Currency, ExchangeRate, Pricing, Quote,
            QuoteGroup, RankedQuote, RunThroughput, Scenario, ScenarioResult, TcoError, TcoWarning, Unit, WhatIf,
            WhatIfProfiles, latest_rate, ranking_order, run_scenario, throughput, what_if,
        },
    },
    error::AppError,
    i18n::{Locale, Msg},
    store::{self, Db, runs::RunFilter},
    views::{
        RunSummary,
        tco::{AssumptionField, ComponentLine, CostComparison, CostProblem, CostRow, QuoteChoice},
    },
};
use rust_decimal::Decimal;
use std::{collections::HashMap, str::FromStr};

/// Most nodes the comparison accepts.
pub const MAX_NODES: u32 = 64;

/// The shared assumption fields, in form order.
pub const FIELDS: [&str; 13] = crate::views::tco::ASSUMPTION_FIELDS;

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
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
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
    /// The valid runs the throughput comes from (empty when typed or none).
    pub runs_used: Vec<i64>,
    /// The slowest valid run, used by the what-if.
    pub slowest_run: Option<i64>,
    /// Runs of this node and workload left out (not valid), with their status.
    pub left_out: Vec<(i64, RunStatus)>,
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
    /// The shared assumptions (without per-quote overrides), when they are valid.
    pub shared: Option<Assumptions>,
    /// The team's exchange rates the totals were converted with.
    pub rates: Vec<ExchangeRate>,
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
        Ok(d) if name == "rerun_pct" && d >= Decimal::ONE_HUNDRED => {
            Err(locale.fmt(Msg::TcoErrPercent, &[("min", "0"), ("max", "99")]))
        }
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
        n_run: None,
    };
    let mut ok = true;
    for name in FIELDS {
        let typed =
            q.0.iter()
                .rev()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim().to_string());
        let value = typed.unwrap_or_else(|| default_value(name, w));
        let error = match check_field(name, &value, locale) {
            Ok(v) => {
                apply(&mut a, name, v);
                None
            }
            Err(e) => Some(e),
        };
        ok &= error.is_none();
        fields.push(AssumptionField {
            name: name.to_string(),
            value,
            error,
        });
    }
    (fields, ok.then_some(a))
}

/// Applies the overrides of one quote (`{field}_{quote id}` in the query) to the shared
/// assumptions; the first bad one is returned as "field: message".
fn quote_overrides(q: &Query, quote_id: i64, shared: &Assumptions, locale: Locale) -> Result<Assumptions, String> {
    let mut a = shared.clone();
    for name in FIELDS {
        if let Some(v) = q.get(&format!("{name}_{quote_id}")) {
            let value = check_field(name, v, locale).map_err(|e| {
                format!(
                    "{}: {e}",
                    locale.t(Msg::from_key(&format!("tco.f_{name}")).unwrap_or(Msg::TcoAssumptions))
                )
            })?;
            apply(&mut a, name, value);
        }
    }
    Ok(a)
}

/// Whether a run's throughput unit measures the workload's unit of work ("tokens/s" for
/// "tokens").
fn unit_matches(run_unit: &str, work_unit: &str) -> bool {
    let singular = |s: &str| {
        s.trim()
            .trim_end_matches("/s")
            .trim()
            .trim_end_matches('s')
            .to_ascii_lowercase()
    };
    !work_unit.trim().is_empty() && singular(run_unit) == singular(work_unit)
}

/// Whether two quoted nodes are the same for throughput: GPU model, GPUs per node, VRAM,
/// usable VRAM and sharing (slice) are equal.
#[must_use]
pub fn same_node(a: &NodeSpec, b: &NodeSpec) -> bool {
    a.gpu_model.trim().eq_ignore_ascii_case(b.gpu_model.trim())
        && a.gpus_per_node == b.gpus_per_node
        && a.vram_gib == b.vram_gib
        && a.usable_vram_gib == b.usable_vram_gib
        && a.sharing == b.sharing
}

/// The workload's runs with the node spec of the quote revision each ran under.
struct RunPool {
    runs: Vec<(RunSummary, Option<NodeSpec>)>,
}

/// Loads the team's runs of `workload_id` and the spec of each run's quote revision.
async fn run_pool(db: &Db, team_id: i64, workload_id: i64) -> Result<RunPool, AppError> {
    let runs = store::runs::list(
        db,
        team_id,
        RunFilter {
            quote_id: None,
            workload_id: Some(workload_id),
        },
        1000,
    )
    .await?;
    let specs: HashMap<(i64, i64), NodeSpec> = store::quotes::measured_revisions(db, team_id, workload_id)
        .await?
        .into_iter()
        .map(|rev| ((rev.quote_id, rev.revision), rev.draft.spec))
        .collect();
    let runs = runs
        .into_iter()
        .map(|r| {
            let spec = r.quote_id.zip(r.revision).and_then(|k| specs.get(&k).cloned());
            (r, spec)
        })
        .collect();
    Ok(RunPool { runs })
}

/// What the runs give one quote revision (rule 5).
#[derive(Clone, Debug, Default)]
struct Measured {
    /// The median throughput and its node count, if any valid run applies.
    expected: Option<RunThroughput>,
    /// The runs it comes from.
    used: Vec<i64>,
    /// The slowest valid run and its throughput.
    slowest: Option<(i64, RunThroughput)>,
    /// Runs of this node and workload left out, with their status.
    left_out: Vec<(i64, RunStatus)>,
}

/// A run's throughput as the decimal it prints as (1800.0 → 1800), if finite and positive.
fn run_decimal(value: f64) -> Option<Decimal> {
    (value.is_finite() && value > 0.0)
        .then(|| Decimal::from_str(&value.to_string()).ok())
        .flatten()
        .filter(|d| *d > Decimal::ZERO)
}

/// The runs of this quote revision, or of any quote revision with the same node, for the
/// workload's unit: only valid runs count; the median one-node throughput is expected and the
/// slowest is kept for the what-if.
fn measured(
    pool: &RunPool,
    quote_id: i64,
    revision: i64,
    spec: &NodeSpec,
    unit: &str,
    efficiency: Decimal,
) -> Result<Measured, TcoError> {
    let mut valid: Vec<(i64, RunThroughput)> = Vec::new();
    let mut left_out = Vec::new();
    for (r, run_spec) in &pool.runs {
        let this_revision = r.quote_id == Some(quote_id) && r.revision == Some(revision);
        if !this_revision && !run_spec.as_ref().is_some_and(|s| same_node(s, spec)) {
            continue;
        }
        let (Some(value), Some(run_unit)) = (r.throughput_value, r.throughput_unit.as_deref()) else {
            continue;
        };
        let Some(per_s) = run_decimal(value).filter(|_| unit_matches(run_unit, unit)) else {
            continue;
        };
        if r.status == RunStatus::Valid {
            let nodes = u32::try_from(r.nodes.max(1)).unwrap_or(u32::MAX);
            valid.push((r.id, RunThroughput { per_s, nodes }));
        } else {
            left_out.push((r.id, r.status));
        }
    }
    valid.sort_by_key(|(id, _)| *id);
    left_out.sort_by_key(|(id, _)| *id);
    let runs: Vec<RunThroughput> = valid.iter().map(|(_, t)| *t).collect();
    let Some(found) = throughput::from_runs(&runs, efficiency)? else {
        return Ok(Measured {
            left_out,
            ..Measured::default()
        });
    };
    Ok(Measured {
        expected: Some(found.expected),
        used: found.expected_runs.iter().map(|i| valid[*i].0).collect(),
        slowest: Some((valid[found.slowest_run].0, found.slowest)),
        left_out,
    })
}

fn reason_text(locale: Locale, reason: &crate::domain::tco::ErrorReason) -> String {
    Msg::from_key(&format!("tco_error.{}", reason.code()))
        .map_or_else(|| reason.to_string(), |m| locale.t(m).to_string())
}

/// Why a quote cannot be costed, as a sentence in the reader's language.
fn error_sentence(locale: Locale, e: &TcoError, workload: &Workload) -> String {
    use crate::domain::tco::ErrorReason as R;
    let reason = reason_text(locale, &e.reason);
    match (&e.reason, e.field) {
        (R::NoWorkSize, _) if workload.total_work.is_none() => locale.t(Msg::TcoENoWorkSize).to_string(),
        (R::NoWorkSize, _) => locale.t(Msg::TcoENoRunLength).to_string(),
        (R::MissingRate { from, to }, _) => locale.fmt(Msg::TcoEMissingRate, &[("from", from), ("to", to)]),
        (R::Overflow, _) => locale.t(Msg::TcoEOverflow).to_string(),
        (R::Missing, "price_sheet.commitment_months" | "price_sheet.monthly_price") => {
            locale.t(Msg::TcoEMonthlyIncomplete).to_string()
        }
        (_, f) if f.starts_with("price_sheet.") => locale.fmt(Msg::TcoEPriceSheet, &[("reason", &reason)]),
        (_, f) if f.starts_with("node_shape.") => locale.fmt(Msg::TcoENodeShape, &[("reason", &reason)]),
        (_, f) if f.starts_with("workload.") => locale.fmt(Msg::TcoEWorkload, &[("reason", &reason)]),
        (_, f) => locale.fmt(Msg::TcoErrorLine, &[("field", f), ("reason", &reason)]),
    }
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
        quantity: group(
            c.quantity.round_dp(4).normalize(),
            c.quantity.round_dp(4).normalize().scale(),
        ),
        price: c
            .unit_price
            .map(|p| format_unit_price(p, currency, 4))
            .unwrap_or_default(),
        cost: format_money(c.cost, currency),
        cost_exact: decimal(c.cost),
    }
}

fn hours(d: Decimal) -> String {
    group(d.round_dp(2).normalize(), d.round_dp(2).normalize().scale())
}

fn throughput_text(d: Decimal) -> String {
    group(d.round_dp(3).normalize(), d.round_dp(3).normalize().scale())
}

/// Cost per unit of work and price per GPU-hour in the base currency: the converted total
/// (converted with the rate of the totals) × units ÷ the work, and ÷ the GPU-hours of compute,
/// with two digits more than the base currency's minor unit. In the base currency itself they
/// are the estimate's own figures.
#[must_use]
pub fn prices_in_base(
    ranked: &RankedQuote,
    base: Currency,
    work: Option<Decimal>,
    gpus_per_node: u32,
) -> (Option<Decimal>, Option<Decimal>) {
    let e = &ranked.estimate;
    if e.currency == base {
        return (e.cost_per_unit.as_ref().map(|u| u.amount), e.effective_gpu_hour_price);
    }
    let fine = |d: Decimal| {
        d.round_dp_with_strategy(
            base.minor_units() + 2,
            rust_decimal::RoundingStrategy::MidpointAwayFromZero,
        )
    };
    let total = ranked.compared_total;
    let per_unit = e
        .cost_per_unit
        .as_ref()
        .zip(work)
        .and_then(|(u, w)| total.checked_mul(Decimal::from(u.per))?.checked_div(w))
        .map(fine);
    let gpu_hours = e
        .compute_h
        .checked_mul(Decimal::from(gpus_per_node))
        .and_then(|h| h.checked_mul(Decimal::from(e.nodes)));
    let gpu_hour = e
        .effective_gpu_hour_price
        .and(gpu_hours)
        .filter(|h| !h.is_zero())
        .and_then(|h| total.checked_div(h))
        .map(fine);
    (per_unit, gpu_hour)
}

/// A budget in `base`: as stored when in the base currency, else converted with the latest rate
/// of the pair (the rate of the totals); `Err` names the pair when no rate exists.
pub fn budget_in_base(
    budget: (Decimal, Currency),
    base: Currency,
    rates: &[ExchangeRate],
) -> Result<(Decimal, Option<ExchangeRate>), (Currency, Currency)> {
    let (amount, currency) = budget;
    if currency == base {
        return Ok((amount, None));
    }
    let rate = latest_rate(rates, currency, base).ok_or((currency, base))?;
    let converted = rate.convert(amount, currency).map_err(|_| (currency, base))?;
    Ok((converted, Some(rate.clone())))
}

fn rate_note(locale: Locale, r: &ExchangeRate) -> String {
    locale.fmt(
        Msg::TcoRateNote,
        &[
            ("from", r.from.code()),
            ("rate", &format!("{:.4}", r.rate)),
            ("to", r.to.code()),
            ("date", &r.date),
        ],
    )
}

/// Reads the typed throughput of one quote (`tp_{id}`, and `tpn_{id}` for the nodes it ran
/// on); the error is "field: message".
fn typed_throughput(q: &Query, quote_id: i64, locale: Locale) -> Result<Option<(Decimal, Option<u32>)>, String> {
    let Some(v) = q.get(&format!("tp_{quote_id}")) else {
        return Ok(None);
    };
    let label = locale.t(Msg::TcoOverrideTp);
    let tp = match Decimal::from_str(v) {
        Ok(d) if d > Decimal::ZERO => d,
        Ok(_) => return Err(format!("{label}: {}", locale.t(Msg::TcoErrPositive))),
        Err(_) => return Err(format!("{label}: {}", locale.t(Msg::TcoErrNumber))),
    };
    let n_run = match q.get(&format!("tpn_{quote_id}")) {
        None => None,
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (1..=MAX_NODES).contains(&n) => Some(n),
            _ => {
                return Err(format!(
                    "{}: {}",
                    locale.t(Msg::TcoOverrideTpNodes),
                    locale.fmt(Msg::TcoErrNodes, &[("max", &MAX_NODES.to_string())])
                ));
            }
        },
    };
    Ok(Some((tp, n_run)))
}

/// Builds the comparison for the active team from the page's query.
pub async fn compute(
    db: &Db,
    team_id: i64,
    raw_query: &str,
    locale: Locale,
    can_set_budget: bool,
) -> Result<Computed, AppError> {
    let q = Query::parse(raw_query);
    let workloads = store::workloads::list(db, team_id).await?;
    let chosen = q
        .get("workload")
        .and_then(|v| v.parse::<i64>().ok())
        .and_then(|id| workloads.iter().find(|w| w.id == id))
        .or(workloads.first());
    let workload = chosen.map(|w| w.record.clone());
    let workload_id = chosen.map(|w| w.id);
    let base = store::teams::base_currency(db, team_id)
        .await?
        .unwrap_or(Currency::parse("CNY").map_err(|_| AppError::Internal)?);
    let rates: Vec<ExchangeRate> = store::exchange_rates::list(db, team_id)
        .await?
        .into_iter()
        .map(|r| r.record)
        .collect();
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
    for (summary, label) in drafts.iter().filter_map(|d| {
        labels
            .iter()
            .find(|(id, _)| *id == d.quote_id)
            .map(|(_, l)| (d, l.clone()))
    }) {
        let failing: Vec<RequirementKind> = workload
            .as_ref()
            .map(|w| {
                quotes_domain::check(w, &summary.draft.spec)
                    .into_iter()
                    .filter(|r| r.status == RequirementStatus::Fail)
                    .map(|r| r.kind)
                    .collect()
            })
            .unwrap_or_default();
        let expired = summary.draft.is_expired(today);
        let on = if explicit {
            picked.contains(&summary.quote_id)
        } else {
            !expired && failing.is_empty()
        };
        choices.push(QuoteChoice {
            id: summary.quote_id,
            label: label.clone(),
            selected: on,
            expired,
            fails_requirements: !failing.is_empty(),
        });
        if on {
            selected.push((summary.clone(), label, failing, expired));
        }
    }

    let mut costed = Vec::new();
    let mut problems = Vec::new();
    if let (Some(w), Some(wid), Some(shared)) = (workload.as_ref(), workload_id, assumptions.as_ref()) {
        let tco_workload = w.to_tco();
        let pool = run_pool(db, team_id, wid).await?;
        for (summary, label, failing, expired) in selected {
            let id = summary.quote_id;
            let typed =
                quote_overrides(&q, id, shared, locale).and_then(|a| typed_throughput(&q, id, locale).map(|t| (a, t)));
            let (mut a, typed) = match typed {
                Ok(x) => x,
                Err(message) => {
                    problems.push(CostProblem { label, message });
                    continue;
                }
            };
            let mut runs = Measured::default();
            if let Some(work) = &w.total_work {
                runs = match measured(
                    &pool,
                    id,
                    summary.revision,
                    &summary.draft.spec,
                    &work.unit,
                    a.efficiency,
                ) {
                    Ok(m) => m,
                    Err(e) => {
                        problems.push(CostProblem {
                            label,
                            message: error_sentence(locale, &e, w),
                        });
                        continue;
                    }
                };
            }
            match typed {
                Some((tp, n_run)) => (a.measured_throughput_per_s, a.n_run) = (Some(tp), n_run),
                None => {
                    (a.measured_throughput_per_s, a.n_run) =
                        (runs.expected.map(|t| t.per_s), runs.expected.map(|t| t.nodes))
                }
            }
            let scenario = Scenario {
                title: None,
                workload: tco_workload.clone(),
                assumptions: a.clone(),
                quotes: vec![tco_quote(id, &label, &summary.draft)],
                compare_currency: Some(base),
                exchange_rates: rates.clone(),
            };
            match run_scenario(&scenario) {
                Ok(mut result) => {
                    let ranked = result.quotes.remove(0);
                    let slowest = runs.slowest.filter(|_| typed.is_none());
                    let what_if = what_if(
                        &summary.draft.price,
                        &summary.draft.spec.shape(),
                        &tco_workload,
                        &a,
                        &WhatIfProfiles::default(),
                        slowest.map(|(_, t)| t),
                    )
                    .ok();
                    let from_runs = typed.is_none() && runs.expected.is_some();
                    costed.push(Costed {
                        quote_id: id,
                        revision: summary.revision,
                        draft: summary.draft.clone(),
                        assumptions: a,
                        ranked,
                        what_if,
                        runs_used: if from_runs { runs.used } else { Vec::new() },
                        slowest_run: slowest.map(|(id, _)| id),
                        left_out: runs.left_out,
                        throughput_typed: typed.is_some(),
                        failing,
                        expired,
                    });
                }
                Err(e) => problems.push(CostProblem {
                    label,
                    message: error_sentence(locale, &e, w),
                }),
            }
        }
        rank(&mut costed);
    }
    let budget_base = budget.map(|b| budget_in_base(b, base, &rates));
    let rows = costed
        .iter()
        .map(|c| {
            row(
                locale,
                c,
                base,
                budget_base.as_ref().and_then(|b| b.as_ref().ok()).map(|b| b.0),
                &rates,
                workload.as_ref(),
            )
        })
        .collect();
    let budget_note = match &budget_base {
        Some(Ok((amount, Some(rate)))) => Some(locale.fmt(
            Msg::TcoBudgetConverted,
            &[
                ("amount", &format_money(*amount, base)),
                ("rate", &rate_note(locale, rate)),
            ],
        )),
        Some(Err((from, to))) => Some(locale.fmt(Msg::TcoBudgetNoRate, &[("from", from.code()), ("to", to.code())])),
        _ => None,
    };
    let view = CostComparison {
        workloads: workloads.iter().map(|w| (w.id, w.record.name.clone())).collect(),
        workload_id,
        workload_name: workload.as_ref().map(|w| w.name.clone()).unwrap_or_default(),
        quotes: choices,
        assumptions: fields,
        base_currency: base.code().to_string(),
        budget: budget.map(|(amount, currency)| format_money(amount, currency)),
        budget_exact: budget.map(|(amount, _)| decimal(amount)),
        budget_note,
        budget_unconverted: matches!(budget_base, Some(Err(_))),
        rows,
        problems,
        query: raw_query.trim_start_matches('?').to_string(),
        can_set_budget,
    };
    Ok(Computed {
        view,
        costed,
        workload,
        base,
        shared: assumptions,
        rates,
    })
}

/// The engine's quote for one of the team's quotes (its throughput and overrides travel in the
/// assumptions, or in [`scenario_from`]).
fn tco_quote(quote_id: i64, label: &str, draft: &QuoteDraft) -> Quote {
    Quote {
        id: quote_id.to_string(),
        label: label.to_string(),
        price_sheet: draft.price.clone(),
        node_shape: draft.spec.shape(),
        measured_throughput_per_s: None,
        n_run: None,
        assumption_overrides: None,
    }
}

/// The per-quote fields of `a` that differ from `shared`.
fn overrides_of(a: &Assumptions, shared: &Assumptions) -> Option<AssumptionOverrides> {
    let diff = |x: Decimal, y: Decimal| (x != y).then_some(x.normalize());
    let o = AssumptionOverrides {
        setup_h: diff(a.setup_h, shared.setup_h),
        data_prep_h: diff(a.data_prep_h, shared.data_prep_h),
        download_h: diff(a.download_h, shared.download_h),
        export_h: diff(a.export_h, shared.export_h),
        idle_h: diff(a.idle_h, shared.idle_h),
        stopped_h: diff(a.stopped_h, shared.stopped_h),
        rerun_share: diff(a.rerun_share, shared.rerun_share),
        egress_gb: diff(a.egress_gb, shared.egress_gb),
        ingress_gb: diff(a.ingress_gb, shared.ingress_gb),
        snapshot_gb: diff(a.snapshot_gb, shared.snapshot_gb),
        snapshot_months: diff(a.snapshot_months, shared.snapshot_months),
        nodes: (a.nodes != shared.nodes).then_some(a.nodes).flatten(),
        efficiency: diff(a.efficiency, shared.efficiency),
    };
    (o != AssumptionOverrides::default()).then_some(o)
}

/// The scenario of the costed quotes: the shared assumptions, and per quote its overrides and
/// its throughput (typed or from runs) with the nodes it ran on.
fn scenario_from(
    w: &Workload,
    shared: &Assumptions,
    costed: &[Costed],
    base: Currency,
    rates: Vec<ExchangeRate>,
) -> Scenario {
    let quotes = costed
        .iter()
        .map(|c| Quote {
            measured_throughput_per_s: c.assumptions.measured_throughput_per_s,
            n_run: c
                .assumptions
                .n_run
                .filter(|_| c.assumptions.measured_throughput_per_s.is_some()),
            assumption_overrides: overrides_of(&c.assumptions, shared),
            ..tco_quote(c.quote_id, &c.ranked.label, &c.draft)
        })
        .collect();
    Scenario {
        title: Some(w.name.clone()),
        workload: w.to_tco(),
        assumptions: Assumptions {
            measured_throughput_per_s: None,
            n_run: None,
            ..shared.clone()
        },
        quotes,
        compare_currency: Some(base),
        exchange_rates: rates,
    }
}

/// Ranks the costed quotes in the engine's order ([`ranking_order`]: measured first, then
/// estimated; cheapest first), so the page and the exported scenario agree.
fn rank(costed: &mut [Costed]) {
    costed.sort_by(|a, b| ranking_order(&a.ranked, &b.ranked));
    for (rank, c) in (1..).zip(costed.iter_mut()) {
        c.ranked.rank = rank;
    }
}

fn row(
    locale: Locale,
    c: &Costed,
    base: Currency,
    budget: Option<Decimal>,
    rates: &[ExchangeRate],
    workload: Option<&Workload>,
) -> CostRow {
    let e = &c.ranked.estimate;
    let cur = e.currency;
    let rate = latest_rate(rates, cur, base);
    let mut warnings = Vec::new();
    if c.expired {
        warnings.push(locale.t(Msg::TcoWExpired).to_string());
    }
    for kind in &c.failing {
        warnings.push(locale.fmt(
            Msg::TcoWRequirement,
            &[("requirement", &requirement_text(locale, *kind))],
        ));
    }
    for w in &e.warnings {
        warnings.push(match w {
            TcoWarning::ThroughputAssumed => locale.t(Msg::TcoWThroughputAssumed).to_string(),
            TcoWarning::StatedRunLengthIgnored { run_hours } => {
                locale.fmt(Msg::TcoWRunLengthIgnored, &[("hours", &hours(*run_hours))])
            }
            TcoWarning::NodesBelowRequirement { needed, chosen } => locale.fmt(
                Msg::TcoWNodesBelow,
                &[("needed", &needed.to_string()), ("chosen", &chosen.to_string())],
            ),
            TcoWarning::MinimumBillableApplied { minimum_h } => {
                locale.fmt(Msg::TcoWMinimum, &[("hours", &hours(*minimum_h))])
            }
        });
    }
    for (id, status) in &c.left_out {
        let why = locale.t(if *status == RunStatus::Invalid {
            Msg::TcoWhyInvalid
        } else {
            Msg::TcoWhyWarn
        });
        warnings.push(locale.fmt(Msg::TcoWRunNotUsed, &[("id", &id.to_string()), ("why", why)]));
    }
    let over_budget = budget.is_some_and(|amount| c.ranked.compared_total > amount);
    if let Some(amount) = budget.filter(|_| over_budget) {
        warnings.push(locale.fmt(Msg::TcoWOverBudget, &[("budget", &format_money(amount, base))]));
    }
    if let Some(unused) = e.unused_commitment_h.filter(|h| !h.is_zero()) {
        warnings.push(locale.fmt(Msg::TcoWUnusedCommitment, &[("hours", &hours(unused))]));
    }
    let rate_note = c.ranked.rate_date.as_ref().and(rate).map(|r| rate_note(locale, r));
    let pricing_note = match (e.monthly_compute, e.break_even) {
        (Some(monthly), Some(be)) => {
            let break_even = match be {
                BreakEven::WithinTerm { hours: h } => locale.fmt(Msg::TcoBreakEvenAt, &[("hours", &hours(h))]),
                BreakEven::NeverWithinTerm => locale.t(Msg::TcoBreakEvenNever).to_string(),
            };
            let args = [
                ("monthly", format_money(monthly, cur)),
                ("on_demand", format_money(e.on_demand_compute, cur)),
                ("break_even", break_even),
            ];
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            Some(locale.fmt(
                if e.pricing_used == Pricing::Monthly {
                    Msg::TcoPricingMonthly
                } else {
                    Msg::TcoPricingOnDemand
                },
                &args,
            ))
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
                (
                    locale.t(Msg::TcoWiExpected).to_string(),
                    format_money(w.expected.total, cur),
                ),
                (locale.t(Msg::TcoWiHigh).to_string(), format_money(w.high.total, cur)),
            ];
            if let Some(s) = &w.slower_throughput {
                out.push((
                    locale.fmt(Msg::TcoWiSlower, &[("pct", pct)]),
                    format_money(s.total, cur),
                ));
            }
            if let Some(f) = &w.faster_throughput {
                out.push((
                    locale.fmt(Msg::TcoWiFaster, &[("pct", pct)]),
                    format_money(f.total, cur),
                ));
            }
            if let (Some(s), Some(id)) = (&w.slowest_run, c.slowest_run) {
                out.push((
                    locale.fmt(Msg::TcoWiSlowest, &[("id", &id.to_string())]),
                    format_money(s.total, cur),
                ));
            }
            out
        })
        .unwrap_or_default();
    let unit = e.cost_per_unit.as_ref().map_or("", |u| u.unit.as_str());
    let throughput = e
        .one_node_throughput_per_s
        .zip(e.planned_throughput_per_s)
        .map(|(t1, planned)| {
            let args = [
                ("t1", format!("{} {unit}/s", throughput_text(t1))),
                ("planned", format!("{} {unit}/s", throughput_text(planned))),
                ("nodes", e.nodes.to_string()),
                ("n_run", e.n_run.unwrap_or(1).to_string()),
                (
                    "ids",
                    c.runs_used
                        .iter()
                        .map(|id| format!("#{id}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ];
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let msg = if c.runs_used.is_empty() {
                Msg::TcoThroughputTyped
            } else {
                Msg::TcoThroughputFromRuns
            };
            locale.fmt(msg, &args)
        });
    let estimated = c.ranked.group == QuoteGroup::Estimated;
    let to_measure = estimated.then(|| {
        locale
            .t(if workload.is_some_and(|w| w.total_work.is_some()) {
                Msg::TcoToMeasure
            } else {
                Msg::TcoToMeasureWork
            })
            .to_string()
    });
    let own_currency_title = |amount: String| (cur != base).then_some(amount);
    let work = workload.and_then(|w| w.total_work.as_ref()).map(|w| w.amount);
    let (unit_base, gpu_hour_base) = prices_in_base(&c.ranked, base, work, c.draft.spec.gpus_per_node);
    let cost_per_unit_base = e.cost_per_unit.as_ref().zip(unit_base);
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
        cost_per_unit: cost_per_unit_base.map(|(u, p)| {
            locale.fmt(
                Msg::TcoPerUnit,
                &[
                    ("amount", &format_unit_price(p, base, 2)),
                    ("per", &group(Decimal::from(u.per), 0)),
                    ("unit", &u.unit),
                ],
            )
        }),
        cost_per_unit_title: e.cost_per_unit.as_ref().and_then(|u| {
            own_currency_title(locale.fmt(
                Msg::TcoPerUnit,
                &[
                    ("amount", &format_unit_price(u.amount, cur, 2)),
                    ("per", &group(Decimal::from(u.per), 0)),
                    ("unit", &u.unit),
                ],
            ))
        }),
        gpu_hour: gpu_hour_base.map(|p| format_unit_price(p, base, 2)),
        gpu_hour_title: e
            .effective_gpu_hour_price
            .and_then(|p| own_currency_title(format_unit_price(p, cur, 2))),
        time_to_finish: format!("{} h", hours(e.time_to_finish_h)),
        hours_note: locale.fmt(
            Msg::TcoHours,
            &[
                ("nodes", &e.nodes.to_string()),
                ("busy", &hours(e.busy_h)),
                ("billable", &hours(e.billable_h)),
                ("rental", &hours(e.rental_h)),
            ],
        ),
        nodes: e.nodes,
        idle: format_money(e.idle_cost, cur),
        pricing_note,
        components: e
            .components
            .iter()
            .map(|comp| component_line(locale, comp, cur))
            .collect(),
        what_if,
        warnings,
        run_id: c.runs_used.first().copied(),
        run_ids: c.runs_used.clone(),
        throughput,
        over_budget,
        estimated,
        to_measure,
    }
}

/// A requirement's name in the reader's language (`req.<kind>` of the locale files).
fn requirement_text(locale: Locale, kind: RequirementKind) -> String {
    let code = serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    Msg::from_key(&format!("req.{code}")).map_or(code, |m| locale.t(m).to_string())
}

/// The scenario file that reproduces a comparison (`nodeledger tco` reads it) and its result:
/// the shared assumptions, and per quote every override and its throughput with `n_run`.
#[must_use]
pub fn scenario_of(computed: &Computed, rates: Vec<ExchangeRate>) -> Option<(Scenario, ScenarioResult)> {
    let w = computed.workload.as_ref()?;
    let shared = computed.shared.as_ref()?;
    if computed.costed.is_empty() {
        return None;
    }
    let scenario = scenario_from(w, shared, &computed.costed, computed.base, rates);
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

    fn spec(gpu: &str, gpus: u32, vram: &str) -> NodeSpec {
        serde_json::from_value(serde_json::json!({ "gpu_model": gpu, "gpus_per_node": gpus, "vram_gib": vram, "sharing": { "mode": "exclusive" } })).unwrap()
    }

    /// A run of `quote` revision `revision` at `tps` tokens/s on `nodes` nodes.
    fn run(id: i64, quote: i64, revision: i64, status: &str, tps: f64, nodes: i64) -> RunSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "quote_id": quote, "revision": revision, "quote_label": "q", "node_label": "", "workload_id": 1,
            "workload_name": "w", "nodes": nodes, "status": status, "source_format": "canonical", "gpu_name": null,
            "gpu_count": null, "has_telemetry": true, "throughput_value": tps, "throughput_unit": "tokens/s",
            "created_by": "eve", "created_at": "2026-12-01T00:00:00Z"
        }))
        .unwrap()
    }

    #[test]
    fn only_valid_runs_of_the_revision_or_the_same_node_count_and_their_median_12_wins() {
        let a100 = spec("A100 80GB", 1, "80");
        let pool = RunPool {
            runs: vec![
                (run(1, 7, 2, "valid", 10.0, 1), Some(a100.clone())),
                (run(2, 7, 2, "warn", 99.0, 1), Some(a100.clone())),
                (run(3, 7, 2, "invalid", 98.0, 1), Some(a100.clone())),
                // Another quote with the same node (model spelled in other case): counts.
                (run(4, 8, 1, "valid", 30.0, 2), Some(spec("a100 80gb", 1, "80.0"))),
                // An older revision of the same quote with fewer GPUs: a different node.
                (run(5, 7, 1, "valid", 500.0, 1), Some(spec("A100 80GB", 2, "80"))),
                (run(6, 9, 1, "valid", 12.0, 1), Some(a100.clone())),
            ],
        };
        let m = measured(&pool, 7, 2, &a100, "tokens", Decimal::new(75, 2)).unwrap();
        // T1: run 1 = 10, run 4 = 30 ÷ (2 × 0.75) = 20, run 6 = 12 → median 12 (run 6), slowest 10.
        assert_eq!(
            m.expected,
            Some(RunThroughput {
                per_s: Decimal::from(12),
                nodes: 1
            })
        );
        assert_eq!(m.used, vec![6]);
        assert_eq!(
            m.slowest,
            Some((
                1,
                RunThroughput {
                    per_s: Decimal::from(10),
                    nodes: 1
                }
            ))
        );
        assert_eq!(m.left_out, vec![(2, RunStatus::Warn), (3, RunStatus::Invalid)]);
        // A node nobody ran on: nothing measured, nothing left out.
        let none = measured(&pool, 10, 1, &spec("H100", 8, "80"), "tokens", Decimal::ONE).unwrap();
        assert_eq!((none.expected, none.left_out.len()), (None, 0));
    }

    #[test]
    fn engine_errors_become_sentences_in_both_languages() {
        use crate::domain::tco::ErrorReason as R;
        let mut w: Workload = serde_json::from_value(serde_json::json!({
            "name": "w", "kind": "batch", "vram_peak_gib": "20", "vram_peak_measured": true, "concurrency": 1,
            "gpus_needed": 1, "data_gb": "0", "checkpoint_gb": "0"
        }))
        .unwrap();
        let no_size = TcoError::new("workload.run_hours", R::NoWorkSize);
        assert_eq!(
            error_sentence(Locale::En, &no_size, &w),
            "This workload states neither its total work nor its run length: add one on the workload page."
        );
        assert!(error_sentence(Locale::ZhCn, &no_size, &w).starts_with("该任务既没有填写总工作量"));
        w.total_work = Some(crate::domain::tco::TotalWork {
            amount: Decimal::ONE,
            unit: "tokens".into(),
        });
        assert!(error_sentence(Locale::En, &no_size, &w).starts_with("No valid run measures this quote"));
        let rate = TcoError::new(
            "scenario.exchange_rates",
            R::MissingRate {
                from: "USD".into(),
                to: "CNY".into(),
            },
        );
        assert_eq!(
            error_sentence(Locale::En, &rate, &w),
            "There is no exchange rate between USD and CNY: add one under Exchange rates."
        );
        let term = TcoError::new("price_sheet.commitment_months", R::Missing);
        assert!(error_sentence(Locale::En, &term, &w).contains("without a commitment term"));
        let price = TcoError::new("price_sheet.on_demand_hourly", R::Negative);
        assert_eq!(
            error_sentence(Locale::En, &price, &w),
            "A price on this quote must not be negative: fix the quote."
        );
        assert_eq!(
            error_sentence(Locale::ZhCn, &price, &w),
            "该报价的某个价格不能为负数：请修改报价。"
        );
        for e in [no_size, rate, term, price] {
            for locale in [Locale::En, Locale::ZhCn] {
                assert!(!error_sentence(locale, &e, &w).contains(e.field), "{e}");
            }
        }
    }

    #[test]
    fn bad_assumptions_are_named_and_nothing_is_assumed() {
        let q = Query::parse("setup_h=-1&rerun_pct=100&efficiency_pct=0&nodes=0&egress_gb=lots");
        let (fields, parsed) = read_assumptions(&q, None, Locale::En);
        assert!(parsed.is_none());
        let err = |n: &str| {
            fields
                .iter()
                .find(|f| f.name == n)
                .and_then(|f| f.error.clone())
                .unwrap_or_default()
        };
        assert_eq!(err("setup_h"), "Must not be negative.");
        assert_eq!(err("rerun_pct"), "Must lie between 0 and 99 %.");
        assert_eq!(err("efficiency_pct"), "Must lie between 1 and 100 %.");
        assert!(err("nodes").contains("1 to 64"));
        assert_eq!(err("egress_gb"), "Enter a number, e.g. 1.5.");
        assert_eq!(
            fields.iter().find(|f| f.name == "egress_gb").unwrap().value,
            "lots",
            "the typed value is kept"
        );
        let (_, ok) = read_assumptions(
            &Query::parse("rerun_pct=25&efficiency_pct=80&nodes=2"),
            None,
            Locale::En,
        );
        let a = ok.unwrap();
        assert_eq!(
            (a.rerun_share, a.efficiency, a.nodes, a.setup_h),
            (Decimal::new(25, 2), Decimal::new(8, 1), Some(2), Decimal::ONE)
        );
    }
}
