//! The session as the header, the guards and every page see it: who is signed in, switching
//! the active team, signing out. Here rather than in `pages/` because the header uses them and
//! nothing below `pages/` imports from it.

use crate::error::AppError;
pub use crate::views::SessionInfo;
use leptos::prelude::*;

/// The session of the page: provided as context by the root component, so the guards and the
/// sign-in and set-up pages share one fetch.
#[derive(Clone, Copy)]
pub struct SessionResource(pub Resource<Result<SessionInfo, AppError>>);

/// Whether set-up is needed, and who is signed in.
#[server(endpoint = "session")]
pub async fn get_session_info() -> Result<SessionInfo, AppError> {
    server::session_info().await
}

/// Makes `team_id` the caller's active team (only a team they belong to).
#[server(endpoint = "switch_team")]
pub async fn switch_team(team_id: i64) -> Result<(), AppError> {
    server::switch_team(team_id).await
}

/// Signs out: the session is deleted and its cookie cleared.
#[server(endpoint = "logout")]
pub async fn logout() -> Result<(), AppError> {
    crate::auth::session()?.flush().await.map_err(|e| {
        tracing::error!(error = %e, "cannot end session");
        AppError::Internal
    })
}

#[cfg(feature = "ssr")]
mod server {
    use super::*;
    use crate::{
        auth::{self, SessionKeys},
        store,
    };

    pub async fn session_info() -> Result<SessionInfo, AppError> {
        let setup_needed = store::site::setup_open(&auth::db()?).await?;
        let caller = auth::caller()?;
        let sign_in_step = match caller {
            Some(_) => None,
            None => crate::services::second_factor::pending_step(&auth::session()?).await,
        };
        let session_ended = caller.is_none() && sign_in_step.is_none() && sent_session_cookie();
        Ok(SessionInfo {
            setup_needed,
            caller,
            session_ended,
            sign_in_step,
        })
    }

    /// Whether the request carried a session cookie (either name: plain http or `__Host-`).
    fn sent_session_cookie() -> bool {
        use_context::<http::request::Parts>().is_some_and(|parts| auth::carries_session_cookie(&parts.headers))
    }

    pub async fn switch_team(team_id: i64) -> Result<(), AppError> {
        let caller = auth::require_caller()?;
        if !caller.memberships.iter().any(|m| m.team_id == team_id) {
            return Err(AppError::Forbidden);
        }
        auth::session()?
            .insert(SessionKeys::ACTIVE_TEAM, team_id)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "cannot store active team");
                AppError::Internal
            })
    }
}
