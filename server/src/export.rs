//! `GET /quotes/export.csv`: the active team's current quotes as CSV in NodeLedger's format
//! (the importer reads it back unchanged).

use app::{
    domain::{quotes, roles::Capability, roles::allows},
    model::Caller,
    store,
};
use axum::{
    Extension,
    extract::State,
    response::{IntoResponse, Response},
};
use http::{HeaderValue, StatusCode, header};

/// Exports every current (unexpired and expired) quote of the caller's active team.
pub async fn quotes_csv(State(db): State<store::Db>, caller: Option<Extension<Caller>>) -> Response {
    let Some(Extension(caller)) = caller else { return StatusCode::UNAUTHORIZED.into_response() };
    let Some(team) = caller.active_membership().filter(|m| allows(m.role, Capability::ReadTeamData)) else {
        return StatusCode::FORBIDDEN.into_response();
    };
    let drafts = match store::quotes::latest_drafts(&db, team.team_id, true, store::today()).await {
        Ok(d) => d,
        Err(e) => {
            tracing::error!(error = %e, "quote export failed");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let mut res = quotes::export(&drafts).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    h.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"quotes.csv\""));
    res
}
