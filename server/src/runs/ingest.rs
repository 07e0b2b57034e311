//! Receiving one uploaded file: streamed to a temporary file while hashing (never held whole in
//! memory unless it is a JSON or text result), refused past the size limit, read by the run
//! parsers (nvidia-smi CSV streaming). Storing it in chunks is `app::services::runs::staged`.

use super::RunLimits;
use crate::parse_slots::ParseSlots;
use app::{
    domain::{
        documents::safe_file_name,
        runs::{CanonicalRun, Format, ParseError, detect, parse, parse_nvidia_smi},
    },
    error::AppError,
    services::runs::staged::{Staged, TempFile},
};
use axum::extract::multipart::{Field, MultipartError};
use http::StatusCode;
use sha2::{Digest, Sha256};
use std::{
    io::{BufReader, Read},
    path::{Path, PathBuf},
};
use tokio::io::AsyncWriteExt;

/// How much of a file is looked at to decide whether it is an nvidia-smi CSV.
const SNIFF_BYTES: usize = 64 * 1024;

/// Largest result file read whole (everything but nvidia-smi telemetry, which is streamed):
/// results are kilobytes, a vLLM result with per-request details a few MB. With the parsers'
/// value budget (`app::domain::runs::MAX_VALUES`) one parse then takes at most ≈ 110 MB.
pub const RESULT_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file was not accepted.
#[derive(Debug)]
pub enum IngestError {
    /// Larger than the limit (bytes).
    TooLarge(u64),
    /// A result (not telemetry) larger than [`RESULT_MAX_BYTES`].
    ResultTooLarge,
    /// Every parser slot is taken (answered 503 with `Retry-After`).
    Busy,
    /// Not readable as any supported format.
    Unreadable(ParseError),
    /// The multipart body itself was broken.
    BadRequest,
    /// Disk or task failure (logged).
    Internal,
}

impl IngestError {
    /// The status and client-safe error to answer with.
    pub fn answer(&self) -> (StatusCode, AppError) {
        match self {
            Self::TooLarge(limit) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                AppError::Unreadable {
                    code: "too_large".into(),
                    args: vec![("mb".into(), (limit / 1_000_000).to_string())],
                },
            ),
            Self::ResultTooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                AppError::Unreadable {
                    code: "result_too_large".into(),
                    args: vec![("mb".into(), (RESULT_MAX_BYTES / (1024 * 1024)).to_string())],
                },
            ),
            Self::Busy => (
                StatusCode::SERVICE_UNAVAILABLE,
                AppError::Unreadable {
                    code: "busy".into(),
                    args: vec![],
                },
            ),
            Self::Unreadable(e) => (StatusCode::UNPROCESSABLE_ENTITY, AppError::from(e)),
            Self::BadRequest => (
                StatusCode::BAD_REQUEST,
                AppError::Invalid(app::i18n::Msg::ErrorBadRequest),
            ),
            Self::Internal => (StatusCode::INTERNAL_SERVER_ERROR, AppError::Internal),
        }
    }
}

/// A multipart error: 413 when the body limit cut it, else a bad request.
pub fn multipart_error(e: &MultipartError, limit: u64) -> IngestError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        IngestError::TooLarge(limit)
    } else {
        IngestError::BadRequest
    }
}

/// Most parts one upload form may have (files and text fields together): a script's form has
/// ten at most, so more is refused before the rest is read.
pub const MAX_PARTS: usize = 32;

/// Largest text field of an upload form, bytes (a note of 2,000 characters fits); read no
/// further than that.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;

/// The refusal of a form with more than [`MAX_PARTS`] parts.
pub fn too_many_parts() -> (StatusCode, AppError) {
    let e = AppError::InvalidFields(vec![app::error::FieldIssue {
        field: "form".into(),
        code: "too_many_parts".into(),
        limit: Some(MAX_PARTS.to_string()),
    }]);
    (e.status(), e)
}

