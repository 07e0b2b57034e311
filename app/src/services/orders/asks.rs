//! The questions a request for quotation asks every vendor: the checklist items a vendor answers
//! for this kind of work, with the facts the vendor has to state ([`checklist::vendor_questions`]
//! with nothing known yet), in the reader's language.

use super::texts::{fact_name, localized};
use crate::{
    domain::{
        checklist::{self, PrefillFacts, VendorQuestion, workload_kind},
        quotes::Workload,
    },
    i18n::{Locale, Msg},
};

/// `(item id, question)` for each item a vendor can answer for `workload`, in checklist order.
#[must_use]
pub fn request_questions(locale: Locale, workload: &Workload) -> Vec<(String, String)> {
    let kind = workload_kind(workload.kind);
    let multi_gpu = workload.gpus_needed > 1;
    let facts = PrefillFacts {
        workload: Some(kind),
        multi_gpu: Some(multi_gpu),
        ..PrefillFacts::default()
    };
    let items = checklist::applicable_items(kind, multi_gpu);
    checklist::vendor_questions(&items, &facts, &|_| false)
        .into_iter()
        .map(|(item, question)| {
            let text = localized(locale, &item.text);
            let asked = match question {
                VendorQuestion::NotStated(facts) => {
                    let names: Vec<String> = facts.into_iter().map(|f| fact_name(locale, f)).collect();
                    locale.fmt(Msg::RfqAskStating, &[("item", &text), ("facts", &names.join(", "))])
                }
                VendorQuestion::Item | VendorQuestion::Open => text,
            };
            (item.id.to_string(), asked)
        })
        .collect()
}
