//! The signed-in caller, loaded once per request from the session and the database.

use crate::{
    error::AppError,
    store::{
        self, Db,
        sessions::{SqliteSessionStore, USER_ID_KEY},
    },
    views::Caller,
};
use std::time::Duration;
use tower_sessions::Session;

/// Session timeouts.
#[derive(Clone, Debug)]
pub struct AuthConfig {
    /// A session ends after this long without a request.
    pub idle_timeout: Duration,
    /// A session ends this long after sign-in, whatever happens.
    pub absolute_timeout: Duration,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            idle_timeout: Duration::from_secs(30 * 60),
            absolute_timeout: Duration::from_secs(12 * 3600),
        }
    }
}

/// What pages and server functions get from the server: the pool, the session store, settings.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The database.
    pub db: Db,
    /// The session store (to end a user's sessions).
    pub sessions: SqliteSessionStore,
    /// Session timeouts.
    pub auth: AuthConfig,
    /// The one-time code that proves the first administrator runs the server
    /// ([`crate::auth::setup_code`]; `Default::default()`: none issued, set-up refused).
    pub setup_code: crate::auth::setup_code::SetupCode,
}

/// Keys of the values kept in a session.
pub struct SessionKeys;

impl SessionKeys {
    /// The user's id.
    pub const USER_ID: &'static str = USER_ID_KEY;
    /// The user's `auth_epoch` at sign-in.
    pub const EPOCH: &'static str = "auth_epoch";
    /// Sign-in time, Unix seconds.
    pub const SIGNED_IN_AT: &'static str = "signed_in_at";
    /// The team the user is working in.
    pub const ACTIVE_TEAM: &'static str = "active_team";
    /// The set-up of a second factor this session started (the QR code and the secret), shown
    /// on the account page until it is confirmed: a wrong first code keeps it on the page.
    pub const ENROLMENT: &'static str = "second_factor_enrolment";
}

/// Loads the caller of a request from its session. Ends the session (and returns `None`) when
/// the user is gone or disabled, the password changed since sign-in, or the absolute timeout
/// has passed.
pub async fn load_caller(state: &AppState, session: &Session) -> Result<Option<Caller>, AppError> {
    let get = |key: &'static str| async move { session.get::<i64>(key).await.ok().flatten() };
    let Some(user_id) = get(SessionKeys::USER_ID).await else {
        return Ok(None);
    };
    let epoch = get(SessionKeys::EPOCH).await;
    let signed_in_at = get(SessionKeys::SIGNED_IN_AT).await.unwrap_or(0);
    let user = store::users::by_id(&state.db, user_id).await?;
    let absolute = i64::try_from(state.auth.absolute_timeout.as_secs()).unwrap_or(i64::MAX);
    let expired = store::now_unix().saturating_sub(signed_in_at) >= absolute;
    let user = match user {
        Some(u) if !u.disabled && Some(u.auth_epoch) == epoch && !expired => u,
        _ => {
            session.flush().await.map_err(|e| {
                tracing::error!(error = %e, "cannot end session");
                AppError::Internal
            })?;
            return Ok(None);
        }
    };
    let memberships = store::memberships::of_user(&state.db, user.id).await?;
    let wanted = get(SessionKeys::ACTIVE_TEAM).await;
    let active_team = wanted
        .filter(|id| memberships.iter().any(|m| m.team_id == *id))
        .or_else(|| memberships.first().map(|m| m.team_id));
    if active_team != wanted {
        let stored = match active_team {
            Some(id) => session.insert(SessionKeys::ACTIVE_TEAM, id).await,
            None => session.remove::<i64>(SessionKeys::ACTIVE_TEAM).await.map(|_| ()),
        };
        stored.map_err(|e| {
            tracing::error!(error = %e, "cannot store active team");
            AppError::Internal
        })?;
    }
    Ok(Some(Caller {
        user_id: user.id,
        email: user.email,
        display_name: user.display_name,
        is_admin: user.is_admin,
        memberships,
        active_team,
    }))
}

/// Starts a signed-in session for `user_id`: a new session id (against fixation), then the
/// user, their auth epoch and the sign-in time.
pub async fn start_session(session: &Session, user_id: i64, epoch: i64) -> Result<(), AppError> {
    let fail = |e: tower_sessions::session::Error| {
        tracing::error!(error = %e, "cannot start session");
        AppError::Internal
    };
    session.cycle_id().await.map_err(fail)?;
    session.clear().await;
    session.insert(SessionKeys::USER_ID, user_id).await.map_err(fail)?;
    session.insert(SessionKeys::EPOCH, epoch).await.map_err(fail)?;
    session
        .insert(SessionKeys::SIGNED_IN_AT, store::now_unix())
        .await
        .map_err(fail)?;
    Ok(())
}
