//! The scripts' API: `POST /api/v1/runs` (multipart, `Authorization: Bearer <token>`, no
//! cookies, so no cross-site check) and the run JSON Schema.
//!
//! Fields: `result` and/or `telemetry` (files; `file` is accepted too, its kind detected),
//! `format` (applies to the result file; default: detect), `quote` (quote id) and `revision`
//! (default: latest), `node_label` (needed without a quote), `workload` (id), `nodes`, `note`,
//! `dry_run` (`true`: judge and answer, store nothing). Either everything is stored or nothing.

use super::{RunLimits, app_error, error_answer, ingest, upload::format_field};
use app::{
    domain::{
        roles::{Capability, allows},
        runs::{Format, RUN_SCHEMA_JSON, Verdict},
        tokens,
    },
    error::AppError,
    i18n::{Locale, Msg, locale_from_headers},
    services::runs::{self as service, RunRequest},
    store::{self, api_tokens::TokenGrant},
    texts::runs::{reason_text, severity_msg},
};
use axum::{
    Json,
    extract::{Multipart, State},
    response::{IntoResponse, Response},
};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::json;

/// State of the API routes.
#[derive(Clone)]
pub struct ApiState {
    /// The database.
    pub db: store::Db,
    /// Limits.
    pub limits: RunLimits,
}

/// `GET /api/v1/schema/run.json`.
pub async fn run_schema() -> Response {
    let mut res = RUN_SCHEMA_JSON.into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/schema+json"),
    );
    res
}

fn unauthorized(msg: Msg, locale: Locale) -> Response {
    let mut res = (
        StatusCode::UNAUTHORIZED,
        Json(json!({ "error": "unauthenticated", "message": locale.t(msg) })),
    )
        .into_response();
    res.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"nodeledger\""),
    );
    res
}

/// The live grant of the request's bearer token.
async fn authenticate(db: &store::Db, headers: &HeaderMap, locale: Locale) -> Result<TokenGrant, Response> {
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(tokens::from_authorization);
    let Some(token) = presented else {
        return Err(unauthorized(Msg::ApiTokenMissing, locale));
    };
    if !tokens::well_formed(token) {
        return Err(unauthorized(Msg::ApiTokenInvalid, locale));
    }
    match store::api_tokens::grant(db, &tokens::token_hash(token)).await {
        Ok(Some(grant)) => {
            if let Err(e) = store::api_tokens::touch(db, grant.token_id).await {
                tracing::warn!(error = %e, "cannot record token use");
            }
            Ok(grant)
        }
        Ok(None) => Err(unauthorized(Msg::ApiTokenInvalid, locale)),
        Err(e) => Err(app_error(&AppError::from(e), locale)),
    }
}

fn id_field(name: &str, text: &str) -> Result<Option<i64>, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| AppError::InvalidFields(vec![app::error::FieldIssue::new(name, "invalid_number")]))
}

/// `POST /api/v1/runs`.
pub async fn create_run(State(state): State<ApiState>, headers: HeaderMap, mut form: Multipart) -> Response {
    let locale = locale_from_headers(&headers);
    let grant = match authenticate(&state.db, &headers, locale).await {
        Ok(g) => g,
        Err(res) => return res,
    };
    if !allows(grant.role, Capability::UploadRuns) {
        return error_answer(
            StatusCode::FORBIDDEN,
            &AppError::Refused(Msg::ApiRoleCannotUpload),
            locale,
        );
    }
    let limit = state.limits.file_bytes;
    let mut req = RunRequest::default();
    let mut format: Option<Format> = None;
    let mut dry_run = false;
    let mut staged = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => {
                let (status, err) = ingest::multipart_error(&e, limit).answer();
                return error_answer(status, &err, locale);
            }
        };
        let name = field.name().unwrap_or_default().to_string();
        if matches!(name.as_str(), "result" | "telemetry" | "file") {
            let forced = match name.as_str() {
                "telemetry" => Some(Format::NvidiaSmi),
                "result" => format,
                _ => None,
            };
            match ingest::stage(field, limit, forced).await {
                Ok(s) => staged.push(s),
                Err(e) => {
                    let (status, err) = e.answer();
                    return error_answer(status, &err, locale);
                }
            }
            continue;
        }
        let text = match field.text().await {
            Ok(t) => t,
            Err(e) => {
                let (status, err) = ingest::multipart_error(&e, limit).answer();
                return error_answer(status, &err, locale);
            }
        };
        let parsed = match name.as_str() {
            "format" => format_field(&text).map(|f| format = f),
            "quote" => id_field("quote", &text).map(|v| req.quote_id = v),
            "revision" => id_field("revision", &text).map(|v| req.revision = v),
            "workload" => id_field("workload", &text).map(|v| req.workload_id = v),
            "nodes" => id_field("nodes", &text).map(|v| req.nodes = v),
            "node_label" => {
                req.node_label = text;
                Ok(())
            }
            "note" => {
                req.note = text;
                Ok(())
            }
            "dry_run" => {
                dry_run = matches!(text.trim(), "true" | "1" | "yes");
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(e) = parsed {
            return app_error(&e, locale);
        }
    }
    match finish(&state, &grant, &req, staged, dry_run, locale).await {
        Ok(res) => res,
        Err(e) => app_error(&e, locale),
    }
}

