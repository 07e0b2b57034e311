//! Who may use a raw route: the [`TeamAccess`] extractor. Every raw handler (documents,
//! exports, charts, run files, uploads, order export) names the capability it needs in its
//! signature, `TeamAccess<EditProcurement>`, so the check cannot be forgotten: without the
//! extractor the handler has no team to read from.
//!
//! The caller comes from the request extensions, where `attach_caller` (in the router) put it
//! from the session; the rule is [`app::auth::team_access`], the same one server functions
//! apply, and the table behind it is `app::domain::roles`.

use app::{
    auth::team_access,
    domain::roles::Capability,
    error::AppError,
    views::{Caller, Membership},
};
use axum::{
    extract::FromRequestParts,
    response::{IntoResponse, Response},
};
use http::request::Parts;
use std::marker::PhantomData;

/// A capability named as a type, so a route can ask for it in its signature.
pub trait Needs {
    /// The row of the roles table this stands for.
    const CAPABILITY: Capability;
}

/// Read the team's quotes, runs, comparisons and orders (every member may).
#[derive(Debug)]
pub struct ReadTeamData;

impl Needs for ReadTeamData {
    const CAPABILITY: Capability = Capability::ReadTeamData;
}

/// Keep the team's procurement records, among them the quotes' documents.
#[derive(Debug)]
pub struct EditProcurement;

impl Needs for EditProcurement {
    const CAPABILITY: Capability = Capability::EditProcurement;
}

/// Upload benchmark runs.
#[derive(Debug)]
pub struct UploadRuns;

impl Needs for UploadRuns {
    const CAPABILITY: Capability = Capability::UploadRuns;
}

/// The signed-in caller and their active team, whose role there grants `C`. The team always
/// comes from the session, never from the request.
#[derive(Debug)]
pub struct TeamAccess<C> {
    /// Who is calling.
    pub caller: Caller,
    /// The active team, with the caller's role in it.
    pub team: Membership,
    need: PhantomData<C>,
}

impl<C> TeamAccess<C> {
    /// The active team's id: every store call of a raw route is scoped by it.
    pub fn team_id(&self) -> i64 {
        self.team.team_id
    }
}

/// Why [`TeamAccess`] refused: 401 (nobody signed in) or 403 (no active team, or a role without
/// the capability), with an empty body, as the raw routes have always answered. A route that
/// answers in words takes `Result<TeamAccess<C>, Refused>` and sends [`Refused::error`] in the
/// caller's language.
#[derive(Debug)]
pub struct Refused(AppError);

impl Refused {
    /// `Unauthenticated` or `Forbidden`.
    pub fn error(self) -> AppError {
        self.0
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        self.0.status().into_response()
    }
}

impl<S: Send + Sync, C: Needs> FromRequestParts<S> for TeamAccess<C> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let caller = parts.extensions.get::<Caller>().cloned();
        let (caller, team) = team_access(caller, C::CAPABILITY).map_err(Refused)?;
        Ok(TeamAccess {
            caller,
            team,
            need: PhantomData,
        })
    }
}
