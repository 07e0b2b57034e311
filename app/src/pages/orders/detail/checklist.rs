//! The checklist of the order page: the six sections, each with how far each role has come and
//! folded once nothing in it is left for the viewer; every item with its answer form, the
//! suggestion the data gives (accepted in one action, `accept.rs`) and, per section, all its
//! suggestions accepted at once after reading them.
//!
//! Rendered by the server only. Every form saves in place through the page's script
//! (`data-in-place`): the server answers with the page as it now reads, which the script shows
//! where the reader was, focus on the button they pressed; without a script the form is a
//! plain post. Which form answered ([`Answered`]) comes with that one page load, so "Saved." or
//! the error appears at that item's form only.

mod accept;
mod questions;
mod quick;

use super::{AnswerItem, keys, keys::is_open};
use crate::{
    components::forms::shown_once,
    domain::checklist::{Progress, RoleProgress},
    i18n::{Locale, Msg, t, use_locale},
    pages::orders::fields::{FieldNote, FormError, invalid, issues_of, message_id},
    views::orders::{ItemLine, OrderView, SectionLine},
};
use accept::AcceptSuggestions;
use leptos::{prelude::*, server_fn::ServerFn};

/// What an item can cite: runs, fields and documents of the chosen quote.
#[derive(Clone)]
pub(super) struct Citable {
    /// Attached runs: id and label.
    pub runs: Vec<(i64, String)>,
    /// Fields of the chosen quote: column and label.
    pub fields: Vec<(String, String)>,
    /// Documents of the chosen quote revision: id and file name.
    pub documents: Vec<(i64, String)>,
}

/// Which of the page's forms answered the post this page load follows, if one did
/// ([`crate::components::forms::answered_at`]): an item's answer form (its id) or an accept
/// form (the ids of the items it accepts, joined by commas).
#[derive(Clone, Default)]
pub(super) struct Answered {
    pub item: Option<String>,
    pub accept: Option<String>,
}

impl Answered {
    /// What this page load shows.
    fn of_page() -> Self {
        Answered {
            item: shown_once::<String>(AnswerItem::PATH),
            accept: shown_once::<String>(AcceptSuggestions::PATH),
        }
    }
}

/// Every item of the order in page order.
pub(super) fn all_items(v: &OrderView) -> Vec<ItemLine> {
    v.sections.iter().flat_map(|s| s.items.iter().cloned()).collect()
}

/// The checklist card: each role's progress over the whole checklist, the "next open item" bar
/// and the vendor's questions for someone who answers, then the sections.
pub(super) fn checklist_card(v: &OrderView) -> impl IntoView + use<> {
    let cite = Citable {
        runs: v.runs.iter().map(|r| (r.id, format!("#{}", r.id))).collect(),
        fields: v.quote_fields.clone(),
        documents: v.documents.clone(),
    };
    let answered = Answered::of_page();
    let order_id = v.id;
    let all = all_items(v);
    let answering = all.iter().any(|i| i.can_answer);
    let locale = use_locale();
    let sections = v
        .sections
        .iter()
        .map(|s| section_view(order_id, s, &cite, &answered))
        .collect_view();
    view! {
        <section class="card" id="order-checklist" data-testid="order-checklist">
            <h2>{t(Msg::OrdersChecklist)}</h2>
            <p class="checklist-progress" data-testid="checklist-progress">
                <span class="hint">{t(Msg::ChecklistProgressLabel)} ": "</span>
                {progress_text(locale, progress(&all))}
            </p>
            {answering.then(keys::next_open_bar)}
            {answering.then(|| questions::vendor_questions(&v.title, v.vendor_contact.as_deref(), &all))}
            {sections}
        </section>
    }
}

/// One section: a `<details>` unfolded when something in it is left for the viewer, its title
/// and progress as the summary, the suggestions to accept at once, then the items.
fn section_view(order_id: i64, s: &SectionLine, cite: &Citable, answered: &Answered) -> impl IntoView + use<> {
    let locale = use_locale();
    let done = progress_text(locale, progress(&s.items));
    let accept_all = accept::section_form(order_id, &s.code, &s.items, answered);
    view! {
        <details class="checklist-section" open=s.open data-keep-open="" data-testid="checklist-section" data-section=s.code.clone()>
            <summary>
                <h3>{format!("{} ", s.number)} {s.title.clone()}</h3>
                " " <span class="hint section-progress" data-testid="section-progress">{done}</span>
            </summary>
            {accept_all}
            <ul class="checklist">{s.items.iter().map(|item| item_view(order_id, item, cite, answered)).collect_view()}</ul>
        </details>
    }
}

/// Each role's progress over `lines`.
pub(super) fn progress(lines: &[ItemLine]) -> RoleProgress {
    let mut p = RoleProgress::default();
    for l in lines {
        let done = u32::from(l.done);
        let role = if l.expert == "engineer" {
            &mut p.engineer
        } else {
            &mut p.procurement
        };
        *role = role.plus(Progress { done, total: 1 });
    }
    p
}

