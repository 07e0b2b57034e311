//! Requests for quotation, the team's pages: the list (`/requests`), a new request
//! (`/requests/new`) and one request (`/requests/:id`). Procurement makes and closes them; every
//! member follows them. The vendor's page is [`bid`]. How a request works:
//! [`crate::domain::rfq`].

pub mod bid;
pub mod detail;
pub mod new;

use crate::{
    components::{guard::member_page, loaded::Loaded, local_time::Moment},
    domain::bills::timestamp,
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::rfq::{RequestDetail, RequestSummary},
};
use leptos::prelude::*;
use leptos_meta::Title;

/// The team's requests, newest first.
#[server(endpoint = "requests")]
pub async fn list_requests() -> Result<Vec<RequestSummary>, AppError> {
    use crate::{auth, domain::roles::Capability};
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    crate::services::rfq::list(&auth::state()?, &team, crate::clock::now_unix()).await
}

/// One of the team's requests: who submitted until the close, the quotes made after it.
#[server(endpoint = "requests/one")]
pub async fn load_request(id: i64) -> Result<RequestDetail, AppError> {
    use crate::{auth, domain::roles::Capability};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let can_edit = crate::domain::roles::member_may(team.role, caller.is_admin, Capability::EditProcurement);
    let locale = crate::i18n::request_locale();
    crate::services::rfq::detail(&auth::state()?, &team, id, crate::clock::now_unix(), locale, can_edit).await
}

fn status_text(r: &RequestSummary) -> String {
    let locale = use_locale();
    if r.closed {
        locale.t(Msg::RfqOpened).to_string()
    } else {
        locale.fmt(
            Msg::RfqSubmittedOf,
            &[("n", &r.submitted.to_string()), ("of", &r.invited.to_string())],
        )
    }
}

fn request_table(requests: Vec<RequestSummary>) -> impl IntoView {
    if requests.is_empty() {
        return view! { <p class="empty" data-testid="requests-empty">{t(Msg::RfqNone)}</p> }.into_any();
    }
    view! {
        <table class="table" data-testid="requests-table">
            <thead>
                <tr>
                    <th>{t(Msg::RfqNo)}</th>
                    <th>{t(Msg::RfqTitle)}</th>
                    <th>{t(Msg::RfqCloseAt)}</th>
                    <th>{t(Msg::RfqStatus)}</th>
                </tr>
            </thead>
            <tbody>
                {requests.into_iter().map(|r| {
                    let status = status_text(&r);
                    view! {
                        <tr>
                            <td>{format!("#{}", r.id)}</td>
                            <td><a href=format!("/requests/{}", r.id)>{r.title}</a></td>
                            <td><Moment at=timestamp::format(r.close_at) /></td>
                            <td>{status}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// `/requests`.
#[component]
pub fn RequestsPage() -> impl IntoView {
    member_page(|_| {
        let requests = Resource::new(|| (), |()| list_requests());
        view! {
            <Title text=t(Msg::RfqListTitle) />
            <h1>{t(Msg::RfqListTitle)}</h1>
            <p class="lead">{t(Msg::RfqListLead)}</p>
            <p><a class="button" href="/requests/new" data-testid="request-new">{t(Msg::RfqNew)}</a></p>
            <Loaded resource=requests let:list>{request_table(list)}</Loaded>
        }
        .into_any()
    })
}
