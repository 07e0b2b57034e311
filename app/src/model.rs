//! Records shared by server and browser: what server functions return to pages.

use crate::domain::roles::TeamRole;
use serde::{Deserialize, Serialize};

/// One team of a user, with the user's role there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership {
    /// Team id.
    pub team_id: i64,
    /// Team name.
    pub team_name: String,
    /// Role in that team.
    pub role: TeamRole,
}

/// One member of a team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// User id.
    pub user_id: i64,
    /// E-mail.
    pub email: String,
    /// Display name.
    pub display_name: String,
    /// Role in the team.
    pub role: TeamRole,
    /// The user is disabled.
    pub disabled: bool,
}

/// A user as an administrator sees them in the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
pub struct UserSummary {
    /// Row id.
    pub id: i64,
    /// E-mail.
    pub email: String,
    /// Display name.
    pub display_name: String,
    /// Site-wide administrator.
    pub is_admin: bool,
    /// Disabled.
    pub disabled: bool,
}

/// A team with its member count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
pub struct TeamSummary {
    /// Row id.
    pub id: i64,
    /// Unique name.
    pub name: String,
    /// Number of members.
    pub members: i64,
}

/// The signed-in user of a request, with their teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caller {
    /// User id.
    pub user_id: i64,
    /// E-mail.
    pub email: String,
    /// Display name.
    pub display_name: String,
    /// Site administrator.
    pub is_admin: bool,
    /// Every team the user belongs to, with the role there.
    pub memberships: Vec<Membership>,
    /// The active team (one of `memberships`), if the user has any team.
    pub active_team: Option<i64>,
}

impl Caller {
    /// Whether the caller may use `capability` in the active team (their role there, plus what
    /// site administrators may do in a team they belong to).
    pub fn may(&self, capability: crate::domain::roles::Capability) -> bool {
        self.active_membership().is_some_and(|m| crate::domain::roles::member_may(m.role, self.is_admin, capability))
    }

    /// The membership of the active team.
    pub fn active_membership(&self) -> Option<&Membership> {
        let id = self.active_team?;
        self.memberships.iter().find(|m| m.team_id == id)
    }
}

/// What every page needs to know about the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// No administrator exists yet: the first-run page is open.
    pub setup_needed: bool,
    /// The signed-in user, if any.
    pub caller: Option<Caller>,
}

/// A team record as stored, with its row id (a vendor, a workload, an exchange rate).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored<T> {
    /// Row id.
    pub id: i64,
    /// The record.
    pub record: T,
}
