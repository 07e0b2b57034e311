//! The one-row `site` table: whether first-run set-up is done, and site-wide settings.

use super::Tx;
use sqlx::SqliteExecutor;

/// Whether the first administrator has been created (set-up is then gone for good).
pub async fn setup_completed(db: impl SqliteExecutor<'_>) -> Result<bool, sqlx::Error> {
    let done: Option<String> = sqlx::query_scalar("SELECT setup_completed_at FROM site WHERE id = 1")
        .fetch_one(db)
        .await?;
    Ok(done.is_some())
}

/// Whether first-run set-up is open: it never completed and the database has no user at all.
/// Users added from the command line (even without an administrator among them) close it: the
/// set-up page then has nobody to protect the site from.
pub async fn setup_open(db: impl SqliteExecutor<'_>) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT setup_completed_at IS NULL AND NOT EXISTS (SELECT 1 FROM users) FROM site WHERE id = 1")
        .fetch_one(db)
        .await
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

// Second factor: the site setting that requires one for managers and administrators.

/// Whether managers (of any team) and administrators must sign in with a second factor.
pub async fn second_factor_required(db: impl SqliteExecutor<'_>) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT second_factor_required FROM site WHERE id = 1")
        .fetch_one(db)
        .await
}

/// Sets whether managers and administrators must sign in with a second factor.
pub async fn set_second_factor_required(tx: &mut Tx, required: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE site SET second_factor_required = ? WHERE id = 1")
        .bind(required)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The version of the run validity rules the stored verdicts were judged with (0 before it was
/// kept).
pub async fn run_rules_version(db: impl SqliteExecutor<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT run_rules_version FROM site WHERE id = 1")
        .fetch_one(db)
        .await
}

/// Records that every stored run was judged with rules `version`.
pub async fn set_run_rules_version(tx: &mut Tx, version: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE site SET run_rules_version = ? WHERE id = 1")
        .bind(version)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
