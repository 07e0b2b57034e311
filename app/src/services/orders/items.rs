//! The checklist on the order page: each applicable item with its answer, evidence, pre-fill
//! suggestion and whether the viewer may answer it. Pure: built from the loaded order.

use super::{
    OrderRecord,
    comparison::comparison_query,
    loaded::Suggestions,
    texts::{
        blocker_reason, describe, evidence_kind_code, evidence_kinds, fact_name, localized, quote_field_label,
        status_code,
    },
};
use crate::{
    domain::{
        checklist::{
            self, Acceptable, Blocker, BlockerReason, Evidence, Expert, Item, ItemAnswer, OpenProblem, Prefill,
            PrefillFacts, RoleProgress, Section, Suggested, VendorQuestion,
        },
        orders::answers_item,
        quotes::Workload,
        roles::TeamRole,
    },
    i18n::{Locale, Msg},
    store::documents::DocumentInfo,
    views::orders::{AcceptLine, EvidenceLine, ItemLine, ProblemLine, SectionLine, VendorAnswerLine},
};

/// What the checklist of one revision is built from.
pub(super) struct Checklist<'a> {
    pub content: &'a OrderRecord,
    /// The bid the chosen quote was made from (its written answers).
    pub bid: Option<&'a super::chosen_bid::ChosenBid>,
    pub workload: &'a Workload,
    pub facts: &'a PrefillFacts,
    pub documents: &'a [DocumentInfo],
    /// The display name of a user id.
    pub name: &'a dyn Fn(i64) -> String,
    /// Whether the revision takes answers ([`crate::domain::orders::is_editable`]).
    pub editable: bool,
    pub role: TeamRole,
    pub locale: Locale,
    /// What blocks submission (an item shows why it blocks when that is fixed at the item).
    pub blockers: &'a [Blocker],
    /// The revision number of the chosen quote the order pinned (its comparison costs that one).
    pub pinned: Option<i64>,
    /// What the suggestions may cite.
    pub suggest: &'a Suggestions,
}

/// The problems found, each with its item's text and who recorded it.
pub(super) fn problem_lines(c: &Checklist<'_>, problems: &[OpenProblem]) -> Vec<ProblemLine> {
    problems
        .iter()
        .map(|p| ProblemLine {
            item_id: p.item_id.to_string(),
            text: checklist::item(p.item_id).map_or_else(|| p.item_id.to_string(), |i| localized(c.locale, &i.text)),
            note: p.note.clone(),
            answered: c.content.answers.get(p.item_id).map(|a| answered(c, a)),
        })
        .collect()
}

/// "Acknowledged by … on …" when the revision records procurement's acknowledgement.
pub(super) fn acknowledged_line(content: &OrderRecord, name: &dyn Fn(i64) -> String, locale: Locale) -> Option<String> {
    content.problems_acknowledged.as_ref().map(|a| {
        locale.fmt(
            Msg::OrdersProblemsAcknowledgedBy,
            &[("who", &name(a.by)), ("at", &crate::texts::moment(&a.at))],
        )
    })
}

/// Who answered and when.
fn answered(c: &Checklist<'_>, a: &ItemAnswer) -> String {
    c.locale.fmt(
        Msg::OrdersAnswered,
        &[
            ("who", &(c.name)(a.answered_by)),
            ("at", &crate::texts::moment(&a.answered_at)),
        ],
    )
}

/// The sections that have an item applicable to the workload, in checklist order, each with
/// each role's progress; a section is unfolded when something in it is open for the viewer
/// (for a viewer who answers nothing: when a problem was found in it).
pub(super) fn section_lines(c: &Checklist<'_>) -> Vec<SectionLine> {
    let kind = checklist::workload_kind(c.workload.kind);
    let items = checklist::applicable_items(kind, c.workload.gpus_needed > 1);
    let answer_of = |id: &str| c.content.answers.get(id);
    let asks = vendor_asks(c, &items);
    let line = |i: &Item| {
        let written = c.bid.and_then(|b| b.answer_to(i.id));
        ItemLine {
            // Answered in writing: nothing left to ask.
            ask_vendor: if written.is_some() {
                None
            } else {
                asks.iter().find(|(id, _)| *id == i.id).map(|(_, q)| q.clone())
            },
            vendor_answer: written.map(|a| vendor_answer_line(c, a)),
            ..item_line(c, i)
        }
    };
    let sections: Vec<(Section, Vec<ItemLine>, RoleProgress)> = checklist::by_section(&items)
        .into_iter()
        .map(|(section, of)| {
            let lines = of.iter().map(|i| line(i)).collect();
            (section, lines, checklist::progress(&of, &answer_of))
        })
        .collect();
    let answers_any = sections.iter().flat_map(|(_, l, _)| l).any(|i| i.can_answer);
    sections
        .into_iter()
        .map(|(section, items, progress)| SectionLine {
            title: checklist::SECTIONS
                .iter()
                .find(|s| s.section == section)
                .map(|s| localized(c.locale, &s.title))
                .unwrap_or_default(),
            code: section_code(section),
            number: section.number(),
            progress,
            open: section_open(&items, answers_any),
            items,
        })
        .collect()
}

