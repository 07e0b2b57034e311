//! The cost comparison's exports and charts, for the same query as the page (`/tco?…`):
//! `GET /tco/export.csv`, `GET /tco/export.json` (the scenario `nodeledger tco` reruns, and its
//! result), `GET /tco/stack.svg`, `/tco/hours.svg`, `/tco/nodes.svg`.

use crate::access::{ReadTeamData, TeamAccess};
use crate::listed::Listed;
use crate::state::CostState;
use app::domain::csv_cell;
use app::domain::tco::{BreakEven, Currency, latest_rate};
use app::{
    charts::{
        CostStack, HoursLabels, HoursSeries, NodesLabels, NodesPoint, cost_and_time_vs_nodes_svg, cost_stack_svg,
        cost_vs_hours_svg,
    },
    i18n::{Locale, Msg, locale_from_headers},
    services::tco::{self, Computed},
    store,
};
use axum::{
    Json,
    extract::{RawQuery, State},
    response::{IntoResponse, Response},
    routing::get,
};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use rust_decimal::{Decimal, RoundingStrategy};
use std::sync::Arc;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/tco/export.csv", get(export_csv))
        .route("/tco/export.json", get(export_json))
        .route("/tco/stack.svg", get(stack_chart))
        .route("/tco/hours.svg", get(hours_chart))
        .route("/tco/nodes.svg", get(nodes_chart))
}

/// The comparison of the caller's active team for the request's query, shared with the other
/// requests for the same query in the last few seconds (the page and its charts); an error is
/// answered in the reader's language.
pub async fn computed(
    state: &CostState,
    access: &TeamAccess<ReadTeamData>,
    headers: &HeaderMap,
    query: Option<String>,
) -> Result<(Arc<Computed>, Locale), Response> {
    let locale = locale_from_headers(headers);
    let raw = query.as_deref().unwrap_or_default();
    match state
        .comparisons
        .compare(&state.db, access.team_id(), raw, locale)
        .await
    {
        Ok(c) => Ok((c, locale)),
        Err(e) => Err(e.in_language(locale).into_response()),
    }
}

/// A money amount with exactly the currency's minor digits (`720.00`, JPY `1200`).
fn money(amount: Decimal, currency: Currency) -> String {
    currency.round(amount).to_string()
}

/// A unit or derived price, as the page shows it: in minor units, or to four significant
/// digits below one minor unit (`10.00`, `0.28`, `0.003457`).
fn price(amount: Decimal, currency: Currency) -> String {
    app::domain::money::round_per_unit(amount, currency).to_string()
}

/// Hours and quantities: at most four decimals, trailing zeros dropped (`72`, `436368.7225`);
/// the exact figures are in `export.json`.
fn quantity(value: Decimal) -> String {
    value
        .round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
        .to_string()
}

/// The ranked comparison as CSV: one line per quote and component. Money is rounded to the
/// currency's minor unit, unit prices as the page shows them ([`price`]), hours and quantities
/// to four decimals ([`quantity`]); the exchange rate as it was entered.
pub fn comparison_csv(c: &Computed) -> String {
    let mut out = String::from(
        "rank,quote_id,revision,quote,currency,total,base_currency,total_in_base,rate_date,nodes,busy_h,billable_h,rental_h,time_to_finish_h,cost_per_unit,per_units,work_unit,effective_gpu_hour,idle_cost,pricing,over_budget,component,quantity,unit_price,component_cost,group,cost_per_unit_in_base,effective_gpu_hour_in_base,rate_pair,rate\n",
    );
    for (row, costed) in c.view.rows.iter().zip(&c.costed) {
        let e = &costed.ranked.estimate;
        let cur = e.currency;
        let per = e.cost_per_unit.as_ref();
        let rate = latest_rate(&c.rates, cur, c.base);
        let work = c
            .workload
            .as_ref()
            .and_then(|w| w.total_work.as_ref())
            .map(|w| w.amount);
        let (_, gpu_hour_base) = tco::prices_in_base(&costed.ranked, c.base, work, costed.draft.spec.gpus_per_node);
        // One scale for every row (`per_units`), as on the page.
        let (unit_own, unit_base) = tco::unit_costs(costed, c.base, work, c.unit_scale);
        let head = [
            row.rank.to_string(),
            row.quote_id.to_string(),
            row.revision.to_string(),
            csv_cell::field(&row.label),
            row.currency.clone(),
            money(e.total, cur),
            c.base.code().to_string(),
            money(costed.ranked.compared_total, c.base),
            costed.ranked.rate_date.clone().unwrap_or_default(),
            e.nodes.to_string(),
            quantity(e.busy_h),
            quantity(e.billable_h),
            quantity(e.rental_h),
            quantity(e.time_to_finish_h),
            unit_own.map(|p| price(p, cur)).unwrap_or_default(),
            per.map(|_| c.unit_scale.to_string()).unwrap_or_default(),
            per.map(|p| csv_cell::field(&p.unit)).unwrap_or_default(),
            e.effective_gpu_hour_price.map(|p| price(p, cur)).unwrap_or_default(),
            money(e.idle_cost, cur),
            format!("{:?}", e.pricing_used).to_lowercase(),
            row.over_budget.to_string(),
        ]
        .join(",");
        let tail = [
            group_name(row).to_string(),
            unit_base.map(|p| price(p, c.base)).unwrap_or_default(),
            gpu_hour_base.map(|p| price(p, c.base)).unwrap_or_default(),
            rate.map(|r| format!("{}/{}", r.from.code(), r.to.code()))
                .unwrap_or_default(),
            rate.map(|r| r.rate.normalize().to_string()).unwrap_or_default(),
        ]
        .join(",");
        for (comp, line) in e.components.iter().zip(&row.components) {
            let name = if line.code == "other_fee" {
                format!("other_fee:{}", line.name)
            } else {
                line.code.clone()
            };
            out.push_str(&format!(
                "{head},{},{},{},{},{tail}\n",
                csv_cell::field(&name),
                quantity(comp.quantity),
                comp.unit_price.map(|p| price(p, cur)).unwrap_or_default(),
                money(comp.cost, cur)
            ));
        }
    }
    out
}

