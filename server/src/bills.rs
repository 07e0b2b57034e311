//! `GET /bills/template.csv`: NodeLedger's simple bill layout (header and two example lines),
//! for vendors who send their bill as a PDF (columns in the README, "Bills").

use crate::access::{ReadTeamData, TeamAccess};
use crate::listed::Listed;
use axum::{response::IntoResponse, routing::get};
use http::header;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new().route("/bills/template.csv", get(template))
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
