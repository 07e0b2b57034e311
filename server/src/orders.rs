//! `GET /orders/{id}/export.json`: the order record with every revision, its events and hashes
//! (`nodeledger audit verify --export FILE` checks it against the database).
//! `GET /orders/{id}/scenario.json[?rev=N]`: the comparison frozen at submission, as the
//! scenario file `nodeledger tco FILE` reruns to the same cent.

use crate::access::{ReadTeamData, TeamAccess};
use crate::listed::Listed;
use app::store;
use axum::{
    Json,
    extract::{Path, Query, State},
    response::{IntoResponse, Response},
    routing::get,
};
use http::{HeaderValue, header};
use serde::Deserialize;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/orders/{id}/export.json", get(export))
        .route("/orders/{id}/scenario.json", get(scenario))
}

/// A JSON answer the browser saves as `file_name`.
fn json_attachment(json: impl IntoResponse, file_name: &str) -> Response {
    let mut res = json.into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    res
}

/// `?rev=N`.
#[derive(Deserialize)]
pub struct Revision {
    rev: Option<i64>,
}

/// The frozen scenario of one of the caller's team's orders.
pub async fn scenario(
    State(db): State<store::Db>,
    access: TeamAccess<ReadTeamData>,
    Path(id): Path<i64>,
    Query(q): Query<Revision>,
) -> Response {
    match app::services::orders::frozen_scenario(&db, access.team_id(), id, q.rev).await {
        Ok(scenario) => json_attachment(Json(scenario), &format!("order-{id}-scenario.json")),
        Err(e) => e.into_response(),
    }
}

/// Exports one of the caller's team's orders.
pub async fn export(State(db): State<store::Db>, access: TeamAccess<ReadTeamData>, Path(id): Path<i64>) -> Response {
    match app::services::orders::export(&db, access.team_id(), id).await {
        Ok(record) => json_attachment(Json(record), &format!("order-{id}.json")),
        Err(e) => e.into_response(),
    }
}
