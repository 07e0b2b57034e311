//! `POST /runs/upload`: the browser sends one file at a time (with a progress bar); it is
//! received, read and kept as an unclaimed file until the user saves the run. The same bytes
//! uploaded again are recognised by their SHA-256, and the answer names the run that holds them.

use super::{RunLimits, app_error, error_answer, ingest};
use app::{
    domain::{roles::Capability, runs::Format},
    error::AppError,
    i18n::locale_from_headers,
    store,
    views::{Caller, RunFileInfo},
};
use axum::{
    Extension, Json,
    extract::{Multipart, State},
    response::{IntoResponse, Response},
};
use http::{HeaderMap, StatusCode};
use serde::Serialize;

/// State of the upload route.
#[derive(Clone)]
pub struct UploadState {
    /// The database.
    pub db: store::Db,
    /// Limits.
    pub limits: RunLimits,
}

/// What the browser gets back for one file.
#[derive(Serialize)]
struct Uploaded {
    file: RunFileInfo,
    /// `telemetry` for an nvidia-smi file, else `result`.
    role: &'static str,
}

/// Reads a `format` text field: empty or `auto` means detect.
pub fn format_field(text: &str) -> Result<Option<Format>, AppError> {
    let text = text.trim();
    if text.is_empty() || text == "auto" {
        return Ok(None);
    }
    Format::ALL
        .iter()
        .copied()
        .find(|f| f.as_str() == text)
        .map(Some)
        .ok_or_else(|| AppError::InvalidFields(vec![app::error::FieldIssue::new("format", "unknown_format")]))
}

/// Receives one file of a run being prepared in the browser.
pub async fn upload(
    State(state): State<UploadState>,
    caller: Option<Extension<Caller>>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let locale = locale_from_headers(&headers);
    let Some(Extension(caller)) = caller else {
        return app_error(&AppError::Unauthenticated, locale);
    };
    let Some(team) = caller
        .active_membership()
        .filter(|_| caller.may(Capability::UploadRuns))
    else {
        return app_error(&AppError::Forbidden, locale);
    };
    let limit = state.limits.file_bytes;
    let mut format = None;
    let mut staged = None;
    loop {
        match form.next_field().await {
            Ok(Some(field)) => match field.name() {
                Some("format") => match field.text().await.map_err(|e| ingest::multipart_error(&e, limit)) {
                    Ok(text) => match format_field(&text) {
                        Ok(f) => format = f,
                        Err(e) => return app_error(&e, locale),
                    },
                    Err(e) => {
                        let (status, err) = e.answer();
                        return error_answer(status, &err, locale);
                    }
                },
                Some("file") if staged.is_none() => match ingest::stage(field, limit, format).await {
                    Ok(s) => staged = Some(s),
                    Err(e) => {
                        let (status, err) = e.answer();
                        return error_answer(status, &err, locale);
                    }
                },
                _ => {}
            },
            Ok(None) => break,
            Err(e) => {
                let (status, err) = ingest::multipart_error(&e, limit).answer();
                return error_answer(status, &err, locale);
            }
        }
    }
    let Some(staged) = staged else {
        return app_error(&AppError::Invalid(app::i18n::Msg::RunErrorNoFile), locale);
    };
    let stored = async {
        if let Some(existing) = store::runs::file_by_sha(&state.db, team.team_id, &staged.sha256).await? {
            return Ok(existing);
        }
        let mut tx = store::begin_write(&state.db).await?;
        let id = ingest::store(&mut tx, team.team_id, caller.user_id, &staged).await?;
        tx.commit().await?;
        Ok::<_, AppError>(RunFileInfo {
            id,
            file_name: staged.file_name.clone(),
            size: i64::try_from(staged.size).unwrap_or(i64::MAX),
            sha256: staged.sha256.clone(),
            format: staged.parsed.source_format.as_str().to_string(),
            run_id: None,
        })
    }
    .await;
    match stored {
        Ok(file) => {
            let role = if file.format == Format::NvidiaSmi.as_str() {
                "telemetry"
            } else {
                "result"
            };
            (StatusCode::OK, Json(Uploaded { file, role })).into_response()
        }
        Err(e) => app_error(&e, locale),
    }
}
