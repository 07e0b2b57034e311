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
    /// Marked `Problem`.
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
        Evidence::QuoteField { .. } => Some(EvidenceKind::QuoteField),
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
/// item asks for) nor `NotApplicable` with a non-blank reason, in table order.
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
                Some(s) if s.is_settled() => return None,
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
