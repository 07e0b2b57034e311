//! An order as its pages show it: the checklist, the chosen quote and alternatives, the runs,
//! the history with hashes, and what the caller may do.

use crate::{
    domain::{checklist::RoleProgress, orders::OrderState},
    views::RunSummary,
    views::tco::CostRow,
};
use serde::{Deserialize, Serialize};

/// One line of the order list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderLine {
    /// Order id.
    pub id: i64,
    /// Title.
    pub title: String,
    /// Latest revision number.
    pub revision: i64,
    /// Its state.
    pub state: OrderState,
    /// Workload name.
    pub workload: String,
}

/// Evidence on an item, ready to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceLine {
    /// What it is, in the reader's language.
    pub label: String,
    /// Where it points, if it is a link.
    pub href: Option<String>,
}

/// One checklist item with its answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemLine {
    /// Stable id.
    pub id: String,
    /// What to check, in the reader's language.
    pub text: String,
    /// Why it matters.
    pub why: String,
    /// `engineer` or `procurement`.
    pub expert: String,
    /// Must be settled before submission.
    pub required: bool,
    /// Evidence kinds a confirmed answer needs, any one (`run`, `quote_field`, `document`,
    /// `cost_comparison`, `note`); empty: none.
    pub evidence_needed: Vec<String>,
    /// "Evidence: a run or a note", in the reader's language, when evidence is needed.
    pub evidence_hint: Option<String>,
    /// `open`, `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// Reason (not applicable) or note (problem).
    pub status_note: String,
    /// The answer.
    pub answer: String,
    /// Evidence.
    pub evidence: Vec<EvidenceLine>,
    /// Who answered and when.
    pub answered: Option<String>,
    /// What the data suggests, or which facts are missing.
    pub suggestion: Option<String>,
    /// The caller may answer it now.
    pub can_answer: bool,
    /// Why it blocks submission, when that is something to fix at the item (a missing reason,
    /// explanation or evidence), in the reader's language.
    #[serde(default)]
    pub blocker: Option<String>,
    /// Whether the answer lets the order go to sign-off (counts in the section's progress).
    #[serde(default)]
    pub done: bool,
    /// The suggestion the caller may accept in one action (none when there is nothing to accept
    /// or the item is not theirs to answer).
    #[serde(default)]
    pub accept: Option<AcceptLine>,
    /// The quote fields this item is about (column names, most telling first): the evidence
    /// picker offers them before the others.
    #[serde(default)]
    pub fields_first: Vec<String>,
    /// What to ask the vendor, when the item waits for something the quote does not state
    /// (in the reader's language); `None` when the data or the team answers it.
    #[serde(default)]
    pub ask_vendor: Option<String>,
    /// The vendor's written answer to this item, from the bid the chosen quote came from.
    #[serde(default)]
    pub vendor_answer: Option<VendorAnswerLine>,
}

/// A vendor's written answer, as an item shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendorAnswerLine {
    pub question: String,
    pub answer: String,
    /// Which request and bid revision it was written in.
    pub source: String,
}

/// A suggestion the caller may accept as their answer, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptLine {
    /// What the page sends back to accept it: `item_id=key`, the key of what is shown here.
    pub token: String,
    /// The status accepting records: `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// What the data says, in the reader's language (the answer, reason or explanation).
    pub text: String,
    /// The evidence accepting attaches.
    pub evidence: Vec<EvidenceLine>,
}

/// A problem found on the checklist, as the submit form and the manager's review list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemLine {
    /// The item id (links to `#item-{id}`).
    pub item_id: String,
    /// The item's text, in the reader's language.
    pub text: String,
    /// The explanation given.
    pub note: String,
    /// Who recorded it and when.
    pub answered: Option<String>,
}

/// What saving one item answers to the page, so it updates in place: the item as it now reads,
/// and what changed for the whole order (blockers, problems to acknowledge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemSaved {
    /// The item answered.
    pub item: ItemLine,
    /// What blocks submission now (as [`OrderView::blockers`]).
    pub blockers: Vec<(String, String)>,
    /// The problems found now (as [`OrderView::problems`]).
    pub problems: Vec<ProblemLine>,
    /// As [`OrderView::acknowledge_key`].
    pub acknowledge_key: String,
}

/// One section of the checklist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionLine {
    /// Title.
    pub title: String,
    /// Items that apply.
    pub items: Vec<ItemLine>,
    /// The section's code (`gpu`, `software`, `performance`, `storage_network`, `billing`,
    /// `security`).
    #[serde(default)]
    pub code: String,
    /// Its number, 1 to 6.
    #[serde(default)]
    pub number: u8,
    /// How many items each role has done here.
    #[serde(default)]
    pub progress: RoleProgress,
    /// Whether the section shows its items unfolded: something in it is open for the viewer
    /// (or, for a viewer who answers nothing, a problem was found in it).
    #[serde(default)]
    pub open: bool,
}

