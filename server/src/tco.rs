//! The cost comparison's exports and charts, for the same query as the page (`/tco?…`):
//! `GET /tco/export.csv`, `GET /tco/export.json` (the scenario `nodeledger tco` reruns, and its
//! result), `GET /tco/stack.svg`, `/tco/hours.svg`, `/tco/nodes.svg`, `/tco/response.svg`, and the rental plan's
//! `/plan/chart.svg`. What they contain is built by `app::services::tco` (`export`, `charts`,
//! `plan_chart`); here each is only answered.

use crate::access::{ReadTeamData, TeamAccess};
use crate::listed::Listed;
use crate::state::CostState;
use app::{
    i18n::{Locale, locale_from_headers},
    services::tco::{self, Computed},
};
use axum::{
    Json,
    extract::{RawQuery, State},
    response::{IntoResponse, Response},
    routing::get,
};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use std::sync::Arc;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/tco/export.csv", get(export_csv))
        .route("/tco/export.json", get(export_json))
        .route("/tco/stack.svg", get(stack_chart))
        .route("/tco/hours.svg", get(hours_chart))
        .route("/tco/nodes.svg", get(nodes_chart))
        .route("/tco/response.svg", get(response_chart))
        .route("/plan/chart.svg", get(plan_chart))
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
        .compare(&state.db, (access.team_id(), access.caller.user_id), raw, locale)
        .await
    {
        Ok(c) => Ok((c, locale)),
        Err(e) => Err(e.in_language(locale).into_response()),
    }
}

fn attachment(mut res: Response, content_type: &'static str, name: &'static str) -> Response {
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static(name));
    res
}

/// `GET /tco/export.csv`: [`tco::comparison_csv`].
pub async fn export_csv(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    match computed(&state, &access, &headers, q).await {
        Ok((c, _)) => attachment(
            tco::comparison_csv(&c).into_response(),
            "text/csv; charset=utf-8",
            "attachment; filename=\"cost-comparison.csv\"",
        ),
        Err(res) => res,
    }
}

/// `GET /tco/export.json`: `{ "scenario": …, "result": … }` ([`tco::scenario_json`]); the
/// scenario is a valid input of `nodeledger tco`.
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
    match tco::scenario_json(&state.db, access.team_id(), &c).await {
        Ok(body) => attachment(
            Json(body).into_response(),
            "application/json",
            "attachment; filename=\"cost-comparison.json\"",
        ),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
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

/// `GET /tco/stack.svg`: [`tco::stack_svg`].
pub async fn stack_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    match computed(&state, &access, &headers, q).await {
        Ok((c, locale)) => svg(tco::stack_svg(&c, locale)),
        Err(res) => res,
    }
}

/// `GET /tco/response.svg`: [`tco::response_svg`]; 404 when the workload states no
/// response-time target.
pub async fn response_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    match computed(&state, &access, &headers, q).await {
        Ok((c, locale)) => tco::response_svg(&c, locale).map_or_else(|| StatusCode::NOT_FOUND.into_response(), svg),
        Err(res) => res,
    }
}

/// The comparison for the query and the position of the quote a per-quote chart is drawn for
/// ([`tco::chart_quote`]; 404 when there is none).
async fn charted(
    state: &CostState,
    access: &TeamAccess<ReadTeamData>,
    headers: &HeaderMap,
    q: Option<String>,
) -> Result<(Arc<Computed>, usize, Locale), Response> {
    let (c, locale) = computed(state, access, headers, q.clone()).await?;
    let at = tco::chart_quote(&c, q.as_deref()).ok_or_else(|| StatusCode::NOT_FOUND.into_response())?;
    Ok((c, at, locale))
}

/// `GET /tco/hours.svg`: [`tco::hours_svg`]; 422 with the engine's reason when the quote cannot
/// be costed.
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
    match tco::hours_svg(&c, at, locale) {
        Ok(body) => svg(body),
        Err(err) => (StatusCode::UNPROCESSABLE_ENTITY, err.to_string()).into_response(),
    }
}

/// `GET /tco/nodes.svg`: [`tco::nodes_svg`]; 404 without a workload, 422 with the engine's
/// reason when the quote cannot be costed.
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
    match tco::nodes_svg(&c, at, locale) {
        Ok(Some(body)) => svg(body),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(err) => (StatusCode::UNPROCESSABLE_ENTITY, err.to_string()).into_response(),
    }
}

/// `GET /plan/chart.svg`: [`tco::plan_svg`] of the plan page's query, planned from now as the
/// page is; with `narrow=1` (the page's `<picture>` asks so on a phone) drawn for a phone's
/// width. 404 when there is nothing to plan (no workload, no quote costed, or the planner gave
/// its reason instead of plans), 500 when the rates cannot be read.
pub async fn plan_chart(
    State(state): State<CostState>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let (q, narrow) = without_narrow(q);
    let (c, locale) = match computed(&state, &access, &headers, q).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    match tco::planned(&state.db, access.team_id(), &c, app::clock::now_unix()).await {
        Ok(planned) => planned
            .and_then(|p| tco::plan_svg(&p, locale, narrow))
            .map_or_else(|| StatusCode::NOT_FOUND.into_response(), svg),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The query without its `narrow=1` (the drawing's width, not the plan's input) and whether it
/// was there.
fn without_narrow(q: Option<String>) -> (Option<String>, bool) {
    let Some(q) = q else {
        return (None, false);
    };
    let (narrow, rest): (Vec<&str>, Vec<&str>) = q.split('&').partition(|pair| *pair == "narrow=1");
    (Some(rest.join("&")), !narrow.is_empty())
}
