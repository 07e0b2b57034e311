//! `GET /quotes/export.csv`: the active team's current quotes as CSV in NodeLedger's format
//! (the importer reads it back unchanged).

use app::{
    domain::{quotes, roles::Capability, roles::allows},
    model::Caller,
    store::{self, quotes::{QuoteFilter, QuoteSort}},
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
    let filter = QuoteFilter { include_expired: true, ..QuoteFilter::default() };
    let today = store::today();
    let mut drafts = Vec::new();
    let mut page = 0;
    loop {
        match store::quotes::list(&db, team.team_id, &filter, QuoteSort::PriceAsc, today, page, 200).await {
            Ok((items, total)) => {
                let done = items.is_empty();
                drafts.extend(items.into_iter().map(|q| q.draft));
                if done || drafts.len() as i64 >= total {
                    break;
                }
                page += 1;
            }
            Err(e) => {
                tracing::error!(error = %e, "quote export failed");
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        }
    }
    let mut res = quotes::export(&drafts).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    h.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"quotes.csv\""));
    res
}
