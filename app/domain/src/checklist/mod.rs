//! The six-point pre-order checklist (pure: no I/O, no clock).
//!
//! Every order answers the items of [`ITEMS`] that apply to it before it can be
//! submitted. The six sections follow seed document 000 (一 GPU model and VRAM,
//! 二 software, 三 measured performance, 四 storage/network/transfer, 五 billing and
//! release, 六 security/permissions/failures), with items from seeds 000, 001 and 002
//! (each item cites its sources in [`Item::cites`]).
//!
//! - The table: [`ITEMS`], [`SECTIONS`] (in `items.rs`, the one place it is defined).
//! - What applies: [`applicable_items`]; what blocks submission: [`submission_blockers`].
//! - What may be saved: [`ItemStatus::check`] (a reasonless "not applicable" or an unexplained
//!   "problem found" is refused at the item). An explained problem does not block: it is listed
//!   by [`open_problems`], acknowledged by procurement at submission, and shown to the manager first.
//! - Suggestions from app data: [`prefill()`] with [`PrefillFacts`]; missing facts
//!   are reported as [`Prefill::Missing`], never guessed. The facts are built by
//!   [`gather()`] from the workload, the chosen quote and the attached runs' observations.
//! - Evidence: an item may ask for evidence ([`Item::evidence`]); a confirmed answer without
//!   it blocks submission ([`BlockerReason::EvidenceMissing`]).
//!
//! - Accepting a suggestion in one action: [`acceptable`] (the suggestion with its evidence),
//!   [`suggestion_key`] (what the person read, checked again by the server).
//! - By section, with each role's progress: [`by_section`], [`progress`], [`is_done`].
//! - The quote fields an item is about, for its evidence picker: [`fields_by_relevance`].
//!
//! Messages are codes (enums, serialized snake_case) for the UI to translate; only the
//! item texts are prose, given in English and Simplified Chinese.

mod accept;
mod answer;
mod ask;
mod codes;
mod facts;
mod gather;
mod items;
mod model;
mod prefill;
mod progress;
mod relevance;
mod rules;
#[cfg(test)]
mod tests;

pub use accept::{
    Acceptable, EvidenceSources, acceptable, accepted_status, from_run, quote_fields, suggestion_key, takes_suggestion,
};
pub use answer::{AnswerIssue, Evidence, ItemAnswer, ItemStatus};
pub use ask::{VendorQuestion, vendor_questions, vendor_states};
pub use codes::{AnswerCode, Mismatch, Prefill, Suggested, Suggestion};
pub use facts::{
    ComparedChoice, Disks, EgressPricing, Exclusivity, Fact, FeeKind, FormFactor, Interconnect, ListedFee,
    MeasuredLink, PrefillFacts, RunVerdict,
};
pub use gather::{
    FactSources, RunObservation, SLOWDOWN_CODE, backing_run, egress, fees_stated, gather, link_run, workload_kind,
};
pub use items::{ITEMS, SECTIONS};
pub use model::{AppliesTo, Cite, EvidenceKind, Expert, Item, OrderKind, PrefillSource, Section, SectionInfo, Text};
pub use prefill::{
    BENCHMARK_MIN_MINUTES, HEADROOM_MAX_PCT, HEADROOM_MIN_PCT, USABLE_VRAM_MIN_PCT, image_is_pinned, prefill,
};
pub use progress::{Progress, RoleProgress, by_section, is_done, progress};
pub use relevance::{ITEM_FIELDS, fields_by_relevance, relevant_fields, source_facts};
pub use rules::{
    Blocker, BlockerReason, OpenProblem, applicable_items, evidence_kind, has_evidence, item, open_problems,
    submission_blockers,
};
