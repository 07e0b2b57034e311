//! `GET /orders/{id}/export.json`: the order record with every revision, its events and hashes
//! (`nodeledger audit verify --export FILE` checks it against the database).
//! `GET /orders/{id}/scenario.json[?rev=N]`: the comparison frozen at submission, as the
//! scenario file `nodeledger tco FILE` reruns to the same cent.

use app::{domain::roles::Capability, store, views::Caller};
use axum::{
    Extension, Json,
    extract::{Path, Query, State},
    response::{IntoResponse, Response},
};
use serde::Deserialize;

/// `?rev=N`.
#[derive(Deserialize)]
pub struct Revision {
    rev: Option<i64>,
}

/// The frozen scenario of one of the caller's team's orders.
pub async fn scenario(
    State(db): State<store::Db>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<i64>,
    Query(q): Query<Revision>,
) -> Response {
    let Some(Extension(caller)) = caller else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    let Some(team) = caller
        .active_membership()
        .filter(|_| caller.may(Capability::ReadTeamData))
    else {
        return StatusCode::FORBIDDEN.into_response();
    };
    match app::services::orders::frozen_scenario(&db, team.team_id, id, q.rev).await {
        Ok(scenario) => {
            let mut res = Json(scenario).into_response();
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"order-{id}-scenario.json\"")) {
                res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            res
        }
        Err(e) => StatusCode::from_u16(e.status_code())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
    }
}
use http::{HeaderValue, StatusCode, header};

/// Exports one of the caller's team's orders.
pub async fn export(State(db): State<store::Db>, caller: Option<Extension<Caller>>, Path(id): Path<i64>) -> Response {
    let Some(Extension(caller)) = caller else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    let Some(team) = caller
        .active_membership()
        .filter(|_| caller.may(Capability::ReadTeamData))
    else {
        return StatusCode::FORBIDDEN.into_response();
    };
    match app::services::orders::export(&db, team.team_id, id).await {
        Ok(record) => {
            let mut res = Json(record).into_response();
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"order-{id}.json\"")) {
                res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            res
        }
        Err(e) => StatusCode::from_u16(e.status_code())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
    }
}
