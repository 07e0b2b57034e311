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
    /// The secret as stored: sealed with the key file ([`super::secret_key`]), or base32 when
    /// written before sealing (never logged, never shown after enrolment).
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

/// Starts (or restarts) enrolment with a new secret (`secret` as stored: sealed); refused (`false`) while a confirmed one exists.
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

/// Users whose wrong codes in a row reached `limit` (their factor is locked), ascending.
pub async fn locked_users(db: impl SqliteExecutor<'_>, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT user_id FROM second_factor_failures GROUP BY user_id HAVING COUNT(*) >= ? ORDER BY user_id",
    )
    .bind(limit)
    .fetch_all(db)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        domain::second_factor::{secret_base32, secret_from_base32},
        store::{
            Db,
            secret_key::{KeyError, SEALED_PREFIX, prepare},
        },
    };
    use std::path::PathBuf;

    const SECRET: &[u8] = b"12345678901234567890";

    fn key_path(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nl-key-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("nodeledger.key")
    }

    async fn user(db: &Db, email: &str) -> i64 {
        sqlx::query_scalar("INSERT INTO users (email, display_name, password_hash) VALUES (?, 'U', 'x') RETURNING id")
            .bind(email)
            .fetch_one(db)
            .await
            .unwrap()
    }

    async fn stored(db: &Db, user_id: i64) -> String {
        of_user(db, user_id).await.unwrap().unwrap().secret
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn the_key_file_is_created_private_and_legacy_secrets_are_sealed(db: Db) {
        let path = key_path("legacy");
        let (a, b) = (user(&db, "a@example.com").await, user(&db, "b@example.com").await);
        let legacy = secret_base32(SECRET);
        let mut tx = crate::store::begin_write(&db).await.unwrap();
        begin_enrolment(&mut tx, a, &legacy).await.unwrap();
        begin_enrolment(&mut tx, b, &legacy).await.unwrap();
        tx.commit().await.unwrap();

        let key = prepare(&db, &path).await.unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let (sa, sb) = (stored(&db, a).await, stored(&db, b).await);
        assert!(sa.starts_with(SEALED_PREFIX) && !sa.contains(&legacy), "{sa}");
        assert_ne!(sa, sb, "a nonce per secret");
        assert_eq!(key.open(a, &sa).unwrap(), SECRET);
        assert_eq!(key.open(b, &sb).unwrap(), SECRET);
        assert!(
            key.open(b, &sa).is_none(),
            "a secret copied to another user does not open"
        );
        assert!(secret_from_base32(&sa).is_none());

        // A second start reads the same file and opens them.
        assert_eq!(prepare(&db, &path).await.unwrap(), key);
        assert_eq!(stored(&db, a).await, sa, "sealed secrets are left as they are");
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_missing_or_wrong_key_file_stops_start_up(db: Db) {
        let path = key_path("wrong");
        let a = user(&db, "a@example.com").await;
        let key = prepare(&db, &path).await.unwrap();
        let mut tx = crate::store::begin_write(&db).await.unwrap();
        begin_enrolment(&mut tx, a, &key.seal(a, SECRET)).await.unwrap();
        tx.commit().await.unwrap();

        std::fs::remove_file(&path).unwrap();
        assert!(matches!(prepare(&db, &path).await, Err(KeyError::Missing(_))));
        assert!(!path.exists(), "no new key is made while secrets are sealed");

        std::fs::write(&path, hex::encode([7u8; 32])).unwrap();
        let wrong = prepare(&db, &path).await.unwrap_err();
        assert!(matches!(wrong, KeyError::Wrong(_)));
        assert!(wrong.to_string().contains("does not open"), "{wrong}");

        std::fs::write(&path, "not a key").unwrap();
        assert!(matches!(prepare(&db, &path).await, Err(KeyError::Malformed(_))));
    }
}
