//! The home page: a dashboard for the caller's role in the active team.

use crate::{
    components::guard::member_page,
    domain::roles::TeamRole,
    i18n::{Msg, t},
    views::Caller,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// One card of a dashboard: a heading and what will appear there.
fn card(title: Msg, body: Msg) -> impl IntoView {
    view! {
        <article class="card">
            <h2>{t(title)}</h2>
            <p class="empty-state">{t(body)}</p>
        </article>
    }
}

fn role_cards(role: TeamRole) -> AnyView {
    match role {
        TeamRole::Procurement => view! {
            {card(Msg::DashQuotesTitle, Msg::DashQuotesEmpty)}
            {card(Msg::DashCompareTitle, Msg::DashCompareEmpty)}
            {card(Msg::DashOrdersTitle, Msg::DashOrdersEmpty)}
        }
        .into_any(),
        TeamRole::Engineer => view! {
            {card(Msg::DashRunsTitle, Msg::DashRunsEmpty)}
            {card(Msg::DashChecklistTitle, Msg::DashChecklistEmpty)}
        }
        .into_any(),
        TeamRole::Manager => view! {
            {card(Msg::DashReviewTitle, Msg::DashReviewEmpty)}
            {card(Msg::DashCompareTitle, Msg::DashCompareEmpty)}
        }
        .into_any(),
    }
}

fn dashboard(caller: Caller) -> AnyView {
    let heading = match caller.active_membership() {
        Some(m) => view! {
            <h1 data-testid="dashboard-title">{m.team_name.clone()}</h1>
            <p class="lead" data-testid="dashboard-role">{t(m.role.label())} " · " {t(Msg::DashRoleLead)}</p>
        }
        .into_any(),
        None => view! {
            <h1 data-testid="dashboard-title">{t(Msg::DashWelcome)}</h1>
            <p class="lead">{t(if caller.is_admin { Msg::DashAdminLead } else { Msg::DashNoTeam })}</p>
        }
        .into_any(),
    };
    let cards = caller.active_membership().map(|m| role_cards(m.role));
    let admin = caller.is_admin.then(|| {
        view! {
            <article class="card">
                <h2>{t(Msg::DashAdminTitle)}</h2>
                <ul class="links">
                    <li><a href="/admin/teams">{t(Msg::NavAdminTeams)}</a></li>
                    <li><a href="/admin/users">{t(Msg::NavAdminUsers)}</a></li>
                </ul>
            </article>
        }
    });
    view! {
        <Title text=t(Msg::NavDashboard) />
        {heading}
        <div class="card-grid">{cards} {admin}</div>
    }
    .into_any()
}

/// The dashboard page.
#[component]
pub fn DashboardPage() -> impl IntoView {
    member_page(dashboard)
}
