//! The scripts' API: `POST /api/v1/runs` (multipart, `Authorization: Bearer <token>`, no
//! cookies, so no cross-site check) and the run JSON Schema.
//!
//! Fields: `result` and/or `telemetry` (files; `file` is accepted too, its kind detected),
//! `format` (applies to the result file; default: detect), `quote` (quote id) and `revision`
//! (default: latest), `node_label` (needed without a quote), `workload` (id), `nodes`, `note`,
//! `dry_run` (`true`: judge and answer, store nothing), `started_at` (the run's start on the
//! telemetry's clock, `YYYY-MM-DD HH:MM[:SS]`, for a result without a time of its own),
//! `reserves_memory` (`true`: the server reserved memory up front, as vLLM and SGLang do) and
//! `gpus` (the nvidia-smi indices the run used, `0,1`) and `stands_for_workload` (`true`: the run
//! stands for the workload although its model or precision differs). Either everything is
//! stored or nothing.
//!
//! Files sent before (`app::services::runs::placement`): exactly a stored run's files are
//! answered 200 with `"duplicate": true` and that run (so a retried upload is harmless); all of a run's files plus
//! the telemetry (or result) it lacks are added to it and it is judged again (200,
//! `"added": true`); any other mix with a run's files is 409 naming the run.
//!
//! A `node` field carries the node facts as JSON
//! (`app::domain::node_facts::NodeFacts`), stored with the run and shown on its page; and `dry_run` without any file is
//! the probe's check before it starts: the token may upload runs, and the quote and workload are
//! the token's team's (200 with `"ready": true`, else the same 401/403/404/422 an upload gets).
//!
//! Here the form is read and the answer written; what is judged and stored is
//! `app::services::runs::script`.

