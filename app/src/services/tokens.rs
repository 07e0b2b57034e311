//! API tokens: making one (with its expiry and audit event), revoking one, and authenticating a
//! presented token for the scripts' API (expired tokens are told apart from unknown ones; last use
//! is written at most once a minute). Rules: [`crate::domain::tokens`].

use crate::{
    domain::{
        audit::Action,
        tokens::{self, RevokeReason, TOUCH_EVERY_SECS},
    },
    error::AppError,
    services::site_audit,
    store::{
        self, Db,
        api_tokens::{TokenForCreate, TokenGrant},
    },
    views::Membership,
};
use serde_json::json;

/// Why a presented token does not grant anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown, revoked, its user disabled, or the user no longer holds its role in its team.
    Invalid,
    /// Otherwise live, but expired at this moment (RFC 3339 UTC).
    Expired(String),
}

use crate::clock::stamp;

/// What a presented (well-formed) token grants now. Records the use when the last recorded one
/// is a minute old or more; failing to record it is logged, never refused.
///
/// # Errors
/// Database errors while looking the token up.
pub async fn authenticate(db: &Db, token: &str) -> Result<Result<TokenGrant, Refusal>, sqlx::Error> {
    let Some(record) = store::api_tokens::lookup(db, &tokens::token_hash(token)).await? else {
        return Ok(Err(Refusal::Invalid));
    };
    let at = time::OffsetDateTime::now_utc();
    let now = stamp(at);
    if tokens::expired(record.expires_at.as_deref(), &now) {
        return Ok(Err(Refusal::Expired(record.expires_at.unwrap_or_default())));
    }
    let touch_before = stamp(at - time::Duration::seconds(TOUCH_EVERY_SECS));
    if tokens::needs_touch(record.last_used_at.as_deref(), &touch_before)
        && let Err(e) = store::api_tokens::touch(db, record.grant.token_id, &now, &touch_before).await
    {
        tracing::warn!(error = %e, "cannot record token use");
    }
    Ok(Ok(record.grant))
}

/// A new token: shown once, with when it expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewToken {
    /// The token itself.
    pub token: String,
    /// When it expires (RFC 3339 UTC).
    pub expires_at: String,
}

/// Makes a token for `user_id` in `team` (with their role there) that lives `days` days,
/// records it in the audit chain and mails the user. The caller has re-authenticated the user
/// ([`super::account_security::confirm`]).
///
/// # Errors
/// The database, or the audit event.
pub async fn create(db: &Db, user_id: i64, team: &Membership, name: &str, days: u32) -> Result<NewToken, AppError> {
    let mut random = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut random);
    let token = tokens::token_from_bytes(&random);
    let hash = tokens::token_hash(&token);
    let prefix = tokens::shown_prefix(&token);
    let mut tx = store::begin_write(db).await?;
    let record = TokenForCreate {
        user_id,
        team_id: team.team_id,
        role: team.role,
        name,
        token_hash: &hash,
        prefix: &prefix,
        expires_in_days: days,
    };
    let (id, expires_at) = store::api_tokens::insert(&mut tx, &record).await?;
    let data = json!({
        "token_id": id, "user_id": user_id, "team_id": team.team_id, "role": team.role.as_str(),
        "name": name, "expires_at": expires_at, "prefix": prefix,
    });
    site_audit::notice(&mut tx, user_id, user_id, Action::TokenCreated, data).await?;
    tx.commit().await?;
    tracing::info!(token = id, user = user_id, team = team.team_id, %expires_at, "API token created");
    Ok(NewToken { token, expires_at })
}

/// Revokes one of the user's tokens, recorded in the audit chain; `false` when the user has no
/// such live token.
///
/// # Errors
/// The database, or the audit event.
pub async fn revoke(db: &Db, user_id: i64, id: i64) -> Result<bool, AppError> {
    let mut tx = store::begin_write(db).await?;
    if !store::api_tokens::revoke(&mut tx, user_id, id).await? {
        return Ok(false);
    }
    site_audit::record(
        &mut tx,
        user_id,
        Action::TokenRevoked,
        json!({ "token_id": id, "user_id": user_id }),
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Inside the transaction that changes a user's password: revokes all their tokens, records
/// the change ([`Action::PasswordChanged`], by the user) and mails the user. Returns how many tokens were revoked.
///
/// # Errors
/// The database, or the audit event.
pub async fn on_password_changed(tx: &mut store::Tx, user_id: i64) -> Result<u64, AppError> {
    let revoked = store::api_tokens::revoke_all_of_user(tx, user_id, RevokeReason::PasswordChanged).await?;
    let data = json!({ "user_id": user_id, "tokens_revoked": revoked });
    site_audit::notice(tx, user_id, user_id, Action::PasswordChanged, data).await?;
    Ok(revoked)
}

/// Inside the transaction that disables a user: revokes all their tokens (they stay revoked if
/// the user is enabled again) and records it ([`Action::UserDisabled`], by `admin_id`).
///
/// # Errors
/// The database, or the audit event.
pub async fn on_user_disabled(tx: &mut store::Tx, admin_id: i64, user_id: i64) -> Result<u64, AppError> {
    let revoked = store::api_tokens::revoke_all_of_user(tx, user_id, RevokeReason::UserDisabled).await?;
    let data = json!({ "user_id": user_id, "tokens_revoked": revoked });
    site_audit::record(tx, admin_id, Action::UserDisabled, data).await?;
    Ok(revoked)
}

/// Inside the transaction that gives a user a new role in a team, or removes them from it:
/// revokes their tokens of that team ([`RevokeReason::RoleChanged`]), so none comes back to life
/// when they rejoin with the role it was made with. Returns how many; the caller records the
/// count in its audit event (`tokens_revoked`).
///
/// # Errors
/// The database.
pub async fn on_membership_changed(tx: &mut store::Tx, user_id: i64, team_id: i64) -> Result<u64, AppError> {
    Ok(store::api_tokens::revoke_in_team(tx, user_id, team_id, RevokeReason::RoleChanged).await?)
}
