//! `GET /quotes/export.csv`: the active team's current quotes as CSV in NodeLedger's format
//! (the importer reads it back unchanged), filtered and ordered like the quote list.

use crate::access::{ReadTeamData, TeamAccess};
use crate::listed::Listed;
use app::{
    domain::quotes,
    pages::quotes::list::{QuoteQuery, parse_query},
    store,
};
use axum::{
    extract::{Query, State, rejection::QueryRejection},
    response::{IntoResponse, Response},
    routing::get,
};
use http::{HeaderValue, StatusCode, header};

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new().route("/quotes/export.csv", get(quotes_csv))
}

/// Exports the caller's active team's current quotes that the list's query string selects (the
/// same filters and order as the list page, every page; without a query: the unexpired ones).
pub async fn quotes_csv(
    State(db): State<store::Db>,
    access: TeamAccess<ReadTeamData>,
    query: Result<Query<QuoteQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return (StatusCode::BAD_REQUEST, "unreadable query string").into_response();
    };
    let Ok((filter, sort)) = parse_query(&query) else {
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            "a filter value is not valid; correct it on the quote list",
        )
            .into_response();
    };
    let drafts = match store::quotes::price_conversion(&db, access.team_id()).await {
        Ok(basis) => store::quotes::latest_drafts(&db, access.team_id(), &filter, &basis, sort, store::today()).await,
        Err(e) => Err(e),
    };
    let drafts = match drafts {
        Ok(d) => d,
        Err(e) => {
            tracing::error!(error = %e, "quote export failed");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let mut res = quotes::export(&drafts).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"quotes.csv\""),
    );
    res
}
