//! Benchmark runs over HTTP: the browser's upload (`POST /runs/upload`), the scripts' API
//! (`POST /api/v1/runs` with a bearer token, `GET /api/v1/schema/run.json`), the raw files
//! (`GET /runs/{id}/files/{file}`) and the charts (`GET /runs/{id}/telemetry.svg`); and
//! `nodeledger runs rejudge` ([`cli`]).

pub mod api;
pub mod cli;
pub mod files;
pub mod ingest;
pub mod upload;

use app::{error::AppError, i18n::Locale};
use axum::{
    Json,
    response::{IntoResponse, Response},
};
use http::StatusCode;

/// Settings of the run routes.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Largest file accepted, bytes.
    pub file_bytes: u64,
}

/// A JSON error answer: the error's code and detail (as server functions send them) plus the
/// message in the caller's language.
pub fn error_answer(status: StatusCode, error: &AppError, locale: Locale) -> Response {
    let mut body = serde_json::to_value(error).unwrap_or_else(|_| serde_json::json!({ "error": "internal" }));
    if let Some(obj) = body.as_object_mut() {
        obj.insert("message".into(), error.localized(locale).into());
    }
    (status, Json(body)).into_response()
}

/// [`error_answer`] with the status the error stands for.
pub fn app_error(error: &AppError, locale: Locale) -> Response {
    let status = StatusCode::from_u16(error.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    error_answer(status, error, locale)
}
