//! The cost comparison of a workload across the team's quotes. A [`CostRequest`] says what
//! is compared (read once from the page's query, or built in code); [`compare`] *loads* the
//! workload, quotes, runs, rates and budget from the store, then *builds* the comparison with
//! pure functions: the TCO engine per quote, ranked in the team's base currency. The page, its
//! charts and its exports all come from here, so they always agree.
//!
//! - `request`: the request, read from the query and written back to it; `fields`: the query
//!   and how each assumption field is checked;
//! - `build`: the comparison from the loaded data (workload, assumptions, choices, costing,
//!   ranking, budget); `pool`: the runs behind a quote's throughput;
//! - `cache`: comparisons of the last few seconds, so the page and its charts compute once;
//!   `query`: the query read in one pass;
//! - `row`: one ranked row, as signed and as shown; `texts`: the sentences; `scenario`: the scenario file that
//!   reproduces a comparison, and prices and budgets in the base currency;
//! - `export`: the comparison as CSV and as the scenario file with its result; `charts`: the
//!   cost stack, cost against hours and cost and time against nodes, as SVG;
//! - `plan`: the rental plan of a comparison (the plan file and the planner's result, planned
//!   from now); `plan_view`: the plan page's words; `plan_chart`: every plan's time against its
//!   cost, as SVG.

mod build;
mod cache;
mod catalogue;
mod charts;
mod export;
mod fields;
mod plan;
mod plan_chart;
mod plan_view;
mod pool;
mod query;
mod request;
mod row;
mod scenario;
mod texts;

pub use cache::{ComparisonCache, chart_of, without_chart};
pub use charts::{chart_quote, hours_svg, nodes_svg, response_svg, stack_svg};
pub use export::{comparison_csv, scenario_json};
pub use fields::{FIELDS, FieldError, MAX_NODES, Query};
pub use plan::{Planned, planned};
pub use plan_chart::plan_svg;
pub use plan_view::{finish_when, hours_number, moment, plan_name, plan_view};
pub use pool::same_node;
pub use request::{CostRequest, QuoteInputError, QuoteSelection, TypedThroughput};
pub use row::{shown, shown_v1, unit_costs};
pub use scenario::{budget_in_base, prices_in_base, scenario_of};

use crate::{
    domain::{
        orders::record::SignedCostRow,
        quotes::{QuoteDraft, RequirementKind, Workload},
        runs::RunStatus,
        tco::{Assumptions, Currency, ExchangeRate, RankedQuote, WhatIf},
    },
    error::AppError,
    i18n::Locale,
    store::{self, Db, runs::RunFilter},
    views::tco::CostComparison,
};
use std::sync::Arc;

/// One quote as costed, with what the page needs besides the engine's estimate.
#[derive(Clone, Debug)]
pub struct Costed {
    /// Which of the team's quotes, by id.
    pub quote_id: i64,
    /// The revision costed (1, 2, …): the quote's latest, or the one the request names
    /// ([`CostRequest::revisions`]).
    pub revision: i64,
    /// That revision's node and prices.
    pub draft: QuoteDraft,
    /// The assumptions this quote was costed under (shared ones plus its throughput and nodes).
    pub assumptions: Assumptions,
    /// The engine's result, ranked.
    pub ranked: RankedQuote,
    /// Low / expected / high and throughput sensitivity.
    pub what_if: Option<WhatIf>,
    /// The valid runs the throughput comes from (empty when typed or none).
    pub runs_used: Vec<i64>,
    /// Runs among those on part of the node whose throughput per GPU was scaled to the node
    /// (one task per GPU): run id, GPUs it used, the node's GPUs.
    pub runs_scaled: Vec<(i64, u32, u32)>,
    /// The slowest valid run, used by the what-if.
    pub slowest_run: Option<i64>,
    /// That run's throughput per node.
    pub slowest_throughput: Option<crate::domain::tco::RunThroughput>,
    /// Every valid run's throughput per node (empty when the throughput was typed).
    pub valid_runs: Vec<crate::domain::tco::RunThroughput>,
    /// Runs of this node and workload left out (not valid), with their status.
    pub left_out: Vec<(i64, RunStatus)>,
    /// The throughput was typed on the page.
    pub throughput_typed: bool,
    /// Requirements the node fails.
    pub failing: Vec<RequirementKind>,
    /// The quote's validity has ended.
    pub expired: bool,
    /// With a response-time target: the throughput at the target off the node's curve.
    pub at_target: Option<crate::domain::runs::AtTarget>,
    /// The node's runs the throughput at the target was read off.
    pub curve: Vec<crate::domain::runs::CurvePoint>,
}

