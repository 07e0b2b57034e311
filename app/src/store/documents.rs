//! The `quote_documents` table: vendors' original quote documents, per quote revision.

use super::Tx;
use serde::{Deserialize, Serialize};
use sqlx::SqliteExecutor;

/// A stored document, without its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct DocumentInfo {
    pub id: i64,
    /// Safe file name.
    pub file_name: String,
    /// Content type detected from the bytes.
    pub content_type: String,
    /// Size in bytes.
    pub size: i64,
    /// SHA-256, hex.
    pub sha256: String,
    /// When it was uploaded (RFC 3339 UTC).
    pub created_at: String,
}

/// A new document.
pub struct DocumentForCreate<'a> {
    /// The quote revision it belongs to.
    pub revision_id: i64,
    /// Safe file name.
    pub file_name: &'a str,
    /// Detected content type.
    pub content_type: &'a str,
    /// SHA-256, hex.
    pub sha256: &'a str,
    /// The bytes as uploaded.
    pub bytes: &'a [u8],
    /// The user who uploaded it.
    pub created_by: i64,
}

/// Stores a document for one of the team's revisions; `Ok(None)` when the same bytes are
/// already attached to that revision.
pub async fn insert(tx: &mut Tx, team_id: i64, doc: &DocumentForCreate<'_>) -> Result<Option<i64>, sqlx::Error> {
    let exists: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM quote_documents WHERE revision_id = ? AND team_id = ? AND sha256 = ?")
            .bind(doc.revision_id)
            .bind(team_id)
            .bind(doc.sha256)
            .fetch_one(&mut **tx)
            .await?;
    if exists > 0 {
        return Ok(None);
    }
    let id = sqlx::query_scalar(
        "INSERT INTO quote_documents (revision_id, team_id, file_name, content_type, sha256, bytes, created_by)
         SELECT id, team_id, ?, ?, ?, ?, ? FROM quote_revisions WHERE id = ? AND team_id = ? RETURNING id",
    )
    .bind(doc.file_name)
    .bind(doc.content_type)
    .bind(doc.sha256)
    .bind(doc.bytes)
    .bind(doc.created_by)
    .bind(doc.revision_id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(id)
}

/// The documents of one of the team's revisions, oldest first.
pub async fn of_revision(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    revision_id: i64,
) -> Result<Vec<DocumentInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, file_name, content_type, length(bytes) AS size, sha256, created_at FROM quote_documents
         WHERE revision_id = ? AND team_id = ? ORDER BY id",
    )
    .bind(revision_id)
    .bind(team_id)
    .fetch_all(db)
    .await
}

/// One of the team's documents: `(file name, content type, bytes)`.
pub async fn get(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    id: i64,
) -> Result<Option<(String, String, Vec<u8>)>, sqlx::Error> {
    sqlx::query_as("SELECT file_name, content_type, bytes FROM quote_documents WHERE id = ? AND team_id = ?")
        .bind(id)
        .bind(team_id)
        .fetch_optional(db)
        .await
}
