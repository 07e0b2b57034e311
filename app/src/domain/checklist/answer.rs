//! What a user records against an item.

use serde::{Deserialize, Serialize};

/// The state of one item on one order revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemStatus {
    /// Not settled yet.
    Open,
    /// Checked and fine.
    Confirmed,
    /// Does not apply to this order; `reason` must be non-blank to count as settled.
    NotApplicable {
        /// Why it does not apply.
        reason: String,
    },
    /// Checked and found wanting; blocks submission when the item is required.
    Problem {
        /// What is wrong.
        note: String,
    },
}

/// Supporting material for an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// A field of a stored quote revision.
    QuoteField {
        /// The quote revision.
        quote_revision_id: i64,
        /// The field name within it.
        field: String,
    },
    /// A recorded test or benchmark run.
    Run { run_id: i64 },
    /// A stored total-cost comparison.
    TcoComparison {
        /// Id of the cost comparison.
        id: i64,
    },
    /// Free text.
    Note { text: String },
    /// An uploaded file, identified by content.
    File {
        /// SHA-256 of the content, lowercase hex.
        sha256: String,
        /// File name as uploaded.
        name: String,
    },
}

/// One user's answer to one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemAnswer {
    /// The [`super::Item::id`] answered.
    pub item_id: String,
    pub status: ItemStatus,
    pub answer: String,
    /// Runs, comparisons and notes that back the answer.
    pub evidence: Vec<Evidence>,
    /// User id of whoever answered.
    pub answered_by: i64,
    /// When, as an RFC 3339 UTC timestamp.
    pub answered_at: String,
}

impl ItemStatus {
    /// Whether this status settles an item for submission: `Confirmed`, or
    /// `NotApplicable` with a reason that is not blank.
    #[must_use]
    pub fn is_settled(&self) -> bool {
        match self {
            ItemStatus::Confirmed => true,
            ItemStatus::NotApplicable { reason } => !reason.trim().is_empty(),
            ItemStatus::Open | ItemStatus::Problem { .. } => false,
        }
    }
}
