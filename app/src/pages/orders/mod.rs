//! Orders: the team's list, starting an order, and one order's review page.

/// The bill section of the order page.
pub mod bill;
mod bill_view;
pub mod detail;
mod fields;
// The rental section of an approved order.
pub mod rental;
mod rental_forms;

use crate::{
    components::{guard::member_page, loaded::Loaded},
    domain::orders::OrderState,
    error::AppError,
    i18n::{Msg, t},
    views::orders::OrderLine,
};
use fields::{FieldNote, FormError, invalid, issues_of, message_id};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// The order list and what the create form offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderList {
    /// Orders, newest first.
    pub orders: Vec<OrderLine>,
    /// Workloads: id and name.
    pub workloads: Vec<(i64, String)>,
    /// The caller may start orders.
    pub can_create: bool,
}

/// The message of an order state.
#[must_use]
pub const fn state_msg(s: OrderState) -> Msg {
    match s {
        OrderState::Draft => Msg::OrdersStateDraft,
        OrderState::Submitted => Msg::OrdersStateSubmitted,
        OrderState::Approved => Msg::OrdersStateApproved,
        OrderState::Rejected => Msg::OrdersStateRejected,
    }
}

/// The CSS class of an order state.
#[must_use]
pub const fn state_class(s: OrderState) -> &'static str {
    match s {
        OrderState::Draft => "verdict verdict-warn",
        OrderState::Submitted => "verdict",
        OrderState::Approved => "verdict verdict-valid",
        OrderState::Rejected => "verdict verdict-invalid",
    }
}

/// The active team's orders.
#[server(endpoint = "orders")]
pub async fn list_orders() -> Result<OrderList, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let db = auth::db()?;
    let workloads: Vec<(i64, String)> = store::workloads::list(&db, team.team_id)
        .await?
        .into_iter()
        .map(|w| (w.id, w.record.name))
        .collect();
    let orders = store::orders::list(&db, team.team_id)
        .await?
        .into_iter()
        .map(|o| OrderLine {
            workload: workloads
                .iter()
                .find(|(id, _)| *id == o.workload_id)
                .map(|(_, n)| n.clone())
                .unwrap_or_default(),
            id: o.id,
            title: o.title,
            revision: o.revision,
            state: o.state,
        })
        .collect();
    Ok(OrderList {
        orders,
        workloads,
        can_create: caller.may(Capability::SubmitOrders),
    })
}

/// Starts an order for a workload (procurement); returns its id.
#[server(endpoint = "orders/create")]
pub async fn create_order(title: String, workload_id: i64) -> Result<i64, AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    let id = orders::create(&auth::db()?, &caller, &team, &title, workload_id).await?;
    crate::components::forms::open_after_plain_post(&format!("/orders/{id}"));
    Ok(id)
}

/// The orders page.
#[component]
pub fn OrdersPage() -> impl IntoView {
    member_page(|_caller| {
        // Posted without a script: the new order opens (`create_order`).
        let create = ServerAction::<CreateOrder>::new();
        let data = Resource::new(|| (), |()| list_orders());
        let issues = issues_of(create, None);
        view! {
            <Title text=t(Msg::OrdersTitle) />
            <h1>{t(Msg::OrdersTitle)}</h1>
            <p class="lead">{t(Msg::OrdersLead)}</p>
            <Loaded resource=data let:list>
                {list.can_create.then(|| view! {
                    <section class="card">
                        <h2>{t(Msg::OrdersNewTitle)}</h2>
                        <ActionForm action=create attr:class="form-inline" attr:data-testid="order-form">
                            <label>{t(Msg::OrdersFTitle)}
                                <input type="text" name="title" required maxlength="200" aria-invalid=invalid(issues, "title") aria-describedby=message_id("title", "create") />
                            </label>
                            <FieldNote issues field="title" scope="create" />
                            <label>{t(Msg::OrdersFWorkload)}
                                <select name="workload_id">
                                    {list.workloads.iter().map(|(id, name)| view! { <option value=id.to_string()>{name.clone()}</option> }).collect_view()}
                                </select>
                            </label>
                            <button type="submit">{t(Msg::OrdersCreate)}</button>
                        </ActionForm>
                        <FormError action=create />
                    </section>
                })}
                {if list.orders.is_empty() {
                    view! { <p class="empty-state">{t(Msg::OrdersEmpty)}</p> }.into_any()
                } else {
                    view! {
                        <table class="table" data-testid="order-table">
                            <thead><tr>
                                <th class="num">{t(Msg::OrdersColNumber)}</th>
                                <th>{t(Msg::OrdersColTitle)}</th><th>{t(Msg::OrdersColWorkload)}</th>
                                <th class="num">{t(Msg::OrdersColRevision)}</th><th>{t(Msg::OrdersColState)}</th>
                            </tr></thead>
                            <tbody>
                                {list.orders.into_iter().map(|o| view! {
                                    <tr>
                                        <td class="num" data-testid="order-number">{format!("#{}", o.id)}</td>
                                        <td><a href=format!("/orders/{}", o.id)>{o.title}</a></td>
                                        <td>{o.workload}</td>
                                        <td class="num">{o.revision}</td>
                                        <td><span class=state_class(o.state)>{t(state_msg(o.state))}</span></td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any()
                }}
            </Loaded>
        }
        .into_any()
    })
}