/// The code of a section, as its serialized name.
fn section_code(s: Section) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Whether a section shows its items unfolded: one is still the viewer's to answer (open, or
/// blocking at the item); for a viewer who answers nothing, a problem was found in it.
pub(super) fn section_open(items: &[ItemLine], answers_any: bool) -> bool {
    if answers_any {
        items
            .iter()
            .any(|i| i.can_answer && (i.status == "open" || i.blocker.is_some()))
    } else {
        items.iter().any(|i| i.status == "problem")
    }
}

fn item_line(c: &Checklist<'_>, i: &Item) -> ItemLine {
    let locale = c.locale;
    let a = c.content.answers.get(i.id);
    let (status, status_note) = a.map_or(("open", String::new()), |a| status_code(&a.status));
    let can_answer = c.editable && answers_item(c.role, i.expert);
    ItemLine {
        id: i.id.to_string(),
        text: localized(locale, &i.text),
        why: localized(locale, &i.why),
        expert: match i.expert {
            Expert::Engineer => "engineer".into(),
            Expert::Procurement => "procurement".into(),
        },
        required: i.required,
        evidence_needed: i.evidence.iter().map(|k| evidence_kind_code(*k).to_string()).collect(),
        evidence_hint: (!i.evidence.is_empty()).then(|| {
            locale.fmt(
                Msg::OrdersEvidenceNeeded,
                &[("kinds", &evidence_kinds(locale, i.evidence))],
            )
        }),
        status: status.into(),
        status_note,
        answer: a.map(|a| a.answer.clone()).unwrap_or_default(),
        evidence: a.map(|a| evidence_lines(c, &a.evidence)).unwrap_or_default(),
        answered: a.map(|a| answered(c, a)),
        suggestion: suggestion(locale, i, c.facts),
        can_answer,
        blocker: c
            .blockers
            .iter()
            .find(|b| b.item_id == i.id && !matches!(b.reason, BlockerReason::Unanswered | BlockerReason::Open))
            .map(|b| blocker_reason(locale, b)),
        done: checklist::is_done(i, a),
        accept: if can_answer && checklist::takes_suggestion(a) {
            c.suggest.acceptable(i, c.facts).map(|s| accept_line(c, i, &s, a))
        } else {
            None
        },
        fields_first: checklist::relevant_fields(i).into_iter().map(str::to_string).collect(),
        ask_vendor: None,
        vendor_answer: None,
    }
}

/// The vendor's questions of `items`, by item id, in the reader's language
/// ([`checklist::vendor_questions`]): the item's text, with what the quote does not state or
/// what is known.
fn vendor_asks(c: &Checklist<'_>, items: &[&Item]) -> Vec<(&'static str, String)> {
    let locale = c.locale;
    let done = |i: &Item| checklist::is_done(i, c.content.answers.get(i.id));
    checklist::vendor_questions(items, c.facts, &done)
        .into_iter()
        .map(|(i, q)| {
            let text = localized(locale, &i.text);
            let asked = match q {
                VendorQuestion::Item => text,
                VendorQuestion::NotStated(facts) => {
                    let names: Vec<String> = facts.into_iter().map(|f| fact_name(locale, f)).collect();
                    locale.fmt(
                        Msg::ChecklistAskNotStated,
                        &[("item", &text), ("facts", &names.join(", "))],
                    )
                }
                VendorQuestion::Open => {
                    let known = match checklist::prefill(i, c.facts) {
                        Prefill::Suggest(s) => describe(locale, &s.code),
                        _ => String::new(),
                    };
                    locale.fmt(Msg::ChecklistAskOpen, &[("item", &text), ("known", &known)])
                }
            };
            (i.id, asked)
        })
        .collect()
}

