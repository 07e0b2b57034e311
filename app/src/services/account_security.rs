//! Changes to one's own account's security, and what goes with each:
//!
//! 1. **Re-authentication** ([`confirm`]): switching a second factor on or off, making new
//!    recovery codes, creating an API token and changing the password each need the current
//!    password, and a current code (or recovery code) when the user has a second factor. A
//!    stolen session alone can do none of them. The password is checked through the one
//!    throttled check ([`crate::auth::throttle`], by account and by client address) and the code
//!    through the second factor's ([`super::second_factor::check_code`]: its lock, the
//!    20-in-a-row lock and the client address), so guesses from a session are bounded like
//!    guesses at sign-in.
//! 2. **Other sessions end** ([`end_other_sessions`]) after the second factor is switched on or
//!    off (and after a password change): a session opened before, perhaps by someone else,
//!    does not outlive the change. The session making it stays signed in.
//! 3. **A notice** ([`site_audit::notice`]): the audit event and, in the same transaction, a mail to the
//!    user queued in `security_mail` (sent by the server's mail pass), so the owner hears of a
//!    change they did not make.

use crate::{
    auth::throttle::{Purpose, check_password},
    domain::audit::Action,
    error::AppError,
    i18n::Msg,
    services::{second_factor, site_audit},
    store::{self, Db, sessions::SqliteSessionStore, users::User},
};

/// The current password of `user` (`None` or empty: not given), through the throttled check.
///
/// # Errors
/// [`Msg::ReauthPasswordNeeded`] when not given, [`Msg::PasswordCurrentWrong`] when wrong
/// (counted as a failed attempt of the account and the address), throttled or busy as sign-in.
pub async fn confirm_password(
    db: &Db,
    user: &User,
    password: Option<String>,
    purpose: Purpose,
) -> Result<(), AppError> {
    let password = password
        .filter(|p| !p.is_empty())
        .ok_or(AppError::Invalid(Msg::ReauthPasswordNeeded))?;
    let phc = Some(user.password_hash.clone());
    if check_password(db, &user.email, password, phc, purpose).await? {
        Ok(())
    } else {
        Err(AppError::Invalid(Msg::PasswordCurrentWrong))
    }
}

/// The current password (checked for `purpose`, as the log names it) and, when `user` has a
/// second factor, a current code from the app or a recovery code (used up). The password is checked first: a wrong one does not use up a
/// code. While the code check is locked, nothing is checked (no password guess is spent).
///
/// # Errors
/// As [`confirm_password`]; then [`Msg::ReauthCodeNeeded`] without a code, or the code check's
/// refusal (wrong, throttled, locked).
pub async fn confirm(
    db: &Db,
    user: &User,
    password: Option<String>,
    code: Option<&str>,
    purpose: Purpose,
) -> Result<(), AppError> {
    let has_factor = store::second_factors::is_enabled(db, user.id).await?;
    if has_factor {
        second_factor::refuse_while_locked(db, user.id).await?;
    }
    confirm_password(db, user, password, purpose).await?;
    if !has_factor {
        return Ok(());
    }
    let code = code
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .ok_or(AppError::Invalid(Msg::ReauthCodeNeeded))?;
    second_factor::check_code(db, user.id, code, true, store::now_unix()).await?;
    Ok(())
}

/// Ends every session of `user_id` but `keep` (the caller's own); logs how many.
///
/// # Errors
/// The database.
pub async fn end_other_sessions(
    sessions: &SqliteSessionStore,
    user_id: i64,
    keep: Option<tower_sessions::session::Id>,
) -> Result<(), AppError> {
    let ended = sessions.delete_others_of_user(user_id, keep).await?;
    tracing::info!(user_id, sessions_ended = ended, "other sessions of the user ended");
    Ok(())
}

/// New recovery codes (the old ones stop working), after the password and a current code (or
/// a recovery code); recorded and mailed to the user.
pub async fn regenerate_recovery_codes(
    db: &Db,
    user: &User,
    password: Option<String>,
    input: Option<&str>,
) -> Result<Vec<String>, AppError> {
    confirm(db, user, password, input, Purpose::Reauthentication).await?;
    let mut tx = store::begin_write(db).await?;
    let codes = second_factor::new_recovery_codes(&mut tx, user.id).await?;
    let data = serde_json::json!({ "user_id": user.id });
    site_audit::notice(&mut tx, user.id, user.id, Action::RecoveryCodesRegenerated, data).await?;
    tx.commit().await?;
    tracing::info!(user_id = user.id, "recovery codes regenerated");
    Ok(codes)
}

/// Switches the second factor off after the password and a code (or a recovery code); refused
/// while the site requires one for this user. Recorded and mailed to the user; the caller ends
/// the user's other sessions.
pub async fn disable(db: &Db, user: &User, password: Option<String>, input: Option<&str>) -> Result<(), AppError> {
    if second_factor::required_for(db, user).await? {
        return Err(AppError::Refused(Msg::SecondFactorRequiredKeep));
    }
    confirm(db, user, password, input, Purpose::Reauthentication).await?;
    let mut tx = store::begin_write(db).await?;
    store::second_factors::remove(&mut tx, user.id).await?;
    let data = serde_json::json!({ "user_id": user.id });
    site_audit::notice(&mut tx, user.id, user.id, Action::SecondFactorDisabled, data).await?;
    tx.commit().await?;
    tracing::info!(user_id = user.id, "second factor switched off");
    Ok(())
}
