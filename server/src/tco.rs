//! The cost comparison's exports and charts, for the same query as the page (`/tco?…`):
//! `GET /tco/export.csv`, `GET /tco/export.json` (the scenario `nodeledger tco` reruns, and its
//! result), `GET /tco/stack.svg`, `/tco/hours.svg`, `/tco/nodes.svg`.

use app::{
    domain::roles::Capability,
    i18n::{Locale, locale_from_headers},
    model::Caller,
    services::tco::{self, Computed},
    store,
};
use axum::{
    Extension, Json,
    extract::{RawQuery, State},
    response::{IntoResponse, Response},
};
use http::{HeaderMap, HeaderValue, StatusCode, header};

/// Computes the comparison of the caller's active team for the request's query.
pub async fn computed(db: &store::Db, caller: Option<Extension<Caller>>, headers: &HeaderMap, query: Option<String>) -> Result<(Computed, Locale), Response> {
    let Some(Extension(caller)) = caller else { return Err(StatusCode::UNAUTHORIZED.into_response()) };
    let Some(team) = caller.active_membership().filter(|_| caller.may(Capability::ReadTeamData)) else {
        return Err(StatusCode::FORBIDDEN.into_response());
    };
    let locale = locale_from_headers(headers);
    match tco::compute(db, team.team_id, query.as_deref().unwrap_or_default(), locale, false).await {
        Ok(c) => Ok((c, locale)),
        Err(e) => Err((StatusCode::from_u16(e.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), e.localized(locale)).into_response()),
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// The ranked comparison as CSV: one line per quote and component, exact decimals.
pub fn comparison_csv(c: &Computed) -> String {
    let mut out = String::from(
        "rank,quote_id,revision,quote,currency,total,base_currency,total_in_base,rate_date,nodes,busy_h,billable_h,rental_h,time_to_finish_h,cost_per_unit,per_units,work_unit,effective_gpu_hour,idle_cost,pricing,over_budget,component,quantity,unit_price,component_cost\n",
    );
    for (row, costed) in c.view.rows.iter().zip(&c.costed) {
        let e = &costed.ranked.estimate;
        let per = e.cost_per_unit.as_ref();
        let head = [
            row.rank.to_string(),
            row.quote_id.to_string(),
            row.revision.to_string(),
            csv_field(&row.label),
            row.currency.clone(),
            e.total.normalize().to_string(),
            c.base.code().to_string(),
            costed.ranked.compared_total.normalize().to_string(),
            costed.ranked.rate_date.clone().unwrap_or_default(),
            e.nodes.to_string(),
            e.busy_h.normalize().to_string(),
            e.billable_h.normalize().to_string(),
            e.rental_h.normalize().to_string(),
            e.time_to_finish_h.normalize().to_string(),
            per.map(|p| p.amount.normalize().to_string()).unwrap_or_default(),
            per.map(|p| p.per.to_string()).unwrap_or_default(),
            per.map(|p| csv_field(&p.unit)).unwrap_or_default(),
            e.effective_gpu_hour_price.map(|p| p.normalize().to_string()).unwrap_or_default(),
            e.idle_cost.normalize().to_string(),
            format!("{:?}", e.pricing_used).to_lowercase(),
            row.over_budget.to_string(),
        ]
        .join(",");
        for (comp, line) in e.components.iter().zip(&row.components) {
            let name = if line.code == "other_fee" { format!("other_fee:{}", line.name) } else { line.code.clone() };
            out.push_str(&format!(
                "{head},{},{},{},{}\n",
                csv_field(&name),
                comp.quantity.normalize(),
                comp.unit_price.map(|p| p.normalize().to_string()).unwrap_or_default(),
                comp.cost.normalize()
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
pub async fn export_csv(State(db): State<store::Db>, caller: Option<Extension<Caller>>, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    match computed(&db, caller, &headers, q).await {
        Ok((c, _)) => attachment(comparison_csv(&c).into_response(), "text/csv; charset=utf-8", "attachment; filename=\"cost-comparison.csv\""),
        Err(res) => res,
    }
}

/// `GET /tco/export.json`: `{ "scenario": …, "result": … }`; the scenario is a valid input of
/// `nodeledger tco`.
pub async fn export_json(State(db): State<store::Db>, caller: Option<Extension<Caller>>, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let (c, _) = match computed(&db, caller.clone(), &headers, q).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    let team = caller.and_then(|Extension(c)| c.active_team).unwrap_or_default();
    let rates = match store::exchange_rates::list(&db, team).await {
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
    attachment(Json(body).into_response(), "application/json", "attachment; filename=\"cost-comparison.json\"")
}
