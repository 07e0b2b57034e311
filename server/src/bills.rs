//! `GET /bills/template.csv`: NodeLedger's simple bill layout (header and two example lines),
//! for vendors who send their bill as a PDF (columns in the README, "Bills").

use crate::access::{ReadTeamData, TeamAccess};
use crate::state::ServerState;
use axum::{Router, response::IntoResponse, routing::get};
use http::header;

/// The routes of this module.
pub fn router() -> Router<ServerState> {
    Router::new().route("/bills/template.csv", get(template))
}

/// The template, as a download.
pub async fn template(_access: TeamAccess<ReadTeamData>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"nodeledger-bill.csv\"",
            ),
        ],
        app::domain::bills::simple::TEMPLATE,
    )
}
