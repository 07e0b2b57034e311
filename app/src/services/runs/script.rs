//! A script's upload (`POST /api/v1/runs`, the fields are listed in `server::runs::api`): its text
//! fields read one by one, then the staged files judged against the request and, unless it is a
//! dry run, stored with the run and its node facts in one transaction.
//!
//! 1. [`text_field`] and [`check_file_part`] while the form is read;
//! 2. [`finish`]: the request checked, where the files go ([`super::placement`]), the probe's
//!    exit code marked ([`placement::mark_exit_code`]), the run judged ([`super::build`]);
//! 3. a dry run is answered there; otherwise [`save`] stores the files, the run (new, or the
//!    stored run gaining the files) and the node facts, all or nothing.

use super::{
    Assembled, MAX_NAMED_GPUS, MAX_RUN_FILES, RunRequest, against, build, check_request, duplicate_file,
    placement::{self, Placement, UploadedFile},
    staged::{self, Staged},
    too_many_files,
};
use crate::{
    domain::{
        node_facts::{FactsError, MAX_FACTS_BYTES, NodeFacts},
        numbers::parse_integer,
        runs::{CanonicalRun, Format, Verdict},
    },
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg},
    store::{self, Db, api_tokens::TokenGrant},
    texts::runs::{reason_text, severity_msg},
    views::RunFileInfo,
};
use serde_json::json;

/// What a script sent: the run's details, the staged files, and whether to store nothing.
#[derive(Debug, Default)]
pub struct ScriptUpload {
    /// The run's details from the text fields.
    pub req: RunRequest,
    /// The files, received and parsed.
    pub staged: Vec<Staged>,
    /// Judge and answer, store nothing.
    pub dry_run: bool,
    /// The probe's node facts, if sent.
    pub node: Option<NodeFacts>,
}

/// What became of an upload.
#[derive(Debug)]
pub enum Outcome {
    /// A dry run without files: the token may upload, and the quote revision and workload are
    /// the token's team's.
    Ready {
        /// The quote revision the run would be judged against.
        quote_revision_id: Option<i64>,
        /// The workload's name.
        workload: Option<String>,
    },
    /// Exactly a stored run's files: that run, nothing stored.
    Duplicate(i64),
    /// A dry run with files: how the run would be judged, nothing stored.
    Judged {
        /// The stored run the files would be added to.
        adds_to: Option<i64>,
        /// The run's verdict.
        verdict: Verdict,
        /// The merged and judged run.
        run: Box<CanonicalRun>,
    },
    /// Stored: a new run, or the stored run `id` that gained the files (`added`).
    Saved {
        /// The run's id.
        id: i64,
        /// The files were added to a stored run (no run was created).
        added: bool,
        /// The run's verdict.
        verdict: Verdict,
    },
}

/// A `format` text field: empty or `auto` means detect.
///
/// # Errors
/// [`AppError::InvalidFields`] naming `format` for a format not in [`Format::ALL`].
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
        .ok_or_else(|| AppError::InvalidFields(vec![FieldIssue::new("format", "unknown_format")]))
}

/// Refuses a file part named `name` before it is read, given the file parts `seen` so far: a
/// third file ([`MAX_RUN_FILES`]), or a second `result` or `telemetry`.
///
/// # Errors
/// [`too_many_files`] or [`duplicate_file`].
pub fn check_file_part(seen: &[String], name: &str) -> Result<(), AppError> {
    if seen.len() >= MAX_RUN_FILES {
        return Err(too_many_files(MAX_RUN_FILES));
    }
    if name != "file" && seen.iter().any(|s| s == name) {
        return Err(duplicate_file(name));
    }
    Ok(())
}