fn attachment(mut res: Response, content_type: &'static str, name: &'static str) -> Response {
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static(name));
    res
}

/// `GET /tco/export.csv`.
pub async fn export_csv(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    match computed(&state, &access, &headers, q).await {
        Ok((c, _)) => attachment(
            comparison_csv(&c).into_response(),
            "text/csv; charset=utf-8",
            "attachment; filename=\"cost-comparison.csv\"",
        ),
        Err(res) => res,
    }
}

/// `GET /tco/export.json`: `{ "scenario": …, "result": … }`; the scenario is a valid input of
/// `nodeledger tco`.
pub async fn export_json(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let (c, _) = match computed(&state, &access, &headers, q).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    let rates = match store::exchange_rates::list(&state.db, access.team_id()).await {
        Ok(r) => r.into_iter().map(|r| r.record).collect(),
        Err(e) => {
            tracing::error!(error = %e, "cannot read rates");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let body = match tco::scenario_of(&c, rates) {
        Some((scenario, result)) => serde_json::json!({ "scenario": scenario, "result": result }),
        None => serde_json::json!({ "scenario": null, "result": null }),
    };
    attachment(
        Json(body).into_response(),
        "application/json",
        "attachment; filename=\"cost-comparison.json\"",
    )
}

/// An SVG chart answer: served as an image that can run, load or frame nothing.
pub fn svg(body: String) -> Response {
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
    );
    res
}

fn f64_of(d: rust_decimal::Decimal) -> f64 {
    rust_decimal::prelude::ToPrimitive::to_f64(&d).unwrap_or(f64::NAN)
}

/// `GET /tco/stack.svg`: each quote's cost by component, in the base currency, cheapest first.
pub async fn stack_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let (c, locale) = match computed(&state, &access, &headers, q).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    let stacks: Vec<CostStack> = c
        .view
        .rows
        .iter()
        .zip(&c.costed)
        .map(|(row, costed)| {
            let e = &costed.ranked.estimate;
            // Components are in the quote's currency; scale them to the base currency for display.
            let factor = if e.total.is_zero() {
                1.0
            } else {
                f64_of(costed.ranked.compared_total) / f64_of(e.total)
            };
            CostStack {
                label: row.label.clone(),
                parts: e
                    .components
                    .iter()
                    .zip(&row.components)
                    .map(|(comp, line)| (line.name.clone(), f64_of(comp.cost) * factor))
                    .collect(),
                highlight: row.rank == 1,
            }
        })
        .collect();
    let title = locale.fmt(Msg::TcoChartStack, &[("currency", c.base.code())]);
    svg(cost_stack_svg(&title, c.base.code(), &stacks))
}

/// The quote the hours and nodes charts are drawn for: `chart=<quote id>`, else the cheapest;
/// its position in `c.costed`.
fn chart_quote(c: &Computed, q: Option<&str>) -> Option<usize> {
    let wanted = q.and_then(tco::chart_of);
    wanted
        .and_then(|id| c.costed.iter().position(|x| x.quote_id == id))
        .or((!c.costed.is_empty()).then_some(0))
}

/// The comparison for the query and the position of the quote a per-quote chart is drawn for
/// (404 when there is none).
async fn charted(
    state: &CostState,
    access: &TeamAccess<ReadTeamData>,
    headers: &HeaderMap,
    q: Option<String>,
) -> Result<(Arc<Computed>, usize, Locale), Response> {
    let (c, locale) = computed(state, access, headers, q.clone()).await?;
    let at = chart_quote(&c, q.as_deref()).ok_or_else(|| StatusCode::NOT_FOUND.into_response())?;
    Ok((c, at, locale))
}

