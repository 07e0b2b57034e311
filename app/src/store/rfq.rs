//! The request-for-quotation tables: `rfq_requests`, `rfq_invitations`, `rfq_drafts`, `rfq_bids`.
//! Team reads filter by the team; a vendor's reads go through its link's hash only.

use super::Tx;
use serde::{Deserialize, Serialize};
use sqlx::SqliteExecutor;

/// A request as the team lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct RequestRow {
    pub id: i64,
    pub title: String,
    pub needs: String,
    pub questions: String,
    pub close_at: i64,
    pub closed_at: Option<i64>,
    pub closed_early_reason: Option<String>,
    pub created_at: i64,
    /// The price-sheet fields asked for (JSON list of quote columns).
    pub fields: String,
    /// Vendors invited (revoked links included).
    pub invited: i64,
    /// Vendors with at least one submitted revision.
    pub submitted: i64,
}

/// One invited vendor of a request, as the team sees it before the close: no bid contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct InvitationRow {
    pub id: i64,
    pub vendor_id: i64,
    pub vendor: String,
    pub email: String,
    pub revoked_at: Option<i64>,
    /// Submitted revisions.
    pub revisions: i64,
    /// When the last one was submitted.
    pub last_submitted_at: Option<i64>,
}

/// What a link opens: one invitation of one request.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct LinkRow {
    pub invitation_id: i64,
    pub request_id: i64,
    pub team_id: i64,
    pub vendor: String,
    pub revoked_at: Option<i64>,
    pub title: String,
    pub needs: String,
    pub questions: String,
    pub close_at: i64,
    pub closed_at: Option<i64>,
    /// The price-sheet fields asked for (JSON list of quote columns).
    pub fields: String,
}

/// One submitted revision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct BidRow {
    pub id: i64,
    pub invitation_id: i64,
    pub revision: i64,
    pub body: String,
    pub receipt: String,
    pub submitted_at: i64,
    pub quote_revision_id: Option<i64>,
}

/// The bid a quote revision came from, with its request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct BidSource {
    pub request_id: i64,
    pub title: String,
    pub revision: i64,
    pub receipt: String,
    pub body: String,
}

/// The `SELECT … FROM rfq_requests r` of a [`RequestRow`].
macro_rules! select_requests {
    () => {
        "SELECT r.id, r.title, r.needs, r.questions, r.close_at, r.closed_at, r.closed_early_reason, r.created_at, r.fields,
    (SELECT count(*) FROM rfq_invitations i WHERE i.request_id = r.id) AS invited,
    (SELECT count(DISTINCT b.invitation_id) FROM rfq_bids b JOIN rfq_invitations i ON i.id = b.invitation_id
      WHERE i.request_id = r.id AND i.revoked_at IS NULL) AS submitted FROM rfq_requests r"
    };
}