/// A suggestion the viewer may accept, as the item shows it: what accepting records, with the
/// key of exactly that ([`checklist::suggestion_key`]).
fn accept_line(c: &Checklist<'_>, i: &Item, s: &Acceptable, current: Option<&ItemAnswer>) -> AcceptLine {
    AcceptLine {
        token: format!("{}={}", i.id, checklist::suggestion_key(i.id, s, current)),
        status: match s.suggestion.status {
            Suggested::Confirmed | Suggested::Open => "confirmed",
            Suggested::NotApplicable => "not_applicable",
            Suggested::Problem => "problem",
        }
        .into(),
        text: describe(c.locale, &s.suggestion.code),
        evidence: evidence_lines(c, &s.evidence),
    }
}

/// What the pre-fill suggests for an item, or which facts it lacks (`None`: the item has no
/// source in the app).
fn suggestion(locale: Locale, i: &Item, facts: &PrefillFacts) -> Option<String> {
    match checklist::prefill(i, facts) {
        Prefill::NoSource => None,
        Prefill::Missing(f) => {
            let facts: Vec<String> = f.into_iter().map(|f| fact_name(locale, f)).collect();
            Some(locale.fmt(Msg::OrdersSuggestMissing, &[("facts", &facts.join(", "))]))
        }
        Prefill::Suggest(s) => {
            let status = locale.t(match s.status {
                Suggested::Open => Msg::OrdersSuggestedOpen,
                Suggested::Confirmed => Msg::OrdersSuggestedConfirmed,
                Suggested::NotApplicable => Msg::OrdersSuggestedNotApplicable,
                Suggested::Problem => Msg::OrdersSuggestedProblem,
            });
            Some(locale.fmt(
                Msg::OrdersSuggest,
                &[("status", status), ("what", &describe(locale, &s.code))],
            ))
        }
    }
}

/// The vendor's written answer to an item, where it was written.
fn vendor_answer_line(c: &Checklist<'_>, a: &crate::domain::rfq::bid::WrittenAnswer) -> VendorAnswerLine {
    let source = c.bid.map(|b| bid_source_text(c.locale, b)).unwrap_or_default();
    VendorAnswerLine {
        question: a.question.clone(),
        answer: a.answer.clone(),
        source,
    }
}

/// "From request #3 (…), bid revision 2, receipt 9f86d08…".
pub(super) fn bid_source_text(locale: Locale, b: &super::chosen_bid::ChosenBid) -> String {
    locale.fmt(
        Msg::RfqFromBid,
        &[
            ("id", &b.request_id.to_string()),
            ("title", &b.title),
            ("revision", &b.revision.to_string()),
            ("receipt", &format!("{}…", &b.receipt[..12.min(b.receipt.len())])),
        ],
    )
}

/// Evidence as links: the run, the quote, the comparison, the document.
fn evidence_lines(c: &Checklist<'_>, evidence: &[Evidence]) -> Vec<EvidenceLine> {
    let locale = c.locale;
    evidence
        .iter()
        .map(|e| match e {
            Evidence::Run { run_id } => EvidenceLine {
                label: locale.fmt(Msg::OrdersEvRun, &[("id", &run_id.to_string())]),
                href: Some(format!("/runs/{run_id}")),
            },
            Evidence::Note { text } => EvidenceLine {
                label: locale.fmt(Msg::OrdersEvNote, &[("text", text)]),
                href: None,
            },
            Evidence::VendorAnswer { answer, .. } => EvidenceLine {
                label: locale.fmt(Msg::RfqEvidenceLabel, &[("answer", answer)]),
                href: c.content.quote_id.map(|q| format!("/quotes/{q}")),
            },
            Evidence::QuoteField { field, .. } => EvidenceLine {
                label: locale.fmt(Msg::OrdersEvQuote, &[("field", &quote_field_label(locale, field))]),
                href: c.content.quote_id.map(|q| format!("/quotes/{q}")),
            },
            Evidence::TcoComparison { .. } => EvidenceLine {
                label: locale.t(Msg::OrdersEvTco).to_string(),
                href: Some(format!("/tco?{}", comparison_query(c.content, c.pinned))),
            },
            Evidence::File { name, sha256 } => EvidenceLine {
                label: format!(
                    "{} (SHA-256 {}…)",
                    locale.fmt(Msg::OrdersEvFile, &[("name", name)]),
                    &sha256[..12.min(sha256.len())]
                ),
                href: c
                    .documents
                    .iter()
                    .find(|d| &d.sha256 == sha256)
                    .map(|d| format!("/documents/{}", d.id)),
            },
        })
        .collect()
}
