//! One order on one page: first the summary (decisions, who the order waits for, the chosen
//! quote's total, the problems) with the links to the sections and, for whoever acts next, the
//! form to submit, sign off or reopen; then the chosen quote, the rental plan it was chosen from
//! (when it was), the quote against the alternatives (cost table and chart), the runs and their verdicts, the six-point checklist with evidence, the
//! rental and the bill; last the chain status with the history collapsed. Prints as the record
//! a manager signs: the forms, the links and the collapsed history are left out.

mod cards;
mod checklist;
mod keys;
mod plan;
mod problems;
mod summary;

use super::{state_class, state_msg};
use crate::{
    components::{guard::member_page, loaded::Loaded},
    domain::orders::OrderState,
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::orders::{ItemSaved, OrderView},
};
use cards::{actions, comparison, record, selection};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use problems::problems_card;
use summary::{section_nav, summary};

/// One of the active team's orders, at `revision` (default: the latest).
#[server(endpoint = "orders/get")]
pub async fn load_order(id: i64, revision: Option<i64>) -> Result<OrderView, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    orders::view(&auth::db()?, &caller, &team, id, revision, request_locale()).await
}

/// Row ids from form values (empty values skipped).
#[cfg(feature = "ssr")]
fn ids(list: &[String]) -> Result<Vec<i64>, AppError> {
    list.iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().map_err(|_| AppError::Invalid(Msg::ErrorBadRequest)))
        .collect()
}

/// Chooses the quote, the alternatives, the runs and a waiver (procurement, draft only).
#[server(endpoint = "orders/select")]
pub async fn select_for_order(
    order_id: i64,
    quote_id: String,
    #[server(default)] considered: Vec<String>,
    #[server(default)] runs: Vec<String>,
    waiver: String,
) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    // Before the ids are read: a crafted form may list any number of them.
    orders::check_selection_sizes(considered.len(), runs.len())?;
    let selection = orders::Selection {
        quote_id: quote_id.trim().parse().ok(),
        considered: ids(&considered)?,
        runs: ids(&runs)?,
        waiver,
    };
    orders::select(&auth::db()?, &caller, &team, order_id, &selection).await?;
    back_at(order_id, "order-selection");
    Ok(())
}

/// After a save from a form the server renders (posted by the page's script or without one):
/// the order again, at the card the form is on (`card`, empty: the top) rather than the top of
/// a long page, without the marks of an earlier answer (an error shown before).
#[cfg(feature = "ssr")]
fn back_at(order_id: i64, card: &str) {
    let at = if card.is_empty() {
        String::new()
    } else {
        format!("#{card}")
    };
    crate::components::forms::open_after_plain_post(&format!("/orders/{order_id}{at}"));
}

/// Sets the comparison the order is submitted with from a pasted cost page link (empty: the
/// default comparison of the quotes considered); procurement, draft only.
#[server(endpoint = "orders/comparison")]
pub async fn set_order_comparison(order_id: i64, link: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    orders::set_comparison(&auth::db()?, &caller, &team, order_id, &link, request_locale()).await?;
    back_at(order_id, "order-comparison");
    Ok(())
}

/// The fields of an item's answer form.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AnswerFields {
    /// Order id.
    pub order_id: String,
    /// Item id.
    pub item_id: String,
    /// `open`, `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// Reason or note.
    #[serde(default)]
    pub status_note: String,
    /// Answer.
    #[serde(default)]
    pub answer: String,
    /// Run id as evidence (empty: none).
    #[serde(default)]
    pub evidence_run: String,
    /// Note as evidence.
    #[serde(default)]
    pub evidence_note: String,
    /// Quote field as evidence (column name).
    #[serde(default)]
    pub evidence_quote_field: String,
    /// Vendor document id as evidence.
    #[serde(default)]
    pub evidence_file: String,
    /// `on` to cite the cost comparison.
    #[serde(default)]
    pub evidence_tco: String,
    /// `on` to cite the vendor's written answer to this item (from the bid of the chosen quote).
    #[serde(default)]
    pub evidence_vendor_answer: String,
}