/// Reads a text field, refusing it (422 naming the field) once it passes [`MAX_TEXT_BYTES`],
/// so a huge text part is never held whole in memory.
pub async fn text(mut field: Field<'_>, name: &str, limit: u64) -> Result<String, (StatusCode, AppError)> {
    let mut bytes = Vec::new();
    loop {
        match field.chunk().await {
            Ok(Some(chunk)) => {
                if bytes.len() + chunk.len() > MAX_TEXT_BYTES {
                    let e = AppError::InvalidFields(vec![app::error::FieldIssue {
                        field: name.to_string(),
                        code: "field_too_large".into(),
                        limit: Some(MAX_TEXT_BYTES.to_string()),
                    }]);
                    return Err((e.status(), e));
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            Err(e) => return Err(multipart_error(&e, limit).answer()),
        }
    }
    String::from_utf8(bytes).map_err(|_| IngestError::BadRequest.answer())
}

fn temp_path(dir: &Path) -> PathBuf {
    let mut random = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut random);
    dir.join(format!("nodeledger-upload-{}", hex::encode(random)))
}

fn io_failed(e: &std::io::Error) -> IngestError {
    tracing::error!(error = %e, "cannot buffer an upload");
    IngestError::Internal
}

/// Receives one file field: streams it to a temporary file in `limits.staging_dir` while
/// hashing, refused past `limits.file_bytes`, then parses it (`forced` format, or detected)
/// holding one of the process's parse `slots`.
pub async fn stage(
    mut field: Field<'_>,
    limits: &RunLimits,
    slots: &ParseSlots,
    forced: Option<Format>,
) -> Result<Staged, IngestError> {
    let limit = limits.file_bytes;
    let file_name = safe_file_name(field.file_name().unwrap_or("upload"));
    let path = TempFile::new(temp_path(&limits.staging_dir));
    let mut out = tokio::fs::File::create(path.path()).await.map_err(|e| io_failed(&e))?;
    let mut hasher = Sha256::new();
    let mut size: u64 = 0;
    loop {
        match field.chunk().await {
            Ok(Some(chunk)) => {
                size += chunk.len() as u64;
                if size > limit {
                    return Err(IngestError::TooLarge(limit));
                }
                hasher.update(&chunk);
                out.write_all(&chunk).await.map_err(|e| io_failed(&e))?;
            }
            Ok(None) => break,
            Err(e) => return Err(multipart_error(&e, limit)),
        }
    }
    out.flush().await.map_err(|e| io_failed(&e))?;
    drop(out);
    if size == 0 {
        return Err(IngestError::Unreadable(ParseError::Empty));
    }
    let sha256 = hex::encode(hasher.finalize());
    let read_path = path.path().to_path_buf();
    // Receiving is bounded by the disk; reading is bounded by the parse slots, each at most
    // one parse's memory. A file waits on disk for a slot (results read in milliseconds), and
    // the upload is answered 503 when none frees up in time.
    let _slot = slots.acquire().await.ok_or(IngestError::Busy)?;
    let parsed = tokio::task::spawn_blocking(move || parse_file(&read_path, forced))
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "parser task failed");
            IngestError::Internal
        })??;
    Ok(Staged {
        file: path,
        sha256,
        size,
        file_name,
        parsed,
    })
}

/// Parses a whole file: nvidia-smi CSV streaming, anything else read whole.
fn parse_file(path: &std::path::Path, forced: Option<Format>) -> Result<CanonicalRun, IngestError> {
    let mut file = std::fs::File::open(path).map_err(|e| io_failed(&e))?;
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| io_failed(&e))?;
    let streaming = match forced {
        Some(format) => format.is_telemetry(),
        None => looks_like_smi(&head),
    };
    let mut whole = head;
    if streaming {
        let reader = BufReader::with_capacity(256 * 1024, Read::chain(std::io::Cursor::new(whole), file));
        return parse_nvidia_smi(reader).map_err(IngestError::Unreadable);
    }
    let size = file.metadata().map_err(|e| io_failed(&e))?.len();
    if size > RESULT_MAX_BYTES {
        return Err(IngestError::ResultTooLarge);
    }
    file.read_to_end(&mut whole).map_err(|e| io_failed(&e))?;
    parse(&whole, forced).map_err(IngestError::Unreadable)
}

/// Whether the start of a file is an nvidia-smi CSV (judged on whole lines only).
fn looks_like_smi(head: &[u8]) -> bool {
    let first = head.iter().copied().find(|b| !b.is_ascii_whitespace());
    if matches!(first, Some(b'{' | b'[') | None) {
        return false;
    }
    let cut = if head.len() < SNIFF_BYTES {
        head.len()
    } else {
        head.iter().rposition(|b| *b == b'\n').map_or(head.len(), |i| i + 1)
    };
    detect(&head[..cut]).is_ok_and(Format::is_telemetry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_csv_with_an_smi_header_streams() {
        assert!(looks_like_smi(
            b"timestamp, index, utilization.gpu [%], memory.used [MiB]\n2024/01/01 00:00:00.000, 0, 50 %, 100 MiB\n"
        ));
        assert!(!looks_like_smi(b"  {\"schema\": \"nodeledger.run/v1\"}"));
        assert!(!looks_like_smi(
            b"================================================\nMLPerf Results Summary\n"
        ));
        assert!(!looks_like_smi(b""));
    }

    /// Every parser slot taken: 503 with `Retry-After`, the client told to try again.
    #[test]
    fn a_busy_server_says_when_to_try_again() {
        use crate::parse_slots::{RETRY_AFTER_S, with_retry_after};
        let (status, error) = IngestError::Busy.answer();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        let res = with_retry_after(axum::response::IntoResponse::into_response((
            status,
            format!("{error:?}"),
        )));
        assert_eq!(
            res.headers()[http::header::RETRY_AFTER],
            RETRY_AFTER_S.to_string().as_str()
        );
        let ok = with_retry_after(axum::response::IntoResponse::into_response(StatusCode::OK));
        assert!(ok.headers().get(http::header::RETRY_AFTER).is_none());
    }
}
