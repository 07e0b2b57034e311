//! The second factor's pages and server functions: the account page's section (set up an
//! authenticator app, recovery codes, switch off), the sign-in's second step, and the
//! administrators' setting that requires it for managers and administrators. The rules are in
//! [`crate::domain::second_factor`], the work in [`crate::services::second_factor`].

pub mod admin;
mod enrol;
mod login_step;

pub use enrol::{SecondFactorSection, SignOffCode};
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
    // The pool is taken before the first await: this runs as a resource on the sign-off form,
    // and a form re-rendered meanwhile loses its owner, and with it the contexts.
    let db = crate::auth::db()?;
    let user = server::caller_user().await?;
    crate::services::second_factor::status(&db, &user).await
}

/// Starts setting up an authenticator app: a new secret, as a QR code and as text. Works for the
/// signed-in caller and for a sign-in that must enrol first.
#[server(endpoint = "second_factor/start")]
pub async fn start_enrolment() -> Result<Enrolment, AppError> {
    let (user, _) = server::enrolling_user().await?;
    crate::services::second_factor::begin_enrolment(&crate::auth::db()?, &user).await
}

/// Switches the second factor on with a first code from the app; returns the ten recovery codes
/// (shown this once). A sign-in that had to enrol is signed in by it.
#[server(endpoint = "second_factor/confirm")]
pub async fn confirm_enrolment(code: String) -> Result<Vec<String>, AppError> {
    use crate::{auth, services::second_factor, store};
    let db = auth::db()?;
    let (user, at_sign_in) = server::enrolling_user().await?;
    if at_sign_in {
        second_factor::confirm_enrolment_at_sign_in(&db, &auth::session()?, &code).await
    } else {
        second_factor::confirm_enrolment(&db, user.id, &code, store::now_unix()).await
    }
}

/// New recovery codes after a current code from the app; the old ones stop working.
#[server(endpoint = "second_factor/recovery_codes")]
pub async fn regenerate_recovery_codes(code: String) -> Result<Vec<String>, AppError> {
    let user = server::caller_user().await?;
    crate::services::second_factor::regenerate_recovery_codes(&crate::auth::db()?, user.id, &code).await
}

/// Switches the second factor off, with the password and a code (or a recovery code).
#[server(endpoint = "second_factor/disable")]
pub async fn disable_second_factor(password: String, code: String) -> Result<(), AppError> {
    let user = server::caller_user().await?;
    crate::services::second_factor::disable(&crate::auth::db()?, &user, password, &code).await
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
