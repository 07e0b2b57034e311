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
//! Files sent before ([`placement`]): exactly a stored run's files are answered 200 with
//! `"duplicate": true` and that run (so a retried upload is harmless); all of a run's files plus
//! the telemetry (or result) it lacks are added to it and it is judged again (200,
//! `"added": true`); any other mix with a run's files is 409 naming the run.
//!
//! A `node` field carries the node facts as JSON
//! ([`NodeFacts`]), stored with the run and shown on its page; and `dry_run` without any file is
//! the probe's check before it starts: the token may upload runs, and the quote and workload are
//! the token's team's (200 with `"ready": true`, else the same 401/403/404/422 an upload gets).

use super::{RunLimits, ingest, upload::format_field};
use crate::listed::Listed;
use crate::parse_slots::{ParseSlots, with_retry_after};
use app::{
    // The node facts of `nodeledger probe`.
    domain::node_facts::{FactsError, MAX_FACTS_BYTES, NodeFacts},
    domain::{
        roles::{Capability, allows},
        runs::{CanonicalRun, EXTRA_COMMAND_EXIT_CODE, Format, RUN_SCHEMA_JSON, Verdict},
        tokens,
    },
    error::{AppError, FieldIssue, Localized},
    i18n::{Locale, Msg, locale_from_headers},
    services::runs::placement::{self, Placement, UploadedFile},
    services::runs::{self as service, RunRequest},
    services::tokens::Refusal,
    store::{self, api_tokens::TokenGrant},
    texts::runs::{reason_text, severity_msg},
    views::RunFileInfo,
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

/// A whole number as people type it (`2,000` too, [`app::domain::numbers`]); empty is none.
fn id_field(name: &str, text: &str) -> Result<Option<i64>, AppError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    app::domain::numbers::parse_integer(text)
        .map(Some)
        .map_err(|e| AppError::InvalidFields(vec![app::error::FieldIssue::from_number(name, e)]))
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
    match finish(&db, &grant, &upload, locale).await {
        Ok(res) => res,
        Err(e) => e.in_language(locale).into_response(),
    }
}

