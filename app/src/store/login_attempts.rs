//! The `login_attempts` table: every password check (sign-in, sign-off, password change), by
//! account e-mail and client address, for throttling ([`crate::domain::throttle`]).

use crate::domain::throttle::LOOKBACK_SECS;
use sqlx::SqliteExecutor;

/// Reserves an attempt for `email` at `at`, counted as a failure until [`succeeded`] marks it;
/// returns its id. Reserving before the password is checked (in the same write transaction as
/// the lock check) keeps parallel guesses from all slipping past the throttle.
pub async fn reserve(db: impl SqliteExecutor<'_>, email: &str, at: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO login_attempts (email, at, succeeded) VALUES (?, ?, 0) RETURNING id")
        .bind(email)
        .bind(at)
        .fetch_one(db)
        .await
}

/// [`reserve`], remembering the client address the attempt came from (`None` when unknown).
pub async fn reserve_from(
    db: impl SqliteExecutor<'_>,
    email: &str,
    address: Option<&str>,
    at: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO login_attempts (email, address, at, succeeded) VALUES (?, ?, ?, 0) RETURNING id")
        .bind(email)
        .bind(address)
        .bind(at)
        .fetch_one(db)
        .await
}

/// Takes back a reserved attempt whose password was never checked (the server was too busy).
pub async fn release(db: impl SqliteExecutor<'_>, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_attempts WHERE id = ? AND succeeded = 0")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Times of failed attempts from `address` (any account), within the throttle look-back,
/// ascending. A success does not clear them: it may be the attacker's own account.
pub async fn address_failures(db: impl SqliteExecutor<'_>, address: &str, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT at FROM login_attempts WHERE address = ? AND succeeded = 0 AND at > ? ORDER BY at, id")
        .bind(address)
        .bind(now - LOOKBACK_SECS)
        .fetch_all(db)
        .await
}

/// Marks a reserved attempt as a successful sign-in.
pub async fn succeeded(db: impl SqliteExecutor<'_>, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE login_attempts SET succeeded = 1 WHERE id = ?")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Times of failed attempts for `email` since its last success, within the throttle look-back,
/// ascending. "Since" goes by the order attempts were made (their id), not by the second: a
/// failure in the same second as the success, after it, still counts.
pub async fn recent_failures(db: impl SqliteExecutor<'_>, email: &str, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT at FROM login_attempts
         WHERE email = ?1 AND succeeded = 0 AND at > ?2
           AND id > COALESCE((SELECT MAX(id) FROM login_attempts WHERE email = ?1 AND succeeded = 1), 0)
         ORDER BY at, id",
    )
    .bind(email)
    .bind(now - LOOKBACK_SECS)
    .fetch_all(db)
    .await
}

/// Deletes attempts older than `before` (Unix seconds); returns how many.
pub async fn prune(db: impl SqliteExecutor<'_>, before: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM login_attempts WHERE at < ?")
        .bind(before)
        .execute(db)
        .await?
        .rows_affected())
}
