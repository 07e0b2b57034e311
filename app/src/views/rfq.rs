//! What the request-for-quotation pages show: the team's side (sealed until the close) and the
//! vendor's own bid.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A request in the team's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestSummary {
    pub id: i64,
    pub title: String,
    /// Unix seconds.
    pub close_at: i64,
    /// Whether the bids were opened.
    pub closed: bool,
    pub invited: i64,
    pub submitted: i64,
}

/// One invited vendor as the team sees it: whether it submitted, never what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendorStatus {
    pub invitation_id: i64,
    pub vendor: String,
    pub email: String,
    pub revoked: bool,
    /// Submitted revisions (0: not yet).
    pub revisions: i64,
    /// Unix seconds of the last submission.
    pub last_submitted_at: Option<i64>,
}

/// A bid opened at the close: the quote it became.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenedBid {
    pub vendor: String,
    pub revision: i64,
    pub receipt: String,
    pub quote_id: i64,
    /// Written answers.
    pub answers: usize,
}

/// One request, for the team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestDetail {
    pub id: i64,
    pub title: String,
    /// What is needed, as (label, value) in the reader's language.
    pub needs: Vec<(String, String)>,
    pub questions: Vec<String>,
    /// The price-sheet fields asked for (quote columns).
    #[serde(default)]
    pub requested: Vec<String>,
    pub close_at: i64,
    pub closed_at: Option<i64>,
    pub closed_early_reason: Option<String>,
    pub vendors: Vec<VendorStatus>,
    /// After the close: the quotes the bids became.
    pub opened: Vec<OpenedBid>,
    /// Whether the viewer may change it (invite, revoke, close).
    pub can_edit: bool,
    /// The team's vendors not invited yet, to invite with a change (when the viewer may).
    #[serde(default)]
    pub invitable: Vec<VendorChoice>,
}

/// A link made for an invited vendor, shown once to procurement to send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentLink {
    pub vendor: String,
    pub email: String,
    /// The path of the vendor's page (`/bid/nlb_…`).
    pub path: String,
}

/// A request just made, with its links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedRequest {
    pub id: i64,
    pub links: Vec<SentLink>,
}

/// A vendor that can be invited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendorChoice {
    pub id: i64,
    pub name: String,
    /// The e-mail address in its contact, if there is one.
    pub email: Option<String>,
}

/// What the new-request form starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestFormData {
    /// `(id, name)`.
    pub workloads: Vec<(i64, String)>,
    pub vendors: Vec<VendorChoice>,
    /// The questions for the first workload, one per line.
    pub questions: String,
}

/// The price-sheet fields a request may ask for: `(column, asked unless unchecked)`.
#[must_use]
pub fn requestable_fields() -> Vec<(&'static str, bool)> {
    nodeledger_domain::quotes::QUOTE_FIELDS
        .iter()
        .filter(|f| !nodeledger_domain::rfq::FIXED_COLUMNS.contains(f))
        .map(|f| (*f, nodeledger_domain::rfq::DEFAULT_REQUESTED.contains(f)))
        .collect()
}

/// A submitted revision, as its vendor sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceiptLine {
    pub revision: i64,
    pub receipt: String,
    /// Unix seconds.
    pub submitted_at: i64,
}

/// The vendor's page: the request and the vendor's own bid, nothing else of the team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidPage {
    pub title: String,
    pub vendor: String,
    pub needs: Vec<(String, String)>,
    pub questions: Vec<String>,
    /// The price-sheet fields the buyer asks for (quote columns), beyond the form's required ones.
    pub requested: Vec<String>,
    pub close_at: i64,
    /// The quote fields as last saved or submitted.
    pub values: BTreeMap<String, String>,
    /// The answers as last saved or submitted, one per question.
    pub answers: Vec<String>,
    pub revisions: Vec<ReceiptLine>,
    /// The vendor's attachments.
    pub files: Vec<BidFileLine>,
}

/// One attachment on the vendor's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidFileLine {
    pub id: i64,
    pub name: String,
    pub size: i64,
    pub sha256: String,
}