/// "Procurement: 18 of 24 · Engineer: 3 of 26", leaving out a role with no item.
pub(super) fn progress_text(locale: Locale, p: RoleProgress) -> String {
    let part = |msg, p: Progress| {
        (p.total > 0).then(|| locale.fmt(msg, &[("done", &p.done.to_string()), ("total", &p.total.to_string())]))
    };
    [
        part(Msg::ChecklistProgressProcurement, p.procurement),
        part(Msg::ChecklistProgressEngineer, p.engineer),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ")
}

/// The label of an answer status code.
fn status_label(s: &str) -> &'static str {
    t(match s {
        "confirmed" => Msg::OrdersStConfirmed,
        "not_applicable" => Msg::OrdersStNotApplicable,
        "problem" => Msg::OrdersStProblem,
        _ => Msg::OrdersStOpen,
    })
}

/// One checklist item: its text, why it matters, the suggestion, the answer with its evidence,
/// and the answer form when the viewer may answer it.
fn item_view(order_id: i64, item: &ItemLine, cite: &Citable, answered: &Answered) -> impl IntoView + use<> {
    let expert = t(if item.expert == "engineer" {
        Msg::OrdersExpertEngineer
    } else {
        Msg::OrdersExpertProcurement
    });
    let mine = answered.item.as_deref() == Some(item.id.as_str());
    let quick = quick::quick_confirm(order_id, item, mine);
    let form = item.can_answer.then(|| item_form(order_id, item, cite, mine));
    view! {
        <li class=format!("checklist-item status-{}", item.status) id=format!("item-{}", item.id) tabindex="-1" data-testid="checklist-item" data-open=is_open(item).to_string()>
            <p>
                <strong>{item.text.clone()}</strong> " "
                <span class="tag">{expert}</span>
                {item.required.then(|| view! { <span class="tag warn">{t(Msg::OrdersRequired)}</span> })}
                " " <span class="item-status" data-testid="item-status">{status_label(&item.status)}</span>
            </p>
            <p class="hint">{item.why.clone()}</p>
            {item.suggestion.clone().map(|s| view! { <p class="hint suggestion" data-testid="item-suggestion">{s}</p> })}
            {item.vendor_answer.clone().map(|v| view! {
                <div class="vendor-answer" data-testid="vendor-answer">
                    <p><span class="tag">{t(Msg::RfqEvidence)}</span> " " {v.answer}</p>
                    <p class="hint">{v.question} " · " {v.source}</p>
                </div>
            })}
            {accept::item_accept(order_id, item, answered)}
            {item.evidence_hint.clone().map(|h| view! { <p class="hint" data-testid="item-evidence-needed">{h}</p> })}
            {answer_view(item)}
            {item.blocker.clone().map(|b| view! { <p class="field-error" data-testid="item-blocker">{b}</p> })}
            {quick}
            {form}
        </li>
    }
}

/// What the item records: the answer and its reason or note, the evidence, who answered when.
fn answer_view(item: &ItemLine) -> impl IntoView + use<> {
    let text = (!item.answer.is_empty() || !item.status_note.is_empty()).then(|| {
        let note = (!item.status_note.is_empty()).then(|| format!(" ({})", item.status_note));
        view! { <p data-testid="item-answer">{item.answer.clone()} {note}</p> }
    });
    let evidence = (!item.evidence.is_empty()).then(|| {
        let lines = item.evidence.clone();
        view! {
            <ul class="links">{lines.into_iter().map(|e| match e.href {
                Some(h) => view! { <li><a href=h>{e.label}</a></li> }.into_any(),
                None => view! { <li>{e.label}</li> }.into_any(),
            }).collect_view()}</ul>
        }
    });
    let answered = item
        .answered
        .clone()
        .map(|a| view! { <p class="hint" data-testid="item-answered">{a}</p> });
    (text, evidence, answered)
}

/// The issues of the answer form of an item: those of the last post when it was this item's
/// (`mine`), none otherwise (every item's form posts to the same server function).
fn item_issues(action: ServerAction<AnswerItem>, mine: bool) -> Signal<Vec<crate::error::FieldIssue>> {
    if mine {
        issues_of(action, None)
    } else {
        Signal::derive(Vec::new)
    }
}