use super::{RunLimits, ingest};
use crate::listed::Listed;
use crate::parse_slots::{ParseSlots, with_retry_after};
use app::{
    domain::{
        roles::{Capability, allows},
        runs::{Format, RUN_SCHEMA_JSON},
        tokens,
    },
    error::{AppError, Localized},
    i18n::{Locale, Msg, locale_from_headers},
    services::runs::{
        self,
        script::{self, Outcome, ScriptUpload},
    },
    services::tokens::Refusal,
    store::{self, api_tokens::TokenGrant},
};
use axum::{
    Json,
    extract::{Multipart, State},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::json;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/api/v1/runs", post(create_run))
        .route("/api/v1/schema/run.json", get(run_schema))
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

fn unauthorized(message: &str) -> Response {
    let mut res = (
        StatusCode::UNAUTHORIZED,
        Json(json!({ "error": "unauthenticated", "message": message })),
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
        return Err(unauthorized(locale.t(Msg::ApiTokenMissing)));
    };
    if !tokens::well_formed(token) {
        return Err(unauthorized(locale.t(Msg::ApiTokenInvalid)));
    }
    // Expiry and the once-a-minute record of use: app::services::tokens.
    match app::services::tokens::authenticate(db, token).await {
        Ok(Ok(grant)) => Ok(grant),
        Ok(Err(Refusal::Invalid)) => Err(unauthorized(locale.t(Msg::ApiTokenInvalid))),
        Ok(Err(Refusal::Expired(at))) => Err(unauthorized(
            &locale.fmt(Msg::SecAuditApiTokenExpired, &[("when", &app::texts::moment(&at))]),
        )),
        Err(e) => Err(AppError::from(e).in_language(locale).into_response()),
    }
}

/// `POST /api/v1/runs`.
pub async fn create_run(
    State(db): State<store::Db>,
    State(limits): State<RunLimits>,
    State(slots): State<ParseSlots>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let locale = locale_from_headers(&headers);
    let grant = match authenticate(&db, &headers, locale).await {
        Ok(g) => g,
        Err(res) => return res,
    };
    if !allows(grant.role, Capability::UploadRuns) {
        return Localized::with_status(
            StatusCode::FORBIDDEN,
            AppError::Refused(Msg::ApiRoleCannotUpload),
            locale,
        )
        .into_response();
    }
    let upload = match read_form(&mut form, &limits, &slots).await {
        Ok(upload) => upload,
        Err((status, e)) => {
            return with_retry_after(Localized::with_status(status, e, locale).into_response());
        }
    };
    match script::finish(&db, &grant, &upload).await {
        Ok(outcome) => answer(outcome, locale),
        Err(e) => e.in_language(locale).into_response(),
    }
}

/// Reads the multipart form (fields as the module documentation lists them); a file is
/// staged as it arrives, so `format` applies to a `result` sent after it. Every unreadable text
/// field is answered at once, each named. A part past [`ingest::MAX_PARTS`], a third file or a
/// second `result` or `telemetry` is refused before it is read (422), and the files staged so
/// far are deleted. The error carries the status to answer with (413 when the body limit cut a
/// file).
async fn read_form(
    form: &mut Multipart,
    limits: &RunLimits,
    slots: &ParseSlots,
) -> Result<ScriptUpload, (StatusCode, AppError)> {
    let cut = |e: &axum::extract::multipart::MultipartError| ingest::multipart_error(e, limits.file_bytes).answer();
    let mut upload = ScriptUpload::default();
    let mut format: Option<Format> = None;
    let mut refused = Vec::new();
    let mut file_parts: Vec<String> = Vec::new();
    for part in 1.. {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => return Err(cut(&e)),
        };
        if part > ingest::MAX_PARTS {
            return Err(ingest::too_many_parts());
        }
        let name = field.name().unwrap_or_default().to_string();
        if matches!(name.as_str(), "result" | "telemetry" | "file") {
            script::check_file_part(&file_parts, &name).map_err(refusal)?;
            file_parts.push(name.clone());
            let forced = match name.as_str() {
                "telemetry" => Some(Format::NvidiaSmi),
                "result" => format,
                _ => None,
            };
            let staged = ingest::stage(field, limits, slots, forced)
                .await
                .map_err(|e| e.answer())?;
            if upload.staged.iter().any(|s| s.sha256 == staged.sha256) {
                return Err(refusal(runs::duplicate_file(&name)));
            }
            upload.staged.push(staged);
            continue;
        }
        let text = ingest::text(field, &name, limits.file_bytes).await?;
        match script::text_field(&mut upload, &mut format, &name, text) {
            Ok(()) => {}
            Err(AppError::InvalidFields(issues)) => refused.extend(issues),
            Err(e) => return Err((e.status(), e)),
        }
    }
    if refused.is_empty() {
        Ok(upload)
    } else {
        Err(refusal(AppError::InvalidFields(refused)))
    }
}

/// An error with the status it stands for.
fn refusal(e: AppError) -> (StatusCode, AppError) {
    (e.status(), e)
}

/// The answer to what became of an upload: 201 for a new run, 200 for the rest.
fn answer(outcome: Outcome, locale: Locale) -> Response {
    let (status, body) = match outcome {
        Outcome::Ready {
            quote_revision_id,
            workload,
        } => (
            StatusCode::OK,
            json!({ "dry_run": true, "ready": true, "quote_revision_id": quote_revision_id, "workload": workload }),
        ),
        Outcome::Duplicate(run_id) => (
            StatusCode::OK,
            json!({ "id": run_id, "url": format!("/runs/{run_id}"), "duplicate": true }),
        ),
        Outcome::Judged { adds_to, verdict, run } => (
            StatusCode::OK,
            json!({ "dry_run": true, "adds_to": adds_to, "status": verdict.status, "reasons": script::reasons_json(&verdict, locale), "run": run }),
        ),
        // A stored run that gained its telemetry (or result) is answered 200: no run was created.
        Outcome::Saved { id, added, verdict } => (
            if added { StatusCode::OK } else { StatusCode::CREATED },
            json!({ "id": id, "url": format!("/runs/{id}"), "duplicate": false, "added": added, "status": verdict.status, "reasons": script::reasons_json(&verdict, locale) }),
        ),
    };
    (status, Json(body)).into_response()
}