/// What accepting suggestions answers to the page: the items as they now read, and what changed
/// for the whole order (as [`ItemSaved`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestionsAccepted {
    /// The items answered.
    pub items: Vec<ItemLine>,
    /// What blocks submission now.
    pub blockers: Vec<(String, String)>,
    /// The problems found now.
    pub problems: Vec<ProblemLine>,
    /// As [`OrderView::acknowledge_key`].
    pub acknowledge_key: String,
}

/// One audit event in the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLine {
    /// Sequence number in the chain.
    pub seq: i64,
    /// UTC time.
    pub at: String,
    /// Who.
    pub actor: String,
    /// What, in the reader's language.
    pub action: String,
    /// Details.
    pub detail: String,
    /// The event's hash.
    pub hash: String,
}

/// The whole order page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderView {
    /// Order id.
    pub id: i64,
    /// Title.
    pub title: String,
    /// Shown revision.
    pub revision: i64,
    /// Its state.
    pub state: OrderState,
    /// Every revision: number and state, newest first.
    pub revisions: Vec<(i64, OrderState)>,
    /// Workload id and name.
    pub workload: (i64, String),
    /// Chosen quote: id and label.
    pub chosen: Option<(i64, String)>,
    /// Whom to call at the chosen quote's vendor, from its record (`None`: not recorded).
    #[serde(default)]
    pub vendor_contact: Option<String>,
    /// "From request #3 (…), bid revision 2, receipt …" when the chosen quote came from a bid.
    #[serde(default)]
    pub from_bid: Option<String>,
    /// Nodes the chosen quote is costed on in the order's comparison, frozen or live (`None`: no
    /// quote chosen, or not in the comparison).
    pub chosen_nodes: Option<u32>,
    /// Quotes considered: id and label.
    pub considered: Vec<(i64, String)>,
    /// All the team's quotes: id and label.
    pub quote_choices: Vec<(i64, String)>,
    /// Runs attached.
    pub runs: Vec<RunSummary>,
    /// The team's runs of this workload.
    pub run_choices: Vec<RunSummary>,
    /// Waiver text when no valid run backs the chosen quote.
    pub waiver: String,
    /// Fields of the chosen quote that can be cited: column and label.
    pub quote_fields: Vec<(String, String)>,
    /// Documents of the chosen quote revision: id and file name.
    pub documents: Vec<(i64, String)>,
    /// The checklist.
    pub sections: Vec<SectionLine>,
    /// What blocks submission, in the reader's language.
    pub blockers: Vec<(String, String)>,
    /// The problems found (explained), in checklist order: listed first for the manager, and
    /// acknowledged by procurement at submission.
    pub problems: Vec<ProblemLine>,
    /// "Acknowledged by … on …" once procurement acknowledged them at submission.
    pub problems_acknowledged: Option<String>,
    /// What the submit form sends to acknowledge exactly these problems (their item ids).
    pub acknowledge_key: String,
    /// Cost comparison (frozen at submission, else current).
    pub tco: Vec<CostRow>,
    /// The query that reproduces the comparison (for its chart).
    pub tco_query: String,
    /// Whether the comparison shown is the one frozen at submission.
    pub tco_frozen: bool,
    /// Whether procurement chose the comparison (a link) rather than the default one.
    pub comparison_custom: bool,
    /// When the chosen quote has a revision newer than the one the order pinned (and is priced
    /// at): the pinned revision number and the latest.
    pub newer_quote_revision: Option<(i64, i64)>,
    /// The rental plan the order was chosen from, when it was chosen on the plan page.
    #[serde(default)]
    pub plan: Option<PlanLine>,
    /// Whether the revision holds a frozen scenario (`/orders/{id}/scenario.json?rev=N`).
    pub has_scenario: bool,
    /// History.
    pub history: Vec<EventLine>,
    /// Chain status line.
    pub chain_ok: bool,
    /// Chain status message.
    pub chain_message: String,
    /// Hash of the last event of the whole chain.
    pub head_hash: String,
    /// Content hash pinned at approval.
    pub content_hash: Option<String>,
    /// "Submitted by … on …", "Approved by … on …: comment".
    pub decisions: Vec<String>,
    /// The caller may change the selection (procurement, draft).
    pub can_edit: bool,
    /// The caller may submit.
    pub can_submit: bool,
    /// The caller may approve or reject.
    pub can_decide: bool,
    /// The sign-off asks the caller for their authenticator's code (they may decide and have a
    /// second factor).
    #[serde(default)]
    pub sign_off_code: bool,
    /// The caller may reopen.
    pub can_reopen: bool,
}

/// The rental plan an order was chosen from, in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanLine {
    /// "1 node of X, on demand: done in 24 h (…) for ¥840.00."
    pub sentence: String,
    /// "Start: …".
    pub start: String,
    /// "Deadline: … (48 h after the start)", or that there was none.
    pub deadline: String,
    /// "Budget: …", or that none was set.
    pub budget: String,
    /// When it is done at the slowest run.
    pub slowest: String,
    /// Late, at risk or over budget, worst first; empty when it meets all it was planned against.
    pub shortfalls: Vec<String>,
    /// Recommended by the planner, or chosen by procurement over the recommendation.
    pub chosen: String,
    /// The cost-page query to plan again from (`/plan?…`).
    pub replan_query: Option<String>,
}
