//! What the order page is built from: the rows [`super::load`] reads, handed whole to the pure
//! builders ([`super::view`], [`super::items`]).

use super::{OrderRecord, comparison::QuoteRevisions, submit::Readiness};
use crate::{
    domain::{
        audit::AuditEvent,
        checklist::{self, Acceptable, EvidenceSources, Item, PrefillFacts},
        quotes::Workload,
    },
    store::{documents::DocumentInfo, orders::OrderRow},
    views::{RunSummary, tco::CostRow},
};

/// Everything the order page shows, as loaded.
pub(super) struct Loaded {
    /// Every revision, newest first.
    pub revisions: Vec<OrderRow>,
    /// The index in `revisions` of the one shown.
    pub shown: usize,
    pub content: OrderRecord,
    pub workload_id: i64,
    pub workload: Workload,
    /// The team's quotes: id and label.
    pub quote_labels: Vec<(i64, String)>,
    /// The team's runs of the workload.
    pub run_choices: Vec<RunSummary>,
    /// The runs attached, newest first (every one, loaded by id).
    pub runs: Vec<RunSummary>,
    /// The documents of the chosen quote revision.
    pub documents: Vec<DocumentInfo>,
    pub facts: PrefillFacts,
    /// What the facts' suggestions may cite ([`Suggestions::acceptable`]).
    pub suggest: Suggestions,
    /// The team's members: id and display name.
    pub names: Vec<(i64, String)>,
    pub ready: Readiness,
    /// The comparison's rows, and whether they are the ones frozen at submission.
    pub tco: (Vec<CostRow>, bool),
    /// The revision of the chosen quote the order pinned, and the quote's latest.
    pub quote_revisions: Option<QuoteRevisions>,
    /// The order's events, oldest first.
    pub events: Vec<AuditEvent>,
    pub chain: ChainCheck,
    /// The vendor's bid the chosen quote revision was made from, if it came from a request for
    /// quotation.
    pub bid: Option<super::chosen_bid::ChosenBid>,
}

/// What verifying the order's events gave.
pub(super) struct ChainCheck {
    /// The first fault, in words (`None`: every event checks).
    pub fault: Option<String>,
    /// Events verified.
    pub events: u64,
    /// The hash of the last event of the whole chain.
    pub head_hash: String,
}

/// What a suggestion may cite: the evidence sources of the order and the fields its chosen quote
/// states (a blank field is not cited).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Suggestions {
    pub sources: EvidenceSources,
    pub stated: Vec<&'static str>,
}

impl Suggestions {
    /// The suggestion for `item` that may be accepted, with its evidence ([`checklist::acceptable`]).
    pub fn acceptable(&self, item: &Item, facts: &PrefillFacts) -> Option<Acceptable> {
        checklist::acceptable(item, facts, &self.sources, &|f| self.stated.contains(&f))
    }
}