/// A whole comparison: the page model, the domain results behind it, the scenario that
/// reproduces it.
#[derive(Clone, Debug)]
pub struct Computed {
    /// The comparison as the page shows it, in the reader's language.
    pub view: CostComparison,
    /// The rows of `view` as plain values, in the same order: what an order signs.
    pub signed: Vec<SignedCostRow>,
    /// Ranked quotes with their domain results.
    pub costed: Vec<Costed>,
    /// The workload (domain form), when one exists.
    pub workload: Option<Workload>,
    /// The currency totals are ranked in: the team's base currency (CNY when unset).
    pub base: Currency,
    /// The shared assumptions (without per-quote overrides), when they are valid.
    pub shared: Option<Assumptions>,
    /// The team's exchange rates the totals were converted with.
    pub rates: Vec<ExchangeRate>,
    /// How many units of work every row's cost per unit is for (one scale for the column:
    /// [`crate::domain::tco::unit_scale`]).
    pub unit_scale: u32,
    /// The workload's budget in the base currency, when set and convertible.
    pub budget_base: Option<rust_decimal::Decimal>,
    /// Quotes the plan could have weighed that the comparison costed but let go (it keeps the
    /// cheapest [`build::KEPT_ROWS`]): the plan says it weighed some of them all.
    pub let_go_eligible: usize,
    /// The rental plan of this comparison, once planned ([`planned`]): the plan page, its
    /// chart and the export read one cached comparison (shared by its clones) and so one plan.
    pub plan: std::sync::Arc<tokio::sync::OnceCell<Option<Planned>>>,
}

/// Builds the comparison `request` asks for, for team `team_id`: loads, then builds
/// ([`build::build`]) on a blocking thread, so costing a catalogue of thousands of quotes never
/// holds up the threads that answer other requests; `can_set_budget` shows the budget form.
pub async fn compare(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    locale: Locale,
    can_set_budget: bool,
) -> Result<Computed, AppError> {
    compare_in(db, team_id, request, (locale, can_set_budget), None).await
}

/// [`compare`], with the team's quotes from `catalogues` when it keeps them.
pub(crate) async fn compare_in(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    (locale, can_set_budget): (Locale, bool),
    catalogues: Option<&catalogue::Catalogues>,
) -> Result<Computed, AppError> {
    let catalogue = match catalogues {
        Some(kept) => kept.of(db, team_id).await?,
        None => catalogue::read(db, team_id, 0).await?,
    };
    let loaded = load(db, team_id, request, catalogue).await?;
    let request = request.clone();
    tokio::task::spawn_blocking(move || build::build(&request, loaded, locale, can_set_budget))
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "the comparison failed");
            AppError::Internal
        })
}

/// The shared assumptions the cost page's `query` costs `workload` under (each field as
/// typed, else its default); `None` when a typed field does not read.
#[must_use]
pub fn assumed(query: &str, workload: Option<&Workload>) -> Option<Assumptions> {
    build::shared_of(&CostRequest::from_query(query), workload)
}

/// Everything [`build::build`] needs, from the store: the team's workloads, base currency
/// (CNY when unset), rates, quotes and labels; the chosen workload's budget; and its runs
/// with the node of each, only when there is something to cost.
async fn load(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    catalogue: catalogue::Catalogue,
) -> Result<build::Loaded, AppError> {
    let workloads = store::workloads::list(db, team_id).await?;
    let chosen = build::chosen_workload(&workloads, request).map(|w| w.id);
    let base = store::teams::base_currency(db, team_id)
        .await?
        .unwrap_or(Currency::parse("CNY").map_err(|_| AppError::Internal)?);
    let rates = store::exchange_rates::list(db, team_id)
        .await?
        .into_iter()
        .map(|r| r.record)
        .collect();
    let stale_rate_days = store::teams::stale_rate_days(db, team_id)
        .await?
        .unwrap_or(crate::domain::tco::STALE_RATE_DAYS);
    let budget = match chosen {
        Some(id) => store::budgets::get(db, team_id, id).await?,
        None => None,
    };
    let runs = match chosen.filter(|_| request.shared_reads()) {
        Some(id) => run_pool(db, team_id, id).await?,
        None => pool::RunPool::default(),
    };
    Ok(build::Loaded {
        workloads,
        base,
        rates,
        stale_rate_days,
        budget,
        today: store::today(),
        quotes: quotes_costed(db, team_id, request, catalogue.quotes).await?,
        labels: catalogue.labels,
        runs,
    })
}

/// The team's quotes at their latest revision (`latest`), except those `request` names another
/// revision of ([`CostRequest::revisions`]), which are at that one (a copy is made only then).
async fn quotes_costed(
    db: &Db,
    team_id: i64,
    request: &CostRequest,
    mut latest: Arc<Vec<store::quotes::QuoteSummary>>,
) -> Result<Arc<Vec<store::quotes::QuoteSummary>>, AppError> {
    if request.revisions.is_empty() {
        return Ok(latest);
    }
    let quotes = Arc::make_mut(&mut latest);
    for q in quotes.iter_mut() {
        if let Some(&rev) = request.revisions.get(&q.quote_id)
            && rev != q.revision
            && let Some(pinned) = store::quotes::at_revision(db, team_id, q.quote_id, rev).await?
        {
            *q = pinned;
        }
    }
    Ok(latest)
}

/// The team's runs of `workload_id` (at most 1000) with the spec of each run's quote revision.
async fn run_pool(db: &Db, team_id: i64, workload_id: i64) -> Result<pool::RunPool, AppError> {
    let filter = RunFilter {
        quote_id: None,
        workload_id: Some(workload_id),
    };
    let runs = store::runs::list(db, team_id, filter, 1000).await?;
    let revisions = store::quotes::measured_revisions(db, team_id, workload_id)
        .await?
        .into_iter()
        .map(|rev| (rev.quote_id, rev.revision, rev.draft.spec));
    Ok(pool::RunPool::new(runs, revisions))
}