/// Stores a new request; returns its id.
#[expect(clippy::too_many_arguments, reason = "one column each")]
pub async fn insert_request(
    tx: &mut Tx,
    team_id: i64,
    title: &str,
    needs: &str,
    questions: &str,
    fields: &str,
    close_at: i64,
    created_by: i64,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO rfq_requests (team_id, title, needs, questions, fields, close_at, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(team_id)
    .bind(title)
    .bind(needs)
    .bind(questions)
    .bind(fields)
    .bind(close_at)
    .bind(created_by)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
}

/// Invites a vendor with the hash of its new link; `Ok(None)` when it was invited already.
pub async fn insert_invitation(
    tx: &mut Tx,
    request_id: i64,
    vendor_id: i64,
    email: &str,
    link_hash: &str,
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO rfq_invitations (request_id, vendor_id, email, link_hash, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (request_id, vendor_id) DO NOTHING RETURNING id",
    )
    .bind(request_id)
    .bind(vendor_id)
    .bind(email)
    .bind(link_hash)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await
}

/// Gives an invitation a new link (the old one stops opening); `false` when the team has no such
/// invitation.
pub async fn replace_link(tx: &mut Tx, team_id: i64, invitation_id: i64, link_hash: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rfq_invitations SET link_hash = ?, revoked_at = NULL WHERE id = ?
         AND request_id IN (SELECT id FROM rfq_requests WHERE team_id = ?)",
    )
    .bind(link_hash)
    .bind(invitation_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes a link; `false` when the team has no such invitation or it was revoked already.
pub async fn revoke(tx: &mut Tx, team_id: i64, invitation_id: i64, now: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rfq_invitations SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL
         AND request_id IN (SELECT id FROM rfq_requests WHERE team_id = ?)",
    )
    .bind(now)
    .bind(invitation_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The team's requests, newest first.
pub async fn list(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<RequestRow>, sqlx::Error> {
    sqlx::query_as(concat!(
        select_requests!(),
        " WHERE r.team_id = ? ORDER BY r.id DESC LIMIT 500"
    ))
    .bind(team_id)
    .fetch_all(db)
    .await
}

/// One of the team's requests.
pub async fn request(db: impl SqliteExecutor<'_>, team_id: i64, id: i64) -> Result<Option<RequestRow>, sqlx::Error> {
    sqlx::query_as(concat!(select_requests!(), " WHERE r.team_id = ? AND r.id = ?"))
        .bind(team_id)
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The vendors invited to one of the team's requests, by name.
pub async fn invitations(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    request_id: i64,
) -> Result<Vec<InvitationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT i.id, i.vendor_id, v.name AS vendor, i.email, i.revoked_at,
            (SELECT count(*) FROM rfq_bids b WHERE b.invitation_id = i.id) AS revisions,
            (SELECT max(b.submitted_at) FROM rfq_bids b WHERE b.invitation_id = i.id) AS last_submitted_at
         FROM rfq_invitations i JOIN vendors v ON v.id = i.vendor_id
         JOIN rfq_requests r ON r.id = i.request_id
         WHERE r.team_id = ? AND i.request_id = ? ORDER BY v.name COLLATE NOCASE",
    )
    .bind(team_id)
    .bind(request_id)
    .fetch_all(db)
    .await
}

/// What the link with this hash opens.
pub async fn by_link(db: impl SqliteExecutor<'_>, link_hash: &str) -> Result<Option<LinkRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT i.id AS invitation_id, r.id AS request_id, r.team_id, v.name AS vendor, i.revoked_at,
            r.title, r.needs, r.questions, r.close_at, r.closed_at, r.fields
         FROM rfq_invitations i JOIN rfq_requests r ON r.id = i.request_id JOIN vendors v ON v.id = i.vendor_id
         WHERE i.link_hash = ?",
    )
    .bind(link_hash)
    .fetch_optional(db)
    .await
}

/// The vendor's draft (JSON), if one was saved.
pub async fn draft(db: impl SqliteExecutor<'_>, invitation_id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT body FROM rfq_drafts WHERE invitation_id = ?")
        .bind(invitation_id)
        .fetch_optional(db)
        .await
}

/// Replaces the vendor's draft.
pub async fn save_draft(tx: &mut Tx, invitation_id: i64, body: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO rfq_drafts (invitation_id, body, saved_at) VALUES (?, ?, ?)
         ON CONFLICT (invitation_id) DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at",
    )
    .bind(invitation_id)
    .bind(body)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The submitted revisions of one invitation, first first.
pub async fn bids(db: impl SqliteExecutor<'_>, invitation_id: i64) -> Result<Vec<BidRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, invitation_id, revision, body, receipt, submitted_at, quote_revision_id
         FROM rfq_bids WHERE invitation_id = ? ORDER BY revision",
    )
    .bind(invitation_id)
    .fetch_all(db)
    .await
}

/// The number the next submitted revision gets.
pub async fn next_revision(tx: &mut Tx, invitation_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT coalesce(max(revision), 0) + 1 FROM rfq_bids WHERE invitation_id = ?")
        .bind(invitation_id)
        .fetch_one(&mut **tx)
        .await
}

/// Stores a submitted revision.
pub async fn insert_bid(
    tx: &mut Tx,
    invitation_id: i64,
    revision: i64,
    body: &str,
    receipt: &str,
    now: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO rfq_bids (invitation_id, revision, body, receipt, submitted_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(invitation_id)
    .bind(revision)
    .bind(body)
    .bind(receipt)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
}

/// Marks one of the team's sealed requests as opened at `now`; `false` when it was opened
/// already (by another request a moment before) or is not the team's.
pub async fn mark_closed(
    tx: &mut Tx,
    team_id: i64,
    request_id: i64,
    now: i64,
    early_reason: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rfq_requests SET closed_at = ?, closed_early_reason = ? WHERE id = ? AND team_id = ? AND closed_at IS NULL",
    )
    .bind(now)
    .bind(early_reason)
    .bind(request_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A vendor's last revision, with the vendor.
#[derive(sqlx::FromRow)]
struct LastBid {
    #[sqlx(flatten)]
    bid: BidRow,
    vendor_id: i64,
}

/// Each vendor's last submitted revision of a request (links not revoked), with its vendor id.
pub async fn last_bids(tx: &mut Tx, request_id: i64) -> Result<Vec<(BidRow, i64)>, sqlx::Error> {
    let rows: Vec<LastBid> = sqlx::query_as(
        "SELECT b.id, b.invitation_id, b.revision, b.body, b.receipt, b.submitted_at, b.quote_revision_id, i.vendor_id
         FROM rfq_bids b JOIN rfq_invitations i ON i.id = b.invitation_id
         WHERE i.request_id = ? AND i.revoked_at IS NULL
           AND b.revision = (SELECT max(revision) FROM rfq_bids x WHERE x.invitation_id = b.invitation_id)
         ORDER BY b.id",
    )
    .bind(request_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|r| (r.bid, r.vendor_id)).collect())
}

/// Records the quote revision a bid became.
pub async fn set_quote_revision(tx: &mut Tx, bid_id: i64, quote_revision_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rfq_bids SET quote_revision_id = ? WHERE id = ?")
        .bind(quote_revision_id)
        .bind(bid_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The team's opened requests' bids behind these quote revisions.
pub async fn source_of(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    quote_revision_id: i64,
) -> Result<Option<BidSource>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id AS request_id, r.title, b.revision, b.receipt, b.body
         FROM rfq_bids b JOIN rfq_invitations i ON i.id = b.invitation_id JOIN rfq_requests r ON r.id = i.request_id
         WHERE b.quote_revision_id = ? AND r.team_id = ? AND r.closed_at IS NOT NULL",
    )
    .bind(quote_revision_id)
    .bind(team_id)
    .fetch_optional(db)
    .await
}

/// The team's sealed requests whose close time has passed at `now`.
pub async fn due(db: impl SqliteExecutor<'_>, team_id: i64, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM rfq_requests WHERE team_id = ? AND closed_at IS NULL AND close_at <= ?")
        .bind(team_id)
        .bind(now)
        .fetch_all(db)
        .await
}

/// The quote a quote revision belongs to.
pub async fn quote_of(db: impl SqliteExecutor<'_>, quote_revision_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT quote_id FROM quote_revisions WHERE id = ?")
        .bind(quote_revision_id)
        .fetch_optional(db)
        .await
}

/// A vendor's attachment, without its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct FileInfo {
    pub id: i64,
    pub file_name: String,
    pub sha256: String,
    pub size: i64,
}

/// The attachments of an invitation, oldest first.
pub async fn files(db: impl SqliteExecutor<'_>, invitation_id: i64) -> Result<Vec<FileInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, file_name, sha256, length(bytes) AS size FROM rfq_files WHERE invitation_id = ? ORDER BY id",
    )
    .bind(invitation_id)
    .fetch_all(db)
    .await
}

