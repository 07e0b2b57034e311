//! Who is calling: password hashing, the signed-in caller, and the checks every server
//! function makes before it touches data. Server only.

pub mod caller;
pub mod password;
pub mod setup_code;
pub mod shown_once;
pub mod throttle;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "nl_session";

/// Name of the session cookie when it is `Secure` (site served over https): the `__Host-`
/// prefix binds it to this host, path `/`, no `Domain`.
pub const SECURE_SESSION_COOKIE: &str = "__Host-nl_session";

/// Whether a request's headers carry a session cookie (either name), alive or not.
pub fn carries_session_cookie(headers: &http::HeaderMap) -> bool {
    [SESSION_COOKIE, SECURE_SESSION_COOKIE]
        .iter()
        .any(|name| crate::cookies::request_cookie(headers, name).is_some())
}

pub use caller::{AppState, AuthConfig, SessionKeys, load_caller, start_session};

use crate::{
    domain::roles::Capability,
    error::AppError,
    store::Db,
    views::{Caller, Membership},
};
use leptos::prelude::*;
use tower_sessions::Session;

/// The application state given to every page and server function.
pub fn state() -> Result<AppState, AppError> {
    use_context::<AppState>().ok_or_else(|| {
        tracing::error!("AppState missing from the Leptos context");
        AppError::Internal
    })
}

/// The database pool.
pub fn db() -> Result<Db, AppError> {
    Ok(state()?.db)
}

fn request_parts() -> Result<http::request::Parts, AppError> {
    use_context::<http::request::Parts>().ok_or_else(|| {
        tracing::error!("request parts missing from the Leptos context");
        AppError::Internal
    })
}

/// The session of this request.
pub fn session() -> Result<Session, AppError> {
    request_parts()?.extensions.get::<Session>().cloned().ok_or_else(|| {
        tracing::error!("session layer missing");
        AppError::Internal
    })
}

/// The signed-in caller of this request, if any.
pub fn caller() -> Result<Option<Caller>, AppError> {
    Ok(request_parts()?.extensions.get::<Caller>().cloned())
}

/// The signed-in caller, or 401.
pub fn require_caller() -> Result<Caller, AppError> {
    caller()?.ok_or(AppError::Unauthenticated)
}

/// The signed-in site administrator, or 401/403.
pub fn require_admin() -> Result<Caller, AppError> {
    let caller = require_caller()?;
    if caller.is_admin {
        Ok(caller)
    } else {
        Err(AppError::Forbidden)
    }
}

/// The caller's active team if their role there grants `capability`, or 401/403.
/// The team always comes from the session, never from the request.
pub fn require_team(capability: Capability) -> Result<(Caller, Membership), AppError> {
    team_access(caller()?, capability)
}

/// The one rule behind [`require_team`] and the raw routes' `TeamAccess` extractor: no caller
/// → [`AppError::Unauthenticated`]; no active team, or a role there without `capability` →
/// [`AppError::Forbidden`]; else the caller with their active team.
pub fn team_access(caller: Option<Caller>, capability: Capability) -> Result<(Caller, Membership), AppError> {
    let caller = caller.ok_or(AppError::Unauthenticated)?;
    let membership = caller.active_membership().cloned().ok_or(AppError::Forbidden)?;
    if caller.may(capability) {
        Ok((caller, membership))
    } else {
        Err(AppError::Forbidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::roles::TeamRole;

    fn engineer(active_team: Option<i64>) -> Caller {
        Caller {
            user_id: 7,
            email: "eve@example.com".into(),
            display_name: "Eve".into(),
            is_admin: false,
            memberships: vec![Membership {
                team_id: 3,
                team_name: "A".into(),
                role: TeamRole::Engineer,
            }],
            active_team,
        }
    }

    #[test]
    fn team_access_is_401_then_403_then_the_active_team() {
        assert_eq!(
            team_access(None, Capability::ReadTeamData).unwrap_err(),
            AppError::Unauthenticated
        );
        assert_eq!(
            team_access(Some(engineer(None)), Capability::ReadTeamData).unwrap_err(),
            AppError::Forbidden,
            "no active team"
        );
        assert_eq!(
            team_access(Some(engineer(Some(3))), Capability::EditProcurement).unwrap_err(),
            AppError::Forbidden,
            "an engineer keeps no procurement records"
        );
        let (caller, team) = team_access(Some(engineer(Some(3))), Capability::UploadRuns).unwrap();
        assert_eq!((caller.user_id, team.team_id, team.role), (7, 3, TeamRole::Engineer));
    }
}