/// What a script sent: the run's details, the staged files, and whether to store nothing.
struct ApiUpload {
    req: RunRequest,
    staged: Vec<ingest::Staged>,
    dry_run: bool,
    /// The probe's node facts, if sent.
    node: Option<NodeFacts>,
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
) -> Result<ApiUpload, (StatusCode, AppError)> {
    let cut = |e: &axum::extract::multipart::MultipartError| ingest::multipart_error(e, limits.file_bytes).answer();
    let mut upload = ApiUpload {
        req: RunRequest::default(),
        staged: Vec::new(),
        dry_run: false,
        node: None,
    };
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
            check_file_part(&file_parts, &name)?;
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
                return Err(refusal(service::duplicate_file(&name)));
            }
            upload.staged.push(staged);
            continue;
        }
        let text = ingest::text(field, &name, limits.file_bytes).await?;
        match text_field(&mut upload, &mut format, &name, text) {
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

/// Refuses a file part named `name` before it is read, given the file parts `seen` so far: a
/// third file ([`service::MAX_RUN_FILES`]), or a second `result` or `telemetry`.
fn check_file_part(seen: &[String], name: &str) -> Result<(), (StatusCode, AppError)> {
    if seen.len() >= service::MAX_RUN_FILES {
        return Err(refusal(service::too_many_files(service::MAX_RUN_FILES)));
    }
    if name != "file" && seen.iter().any(|s| s == name) {
        return Err(refusal(service::duplicate_file(name)));
    }
    Ok(())
}

/// Takes one text field into the upload (an unknown name is ignored).
fn text_field(upload: &mut ApiUpload, format: &mut Option<Format>, name: &str, text: String) -> Result<(), AppError> {
    let req = &mut upload.req;
    match name {
        "format" => *format = format_field(&text)?,
        "quote" => req.quote_id = id_field("quote", &text)?,
        "revision" => req.revision = id_field("revision", &text)?,
        "workload" => req.workload_id = id_field("workload", &text)?,
        "nodes" => req.nodes = id_field("nodes", &text)?,
        "node_label" => req.node_label = text,
        "note" => req.note = text,
        "started_at" => req.started_at = Some(text),
        "reserves_memory" => req.reserves_memory = yes(&text),
        "gpus" => req.gpus = gpus_field(&text)?,
        "stands_for_workload" => req.stands_for_workload = yes(&text),
        "dry_run" => upload.dry_run = yes(&text),
        "node" => upload.node = Some(node_field(&text)?),
        _ => {}
    }
    Ok(())
}

/// A yes/no text field: `true`, `1`, `yes` or `on` is yes.
fn yes(text: &str) -> bool {
    matches!(text.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on")
}

/// The `gpus` field: nvidia-smi indices separated by commas or spaces (`0,1`), as many as
/// telemetry can hold; 422 naming the field otherwise.
fn gpus_field(text: &str) -> Result<Vec<u32>, AppError> {
    let refused = || {
        AppError::InvalidFields(vec![FieldIssue {
            field: "gpus".into(),
            code: "gpu_index_invalid".into(),
            limit: Some(service::MAX_NAMED_GPUS.to_string()),
        }])
    };
    let mut gpus = Vec::new();
    for part in text.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let gpu: u32 = part.trim().parse().map_err(|_| refused())?;
        if gpus.len() >= service::MAX_NAMED_GPUS || gpus.contains(&gpu) {
            return Err(refused());
        }
        gpus.push(gpu);
    }
    Ok(gpus)
}

/// Reads the `node` field: 422 naming the line and column of bad JSON, or the bound.
fn node_field(text: &str) -> Result<NodeFacts, AppError> {
    let issue = match NodeFacts::parse(text) {
        Ok(facts) => return Ok(facts),
        Err(FactsError::TooLarge) => FieldIssue {
            field: "node".into(),
            code: "node_facts_too_large".into(),
            limit: Some(MAX_FACTS_BYTES.to_string()),
        },
        Err(FactsError::Malformed { line, column }) => FieldIssue {
            field: "node".into(),
            code: "node_facts_malformed".into(),
            limit: Some(format!("{line}:{column}")),
        },
        Err(FactsError::OutOfBounds(name)) => FieldIssue {
            field: "node".into(),
            code: "node_facts_out_of_bounds".into(),
            limit: Some(name.into()),
        },
    };
    Err(AppError::InvalidFields(vec![issue]))
}

/// The probe's check before it starts (`dry_run` without files): the request's own
/// fields, then the quote revision and workload in the token's team (404 when not).
async fn ready(db: &store::Db, grant: &TokenGrant, req: &RunRequest) -> Result<Response, AppError> {
    let against = service::against(db, grant.team_id, req).await?;
    let workload = against.workload.as_ref().map(|w| w.name.clone());
    Ok((
        StatusCode::OK,
        Json(json!({ "dry_run": true, "ready": true, "quote_revision_id": against.quote_revision_id, "workload": workload })),
    )
        .into_response())
}

/// Judges the staged files against the request and, unless it is a dry run, stores the files,
/// the run and its node facts in one transaction.
async fn finish(db: &store::Db, grant: &TokenGrant, upload: &ApiUpload, locale: Locale) -> Result<Response, AppError> {
    let (req, staged, dry_run) = (&upload.req, &upload.staged, upload.dry_run);
    service::check_request(req)?;
    if staged.is_empty() && dry_run {
        return ready(db, grant, req).await;
    }
    if staged.is_empty() {
        return Err(AppError::Invalid(Msg::RunErrorNoFile));
    }
    let placement = placement_of(db, grant.team_id, staged).await?;
    if let Placement::Duplicate(run_id) = placement {
        return Ok((
            StatusCode::OK,
            Json(json!({ "id": run_id, "url": format!("/runs/{run_id}"), "duplicate": true })),
        )
            .into_response());
    }
    let mut files = provisional_files(staged);
    mark_exit_code(&mut files, upload.node.as_ref());
    let against = match placement.adds_to() {
        Some(run_id) => {
            let (run, judged_against) = placement::target(db, grant.team_id, run_id, req).await?;
            placement::carry_over(&run, &mut files);
            judged_against
        }
        None => service::against(db, grant.team_id, req).await?,
    };
    let mut built = service::build(files, &against)?;
    let verdict = built
        .run
        .verdict
        .clone()
        .unwrap_or_else(|| Verdict::from_reasons(Vec::new()));
    let reasons = reasons_json(&verdict, locale);
    let adds_to = placement.adds_to();
    if dry_run {
        return Ok((
            StatusCode::OK,
            Json(json!({ "dry_run": true, "adds_to": adds_to, "status": verdict.status, "reasons": reasons, "run": built.run })),
        )
            .into_response());
    }
    let id = save(db, grant, upload, &mut built, adds_to).await?;
    // A stored run that gained its telemetry (or result) is answered 200: no run was created.
    let status = if adds_to.is_some() {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((
        status,
        Json(json!({ "id": id, "url": format!("/runs/{id}"), "duplicate": false, "added": adds_to.is_some(), "status": verdict.status, "reasons": reasons })),
    )
        .into_response())
}

/// Where the staged files go ([`placement`]): each with the run its bytes already belong to.
async fn placement_of(db: &store::Db, team_id: i64, staged: &[ingest::Staged]) -> Result<Placement, AppError> {
    let mut files = Vec::with_capacity(staged.len());
    for s in staged {
        let run_id = store::runs::file_by_sha(db, team_id, &s.sha256)
            .await?
            .and_then(|f| f.run_id);
        files.push(UploadedFile {
            telemetry: s.parsed.source_format == Format::NvidiaSmi,
            run_id,
        });
    }
    placement::place(db, team_id, &files).await
}

/// The staged files as the service judges them, numbered by position until they are stored.
fn provisional_files(staged: &[ingest::Staged]) -> Vec<(RunFileInfo, CanonicalRun)> {
    staged
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let info = RunFileInfo {
                id: i64::try_from(i).unwrap_or_default(),
                file_name: s.file_name.clone(),
                size: i64::try_from(s.size).unwrap_or(i64::MAX),
                sha256: s.sha256.clone(),
                format: s.parsed.source_format.as_str().to_string(),
                run_id: None,
            };
            (info, s.parsed.clone())
        })
        .collect()
}

