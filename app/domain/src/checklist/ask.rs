//! What to ask the vendor: the items of an order still waiting for something only the vendor
//! can say, each with the facts the quote does not state, every fact asked once.
//!
//! An item is the vendor's to answer when it accepts a quote field as evidence (the vendor
//! states it in the quote) or its rule reads a fact of the quote or of the vendor's record. It
//! becomes a question when its rule has no source (the whole item is asked), when facts of the
//! quote or the vendor are missing (those are asked, each only at the first item that needs
//! it), or when what is stated leaves it open ("the quote does not say how traffic is billed").
//! A fact missing at an item already settled is not asked again at a later one: the team
//! settled it with the vendor there (a phone call noted as the evidence), and answering one
//! question never makes the list longer.

use super::accept::quote_fields;
use super::codes::{Prefill, Suggested};
use super::facts::{Fact, PrefillFacts};
use super::model::{EvidenceKind, Item};
use super::prefill::prefill;

/// One question for the vendor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VendorQuestion {
    /// The item as written: no rule reads it from the data.
    Item,
    /// The facts the quote or the vendor's record does not state.
    NotStated(Vec<Fact>),
    /// What is stated leaves the item open: the open suggestion says what is known.
    Open,
}

/// Whether a fact is stated by the vendor: in the quote or in the vendor's record.
#[must_use]
pub fn vendor_states(fact: Fact) -> bool {
    !quote_fields(fact).is_empty() || matches!(fact, Fact::VendorContact | Fact::VendorFaultHelp)
}

/// The questions for the vendor about `items` (in checklist order), given what is known;
/// `done` says whether an item is already settled (a settled item asks nothing, and the facts it
/// misses are not asked at a later item). Each missing fact is asked at the first item that
/// needs it.
#[must_use]
pub fn vendor_questions<'a>(
    items: &[&'a Item],
    facts: &PrefillFacts,
    done: &dyn Fn(&Item) -> bool,
) -> Vec<(&'a Item, VendorQuestion)> {
    let mut asked: Vec<Fact> = Vec::new();
    let mut out = Vec::new();
    for &item in items {
        if done(item) {
            if let Prefill::Missing(missing) = prefill(item, facts) {
                asked.extend(missing.into_iter().filter(|f| vendor_states(*f)));
            }
            continue;
        }
        let quoted = item.evidence.contains(&EvidenceKind::QuoteField);
        let question = match prefill(item, facts) {
            Prefill::NoSource => quoted.then_some(VendorQuestion::Item),
            Prefill::Missing(missing) => {
                let new: Vec<Fact> = missing
                    .into_iter()
                    .filter(|f| vendor_states(*f) && !asked.contains(f))
                    .collect();
                asked.extend(new.iter().copied());
                (!new.is_empty()).then_some(VendorQuestion::NotStated(new))
            }
            Prefill::Suggest(s) => {
                (quoted && s.status == Suggested::Open && s.facts_used.iter().any(|f| vendor_states(*f)))
                    .then_some(VendorQuestion::Open)
            }
        };
        if let Some(q) = question {
            out.push((item, q));
        }
    }
    out
}
