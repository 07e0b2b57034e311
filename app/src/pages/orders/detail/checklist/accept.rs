//! Accepting what the data suggests: "Accept" on an item, or "Accept the N suggestions in this
//! section" under the list of them. Each is recorded as the viewer's own answer, with its
//! evidence, and audited as a manual answer is; the server computes every suggestion again and
//! refuses one that changed since the page showed it (`services::orders::accept`).

use super::Answered;
use crate::{
    error::AppError,
    i18n::{Msg, t, use_locale},
    pages::orders::fields::FormError,
    views::orders::{AcceptLine, EvidenceLine, ItemLine, SuggestionsAccepted},
};
use leptos::prelude::*;

/// Accepts suggestions (`item_id=key`, as the page shows them) as the caller's own answers:
/// only items the caller's role answers, on a draft; refused whole when one changed or was
/// answered meanwhile. Answers the items as they now read and what changed for the order.
#[server(endpoint = "orders/accept")]
pub async fn accept_suggestions(
    order_id: i64,
    #[server(default)] suggestions: Vec<String>,
) -> Result<SuggestionsAccepted, AppError> {
    use crate::{auth, domain::roles::Capability, error::FieldIssue, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::AnswerChecklist)?;
    // Before the list is read: a crafted form may send any number of them.
    if suggestions.len() > orders::MAX_ACCEPTED {
        return Err(AppError::InvalidFields(vec![FieldIssue {
            field: "suggestions".into(),
            code: "too_many_items".into(),
            limit: Some(orders::MAX_ACCEPTED.to_string()),
        }]));
    }
    let accepted = suggestions
        .iter()
        .map(|s| orders::Accepted::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let db = auth::db()?;
    let locale = request_locale();
    let key = accepted
        .iter()
        .map(|a| a.item_id.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let done = orders::accept(&db, &caller, &team, order_id, &accepted, locale).await;
    // Back at the first item accepted.
    let at = accepted
        .first()
        .map_or_else(|| "order-checklist".to_string(), |a| format!("item-{}", a.item_id));
    let path = <AcceptSuggestions as leptos::server_fn::ServerFn>::PATH;
    crate::components::forms::answered_at(path, &key, &at, &done).await?;
    let ids = done?;
    let v = orders::view(&db, &caller, &team, order_id, None, locale).await?;
    Ok(SuggestionsAccepted {
        items: v
            .sections
            .into_iter()
            .flat_map(|s| s.items)
            .filter(|i| ids.contains(&i.id))
            .collect(),
        blockers: v.blockers,
        problems: v.problems,
        acknowledge_key: v.acknowledge_key,
    })
}

/// The label of the status a suggestion would record.
fn suggested_label(status: &str) -> &'static str {
    t(match status {
        "not_applicable" => Msg::OrdersSuggestedNotApplicable,
        "problem" => Msg::OrdersSuggestedProblem,
        _ => Msg::OrdersSuggestedConfirmed,
    })
}

/// "Evidence: Quote: GPU model, Run #5".
fn evidence_text(evidence: &[EvidenceLine]) -> Option<String> {
    let locale = use_locale();
    (!evidence.is_empty()).then(|| {
        let list: Vec<&str> = evidence.iter().map(|e| e.label.as_str()).collect();
        locale.fmt(Msg::ChecklistSuggestedEvidence, &[("list", &list.join(", "))])
    })
}

/// "Accept" on one item, while it has a suggestion the viewer may accept: the evidence it would
/// attach, and the button.
pub(super) fn item_accept(order_id: i64, item: &ItemLine, answered: &Answered) -> Option<impl IntoView + use<>> {
    let a: AcceptLine = item.accept.clone()?;
    let action = ServerAction::<AcceptSuggestions>::new();
    let mine = answered.accept.as_deref() == Some(item.id.as_str());
    Some(view! {
        <ActionForm action attr:class="form-inline accept-one no-print" attr:data-testid=format!("accept-{}", item.id) attr:data-in-place="" attr:data-keep-focus="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <input type="hidden" name="suggestions[]" value=a.token.clone() />
            <span class="hint">{evidence_text(&a.evidence)}</span>
            " " <button type="submit" class="small" title=t(Msg::ChecklistAcceptTitle)>{t(Msg::ChecklistAccept)}</button>
        </ActionForm>
        {mine.then(|| view! { <FormError action /> })}
    })
}

/// The suggestions of a section the viewer may accept, listed (item, status, what the data says,
/// evidence) above one button that accepts them all; shown while there are two or more.
pub(super) fn section_form(
    order_id: i64,
    code: &str,
    lines: &[ItemLine],
    answered: &Answered,
) -> Option<impl IntoView + use<>> {
    let offered: Vec<(String, String, AcceptLine)> = lines
        .iter()
        .filter_map(|l| l.accept.clone().map(|a| (l.id.clone(), l.text.clone(), a)))
        .collect();
    if offered.len() < 2 {
        return None;
    }
    let action = ServerAction::<AcceptSuggestions>::new();
    let key = offered
        .iter()
        .map(|(id, _, _)| id.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let mine = answered.accept.as_deref() == Some(key.as_str());
    let locale = use_locale();
    let n = offered.len().to_string();
    Some(view! {
        <ActionForm action attr:class="accept-section no-print" attr:data-testid=format!("accept-section-{code}") attr:data-in-place="" attr:data-keep-focus="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <p class="hint">{t(Msg::ChecklistAcceptSectionLead)}</p>
            <ul data-testid="accept-section-list">
                {offered.into_iter().map(|(_, text, a)| view! {
                    <li>
                        <input type="hidden" name="suggestions[]" value=a.token.clone() />
                        <strong>{text}</strong> " — " {suggested_label(&a.status)} ": " {a.text.clone()}
                        {evidence_text(&a.evidence).map(|e| view! { " " <span class="hint">"(" {e} ")"</span> })}
                    </li>
                }).collect_view()}
            </ul>
            <button type="submit" class="small" data-testid="accept-section-button">{locale.fmt(Msg::ChecklistAcceptSection, &[("n", &n)])}</button>
        </ActionForm>
        {mine.then(|| view! { <FormError action /> })}
    })
}