async fn finish(
    state: &ApiState,
    grant: &TokenGrant,
    req: &RunRequest,
    staged: Vec<ingest::Staged>,
    dry_run: bool,
    locale: Locale,
) -> Result<Response, AppError> {
    service::check_request(req)?;
    if staged.is_empty() {
        return Err(AppError::Invalid(Msg::RunErrorNoFile));
    }
    // The same bytes as a saved run: answer with that run instead of a copy.
    let mut held = Vec::new();
    for s in &staged {
        held.push(
            store::runs::file_by_sha(&state.db, grant.team_id, &s.sha256)
                .await?
                .and_then(|f| f.run_id),
        );
    }
    if let Some(Some(run_id)) = held.first().copied()
        && held.iter().all(|h| *h == Some(run_id))
    {
        return Ok((
            StatusCode::OK,
            Json(json!({ "id": run_id, "url": format!("/runs/{run_id}"), "duplicate": true })),
        )
            .into_response());
    }
    if let Some(run_id) = held.iter().flatten().next() {
        return Err(AppError::DuplicateRun(*run_id));
    }
    let against = service::against(&state.db, grant.team_id, req).await?;
    let provisional: Vec<_> = staged
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let info = app::views::RunFileInfo {
                id: i64::try_from(i).unwrap_or_default(),
                file_name: s.file_name.clone(),
                size: i64::try_from(s.size).unwrap_or(i64::MAX),
                sha256: s.sha256.clone(),
                format: s.parsed.source_format.as_str().to_string(),
                run_id: None,
            };
            (info, s.parsed.clone())
        })
        .collect();
    let mut built = service::build(provisional, &against)?;
    let verdict = built
        .run
        .verdict
        .clone()
        .unwrap_or_else(|| Verdict::from_reasons(Vec::new()));
    let reasons: Vec<_> = verdict
        .reasons
        .iter()
        .map(|r| json!({ "severity": r.severity, "code": r.reason.code(), "severity_label": locale.t(severity_msg(r.severity)), "message": reason_text(locale, &r.reason) }))
        .collect();
    if dry_run {
        return Ok((
            StatusCode::OK,
            Json(json!({ "dry_run": true, "status": verdict.status, "reasons": reasons, "run": built.run })),
        )
            .into_response());
    }
    let mut tx = store::begin_write(&state.db).await?;
    let mut ids = Vec::with_capacity(staged.len());
    for s in &staged {
        ids.push(ingest::store(&mut tx, grant.team_id, grant.user_id, s).await?);
    }
    let remap = |slot: Option<i64>| {
        slot.and_then(|i| usize::try_from(i).ok())
            .and_then(|i| ids.get(i).copied())
    };
    built.result_file = remap(built.result_file);
    built.telemetry_file = remap(built.telemetry_file);
    let id = service::save(&mut tx, grant.team_id, grant.user_id, req, &built).await?;
    tx.commit().await?;
    tracing::info!(
        run = id,
        team = grant.team_id,
        token = grant.token_id,
        "run uploaded through the API"
    );
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "url": format!("/runs/{id}"), "duplicate": false, "status": verdict.status, "reasons": reasons })),
    )
        .into_response())
}
