//! The second-factor tables: `second_factors` (one authenticator secret per user, with the last
//! accepted time step), `second_factor_recovery_codes` (hashes only) and
//! `second_factor_failures` (wrong codes, for throttling). Kept in one module because they are
//! only ever used together (see [`crate::services::second_factor`]).

use super::Tx;
use crate::domain::throttle::LOOKBACK_SECS;
use sqlx::SqliteExecutor;

/// A user's authenticator.
#[derive(Clone, sqlx::FromRow)]
pub struct SecondFactor {
    pub user_id: i64,
    /// Base32 secret (never logged, never shown after enrolment).
    pub secret: String,
    /// Whether enrolment was confirmed with a first code; only then are codes asked for.
    pub confirmed: bool,
    /// Time step of the last accepted code (0: none yet).
    pub last_step: i64,
}

impl std::fmt::Debug for SecondFactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecondFactor")
            .field("user_id", &self.user_id)
            .field("secret", &"<hidden>")
            .field("confirmed", &self.confirmed)
            .field("last_step", &self.last_step)
            .finish()
    }
}

/// The user's authenticator, confirmed or still being set up.
pub async fn of_user(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Option<SecondFactor>, sqlx::Error> {
    sqlx::query_as(
        "SELECT user_id, secret, confirmed_at IS NOT NULL AS confirmed, last_step
         FROM second_factors WHERE user_id = ?",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// Whether the user has a confirmed authenticator.
pub async fn is_enabled(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<bool, sqlx::Error> {
    Ok(of_user(db, user_id).await?.is_some_and(|f| f.confirmed))
}

/// Starts (or restarts) enrolment with a new secret; refused (`false`) while a confirmed one exists.
pub async fn begin_enrolment(tx: &mut Tx, user_id: i64, secret: &str) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "INSERT INTO second_factors (user_id, secret) VALUES (?, ?)
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0,
             created_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE second_factors.confirmed_at IS NULL",
    )
    .bind(user_id)
    .bind(secret)
    .execute(&mut **tx)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// Confirms enrolment with the step of its first code.
pub async fn confirm(tx: &mut Tx, user_id: i64, step: i64) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "UPDATE second_factors SET confirmed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), last_step = ?
         WHERE user_id = ? AND confirmed_at IS NULL",
    )
    .bind(step)
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// Records the step of an accepted code; `false` when a code of that step or a later one was
/// already accepted (a replay racing this one).
pub async fn use_step(tx: &mut Tx, user_id: i64, step: i64) -> Result<bool, sqlx::Error> {
    let res = sqlx::query("UPDATE second_factors SET last_step = ? WHERE user_id = ? AND last_step < ?")
        .bind(step)
        .bind(user_id)
        .bind(step)
        .execute(&mut **tx)
        .await?;
    Ok(res.rows_affected() == 1)
}

/// Removes the authenticator and the recovery codes.
pub async fn remove(tx: &mut Tx, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM second_factor_recovery_codes WHERE user_id = ?")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM second_factors WHERE user_id = ?")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Replaces the user's recovery codes with these hashes.
pub async fn replace_recovery_codes(tx: &mut Tx, user_id: i64, hashes: &[String]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM second_factor_recovery_codes WHERE user_id = ?")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    for hash in hashes {
        sqlx::query("INSERT INTO second_factor_recovery_codes (user_id, code_hash) VALUES (?, ?)")
            .bind(user_id)
            .bind(hash)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Uses up the unused recovery code with this hash; `false` when there is none.
pub async fn use_recovery_code(tx: &mut Tx, user_id: i64, hash: &str) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "UPDATE second_factor_recovery_codes SET used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
    )
    .bind(user_id)
    .bind(hash)
    .execute(&mut **tx)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// How many recovery codes the user has left.
pub async fn recovery_codes_left(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM second_factor_recovery_codes WHERE user_id = ? AND used_at IS NULL")
        .bind(user_id)
        .fetch_one(db)
        .await
}

/// Records a wrong code at `at`.
pub async fn add_failure(tx: &mut Tx, user_id: i64, at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO second_factor_failures (user_id, at) VALUES (?, ?)")
        .bind(user_id)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Forgets the user's wrong codes (after a correct one).
pub async fn clear_failures(tx: &mut Tx, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM second_factor_failures WHERE user_id = ?")
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How many wrong codes the user has entered since the last correct one (at any time: a
/// correct code or an administrator's unlock clears them, nothing else does).
pub async fn consecutive_failures(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM second_factor_failures WHERE user_id = ?")
        .bind(user_id)
        .fetch_one(db)
        .await
}

/// Times of the user's wrong codes within the throttle look-back, ascending.
pub async fn recent_failures(db: impl SqliteExecutor<'_>, user_id: i64, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT at FROM second_factor_failures WHERE user_id = ? AND at > ? ORDER BY at, id")
        .bind(user_id)
        .bind(now - LOOKBACK_SECS)
        .fetch_all(db)
        .await
}

/// Users who must have a second factor under the site setting (administrators and managers of
/// any team) and have no confirmed one, not disabled.
pub async fn users_missing_required(db: impl SqliteExecutor<'_>) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT u.id FROM users u
         WHERE u.disabled = 0
           AND (u.is_admin = 1 OR EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.role = 'manager'))
           AND NOT EXISTS (SELECT 1 FROM second_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL)
         ORDER BY u.id",
    )
    .fetch_all(db)
    .await
}
