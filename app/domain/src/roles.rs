//! Who may do what: the per-team roles and the site-wide administrator.
//!
//! Deny by default: a capability is allowed only where this table says so.

use serde::{Deserialize, Serialize};

/// A user's role in one team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamRole {
    /// Enters and imports vendor quotes, prepares and submits orders.
    Procurement,
    /// Uploads benchmark runs, fills the technical checklist items.
    Engineer,
    /// Reviews orders and signs them off.
    Manager,
}

impl TeamRole {
    /// Every role, in the order forms list them.
    pub const ALL: [TeamRole; 3] = [TeamRole::Procurement, TeamRole::Engineer, TeamRole::Manager];

    /// The stored name (also the database `CHECK` value).
    pub const fn as_str(self) -> &'static str {
        match self {
            TeamRole::Procurement => "procurement",
            TeamRole::Engineer => "engineer",
            TeamRole::Manager => "manager",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<TeamRole> {
        TeamRole::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// The message naming this role in the UI.
    pub const fn label(self) -> nodeledger_messages::Msg {
        use nodeledger_messages::Msg;
        match self {
            TeamRole::Procurement => Msg::RoleProcurement,
            TeamRole::Engineer => Msg::RoleEngineer,
            TeamRole::Manager => Msg::RoleManager,
        }
    }
}

/// Something a member of a team may want to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capability {
    /// Read the team's quotes, runs, comparisons and orders.
    ReadTeamData,
    /// Keep the team's procurement records: vendors, quotes and their documents, price sheets,
    /// exchange rates and the base currency.
    EditProcurement,
    /// Create or change the team's workloads (what has to run).
    EditWorkloads,
    /// Upload benchmark runs and manage API tokens for it.
    UploadRuns,
    /// Answer checklist items of an order.
    AnswerChecklist,
    /// Create and submit orders.
    SubmitOrders,
    /// Approve or reject submitted orders.
    SignOffOrders,
    /// Record, stop, release and correct the rental of an approved order (the people who act on
    /// orders; managers see it).
    RecordRentals,
}

/// Team capabilities a site administrator also has in a team they belong to (“procurement and
/// admins” keep quotes and workloads). Sign-off, submission and the checklist are never among
/// them: administrators never bypass the order rules.
pub const fn admins_may(capability: Capability) -> bool {
    matches!(capability, Capability::EditProcurement | Capability::EditWorkloads)
}

/// Whether a member with `role` — a site administrator when `is_admin` — may use `capability`
/// in that team.
pub const fn member_may(role: TeamRole, is_admin: bool, capability: Capability) -> bool {
    allows(role, capability) || (is_admin && admins_may(capability))
}

/// Whether `role` in a team grants `capability` there.
pub const fn allows(role: TeamRole, capability: Capability) -> bool {
    use Capability::*;
    use TeamRole::*;
    match capability {
        ReadTeamData => true,
        EditProcurement | EditWorkloads | SubmitOrders => matches!(role, Procurement),
        UploadRuns => matches!(role, Engineer),
        AnswerChecklist => matches!(role, Engineer | Procurement),
        SignOffOrders => matches!(role, Manager),
        RecordRentals => matches!(role, Engineer | Procurement),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_names_round_trip() {
        for r in TeamRole::ALL {
            assert_eq!(TeamRole::parse(r.as_str()), Some(r));
        }
        assert_eq!(TeamRole::parse("admin"), None);
        assert_eq!(TeamRole::parse("Manager"), None);
    }

    #[test]
    fn administrators_keep_quotes_but_never_sign_off() {
        use Capability::*;
        assert!(member_may(TeamRole::Engineer, true, EditProcurement));
        assert!(!member_may(TeamRole::Engineer, false, EditProcurement));
        assert!(!member_may(TeamRole::Procurement, true, SignOffOrders));
        assert!(!member_may(TeamRole::Engineer, true, SubmitOrders));
        assert!(
            member_may(TeamRole::Manager, true, SignOffOrders),
            "as a manager, not as an admin"
        );
    }

    #[test]
    fn capability_table() {
        use Capability::*;
        use TeamRole::*;
        for r in TeamRole::ALL {
            assert!(allows(r, ReadTeamData));
        }
        assert!(allows(Procurement, EditProcurement));
        assert!(!allows(Engineer, EditProcurement));
        assert!(!allows(Manager, EditProcurement));
        assert!(allows(Engineer, UploadRuns));
        assert!(!allows(Procurement, UploadRuns));
        assert!(allows(Manager, SignOffOrders));
        assert!(!allows(Procurement, SignOffOrders));
        assert!(!allows(Engineer, SignOffOrders));
        assert!(!allows(Manager, SubmitOrders));
        assert!(allows(Procurement, RecordRentals) && allows(Engineer, RecordRentals));
        assert!(
            !allows(Manager, RecordRentals),
            "managers see rentals, they do not record them"
        );
    }

    #[test]
    fn procurement_edits_workloads_engineers_and_managers_read_them() {
        use Capability::*;
        use TeamRole::*;
        assert!(allows(Procurement, EditWorkloads));
        assert!(!allows(Engineer, EditWorkloads));
        assert!(!allows(Manager, EditWorkloads));
        assert!(allows(Manager, ReadTeamData));
    }
}
