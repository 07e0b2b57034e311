//! The checklist of the order page: the six sections, each with how far each role has come and
//! folded once nothing in it is left for the viewer; every item with its answer form, the
//! suggestion the data gives (accepted in one action, `accept.rs`) and, per section, all its
//! suggestions accepted at once after reading them.

mod accept;
mod questions;
mod quick;

use super::{AnswerItem, Live, keys, keys::is_open};
use crate::{
    domain::checklist::{Progress, RoleProgress},
    i18n::{Locale, Msg, t, use_locale},
    pages::orders::fields::{FieldNote, FormError, invalid, issues_of, message_id},
    views::orders::{ItemLine, OrderView, SectionLine},
};
use leptos::prelude::*;

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

/// The checklist card: each role's progress over the whole checklist, the "next open item" bar
/// Each item of each section as a signal the page updates in place when an answer is saved,
/// and all of them together (the summary counts them, the keys move between them).
pub(super) fn item_lines(v: &OrderView) -> (Vec<Vec<RwSignal<ItemLine>>>, keys::Items) {
    let lines: Vec<Vec<RwSignal<ItemLine>>> = v
        .sections
        .iter()
        .map(|s| s.items.iter().cloned().map(RwSignal::new).collect())
        .collect();
    let items: keys::Items = StoredValue::new(lines.iter().flatten().copied().collect());
    (lines, items)
}

/// for someone who answers, then the sections.
pub(super) fn checklist_card(
    v: &OrderView,
    lines: Vec<Vec<RwSignal<ItemLine>>>,
    items: keys::Items,
    live: Live,
) -> impl IntoView + use<> {
    let cite = Citable {
        runs: v.runs.iter().map(|r| (r.id, format!("#{}", r.id))).collect(),
        fields: v.quote_fields.clone(),
        documents: v.documents.clone(),
    };
    let order_id = v.id;
    let answering = v.sections.iter().flat_map(|s| &s.items).any(|i| i.can_answer);
    let all: Vec<RwSignal<ItemLine>> = lines.iter().flatten().copied().collect();
    let locale = use_locale();
    let sections = v
        .sections
        .iter()
        .zip(lines)
        .map(|(s, lines)| section_view(order_id, s, lines, &cite, items, live))
        .collect_view();
    view! {
        <section class="card" id="order-checklist" data-testid="order-checklist">
            <h2>{t(Msg::OrdersChecklist)}</h2>
            <p class="checklist-progress" data-testid="checklist-progress">
                <span class="hint">{t(Msg::ChecklistProgressLabel)} ": "</span>
                {move || progress_text(locale, live_progress(&all))}
            </p>
            {answering.then(|| keys::next_open_bar(items))}
            {answering.then(|| questions::vendor_questions(&v.title, v.vendor_contact.as_deref(), items))}
            {sections}
        </section>
    }
}

/// One section: a `<details>` unfolded when something in it is left for the viewer, its title
/// and progress as the summary, the suggestions to accept at once, then the items.
fn section_view(
    order_id: i64,
    s: &SectionLine,
    lines: Vec<RwSignal<ItemLine>>,
    cite: &Citable,
    items: keys::Items,
    live: Live,
) -> impl IntoView + use<> {
    let locale = use_locale();
    let counted = lines.clone();
    let progress = move || progress_text(locale, live_progress(&counted));
    let accept_all = accept::section_form(order_id, s.code.clone(), lines.clone(), items, live);
    view! {
        <details class="checklist-section" open=s.open data-testid="checklist-section" data-section=s.code.clone()>
            <summary>
                <h3>{format!("{} ", s.number)} {s.title.clone()}</h3>
                " " <span class="hint section-progress" data-testid="section-progress">{progress}</span>
            </summary>
            {accept_all}
            <ul class="checklist">{lines.into_iter().map(|line| item_view(order_id, line, cite.clone(), items, live)).collect_view()}</ul>
        </details>
    }
}

