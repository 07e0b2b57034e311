//! The `security_mail` table: the outbox of notices to a user about their own account (a second
//! factor enrolled, locked…, an API token created, the password changed). A notice is queued
//! ([`queue`]) inside the transaction that makes the change, and the mail pass sends what is
//! [`unsent`] and [`mark_sent`]s it once the SMTP server accepted it.

use super::Tx;
use crate::domain::audit::Action;
use serde_json::Value;
use sqlx::SqliteExecutor;

/// A queued notice.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Its row.
    pub id: i64,
    /// Whom it tells.
    pub user_id: i64,
    /// What happened (the audit action of the same change).
    pub action: Action,
    /// When (RFC 3339 UTC, seconds).
    pub at: String,
    /// What the mail names (e.g. the token's name).
    pub data: Value,
}

/// Queues a notice to `user_id` of `action` at `at`.
pub async fn queue(tx: &mut Tx, user_id: i64, action: Action, at: &str, data: &Value) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO security_mail (user_id, action, at, data) VALUES (?, ?, ?, ?)")
        .bind(user_id)
        .bind(action.as_str())
        .bind(at)
        .bind(data.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// At most `limit` notices not sent yet, oldest first. A row whose action this build does not
/// know is skipped (and stays queued).
pub async fn unsent(db: impl SqliteExecutor<'_>, limit: i64) -> Result<Vec<Notice>, sqlx::Error> {
    let rows: Vec<(i64, i64, String, String, String)> = sqlx::query_as(
        "SELECT id, user_id, action, at, data FROM security_mail WHERE sent_at IS NULL ORDER BY id LIMIT ?",
    )
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, user_id, action, at, data)| {
            let action = Action::ALL.into_iter().find(|a| a.as_str() == action)?;
            Some(Notice {
                id,
                user_id,
                action,
                at,
                data: serde_json::from_str(&data).unwrap_or(Value::Null),
            })
        })
        .collect())
}

/// Every notice queued for `user_id` (sent or not), oldest first: their actions.
pub async fn actions_of(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT action FROM security_mail WHERE user_id = ? ORDER BY id")
        .bind(user_id)
        .fetch_all(db)
        .await
}

/// Stamps a notice as sent.
pub async fn mark_sent(tx: &mut Tx, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE security_mail SET sent_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