/// The answer form of one item: status, answer, and the evidence the item can cite. After a
/// save the page shows the item as it now reads and "Saved." beside the button; a refused
/// reason is shown at the reason field, with what was typed.
fn item_form(order_id: i64, item: &ItemLine, cite: &Citable, mine: bool) -> impl IntoView + use<> {
    let item_id = item.id.clone();
    let testid = format!("answer-{item_id}");
    let action = ServerAction::<AnswerItem>::new();
    let issues = item_issues(action, mine);
    let saved = mine && crate::components::forms::last_error(action).is_none();
    let note_error = message_id("status_note", &item_id);
    let scope = item_id.clone();
    let (current, note, answer) = (item.status.clone(), item.status_note.clone(), item.answer.clone());
    let evidence = evidence_controls(item, cite, issues, &scope);
    view! {
        <ActionForm action attr:class="form-inline item-form no-print" attr:data-testid=testid attr:data-in-place="" attr:data-keep-focus="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <input type="hidden" name="item_id" value=item_id />
            <label>{t(Msg::OrdersStatus)}
                <select name="status" aria-invalid=invalid(issues, "status")>
                    {["open", "confirmed", "not_applicable", "problem"].into_iter().map(|s| view! {
                        <option value=s selected=s == current>{status_label(s)}</option>
                    }).collect_view()}
                </select>
            </label>
            <FieldNote issues field="status" scope=scope.clone() />
            <label>{t(Msg::OrdersStatusNote)}
                <input type="text" name="status_note" value=note aria-invalid=invalid(issues, "status_note") aria-describedby=note_error />
            </label>
            <FieldNote issues field="status_note" scope=scope.clone() />
            <label>{t(Msg::OrdersAnswer)}<input type="text" name="answer" value=answer /></label>
            {evidence}
            <button type="submit" class="small">{t(Msg::OrdersSaveItem)}</button>
            <span class=("form-ok", saved) role="status" aria-live="polite" data-testid="item-saved">{saved.then(|| t(Msg::OrdersItemSaved))}</span>
        </ActionForm>
        {mine.then(|| view! { <FormError action /> })}
    }
}

/// The evidence an answer can cite, the kinds the item accepts first in the order it names
/// them (a cost item offers the comparison and a note before quote fields), then the others.
fn evidence_controls(
    item: &ItemLine,
    cite: &Citable,
    issues: Signal<Vec<crate::error::FieldIssue>>,
    scope: &str,
) -> impl IntoView + use<> {
    let scope = scope.to_string();
    let run = view! {
        <label>{t(Msg::OrdersEvidenceRun)}
            <select name="evidence_run">
                <option value="">{t(Msg::OrdersNone)}</option>
                {cite.runs.iter().map(|(id, l)| view! { <option value=id.to_string()>{l.clone()}</option> }).collect_view()}
            </select>
        </label>
    }
    .into_any();
    let note =
        view! { <label>{t(Msg::OrdersEvidenceNote)}<input type="text" name="evidence_note" /></label> }.into_any();
    let field = (!cite.fields.is_empty())
        .then(|| {
            view! {
                <label>{t(Msg::OrdersEvidenceQuoteField)}
                    <select name="evidence_quote_field" aria-invalid=invalid(issues, "evidence_quote_field")>
                        <option value="">{t(Msg::OrdersNone)}</option>
                        {field_options(&item.fields_first, &cite.fields)}
                    </select>
                </label>
                <FieldNote issues field="evidence_quote_field" scope=scope.clone() />
            }
        })
        .into_any();
    let document = (!cite.documents.is_empty()).then(|| view! {
        <label>{t(Msg::OrdersEvidenceFile)}
            <select name="evidence_file">
                <option value="">{t(Msg::OrdersNone)}</option>
                {cite.documents.iter().map(|(id, n)| view! { <option value=id.to_string()>{n.clone()}</option> }).collect_view()}
            </select>
        </label>
    }).into_any();
    let comparison = view! {
        <label class="check"><input type="checkbox" name="evidence_tco" value="on" />{t(Msg::OrdersEvidenceTco)}</label>
        // The vendor's written answer counts as what the quote states.
        {item.vendor_answer.is_some().then(|| view! {
            <label class="check"><input type="checkbox" name="evidence_vendor_answer" value="on" />{t(Msg::RfqEvidenceCite)}</label>
        })}
    }
    .into_any();
    let mut controls = vec![
        ("run", run),
        ("note", note),
        ("quote_field", field),
        ("document", document),
        ("cost_comparison", comparison),
    ];
    let rank = |code: &str| {
        item.evidence_needed
            .iter()
            .position(|k| k == code)
            .unwrap_or(usize::MAX)
    };
    controls.sort_by_key(|(code, _)| rank(code));
    controls.into_iter().map(|(_, control)| control).collect_view()
}

/// The quote fields as options: those the item is about first, in their order, then the others
/// in the quote form's order (a flat list when the item names none).
fn field_options(first: &[String], fields: &[(String, String)]) -> impl IntoView + use<> {
    let option = |(c, l): &(String, String)| view! { <option value=c.clone()>{l.clone()}</option> };
    let relevant: Vec<&(String, String)> = first
        .iter()
        .filter_map(|f| fields.iter().find(|(c, _)| c == f))
        .collect();
    if relevant.is_empty() {
        return fields.iter().map(option).collect_view().into_any();
    }
    let others: Vec<&(String, String)> = fields.iter().filter(|(c, _)| !first.contains(c)).collect();
    view! {
        <optgroup label=t(Msg::ChecklistFieldsRelevant) data-testid="fields-relevant">{relevant.into_iter().map(option).collect_view()}</optgroup>
        <optgroup label=t(Msg::ChecklistFieldsOther)>{others.into_iter().map(option).collect_view()}</optgroup>
    }
    .into_any()
}