/// The exit code the probe recorded goes into the result's `extra` (the telemetry's
/// when there is no result), where the judge reads it, so a failed command's run is invalid
/// and stays so when it is judged again.
fn mark_exit_code(files: &mut [(RunFileInfo, CanonicalRun)], node: Option<&NodeFacts>) {
    let Some(code) = node.and_then(|n| n.exit_code) else {
        return;
    };
    let target = files
        .iter()
        .position(|(_, run)| run.source_format != Format::NvidiaSmi)
        .or(if files.is_empty() { None } else { Some(0) });
    if let Some((_, run)) = target.and_then(|i| files.get_mut(i)) {
        run.extra.insert(EXTRA_COMMAND_EXIT_CODE.into(), code.into());
    }
}

/// The verdict's reasons as the API answers them: code, severity and both in words.
fn reasons_json(verdict: &Verdict, locale: Locale) -> Vec<serde_json::Value> {
    verdict
        .reasons
        .iter()
        .map(|r| json!({ "severity": r.severity, "code": r.reason.code(), "severity_label": locale.t(severity_msg(r.severity)), "message": reason_text(locale, &r.reason) }))
        .collect()
}

/// Stores the files, points the run at their real ids and saves it with its node facts, all in
/// one transaction: a new run, or the stored run `adds_to` gaining the files (its node facts,
/// when it has some, stay as they are).
async fn save(
    db: &store::Db,
    grant: &TokenGrant,
    upload: &ApiUpload,
    built: &mut service::Assembled,
    adds_to: Option<i64>,
) -> Result<i64, AppError> {
    let (req, staged) = (&upload.req, &upload.staged);
    let mut tx = store::begin_write(db).await?;
    let mut ids = Vec::with_capacity(staged.len());
    for s in staged {
        ids.push(ingest::store(&mut tx, grant.team_id, grant.user_id, s).await?);
    }
    let remap = |slot: Option<i64>| {
        slot.and_then(|i| usize::try_from(i).ok())
            .and_then(|i| ids.get(i).copied())
    };
    built.result_file = remap(built.result_file);
    built.telemetry_file = remap(built.telemetry_file);
    let id = match adds_to {
        Some(run_id) => placement::add(&mut tx, grant.team_id, run_id, built).await?,
        None => service::save(&mut tx, grant.team_id, grant.user_id, req, built).await?,
    };
    let has_facts = adds_to.is_some() && store::run_node_facts::get(&mut *tx, grant.team_id, id).await?.is_some();
    if let Some(node) = upload.node.as_ref().filter(|_| !has_facts) {
        let facts = serde_json::to_string(node).map_err(|_| AppError::Internal)?;
        store::run_node_facts::insert(&mut tx, grant.team_id, id, &facts, node.exit_code).await?;
    }
    tx.commit().await?;
    tracing::info!(
        run = id,
        team = grant.team_id,
        token = grant.token_id,
        "run uploaded through the API"
    );
    Ok(id)
}
