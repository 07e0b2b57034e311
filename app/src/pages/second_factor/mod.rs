//! The second factor's pages and server functions: the account page's section (set up an
//! authenticator app, recovery codes, switch off), the sign-in's second step, and the
//! administrators' setting that requires it for managers and administrators. The rules are in
//! [`crate::domain::second_factor`], the work in [`crate::services::second_factor`].

pub mod admin;
mod enrol;
mod login_step;

pub use enrol::{PasswordField, ReauthCode, SecondFactorSection};
pub use login_step::SecondStep;

use crate::{
    error::AppError,
    views::second_factor::{Enrolment, SecondFactorStatus},
};
use leptos::prelude::*;

#[cfg(feature = "ssr")]
mod server {
    use crate::{auth, error::AppError, services::second_factor, store, store::users::User};

    /// The signed-in caller as a stored user.
    pub async fn caller_user() -> Result<User, AppError> {
        let caller = auth::require_caller()?;
        store::users::by_id(&auth::db()?, caller.user_id)
            .await?
            .ok_or(AppError::Unauthenticated)
    }

    /// A session write's outcome as the app's error.
    pub fn keep<T>(written: Result<T, tower_sessions::session::Error>) -> Result<T, AppError> {
        written.map_err(|e| {
            tracing::error!(error = %e, "cannot write the session");
            AppError::Internal
        })
    }

    /// Who is enrolling: the signed-in caller, else the user of a sign-in that must enrol first
    /// (`true` with them).
    pub async fn enrolling_user() -> Result<(User, bool), AppError> {
        if auth::caller()?.is_some() {
            return Ok((caller_user().await?, false));
        }
        let user = second_factor::pending_enrolment(&auth::db()?, &auth::session()?).await?;
        Ok((user, true))
    }
}

/// The caller's second factor.
#[server(endpoint = "second_factor/state")]
pub async fn second_factor_state() -> Result<SecondFactorStatus, AppError> {
    // The pool is taken before the first await: this runs as a resource of a form, and a form
    // re-rendered meanwhile loses its owner, and with it the contexts.
    let db = crate::auth::db()?;
    let user = server::caller_user().await?;
    crate::services::second_factor::status(&db, &user).await
}

/// Starts setting up an authenticator app: a new secret, as a QR code and as text. The
/// signed-in caller confirms with their current `password` first (a stolen session must not
/// put its own authenticator on the account); a sign-in that must enrol first has just given it.
/// The session keeps it for the account page until it is confirmed ([`pending_enrolment`]).
#[server(endpoint = "second_factor/start")]
pub async fn start_enrolment(password: Option<String>) -> Result<Enrolment, AppError> {
    use crate::{auth, auth::SessionKeys, auth::throttle::Purpose, services::account_security};
    let db = auth::db()?;
    let session = auth::session()?;
    let (user, at_sign_in) = server::enrolling_user().await?;
    if !at_sign_in {
        account_security::confirm_password(&db, &user, password, Purpose::Reauthentication).await?;
    }
    let enrolment = crate::services::second_factor::begin_enrolment(&db, &user).await?;
    server::keep(session.insert(SessionKeys::ENROLMENT, &enrolment).await)?;
    crate::components::forms::saved_after_plain_post();
    Ok(enrolment)
}

/// The set-up this session started and has not confirmed yet, if any: the account page shows it
/// (a wrong first code keeps it there). Gone once the second factor is on.
#[server(endpoint = "second_factor/pending")]
pub async fn pending_enrolment() -> Result<Option<Enrolment>, AppError> {
    use crate::{auth, auth::SessionKeys};
    let db = auth::db()?;
    let session = auth::session()?;
    let user = server::caller_user().await?;
    if crate::store::second_factors::is_enabled(&db, user.id).await? {
        return Ok(None);
    }
    Ok(session.get::<Enrolment>(SessionKeys::ENROLMENT).await.ok().flatten())
}

/// Switches the second factor on with a first code from the app; returns the ten recovery codes
/// (shown this once). Every other session of the user ends; a sign-in that had to enrol is
/// signed in by it, a signed-in caller stays signed in.
#[server(endpoint = "second_factor/confirm")]
pub async fn confirm_enrolment(code: String) -> Result<Vec<String>, AppError> {
    use crate::{auth, services::account_security, services::second_factor, store};
    let state = auth::state()?;
    let session = auth::session()?;
    let (user, at_sign_in) = server::enrolling_user().await?;
    let codes = if at_sign_in {
        second_factor::confirm_enrolment_at_sign_in(&state.db, &session, &code).await?
    } else {
        second_factor::confirm_enrolment(&state.db, user.id, &code, store::now_unix()).await?
    };
    // At sign-in the session's new id is stored only once this answer is sent: none is kept.
    let keep = if at_sign_in { None } else { session.id() };
    account_security::end_other_sessions(&state.sessions, user.id, keep).await?;
    server::keep(session.remove::<Enrolment>(crate::auth::SessionKeys::ENROLMENT).await)?;
    if crate::components::forms::show_once_after_plain_post(
        <ConfirmEnrolment as leptos::server_fn::ServerFn>::PATH,
        &codes,
    )
    .await?
    {
        return Ok(Vec::new());
    }
    Ok(codes)
}

/// New recovery codes, after the current `password` and a code from the app (or a recovery
/// code); the old ones stop working.
#[server(endpoint = "second_factor/recovery_codes")]
pub async fn regenerate_recovery_codes(
    password: Option<String>,
    code: Option<String>,
) -> Result<Vec<String>, AppError> {
    let user = server::caller_user().await?;
    let codes = crate::services::account_security::regenerate_recovery_codes(
        &crate::auth::db()?,
        &user,
        password,
        code.as_deref(),
    )
    .await?;
    if crate::components::forms::show_once_after_plain_post(
        <RegenerateRecoveryCodes as leptos::server_fn::ServerFn>::PATH,
        &codes,
    )
    .await?
    {
        return Ok(Vec::new());
    }
    Ok(codes)
}

/// Switches the second factor off, with the password and a code (or a recovery code). Every
/// other session of the user ends; this one stays signed in.
#[server(endpoint = "second_factor/disable")]
pub async fn disable_second_factor(password: Option<String>, code: Option<String>) -> Result<(), AppError> {
    use crate::{auth, services::account_security};
    let state = auth::state()?;
    let user = server::caller_user().await?;
    crate::services::account_security::disable(&state.db, &user, password, code.as_deref()).await?;
    account_security::end_other_sessions(&state.sessions, user.id, auth::session()?.id()).await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The sign-in's second step: the code from the app (or a recovery code) after the password.
#[server(endpoint = "login/code")]
pub async fn login_code(code: String) -> Result<(), AppError> {
    use crate::auth;
    crate::services::second_factor::complete_sign_in(&auth::db()?, &auth::session()?, &code).await
}

/// "Sign in again" on the sign-in's second step: drops the pending sign-in of this session.
#[server(endpoint = "login/restart")]
pub async fn restart_sign_in() -> Result<(), AppError> {
    crate::services::second_factor::abandon_sign_in(&crate::auth::session()?).await
}
