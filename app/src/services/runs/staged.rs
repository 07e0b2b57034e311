//! A run file received and parsed but not stored yet (the server streams it to a temporary
//! file, `server::runs::ingest`), and storing it: in chunks, as the team's file, or found again
//! by its bytes' SHA-256.

use crate::{
    domain::runs::CanonicalRun,
    error::AppError,
    store::{self, Db, Tx, runs::FileForCreate},
    views::RunFileInfo,
};
use std::path::{Path, PathBuf};
use tokio::io::AsyncReadExt;

/// A temporary file, deleted when dropped.
#[derive(Debug)]
pub struct TempFile(PathBuf);

impl TempFile {
    /// Takes charge of the file at `path` (created or not yet): it is deleted when this is dropped.
    #[must_use]
    pub fn new(path: PathBuf) -> Self {
        Self(path)
    }

    /// Where the file is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An uploaded file, received and parsed but not stored yet.
#[derive(Debug)]
pub struct Staged {
    /// The bytes, on disk until stored.
    pub file: TempFile,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
    /// Safe file name.
    pub file_name: String,
    /// The file alone, as a canonical run.
    pub parsed: CanonicalRun,
}

impl Staged {
    /// The file as a run's file list shows it, with its id `id` (a stored id, or a position
    /// while it is not stored).
    #[must_use]
    pub fn info(&self, id: i64) -> RunFileInfo {
        RunFileInfo {
            id,
            file_name: self.file_name.clone(),
            size: i64::try_from(self.size).unwrap_or(i64::MAX),
            sha256: self.sha256.clone(),
            format: self.parsed.source_format.as_str().to_string(),
            run_id: None,
        }
    }
}

/// Stores a staged file for the team, or finds the team's file with the same bytes; returns
/// the file id.
///
/// # Errors
/// [`AppError::Internal`] when the file cannot be read back or encoded (logged), and the
/// store's.
pub async fn store(tx: &mut Tx, team_id: i64, user_id: i64, staged: &Staged) -> Result<i64, AppError> {
    let parsed = serde_json::to_string(&staged.parsed).map_err(|e| {
        tracing::error!(error = %e, "cannot encode a parsed file");
        AppError::Internal
    })?;
    let record = FileForCreate {
        sha256: &staged.sha256,
        file_name: &staged.file_name,
        size: i64::try_from(staged.size).map_err(|_| AppError::Internal)?,
        format: staged.parsed.source_format.as_str(),
        parsed: &parsed,
        uploaded_by: user_id,
    };
    let Some(id) = store::runs::insert_file(tx, team_id, &record).await? else {
        let existing = store::runs::file_by_sha(&mut **tx, team_id, &staged.sha256).await?;
        return existing.map(|f| f.id).ok_or(AppError::Internal);
    };
    let mut file = tokio::fs::File::open(staged.file.path()).await.map_err(|e| {
        tracing::error!(error = %e, "cannot reopen an upload");
        AppError::Internal
    })?;
    let mut buf = vec![0u8; store::runs::CHUNK_BYTES];
    let mut seq = 0;
    loop {
        let mut filled = 0;
        while filled < buf.len() {
            let n = file.read(&mut buf[filled..]).await.map_err(|e| {
                tracing::error!(error = %e, "cannot read an upload back");
                AppError::Internal
            })?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            break;
        }
        store::runs::insert_chunk(tx, id, seq, &buf[..filled]).await?;
        seq += 1;
    }
    Ok(id)
}

/// Keeps the staged file as an unclaimed file of the team (the browser's upload, before the run
/// is saved); the same bytes already kept are answered with the file that holds them.
///
/// # Errors
/// Those of [`store`].
pub async fn keep(db: &Db, team_id: i64, user_id: i64, staged: &Staged) -> Result<RunFileInfo, AppError> {
    if let Some(existing) = store::runs::file_by_sha(db, team_id, &staged.sha256).await? {
        return Ok(existing);
    }
    let mut tx = store::begin_write(db).await?;
    let id = store(&mut tx, team_id, user_id, staged).await?;
    tx.commit().await?;
    Ok(staged.info(id))
}