/// `GET /tco/hours.svg`: compute cost on demand and under the monthly commitment against busy
/// hours, with the break-even point and this workload's hours.
pub async fn hours_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let (c, at, locale) = match charted(&state, &access, &headers, q).await {
        Ok(charted) => charted,
        Err(res) => return res,
    };
    let x = &c.costed[at];
    let e = &x.ranked.estimate;
    let cur = e.currency.code();
    let break_even_h = match e.break_even {
        Some(BreakEven::WithinTerm { hours }) => Some(hours),
        _ => None,
    };
    let top = [
        e.busy_h * rust_decimal::Decimal::TWO,
        break_even_h.unwrap_or_default() * rust_decimal::Decimal::new(15, 1),
        rust_decimal::Decimal::ONE,
    ]
    .into_iter()
    .max()
    .unwrap_or(rust_decimal::Decimal::ONE);
    let steps = 80u32;
    let hours: Vec<rust_decimal::Decimal> = (0..=steps)
        .map(|i| (top * rust_decimal::Decimal::from(i) / rust_decimal::Decimal::from(steps)).round_dp(2))
        .collect();
    let points = match app::domain::tco::cost_vs_hours(&x.draft.price, &x.draft.spec.shape(), e.nodes, &hours) {
        Ok(p) => p,
        Err(err) => return (StatusCode::UNPROCESSABLE_ENTITY, err.to_string()).into_response(),
    };
    let series = HoursSeries {
        busy_h: points.iter().map(|p| f64_of(p.busy_h)).collect(),
        on_demand: points.iter().map(|p| f64_of(p.on_demand)).collect(),
        monthly: points
            .iter()
            .map(|p| p.monthly.map(f64_of))
            .collect::<Option<Vec<f64>>>(),
        break_even_h: break_even_h.map(f64_of),
        break_even_never: e.break_even == Some(BreakEven::NeverWithinTerm),
        current_h: Some(f64_of(e.busy_h)),
    };
    let labels = HoursLabels {
        title: locale.fmt(Msg::TcoChartHours, &[("quote", &x.ranked.label)]),
        x_axis: locale.t(Msg::TcoAxBusyH).to_string(),
        y_axis: locale.fmt(Msg::TcoAxCost, &[("currency", cur)]),
        on_demand: locale.t(Msg::TcoLOnDemand).to_string(),
        monthly: locale.t(Msg::TcoLMonthly).to_string(),
        break_even: locale.t(Msg::TcoLBreakEven).to_string(),
        never_within_term: locale.t(Msg::TcoLNever).to_string(),
        current: locale.t(Msg::TcoLCurrent).to_string(),
    };
    svg(cost_vs_hours_svg(&labels, &series))
}

/// `GET /tco/nodes.svg`: total cost and time to finish against the number of nodes.
pub async fn nodes_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let (c, at, locale) = match charted(&state, &access, &headers, q).await {
        Ok(charted) => charted,
        Err(res) => return res,
    };
    let x = &c.costed[at];
    let Some(w) = c.workload.as_ref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let max = (x.ranked.estimate.nodes * 2).clamp(4, 16);
    let series = match app::domain::tco::cost_vs_nodes(
        &x.draft.price,
        &x.draft.spec.shape(),
        &w.to_tco(),
        &x.assumptions,
        max,
    ) {
        Ok(s) => s,
        Err(err) => return (StatusCode::UNPROCESSABLE_ENTITY, err.to_string()).into_response(),
    };
    let points: Vec<NodesPoint> = series
        .iter()
        .map(|e| NodesPoint {
            nodes: e.nodes,
            total: f64_of(e.total),
            hours: f64_of(e.time_to_finish_h),
        })
        .collect();
    let cur = x.ranked.estimate.currency.code();
    let labels = NodesLabels {
        title: locale.fmt(Msg::TcoChartNodes, &[("quote", &x.ranked.label)]),
        x_axis: locale.t(Msg::TcoAxNodes).to_string(),
        cost_axis: locale.fmt(Msg::TcoAxCost, &[("currency", cur)]),
        time_axis: locale.t(Msg::TcoAxTime).to_string(),
        cost: locale.t(Msg::TcoLCost).to_string(),
        time: locale.t(Msg::TcoLTime).to_string(),
    };
    svg(cost_and_time_vs_nodes_svg(&labels, &points))
}

/// The ranking group of a row as the CSV names it: `measured`, `stated` (a throughput typed by
/// hand, not measured) or `estimated` (the workload's stated run length).
fn group_name(row: &app::views::tco::CostRow) -> &'static str {
    match (row.estimated, row.stated) {
        (true, _) => "estimated",
        (false, true) => "stated",
        (false, false) => "measured",
    }
}
