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
    /// Checked and found wanting. A legitimate answer: with an explanation it no longer blocks
    /// submission, but procurement must acknowledge it at submit and the manager sees it first
    /// ([`super::open_problems`]); without one it blocks.
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
    /// The vendor's written answer to a request for quotation, in the bid the chosen quote
    /// revision was made from: what the vendor stated in writing about its quote.
    VendorAnswer {
        /// The quote revision the bid became.
        quote_revision_id: i64,
        /// The question as the vendor read it.
        question: String,
        /// The answer, as written.
        answer: String,
    },
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

/// Why an answer cannot be saved as given: what the item's form must show next to the reason
/// field (`status_note`). Serialized as the field issue's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerIssue {
    /// "Not applicable" needs the reason why it does not apply.
    ReasonRequired,
    /// "Problem found" needs what is wrong, so the manager can weigh it.
    ExplanationRequired,
}

impl AnswerIssue {
    /// The code a form error carries (`reason_required`, `explanation_required`).
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            AnswerIssue::ReasonRequired => "reason_required",
            AnswerIssue::ExplanationRequired => "explanation_required",
        }
    }
}

impl ItemStatus {
    /// Whether this status may be saved: a blank reason ("not applicable") or a blank
    /// explanation ("problem found") is refused at the item, so neither reaches submission.
    ///
    /// # Errors
    /// The [`AnswerIssue`] naming what is missing.
    pub fn check(&self) -> Result<(), AnswerIssue> {
        match self {
            ItemStatus::NotApplicable { reason } if reason.trim().is_empty() => Err(AnswerIssue::ReasonRequired),
            ItemStatus::Problem { note } if note.trim().is_empty() => Err(AnswerIssue::ExplanationRequired),
            _ => Ok(()),
        }
    }

    /// Whether this is a problem with its explanation: it lets the order go to sign-off once
    /// procurement acknowledges it.
    #[must_use]
    pub fn is_explained_problem(&self) -> bool {
        matches!(self, ItemStatus::Problem { note } if !note.trim().is_empty())
    }

    /// Whether this status settles an item for submission: `Confirmed`, or
    /// `NotApplicable` with a reason that is not blank. (An explained `Problem` does not settle
    /// it, but does not block either: see [`super::submission_blockers`].)
    #[must_use]
    pub fn is_settled(&self) -> bool {
        match self {
            ItemStatus::Confirmed => true,
            ItemStatus::NotApplicable { reason } => !reason.trim().is_empty(),
            ItemStatus::Open | ItemStatus::Problem { .. } => false,
        }
    }
}
