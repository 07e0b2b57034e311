//! The `users` table.

use super::Tx;
use crate::views::UserSummary;
use sqlx::SqliteExecutor;

/// A stored user (the password hash never leaves the server).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct User {
    pub id: i64,
    /// Normalised e-mail, unique without regard to case.
    pub email: String,
    /// Name shown in the UI.
    pub display_name: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// Site-wide administrator.
    pub is_admin: bool,
    /// Disabled users cannot sign in and lose their sessions.
    pub disabled: bool,
    /// Changes when the password changes or the user is disabled.
    pub auth_epoch: i64,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
}

/// Fields of a new user.
pub struct UserForCreate<'a> {
    /// Normalised e-mail.
    pub email: &'a str,
    pub display_name: &'a str,
    /// argon2id PHC string.
    pub password_hash: &'a str,
    /// Site-wide administrator.
    pub is_admin: bool,
}

const COLUMNS: &str = "id, email, display_name, password_hash, is_admin, disabled, auth_epoch, created_at";

/// Inserts a user; `Ok(None)` when the e-mail is taken.
pub async fn insert(tx: &mut Tx, user: &UserForCreate<'_>) -> Result<Option<i64>, sqlx::Error> {
    let id = sqlx::query_scalar(
        "INSERT INTO users (email, display_name, password_hash, is_admin) VALUES (?, ?, ?, ?)
         ON CONFLICT (email) DO NOTHING RETURNING id",
    )
    .bind(user.email)
    .bind(user.display_name)
    .bind(user.password_hash)
    .bind(user.is_admin)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(id)
}

/// The user with this e-mail (case-insensitive).
pub async fn by_email(db: impl SqliteExecutor<'_>, email: &str) -> Result<Option<User>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM users WHERE email = ?"
    )))
    .bind(email)
    .fetch_optional(db)
    .await
}

/// The user with this id.
pub async fn by_id(db: impl SqliteExecutor<'_>, id: i64) -> Result<Option<User>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM users WHERE id = ?")))
        .bind(id)
        .fetch_optional(db)
        .await
}

/// Every user, by e-mail.
pub async fn list(db: impl SqliteExecutor<'_>) -> Result<Vec<UserSummary>, sqlx::Error> {
    sqlx::query_as("SELECT id, email, display_name, is_admin, disabled FROM users ORDER BY email")
        .fetch_all(db)
        .await
}

/// Replaces the password hash and ends every session (bumps the epoch).
pub async fn set_password(tx: &mut Tx, id: i64, password_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET password_hash = ?, auth_epoch = auth_epoch + 1 WHERE id = ?")
        .bind(password_hash)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Disables or re-enables a user; disabling ends their sessions (bumps the epoch).
/// Returns `false` when there is no such user.
pub async fn set_disabled(tx: &mut Tx, id: i64, disabled: bool) -> Result<bool, sqlx::Error> {
    let res = sqlx::query(
        "UPDATE users SET disabled = ?1, auth_epoch = auth_epoch + (CASE WHEN ?1 THEN 1 ELSE 0 END)
         WHERE id = ?2",
    )
    .bind(disabled)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(res.rows_affected() == 1)
}

/// Number of enabled administrators.
pub async fn count_active_admins(db: impl SqliteExecutor<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE is_admin = 1 AND disabled = 0")
        .fetch_one(db)
        .await
}

/// Enabled users who belong to no team (site-wide, for administrators), by name.
pub async fn without_team(db: impl SqliteExecutor<'_>) -> Result<Vec<crate::domain::dashboard::LoneUser>, sqlx::Error> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT id, display_name, email FROM users u
         WHERE disabled = 0 AND is_admin = 0 AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id)
         ORDER BY display_name, id LIMIT 200",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(user_id, name, email)| crate::domain::dashboard::LoneUser { user_id, name, email })
        .collect())
}
