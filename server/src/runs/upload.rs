//! `POST /runs/upload`: the browser sends one file at a time (with a progress bar); it is
//! received, read and kept as an unclaimed file until the user saves the run. The same bytes
//! uploaded again are recognised by their SHA-256, and the answer names the run that holds them.

use super::{RunLimits, ingest};
use crate::access::{Refused, TeamAccess, UploadRuns};
use crate::listed::Listed;
use crate::parse_slots::{ParseSlots, with_retry_after};
use app::{
    domain::runs::Format,
    error::{AppError, Localized},
    i18n::{Msg, locale_from_headers},
    services::runs::{
        script::format_field,
        staged::{self, Staged},
    },
    store,
    texts::runs::{bytes, format_label},
    views::RunFileInfo,
};
use axum::{
    Json,
    extract::{Multipart, State},
    response::{IntoResponse, Response},
    routing::post,
};
use http::{HeaderMap, StatusCode};
use serde::Serialize;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new().route("/runs/upload", post(upload))
}

/// What the browser gets back for one file.
#[derive(Serialize)]
struct Uploaded {
    file: RunFileInfo,
    /// `telemetry` for GPU telemetry, `interconnect` for an nccl-tests output, else `result`.
    role: &'static str,
    /// What was recognised, in the reader's language ("Recognised: vLLM benchmark, 12 KB"):
    /// the page shows it as it is.
    recognised: String,
}

/// Receives one file of a run being prepared in the browser. Every refusal, 401 and 403
/// included, is a JSON answer in the reader's language: the upload page shows its `message`.
pub async fn upload(
    State(db): State<store::Db>,
    State(limits): State<RunLimits>,
    State(slots): State<ParseSlots>,
    access: Result<TeamAccess<UploadRuns>, Refused>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let locale = locale_from_headers(&headers);
    let access = match access {
        Ok(access) => access,
        Err(refused) => return refused.error().in_language(locale).into_response(),
    };
    let staged = match read_form(&mut form, &limits, &slots).await {
        Ok(staged) => staged,
        Err((status, e)) => {
            return with_retry_after(Localized::with_status(status, e, locale).into_response());
        }
    };
    match staged::keep(&db, access.team_id(), access.caller.user_id, &staged).await {
        Ok(file) => {
            let role = match Format::named(&file.format) {
                Some(f) if f.is_telemetry() => "telemetry",
                Some(Format::NcclTests) => "interconnect",
                _ => "result",
            };
            let recognised = locale.fmt(
                Msg::RunsRecognised,
                &[
                    ("format", &format_label(locale, &file.format)),
                    ("size", &bytes(file.size)),
                ],
            );
            (StatusCode::OK, Json(Uploaded { file, role, recognised })).into_response()
        }
        Err(e) => e.in_language(locale).into_response(),
    }
}

/// Reads the form: the `format` field (default: detect) and one `file`, staged. A second file
/// or a part past [`ingest::MAX_PARTS`] is refused (422) before it is read, and the staged file
/// deleted. The error carries the status to answer with (413 when the body limit cut the file).
async fn read_form(
    form: &mut Multipart,
    limits: &RunLimits,
    slots: &ParseSlots,
) -> Result<Staged, (StatusCode, AppError)> {
    let mut format = None;
    let mut staged = None;
    for part in 1.. {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => return Err(ingest::multipart_error(&e, limits.file_bytes).answer()),
        };
        if part > ingest::MAX_PARTS {
            return Err(ingest::too_many_parts());
        }
        match field.name() {
            Some("format") => {
                let text = ingest::text(field, "format", limits.file_bytes).await?;
                format = format_field(&text).map_err(|e| (e.status(), e))?;
            }
            Some("file") if staged.is_some() => {
                let e = app::services::runs::too_many_files(1);
                return Err((e.status(), e));
            }
            Some("file") => {
                staged = Some(
                    ingest::stage(field, limits, slots, format)
                        .await
                        .map_err(|e| e.answer())?,
                );
            }
            _ => {}
        }
    }
    staged.ok_or_else(|| {
        let e = AppError::Invalid(app::i18n::Msg::RunErrorNoFile);
        (e.status(), e)
    })
}
