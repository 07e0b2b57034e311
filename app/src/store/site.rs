//! The one-row `site` table: whether first-run set-up is done.

use super::Tx;
use sqlx::SqliteExecutor;

/// Whether the first administrator has been created (set-up is then gone for good).
pub async fn setup_completed(db: impl SqliteExecutor<'_>) -> Result<bool, sqlx::Error> {
    let done: Option<String> = sqlx::query_scalar("SELECT setup_completed_at FROM site WHERE id = 1")
        .fetch_one(db)
        .await?;
    Ok(done.is_some())
}

/// Marks set-up as done; returns `false` when it already was.
pub async fn complete_setup(tx: &mut Tx) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "UPDATE site SET setup_completed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = 1 AND setup_completed_at IS NULL",
    )
    .execute(&mut **tx)
    .await?;
    Ok(res.rows_affected() == 1)
}
