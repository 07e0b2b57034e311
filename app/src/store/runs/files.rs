//! The files a run is built from (`run_files`, `run_file_chunks`): stored once per team by
//! their SHA-256, byte for byte in chunks, read back chunk by chunk.

use super::*;

/// Largest chunk a file is stored in.
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// A file about to be stored (its bytes follow with [`insert_chunk`]).
pub struct FileForCreate<'a> {
    /// SHA-256 of the bytes, hex.
    pub sha256: &'a str,
    /// Safe file name.
    pub file_name: &'a str,
    /// Size in bytes.
    pub size: i64,
    /// The format it was read as.
    pub format: &'a str,
    /// The file alone as a canonical run, JSON.
    pub parsed: &'a str,
    /// The user who uploaded the file.
    pub uploaded_by: i64,
}

/// The team's file with these bytes, if any.
pub async fn file_by_sha(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    sha256: &str,
) -> Result<Option<RunFileInfo>, sqlx::Error> {
    sqlx::query_as::<_, (i64, String, i64, String, String, Option<i64>)>(FILE_SELECT_BY_SHA)
        .bind(team_id)
        .bind(sha256)
        .fetch_optional(db)
        .await
        .map(|row| row.map(file_info))
}

pub(super) const FILE_SELECT_BY_SHA: &str = "SELECT f.id, f.file_name, f.size, f.sha256, f.format,
        (SELECT r.id FROM runs r WHERE r.result_file_id = f.id OR r.telemetry_file_id = f.id)
     FROM run_files f WHERE f.team_id = ? AND f.sha256 = ?";

pub(super) fn file_info(
    (id, file_name, size, sha256, format, run_id): (i64, String, i64, String, String, Option<i64>),
) -> RunFileInfo {
    RunFileInfo {
        id,
        file_name,
        size,
        sha256,
        format,
        run_id,
    }
}

/// Stores a file's record; `Ok(None)` when the team already has a file with these bytes.
pub async fn insert_file(tx: &mut Tx, team_id: i64, file: &FileForCreate<'_>) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO run_files (team_id, sha256, file_name, size, format, parsed, uploaded_by)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (team_id, sha256) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(file.sha256)
    .bind(file.file_name)
    .bind(file.size)
    .bind(file.format)
    .bind(file.parsed)
    .bind(file.uploaded_by)
    .fetch_optional(&mut **tx)
    .await
}

/// Appends chunk `seq` (0, 1, …) of a file.
pub async fn insert_chunk(tx: &mut Tx, file_id: i64, seq: i64, bytes: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO run_file_chunks (file_id, seq, bytes) VALUES (?, ?, ?)")
        .bind(file_id)
        .bind(seq)
        .bind(bytes)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A `run_files` row as read (id, name, size, SHA-256, format, run) plus the parsed JSON.
pub(super) type FileRowWithParsed = (i64, String, i64, String, String, Option<i64>, String);

/// One of the team's files with its parsed form (canonical JSON).
pub async fn file_parsed(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    file_id: i64,
) -> Result<Option<(RunFileInfo, String)>, sqlx::Error> {
    let row: Option<FileRowWithParsed> = sqlx::query_as(
        "SELECT f.id, f.file_name, f.size, f.sha256, f.format,
                (SELECT r.id FROM runs r WHERE r.result_file_id = f.id OR r.telemetry_file_id = f.id), f.parsed
         FROM run_files f WHERE f.team_id = ? AND f.id = ?",
    )
    .bind(team_id)
    .bind(file_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(id, name, size, sha, format, run, parsed)| (file_info((id, name, size, sha, format, run)), parsed)))
}

/// Chunk `seq` of one of the team's files; `None` past the end.
pub async fn chunk(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    file_id: i64,
    seq: i64,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT c.bytes FROM run_file_chunks c JOIN run_files f ON f.id = c.file_id
         WHERE f.team_id = ? AND c.file_id = ? AND c.seq = ?",
    )
    .bind(team_id)
    .bind(file_id)
    .bind(seq)
    .fetch_optional(db)
    .await
}

/// Deletes files no run holds that were uploaded before `before` (UTC, RFC 3339); returns how many.
pub async fn delete_unclaimed_files(tx: &mut Tx, before: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM run_files WHERE created_at < ?
           AND id NOT IN (SELECT result_file_id FROM runs WHERE result_file_id IS NOT NULL)
           AND id NOT IN (SELECT telemetry_file_id FROM runs WHERE telemetry_file_id IS NOT NULL)",
    )
    .bind(before)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}