/// Answers one checklist item (engineers their items, procurement theirs; draft only); answers
/// the item as it now reads and what changed for the order. Posted as a page, the answer is the
/// order page showing "Saved." (or the error) at that item's form.
#[server(endpoint = "orders/answer")]
pub async fn answer_item(#[server(flatten)] fields: AnswerFields) -> Result<ItemSaved, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::AnswerChecklist)?;
    let form = orders::AnswerForm {
        item_id: fields.item_id,
        status: fields.status,
        status_note: fields.status_note,
        answer: fields.answer,
        evidence_run: fields.evidence_run.trim().parse().ok(),
        evidence_note: fields.evidence_note,
        evidence_quote_field: fields.evidence_quote_field,
        evidence_file: fields.evidence_file.trim().parse().ok(),
        evidence_tco: !fields.evidence_tco.is_empty(),
        evidence_vendor_answer: !fields.evidence_vendor_answer.is_empty(),
    };
    let order_id = fields.order_id.trim().parse().map_err(|_| AppError::NotFound)?;
    let db = auth::db()?;
    let done = orders::answer(&db, &caller, &team, order_id, &form).await;
    let path = <AnswerItem as leptos::server_fn::ServerFn>::PATH;
    let at = format!("item-{}", form.item_id);
    crate::components::forms::answered_at(path, &form.item_id, &at, &done).await?;
    done?;
    let v = orders::view(&db, &caller, &team, order_id, None, request_locale()).await?;
    let item = v
        .sections
        .into_iter()
        .flat_map(|s| s.items)
        .find(|i| i.id == form.item_id)
        .ok_or(AppError::NotFound)?;
    Ok(ItemSaved {
        item,
        blockers: v.blockers,
        problems: v.problems,
        acknowledge_key: v.acknowledge_key,
    })
}

/// Submits the draft for sign-off (procurement). With problems found, `acknowledge_problems`
/// must name them as the page listed them (the form's checkbox sends it).
#[server(endpoint = "orders/submit")]
pub async fn submit_order(order_id: i64, #[server(default)] acknowledge_problems: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    let db = auth::db()?;
    orders::submit(&db, &caller, &team, order_id, &acknowledge_problems, request_locale()).await
}

/// Approves or rejects (`decision` = `approve` | `reject`) with the password re-entered, and the
/// code from the authenticator app when the manager has a second factor. A form sent with
/// neither chosen (nothing is pre-selected) is refused at the decision field.
#[server(endpoint = "orders/decide")]
pub async fn decide_order(
    order_id: i64,
    #[server(default)] decision: String,
    password: String,
    comment: String,
    #[server(default)] code: String,
) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    // Who may decide is checked first: anyone else learns nothing of the order's state.
    let (caller, team) = auth::require_team(Capability::SignOffOrders)?;
    let approve = match decision.as_str() {
        "approve" => true,
        "reject" => false,
        _ => {
            return Err(AppError::InvalidFields(vec![crate::error::FieldIssue::new(
                "decision", "required",
            )]));
        }
    };
    orders::decide(
        &auth::db()?,
        &caller,
        &team,
        order_id,
        approve,
        password,
        &comment,
        &code,
    )
    .await?;
    back_at(order_id, "");
    Ok(())
}

/// Re-pins a draft's chosen quote to its latest revision (procurement, draft only).
#[server(endpoint = "orders/repin")]
pub async fn repin_order(order_id: i64) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    orders::repin(&auth::db()?, &caller, &team, order_id).await?;
    back_at(order_id, "order-selection");
    Ok(())
}

/// Reopens a decided order as a new draft revision.
#[server(endpoint = "orders/reopen")]
pub async fn reopen_order(order_id: i64) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    orders::reopen(&auth::db()?, &caller, &team, order_id).await?;
    back_at(order_id, "");
    Ok(())
}

/// What still blocks submission of a draft, each item linked to its place in the checklist: the
/// count and the first [`BLOCKERS_SHOWN`] (what applies to the whole order first), the rest
/// folded away, so a new draft does not open on a list of every unanswered item.
fn blockers(v: &OrderView) -> impl IntoView + use<> {
    let locale = use_locale();
    (!v.blockers.is_empty() && v.state == OrderState::Draft).then(|| {
        let (general, items): (Vec<_>, Vec<_>) = v.blockers.iter().cloned().partition(|(id, _)| id.is_empty());
        let mut lines = general;
        lines.extend(items);
        let count = lines.len();
        let rest = lines.split_off(count.min(BLOCKERS_SHOWN));
        let more = (!rest.is_empty()).then(|| {
            let summary = locale.fmt(Msg::OrdersBlockersMore, &[("n", &rest.len().to_string())]);
            view! {
                <details data-testid="order-blockers-more">
                    <summary>{summary}</summary>
                    <ul>{rest.into_iter().map(blocker_line).collect_view()}</ul>
                </details>
            }
        });
        view! {
            <section class="callout callout-warn" data-testid="order-blockers">
                <strong>{t(Msg::OrdersBlockers)}</strong> " · "
                <span data-testid="order-blockers-count">{locale.fmt(Msg::OrdersBlockersCount, &[("n", &count.to_string())])}</span>
                <ul>{lines.into_iter().map(blocker_line).collect_view()}</ul>
                {more}
            </section>
        }
    })
}

