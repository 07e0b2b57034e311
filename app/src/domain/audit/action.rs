//! What an audit event records.

use serde::{Deserialize, Serialize};

/// The kind of an audit event; serialized (and hashed) in snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The order was created (first event of an order's history).
    Create,
    /// A checklist item was answered or changed.
    ItemAnswered,
    /// Evidence was attached to an item.
    EvidenceAttached,
    /// The order was submitted for approval.
    Submit,
    /// A manager approved the order.
    Approve,
    /// A manager rejected the order.
    Reject,
    /// An approved or rejected order was reopened as a new draft revision.
    Reopen,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 7] = [
        Action::Create,
        Action::ItemAnswered,
        Action::EvidenceAttached,
        Action::Submit,
        Action::Approve,
        Action::Reject,
        Action::Reopen,
    ];

    /// The snake_case name, as serialized and hashed.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::ItemAnswered => "item_answered",
            Action::EvidenceAttached => "evidence_attached",
            Action::Submit => "submit",
            Action::Approve => "approve",
            Action::Reject => "reject",
            Action::Reopen => "reopen",
        }
    }
}
