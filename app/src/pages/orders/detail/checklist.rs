//! The checklist items of the order page, each with its answer form.

use super::AnswerItem;
use crate::{
    components::forms::{ActionError, reload_on_success},
    i18n::{Msg, t},
    views::orders::ItemLine,
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
pub(super) fn item_view(order_id: i64, item: ItemLine, cite: Citable) -> impl IntoView {
    let class = format!("checklist-item status-{}", item.status);
    let expert = t(if item.expert == "engineer" {
        Msg::OrdersExpertEngineer
    } else {
        Msg::OrdersExpertProcurement
    });
    let form = item.can_answer.then(|| item_form(order_id, &item, cite));
    view! {
        <li class=class id=format!("item-{}", item.id) data-testid="checklist-item">
            <p>
                <strong>{item.text.clone()}</strong> " "
                <span class="tag">{expert}</span>
                {item.required.then(|| view! { <span class="tag warn">{t(Msg::OrdersRequired)}</span> })}
                " " <span class="item-status" data-testid="item-status">{status_label(&item.status)}</span>
            </p>
            <p class="hint">{item.why.clone()}</p>
            {item.suggestion.clone().map(|s| view! { <p class="hint suggestion" data-testid="item-suggestion">{s}</p> })}
            {item.evidence_hint.clone().map(|h| view! { <p class="hint" data-testid="item-evidence-needed">{h}</p> })}
            {(!item.answer.is_empty() || !item.status_note.is_empty()).then(|| view! {
                <p>{item.answer.clone()} {(!item.status_note.is_empty()).then(|| format!(" ({})", item.status_note))}</p>
            })}
            {(!item.evidence.is_empty()).then(|| view! {
                <ul class="links">{item.evidence.iter().map(|e| match &e.href {
                    Some(h) => view! { <li><a href=h.clone()>{e.label.clone()}</a></li> }.into_any(),
                    None => view! { <li>{e.label.clone()}</li> }.into_any(),
                }).collect_view()}</ul>
            })}
            {item.answered.clone().map(|a| view! { <p class="hint">{a}</p> })}
            {form}
        </li>
    }
}

/// The answer form of one item: status, answer, and the evidence the item can cite.
fn item_form(order_id: i64, item: &ItemLine, cite: Citable) -> impl IntoView + use<> {
    let runs = cite.runs.clone();
    let (item_id, note, answer, current) = (
        item.id.clone(),
        item.status_note.clone(),
        item.answer.clone(),
        item.status.clone(),
    );
    let testid = format!("answer-{item_id}");
    let action = ServerAction::<AnswerItem>::new();
    reload_on_success(action, "");
    view! {
        <ActionForm action attr:class="form-inline item-form no-print" attr:data-testid=testid>
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <input type="hidden" name="item_id" value=item_id />
            <label>{t(Msg::OrdersStatus)}
                <select name="status">
                    {["open", "confirmed", "not_applicable", "problem"].into_iter().map(|s| view! {
                        <option value=s selected=s == current>{status_label(s)}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>{t(Msg::OrdersStatusNote)}<input type="text" name="status_note" value=note /></label>
            <label>{t(Msg::OrdersAnswer)}<input type="text" name="answer" value=answer /></label>
            <label>{t(Msg::OrdersEvidenceRun)}
                <select name="evidence_run">
                    <option value="">{t(Msg::OrdersNone)}</option>
                    {runs.iter().map(|(id, l)| view! { <option value=id.to_string()>{l.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>{t(Msg::OrdersEvidenceNote)}<input type="text" name="evidence_note" /></label>
            {(!cite.fields.is_empty()).then(|| view! {
                <label>{t(Msg::OrdersEvidenceQuoteField)}
                    <select name="evidence_quote_field">
                        <option value="">{t(Msg::OrdersNone)}</option>
                        {cite.fields.iter().map(|(c, l)| view! { <option value=c.clone()>{l.clone()}</option> }).collect_view()}
                    </select>
                </label>
            })}
            {(!cite.documents.is_empty()).then(|| view! {
                <label>{t(Msg::OrdersEvidenceFile)}
                    <select name="evidence_file">
                        <option value="">{t(Msg::OrdersNone)}</option>
                        {cite.documents.iter().map(|(id, n)| view! { <option value=id.to_string()>{n.clone()}</option> }).collect_view()}
                    </select>
                </label>
            })}
            <label class="check"><input type="checkbox" name="evidence_tco" value="on" />{t(Msg::OrdersEvidenceTco)}</label>
            <button type="submit" class="small">{t(Msg::OrdersSaveItem)}</button>
        </ActionForm>
        <ActionError action />
    }
}