/// Blockers listed before the rest are folded away.
const BLOCKERS_SHOWN: usize = 5;

/// One blocker, linked to its checklist item when it is one.
fn blocker_line((id, text): (String, String)) -> AnyView {
    if id.is_empty() {
        view! { <li>{text}</li> }.into_any()
    } else {
        view! { <li><a href=format!("#item-{id}")>{text}</a></li> }.into_any()
    }
}

/// After "Order this" on the cost page (`?made=created|updated`): whether the draft was created
/// or an existing one updated.
fn made_note() -> Option<impl IntoView> {
    let made = use_query_map().read_untracked().get("made");
    let msg = match made.as_deref() {
        Some("created") => Msg::OrdersMadeCreated,
        Some("updated") => Msg::OrdersMadeUpdated,
        _ => return None,
    };
    Some(view! { <p class="callout" role="status" data-testid="order-made">{t(msg)}</p> })
}

/// The order page.
#[component]
pub fn OrderPage() -> impl IntoView {
    member_page(|_caller| {
        let params = use_params_map();
        let query = use_query_map();
        let key = move || {
            (
                params.read().get("id").and_then(|v| v.parse::<i64>().ok()),
                query.read().get("rev").and_then(|v| v.parse::<i64>().ok()),
            )
        };
        let data = Resource::new(key, |(id, rev)| async move {
            match id {
                Some(id) => load_order(id, rev).await,
                None => Err(AppError::NotFound),
            }
        });
        // The rental is a sibling of the order's own parts, not inside them (see `RentalCard`);
        // the history comes after it, so the order is read twice from the one resource.
        view! {
            <div class="order-page">
                <Loaded resource=data let:v>
                    {order_view(v)}
                </Loaded>
                <super::rental::RentalCard order_id=Signal::derive(move || key().0) />
                <Loaded resource=data quiet=true let:v>
                    {order_tail(&v)}
                </Loaded>
            </div>
        }
        .into_any()
    })
}

/// One loaded order: heading and revisions, then its working parts.
fn order_view(v: OrderView) -> impl IntoView {
    let locale = use_locale();
    let order_id = v.id;
    let made = made_note();
    let head = view! {
        <Title text=v.title.clone() />
        <p class="breadcrumb no-print"><a href="/orders">{t(Msg::OrdersTitle)}</a></p>
        <h1>
            {v.title.clone()} " "
            <span class="order-number" data-testid="order-number">{locale.fmt(Msg::OrdersNumber, &[("id", &order_id.to_string())])}</span>
            {v.chosen_nodes.map(|n| view! {
                " · " <span data-testid="order-nodes">{locale.count(Msg::OrdersNodesOne, Msg::OrdersNodesMany, n.into())}</span>
            })}
            " " <span class=state_class(v.state) data-testid="order-state">{t(state_msg(v.state))}</span>
        </h1>
        <p class="lead">
            {locale.fmt(Msg::OrdersRevision, &[("n", &v.revision.to_string())])} " · "
            <a href=format!("/workloads/{}", v.workload.0)>{v.workload.1.clone()}</a>
            {v.revisions.iter().filter(|(n, _)| *n != v.revision).map(|(n, s)| view! {
                " · " <a href=format!("/orders/{order_id}?rev={n}") rel="external">{locale.fmt(Msg::OrdersRevision, &[("n", &n.to_string())])} " (" {t(state_msg(*s))} ")"</a>
            }).collect_view()}
        </p>
        {made}
    };
    view! { {head} {working_parts(&v)} }
}

/// The order's working parts, rendered by the server: the summary and the links to the
/// sections, the problems, what blocks submission, what the viewer may do next, the selection,
/// the plan, the comparison, then the checklist. The page has no island: its forms save in
/// place through the page's script, which shows the page the server answers with.
fn working_parts(v: &OrderView) -> impl IntoView + use<> {
    let lines = checklist::all_items(v);
    view! {
        {summary(v, &lines)}
        {section_nav(v, v.can_decide)}
        {problems_card(v.state, &v.problems, v.problems_acknowledged.clone())}
        {blockers(v)}
        {actions(v)}
        {selection(v)}
        {plan::plan_card(v.plan.as_ref())}
        {comparison(v)}
        {checklist::checklist_card(v)}
    }
}

/// After the rental: the bill of an approved order, the export, the chain and the history.
fn order_tail(v: &OrderView) -> impl IntoView + use<> {
    let order_id = v.id;
    view! {
        {(v.state == OrderState::Approved).then(|| view! { <super::bill::BillCard order_id /> })}
        <p class="actions no-print">
            <a class="button-link secondary" rel="external" href=format!("/orders/{order_id}/export.json")>{t(Msg::OrdersExportJson)}</a>
        </p>
        {record(v)}
    }
}
