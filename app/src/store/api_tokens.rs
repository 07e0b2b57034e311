//! The `api_tokens` table: users' tokens for scripts, stored as SHA-256, each with an expiry.

use super::Tx;
use crate::{
    domain::{roles::TeamRole, tokens::RevokeReason},
    views::ApiTokenInfo,
};
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
    /// Days from now until it expires (one of [`crate::domain::tokens::EXPIRY_CHOICES_DAYS`]).
    pub expires_in_days: u32,
}

/// Stores a token; returns its id and when it expires.
pub async fn insert(tx: &mut Tx, token: &TokenForCreate<'_>) -> Result<(i64, String), sqlx::Error> {
    sqlx::query_as(
        "INSERT INTO api_tokens (user_id, team_id, role, name, token_hash, prefix, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?)) RETURNING id, expires_at",
    )
    .bind(token.user_id)
    .bind(token.team_id)
    .bind(token.role.as_str())
    .bind(token.name)
    .bind(token.token_hash)
    .bind(token.prefix)
    .bind(format!("+{} days", token.expires_in_days))
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
    Option<String>,
    Option<String>,
    bool,
);

/// The user's tokens, newest first.
pub async fn of_user(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Vec<ApiTokenInfo>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT t.id, t.name, t.prefix, teams.name, t.role, t.created_at, t.last_used_at, t.revoked_at,
                t.expires_at, t.revoked_reason,
                coalesce(t.expires_at <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 1)
         FROM api_tokens t JOIN teams ON teams.id = t.team_id WHERE t.user_id = ? ORDER BY t.id DESC",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(
            |(id, name, prefix, team_name, role, created_at, last_used_at, revoked_at, expires_at, reason, expired)| {
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
                    expires_at,
                    revoked_reason: reason.as_deref().and_then(RevokeReason::parse),
                    expired,
                })
            },
        )
        .collect()
}

/// Revokes one of the user's tokens; `false` when the user has no such live token.
pub async fn revoke(tx: &mut Tx, user_id: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), revoked_reason = 'owner'
         WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
    )
    .bind(id)
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes every token of the user not revoked yet (password changed, user disabled); returns
/// how many.
pub async fn revoke_all_of_user(tx: &mut Tx, user_id: i64, reason: RevokeReason) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), revoked_reason = ?
         WHERE user_id = ? AND revoked_at IS NULL",
    )
    .bind(reason.as_str())
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// Revokes every token of the user in one team not revoked yet (they left it, or their role
/// there changed); returns how many.
pub async fn revoke_in_team(tx: &mut Tx, user_id: i64, team_id: i64, reason: RevokeReason) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), revoked_reason = ?
         WHERE user_id = ? AND team_id = ? AND revoked_at IS NULL",
    )
    .bind(reason.as_str())
    .bind(user_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// Who a presented token acts for: the user, the team it is limited to and the role there.
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

/// A presented token that is not revoked, whose user is not disabled and still holds the token's
/// role in its team; whether it has expired is the caller's to judge
/// ([`crate::domain::tokens::expired`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    /// What it grants while it has not expired.
    pub grant: TokenGrant,
    /// When it expires (RFC 3339 UTC).
    pub expires_at: Option<String>,
    /// When it was last used, as recorded.
    pub last_used_at: Option<String>,
}

/// Looks a token up by its hash; `None` unless it is revoked by nobody, its user enabled and
/// still holding its role in its team.
pub async fn lookup(db: impl SqliteExecutor<'_>, token_hash: &str) -> Result<Option<TokenRecord>, sqlx::Error> {
    type Found = (i64, i64, i64, String, Option<String>, Option<String>);
    let row: Option<Found> = sqlx::query_as(
        "SELECT t.id, t.user_id, t.team_id, t.role, t.expires_at, t.last_used_at FROM api_tokens t
         JOIN users u ON u.id = t.user_id AND u.disabled = 0
         JOIN memberships m ON m.user_id = t.user_id AND m.team_id = t.team_id AND m.role = t.role
         WHERE t.token_hash = ? AND t.revoked_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?;
    Ok(
        row.and_then(|(token_id, user_id, team_id, role, expires_at, last_used_at)| {
            TeamRole::parse(&role).map(|role| TokenRecord {
                grant: TokenGrant {
                    token_id,
                    user_id,
                    team_id,
                    role,
                },
                expires_at,
                last_used_at,
            })
        }),
    )
}

/// Records a use at `now` unless one at or after `touch_before` is recorded already (so two
/// requests racing do not both write).
pub async fn touch(
    db: impl SqliteExecutor<'_>,
    token_id: i64,
    now: &str,
    touch_before: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)")
        .bind(now)
        .bind(token_id)
        .bind(touch_before)
        .execute(db)
        .await?;
    Ok(())
}
