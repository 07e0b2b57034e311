//! The `audit_events` table: one append-only hash chain for the whole database.
//!
//! Events are appended inside the transaction that makes the change they record
//! ([`append`]); `data` is stored as its canonical JSON, so the stored text is exactly what
//! was hashed.

use super::Tx;
use crate::domain::audit::{Action, AuditEvent, ChainHead, canonical_json, next_event};
use serde_json::Value;
use sqlx::SqliteExecutor;

/// Why an event could not be appended.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The event could not be built (bad timestamp, non-integer number in `data`).
    #[error("cannot build the audit event: {0}")]
    Event(String),
    /// Database failure.
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
}

/// The chain's head: how many events and the last hash (genesis when empty).
pub async fn head(db: impl SqliteExecutor<'_>) -> Result<ChainHead, sqlx::Error> {
    let last: Option<(i64, String)> = sqlx::query_as("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1")
        .fetch_optional(db)
        .await?;
    Ok(match last {
        Some((seq, hash)) => ChainHead {
            count: u64::try_from(seq).unwrap_or_default(),
            head_hash: hash,
        },
        None => ChainHead::genesis(),
    })
}

/// Appends the event recording `action` on `order_id` by `actor_id` at `at` (RFC 3339 UTC).
pub async fn append(
    tx: &mut Tx,
    order_id: i64,
    actor_id: i64,
    at: &str,
    action: Action,
    data: Value,
) -> Result<AuditEvent, AppendError> {
    let head = head(&mut **tx).await?;
    let event =
        next_event(&head, order_id, actor_id, at, action, data).map_err(|e| AppendError::Event(e.to_string()))?;
    let data = canonical_json(&event.data).map_err(|e| AppendError::Event(e.to_string()))?;
    sqlx::query("INSERT INTO audit_events (seq, order_id, actor_id, at, action, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(event.seq)
        .bind(event.order_id)
        .bind(event.actor_id)
        .bind(&event.at)
        .bind(event.action.as_str())
        .bind(&data)
        .bind(&event.prev_hash)
        .bind(&event.hash)
        .execute(&mut **tx)
        .await?;
    Ok(event)
}

/// A stored row, before its action and data are decoded.
pub type EventRow = (i64, i64, i64, String, String, String, String, String);

/// Decodes a stored row; `None` when the action or data do not decode (verification names it).
#[must_use]
pub fn decode(row: EventRow) -> Option<AuditEvent> {
    let (seq, order_id, actor_id, at, action, data, prev_hash, hash) = row;
    let action = Action::ALL.into_iter().find(|a| a.as_str() == action)?;
    let data = serde_json::from_str(&data).ok()?;
    Some(AuditEvent {
        seq,
        order_id,
        actor_id,
        at,
        action,
        data,
        prev_hash,
        hash,
    })
}

/// Events `after` seq, at most `limit`, in order (for verifying the chain in pages).
pub async fn page(db: impl SqliteExecutor<'_>, after: i64, limit: i64) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as("SELECT seq, order_id, actor_id, at, action, data, prev_hash, hash FROM audit_events WHERE seq > ? ORDER BY seq LIMIT ?")
        .bind(after)
        .bind(limit)
        .fetch_all(db)
        .await
}

/// One order's events, oldest first.
pub async fn of_order(db: impl SqliteExecutor<'_>, order_id: i64) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as("SELECT seq, order_id, actor_id, at, action, data, prev_hash, hash FROM audit_events WHERE order_id = ? ORDER BY seq")
        .bind(order_id)
        .fetch_all(db)
        .await
}

/// For each of an order's events (oldest first), the hash of the event just before it in the
/// chain (`None` for seq 1), read in one query.
pub async fn prev_hashes_of_order(
    db: impl SqliteExecutor<'_>,
    order_id: i64,
) -> Result<Vec<Option<String>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT p.hash FROM audit_events e LEFT JOIN audit_events p ON p.seq = e.seq - 1 WHERE e.order_id = ? ORDER BY e.seq",
    )
    .bind(order_id)
    .fetch_all(db)
    .await
}

/// The stored hash of event `seq`, if there is one (for checking anchors).
pub async fn hash_at(db: impl SqliteExecutor<'_>, seq: u64) -> Result<Option<String>, sqlx::Error> {
    let Ok(seq) = i64::try_from(seq) else {
        return Ok(None);
    };
    sqlx::query_scalar("SELECT hash FROM audit_events WHERE seq = ?")
        .bind(seq)
        .fetch_optional(db)
        .await
}

/// The site events ([`crate::domain::audit::NO_ORDER`]) before seq `before` (all when `None`),
/// newest first, at most `limit`.
pub async fn site_events(
    db: impl SqliteExecutor<'_>,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT seq, order_id, actor_id, at, action, data, prev_hash, hash FROM audit_events
         WHERE order_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
    )
    .bind(crate::domain::audit::NO_ORDER)
    .bind(before.unwrap_or(i64::MAX))
    .bind(limit)
    .fetch_all(db)
    .await
}