/// Each role's progress over `lines` as they now read (saving or accepting updates them).
pub(super) fn live_progress(lines: &[RwSignal<ItemLine>]) -> RoleProgress {
    let mut p = RoleProgress::default();
    for line in lines {
        line.with(|l| {
            let done = u32::from(l.done);
            let role = if l.expert == "engineer" {
                &mut p.engineer
            } else {
                &mut p.procurement
            };
            *role = role.plus(Progress { done, total: 1 });
        });
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
/// and the answer form when the viewer may answer it. `line` is the item as it now reads: saving
/// the form replaces it in place (and the page's `live` state), so nothing reloads and focus and
/// scroll stay where they are.
fn item_view(order_id: i64, line: RwSignal<ItemLine>, cite: Citable, items: keys::Items, live: Live) -> impl IntoView {
    let item = line.get_untracked();
    let expert = t(if item.expert == "engineer" {
        Msg::OrdersExpertEngineer
    } else {
        Msg::OrdersExpertProcurement
    });
    let quick = quick::quick_confirm(order_id, line, live);
    let form = item.can_answer.then(|| item_form(order_id, line, cite, live));
    let class = move || format!("checklist-item status-{}", line.read().status);
    view! {
        <li class=class id=format!("item-{}", item.id) tabindex="-1" data-testid="checklist-item" data-open=move || is_open(&line.read()).to_string()>
            <p>
                <strong>{item.text.clone()}</strong> " "
                <span class="tag">{expert}</span>
                {item.required.then(|| view! { <span class="tag warn">{t(Msg::OrdersRequired)}</span> })}
                " " <span class="item-status" data-testid="item-status">{move || status_label(&line.read().status)}</span>
            </p>
            <p class="hint">{item.why.clone()}</p>
            {item.suggestion.clone().map(|s| view! { <p class="hint suggestion" data-testid="item-suggestion">{s}</p> })}
            {item.vendor_answer.clone().map(|v| view! {
                <div class="vendor-answer" data-testid="vendor-answer">
                    <p><span class="tag">{t(Msg::RfqEvidence)}</span> " " {v.answer}</p>
                    <p class="hint">{v.question} " · " {v.source}</p>
                </div>
            })}
            {accept::item_accept(order_id, line, items, live)}
            {item.evidence_hint.clone().map(|h| view! { <p class="hint" data-testid="item-evidence-needed">{h}</p> })}
            {move || answer_view(&line.read())}
            {move || line.read().blocker.clone().map(|b| view! { <p class="field-error" data-testid="item-blocker">{b}</p> })}
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

/// The answer form of one item: status, answer, and the evidence the item can cite. Without
/// JavaScript it posts and comes back to the page; hydrated, a save updates the item in place
/// and says "Saved." beside the button; a refused reason is shown at the reason field.
fn item_form(order_id: i64, line: RwSignal<ItemLine>, cite: Citable, live: Live) -> impl IntoView + use<> {
    let item = line.get_untracked();
    let (item_id, note, answer, current) = (
        item.id.clone(),
        item.status_note.clone(),
        item.answer.clone(),
        item.status.clone(),
    );
    let testid = format!("answer-{item_id}");
    let action = answer_action(line, live);
    let issues = issues_of(action, None);
    let saved = move || !action.pending().get() && matches!(action.value().get(), Some(Ok(_)));
    let note_error = message_id("status_note", &item_id);
    let scope = item_id.clone();
    view! {
        <ActionForm action attr:class="form-inline item-form no-print" attr:data-testid=testid>
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <input type="hidden" name="item_id" value=item_id />
            <label>{t(Msg::OrdersStatus)}
                <select name="status" aria-invalid=invalid(issues, "status")>
                    {["open", "confirmed", "not_applicable", "problem"].into_iter().map(|s| view! {
                        <option value=s selected=s == current prop:selected=move || line.read().status == s>{status_label(s)}</option>
                    }).collect_view()}
                </select>
            </label>
            <FieldNote issues field="status" scope=scope.clone() />
            <label>{t(Msg::OrdersStatusNote)}
                <input type="text" name="status_note" value=note prop:value=move || line.read().status_note.clone() aria-invalid=invalid(issues, "status_note") aria-describedby=note_error />
            </label>
            <FieldNote issues field="status_note" scope=scope.clone() />
            <label>{t(Msg::OrdersAnswer)}<input type="text" name="answer" value=answer prop:value=move || line.read().answer.clone() /></label>
            {evidence_controls(&item, &cite, issues, &scope)}
            <button type="submit" class="small">{t(Msg::OrdersSaveItem)}</button>
            <span class=("form-ok", saved) role="status" aria-live="polite" data-testid="item-saved">{move || saved().then(|| t(Msg::OrdersItemSaved))}</span>
        </ActionForm>
        <FormError action />
    }
}

/// A server action answering the item of `line`: each save replaces the item in place and
/// takes what changed for the order into `live`.
fn answer_action(line: RwSignal<ItemLine>, live: Live) -> ServerAction<AnswerItem> {
    let action = ServerAction::<AnswerItem>::new();
    Effect::new(move |_| {
        if let Some(Ok(saved)) = action.value().get() {
            live.update(&saved);
            line.set(saved.item);
        }
    });
    action
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