/// Attaches a PDF to an invitation; `Ok(None)` when the same bytes are attached already.
pub async fn insert_file(
    tx: &mut Tx,
    invitation_id: i64,
    file_name: &str,
    sha256: &str,
    bytes: &[u8],
    now: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO rfq_files (invitation_id, file_name, content_type, sha256, bytes, created_at)
         VALUES (?, ?, 'application/pdf', ?, ?, ?) ON CONFLICT (invitation_id, sha256) DO NOTHING RETURNING id",
    )
    .bind(invitation_id)
    .bind(file_name)
    .bind(sha256)
    .bind(bytes)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await
}

/// Removes one of an invitation's attachments; `false` when it has no such file.
pub async fn delete_file(tx: &mut Tx, invitation_id: i64, file_id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM rfq_files WHERE id = ? AND invitation_id = ?")
        .bind(file_id)
        .bind(invitation_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Copies an invitation's attachments listed by SHA-256 to a quote revision as its documents.
pub async fn copy_files_to_revision(
    tx: &mut Tx,
    invitation_id: i64,
    team_id: i64,
    revision_id: i64,
    sha256: &[String],
) -> Result<(), sqlx::Error> {
    for sha in sha256 {
        sqlx::query(
            "INSERT INTO quote_documents (revision_id, team_id, file_name, content_type, sha256, bytes)
             SELECT ?, ?, file_name, content_type, sha256, bytes FROM rfq_files WHERE invitation_id = ? AND sha256 = ?",
        )
        .bind(revision_id)
        .bind(team_id)
        .bind(invitation_id)
        .bind(sha)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Moves the close time of one of the team's sealed requests.
pub async fn set_close_at(tx: &mut Tx, team_id: i64, request_id: i64, close_at: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE rfq_requests SET close_at = ? WHERE id = ? AND team_id = ? AND closed_at IS NULL")
        .bind(close_at)
        .bind(request_id)
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}
