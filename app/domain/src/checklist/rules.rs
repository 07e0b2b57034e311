//! Which items apply to an order, and what still blocks its submission.

use serde::Serialize;

use super::answer::{Evidence, ItemAnswer};
use super::items::ITEMS;
use super::model::{EvidenceKind, Item, OrderKind, Section};

/// Why a required item blocks submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockerReason {
    /// No answer recorded.
    Unanswered,
    /// Answer recorded but still `Open`.
    Open,
    /// Marked `NotApplicable` with a blank reason.
    NotApplicableWithoutReason,
    /// Marked `Problem` without an explanation (an explained problem does not block: it is
    /// acknowledged at submission, see [`open_problems`]).
    Problem,
    /// Confirmed without the evidence the item asks for ([`Item::evidence`]).
    EvidenceMissing,
}

/// A required, applicable item that is not settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Blocker {
    /// The item id, for linking to it.
    pub item_id: &'static str,
    pub section: Section,
    /// Why it blocks.
    pub reason: BlockerReason,
}

/// The item with this id, if any.
#[must_use]
pub fn item(id: &str) -> Option<&'static Item> {
    ITEMS.iter().find(|i| i.id == id)
}

/// Items that apply to an order of `kind`, multi-GPU or not, in table order.
#[must_use]
pub fn applicable_items(kind: OrderKind, multi_gpu: bool) -> Vec<&'static Item> {
    ITEMS.iter().filter(|i| i.applies(kind, multi_gpu)).collect()
}

/// The kind of one piece of evidence; a blank note is none.
#[must_use]
pub fn evidence_kind(e: &Evidence) -> Option<EvidenceKind> {
    match e {
        Evidence::Run { .. } => Some(EvidenceKind::Run),
        // What the vendor wrote in its bid is a statement of the quote, as its fields are.
        Evidence::QuoteField { .. } | Evidence::VendorAnswer { .. } => Some(EvidenceKind::QuoteField),
        Evidence::File { .. } => Some(EvidenceKind::Document),
        Evidence::TcoComparison { .. } => Some(EvidenceKind::CostComparison),
        Evidence::Note { text } => (!text.trim().is_empty()).then_some(EvidenceKind::Note),
    }
}

/// Whether `evidence` holds what `item` asks for: one piece of any kind in
/// [`Item::evidence`], or anything when the item asks for none.
#[must_use]
pub fn has_evidence(item: &Item, evidence: &[Evidence]) -> bool {
    item.evidence.is_empty()
        || evidence
            .iter()
            .filter_map(evidence_kind)
            .any(|k| item.evidence.contains(&k))
}

/// Every required applicable item that is neither `Confirmed` (with the evidence the
/// item asks for), `NotApplicable` with a non-blank reason, nor an explained `Problem` (which
/// procurement acknowledges instead, [`open_problems`]), in table order.
///
/// If `answers` holds several answers for one item, the last one counts. Answers to
/// unknown or non-applicable items are ignored.
#[must_use]
pub fn submission_blockers(answers: &[ItemAnswer], kind: OrderKind, multi_gpu: bool) -> Vec<Blocker> {
    use super::answer::ItemStatus as St;
    applicable_items(kind, multi_gpu)
        .into_iter()
        .filter(|i| i.required)
        .filter_map(|i| {
            let answer = answers.iter().rev().find(|a| a.item_id == i.id);
            let reason = match answer.map(|a| &a.status) {
                None => BlockerReason::Unanswered,
                Some(St::Confirmed) if !answer.is_some_and(|a| has_evidence(i, &a.evidence)) => {
                    BlockerReason::EvidenceMissing
                }
                Some(s) if s.is_settled() || s.is_explained_problem() => return None,
                Some(St::NotApplicable { .. }) => BlockerReason::NotApplicableWithoutReason,
                Some(St::Problem { .. }) => BlockerReason::Problem,
                Some(St::Open | St::Confirmed) => BlockerReason::Open,
            };
            Some(Blocker {
                item_id: i.id,
                section: i.section,
                reason,
            })
        })
        .collect()
}

/// A problem found on an applicable item, with its explanation: what procurement acknowledges
/// at submission and the manager reads first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenProblem {
    /// The item id, for linking to it.
    pub item_id: &'static str,
    pub section: Section,
    /// The explanation, trimmed.
    pub note: String,
}

/// Every applicable item (required or not) whose answer is an explained `Problem`, in table
/// order; the last answer for an item counts, as in [`submission_blockers`].
#[must_use]
pub fn open_problems(answers: &[ItemAnswer], kind: OrderKind, multi_gpu: bool) -> Vec<OpenProblem> {
    use super::answer::ItemStatus as St;
    applicable_items(kind, multi_gpu)
        .into_iter()
        .filter_map(
            |i| match answers.iter().rev().find(|a| a.item_id == i.id).map(|a| &a.status) {
                Some(s @ St::Problem { note }) if s.is_explained_problem() => Some(OpenProblem {
                    item_id: i.id,
                    section: i.section,
                    note: note.trim().to_string(),
                }),
                _ => None,
            },
        )
        .collect()
}