/// Takes one text field into the upload (an unknown name is ignored); `format` applies to a
/// `result` file sent after it.
///
/// # Errors
/// [`AppError::InvalidFields`] naming the field when its text does not read.
pub fn text_field(
    upload: &mut ScriptUpload,
    format: &mut Option<Format>,
    name: &str,
    text: String,
) -> Result<(), AppError> {
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

/// A whole number as people type it (`2,000` too, [`crate::domain::numbers`]); empty is none.
fn id_field(name: &str, text: &str) -> Result<Option<i64>, AppError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse_integer(text)
        .map(Some)
        .map_err(|e| AppError::InvalidFields(vec![FieldIssue::from_number(name, e)]))
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
            limit: Some(MAX_NAMED_GPUS.to_string()),
        }])
    };
    let mut gpus = Vec::new();
    for part in text.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let gpu: u32 = part.trim().parse().map_err(|_| refused())?;
        if gpus.len() >= MAX_NAMED_GPUS || gpus.contains(&gpu) {
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

/// Judges the staged files against the request and, unless it is a dry run, stores the files,
/// the run and its node facts in one transaction. A dry run without files is the probe's check
/// before it starts: the request's own fields, then the quote revision and workload in the
/// token's team (404 when not).
///
/// # Errors
/// The request's refusals ([`check_request`]), [`AppError::Invalid`] without a file, and those
/// of [`placement`], [`against`], [`build`] and the store.
pub async fn finish(db: &Db, grant: &TokenGrant, upload: &ScriptUpload) -> Result<Outcome, AppError> {
    let (req, staged, dry_run) = (&upload.req, &upload.staged, upload.dry_run);
    check_request(req)?;
    if staged.is_empty() && dry_run {
        let against = against(db, grant.team_id, req).await?;
        return Ok(Outcome::Ready {
            quote_revision_id: against.quote_revision_id,
            workload: against.workload.as_ref().map(|w| w.name.clone()),
        });
    }
    if staged.is_empty() {
        return Err(AppError::Invalid(Msg::RunErrorNoFile));
    }
    let placement = placement_of(db, grant.team_id, staged).await?;
    if let Placement::Duplicate(run_id) = placement {
        return Ok(Outcome::Duplicate(run_id));
    }
    let mut files = provisional_files(staged);
    if let Some(code) = upload.node.as_ref().and_then(|n| n.exit_code) {
        placement::mark_exit_code(&mut files, code.into());
    }
    let against = match placement.adds_to() {
        Some(run_id) => {
            let (run, judged_against) = placement::target(db, grant.team_id, run_id, req).await?;
            placement::carry_over(&run, &mut files);
            judged_against
        }
        None => against(db, grant.team_id, req).await?,
    };
    let mut built = build(files, &against)?;
    let verdict = built
        .run
        .verdict
        .clone()
        .unwrap_or_else(|| Verdict::from_reasons(Vec::new()));
    let adds_to = placement.adds_to();
    if dry_run {
        return Ok(Outcome::Judged {
            adds_to,
            verdict,
            run: Box::new(built.run),
        });
    }
    let id = save(db, grant, upload, &mut built, adds_to).await?;
    Ok(Outcome::Saved {
        id,
        added: adds_to.is_some(),
        verdict,
    })
}

/// Where the staged files go ([`placement`]): each with the run its bytes already belong to.
async fn placement_of(db: &Db, team_id: i64, staged: &[Staged]) -> Result<Placement, AppError> {
    let mut files = Vec::with_capacity(staged.len());
    for s in staged {
        let run_id = store::runs::file_by_sha(db, team_id, &s.sha256)
            .await?
            .and_then(|f| f.run_id);
        files.push(UploadedFile {
            telemetry: s.parsed.source_format.is_telemetry(),
            run_id,
        });
    }
    placement::place(db, team_id, &files).await
}

/// The staged files as the service judges them, numbered by position until they are stored.
fn provisional_files(staged: &[Staged]) -> Vec<(RunFileInfo, CanonicalRun)> {
    staged
        .iter()
        .enumerate()
        .map(|(i, s)| (s.info(i64::try_from(i).unwrap_or_default()), s.parsed.clone()))
        .collect()
}

/// The verdict's reasons as the API answers them: code, severity and both in words.
#[must_use]
pub fn reasons_json(verdict: &Verdict, locale: Locale) -> Vec<serde_json::Value> {
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
    db: &Db,
    grant: &TokenGrant,
    upload: &ScriptUpload,
    built: &mut Assembled,
    adds_to: Option<i64>,
) -> Result<i64, AppError> {
    let (req, staged) = (&upload.req, &upload.staged);
    let mut tx = store::begin_write(db).await?;
    let mut ids = Vec::with_capacity(staged.len());
    for s in staged {
        ids.push(staged::store(&mut tx, grant.team_id, grant.user_id, s).await?);
    }
    let remap = |slot: Option<i64>| {
        slot.and_then(|i| usize::try_from(i).ok())
            .and_then(|i| ids.get(i).copied())
    };
    built.result_file = remap(built.result_file);
    built.telemetry_file = remap(built.telemetry_file);
    let id = match adds_to {
        Some(run_id) => placement::add(&mut tx, grant.team_id, run_id, built).await?,
        None => super::save(&mut tx, grant.team_id, grant.user_id, req, built).await?,
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
