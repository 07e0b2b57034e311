//! The `api_tokens` table: users' tokens for scripts, stored as SHA-256.

use super::Tx;
use crate::{domain::roles::TeamRole, views::ApiTokenInfo};
use sqlx::SqliteExecutor;

/// A new token.
pub struct TokenForCreate<'a> {
    /// The user the token acts as.
    pub user_id: i64,
    /// Team it is scoped to.
    pub team_id: i64,
    /// Role it acts with.
    pub role: TeamRole,
    /// Name given by the user.
    pub name: &'a str,
    /// SHA-256 of the token, hex.
    pub token_hash: &'a str,
    /// First characters of the token.
    pub prefix: &'a str,
}

/// Stores a token; returns its id.
pub async fn insert(tx: &mut Tx, token: &TokenForCreate<'_>) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO api_tokens (user_id, team_id, role, name, token_hash, prefix) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(token.user_id)
    .bind(token.team_id)
    .bind(token.role.as_str())
    .bind(token.name)
    .bind(token.token_hash)
    .bind(token.prefix)
    .fetch_one(&mut **tx)
    .await
}

type Row = (
    i64,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
);

/// The user's tokens, newest first.
pub async fn of_user(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Vec<ApiTokenInfo>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT t.id, t.name, t.prefix, teams.name, t.role, t.created_at, t.last_used_at, t.revoked_at
         FROM api_tokens t JOIN teams ON teams.id = t.team_id WHERE t.user_id = ? ORDER BY t.id DESC",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(
            |(id, name, prefix, team_name, role, created_at, last_used_at, revoked_at)| {
                let role =
                    TeamRole::parse(&role).ok_or_else(|| sqlx::Error::Decode(format!("unknown role {role}").into()))?;
                Ok(ApiTokenInfo {
                    id,
                    name,
                    prefix,
                    team_name,
                    role,
                    created_at,
                    last_used_at,
                    revoked_at,
                })
            },
        )
        .collect()
}

/// Revokes one of the user's tokens; `false` when the user has no such live token.
pub async fn revoke(tx: &mut Tx, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
    )
    .bind(id)
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Who a presented token acts for, when it is live: not revoked, its user not disabled, and
/// the user still holding the token's role in the token's team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenGrant {
    pub token_id: i64,
    /// The user the token acts as.
    pub user_id: i64,
    /// The team the token is limited to.
    pub team_id: i64,
    /// The user's role in that team.
    pub role: TeamRole,
}

/// Looks a token up by its hash; `None` unless it is live (see [`TokenGrant`]).
pub async fn grant(db: impl SqliteExecutor<'_>, token_hash: &str) -> Result<Option<TokenGrant>, sqlx::Error> {
    let row: Option<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT t.id, t.user_id, t.team_id, t.role FROM api_tokens t
         JOIN users u ON u.id = t.user_id AND u.disabled = 0
         JOIN memberships m ON m.user_id = t.user_id AND m.team_id = t.team_id AND m.role = t.role
         WHERE t.token_hash = ? AND t.revoked_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?;
    Ok(row.and_then(|(token_id, user_id, team_id, role)| {
        TeamRole::parse(&role).map(|role| TokenGrant {
            token_id,
            user_id,
            team_id,
            role,
        })
    }))
}

/// Records that a token was used now.
pub async fn touch(db: impl SqliteExecutor<'_>, token_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE api_tokens SET last_used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(token_id)
        .execute(db)
        .await?;
    Ok(())
}
