//! The home page: live counts and what waits for the caller in their role in the active team
//! (built by `services::dashboard`), plus site administration for administrators.

use crate::{
    components::{guard::member_page, loaded::Loaded, notifications::TodoList},
    domain::dashboard::{Count, Dashboard, Decision},
    error::AppError,
    i18n::{Msg, t, use_locale},
    texts::dashboard as words,
    views::Caller,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// The caller's dashboard. Also remembers the language the caller reads the app in, for the
/// optional to-do mail.
#[server(endpoint = "dashboard")]
pub async fn get_dashboard() -> Result<Dashboard, AppError> {
    use crate::{auth, services, store};
    let caller = auth::require_caller()?;
    let db = auth::db()?;
    store::notification_mail::remember_locale(&db, caller.user_id, crate::i18n::request_locale()).await?;
    services::dashboard::load(&db, &caller, store::today()).await
}

fn counts(counts: Vec<Count>) -> impl IntoView + use<> {
    (!counts.is_empty()).then(|| {
        view! {
            <ul class="counts" aria-label=t(Msg::DashboardCountsLabel) data-testid="dashboard-counts">
                {counts
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li>
                                <a href=c.what.href()>
                                    <strong data-testid="count-value">{c.n}</strong>
                                    " "
                                    <span data-testid="count-label">{t(words::count_label(&c))}</span>
                                </a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    })
}

fn decisions(decisions: Vec<Decision>) -> impl IntoView {
    let locale = use_locale();
    let body = if decisions.is_empty() {
        view! { <p class="empty-state">{t(Msg::DashboardNoDecisions)}</p> }.into_any()
    } else {
        view! {
            <ul class="todo-list">
                {decisions
                    .into_iter()
                    .map(|d| {
                        view! {
                            <li data-testid="decision">
                                <a href=format!("/orders/{}", d.order_id)>{words::decision(locale, &d)}</a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <article class="card" data-testid="dashboard-decisions">
            <h2>{t(Msg::DashboardDecisionsTitle)}</h2>
            {body}
        </article>
    }
}

fn board(caller: &Caller, board: Dashboard) -> impl IntoView + use<> {
    let in_team = caller.active_membership().is_some();
    let is_manager = caller
        .active_membership()
        .is_some_and(|m| m.role == crate::domain::roles::TeamRole::Manager);
    let todo = in_team.then(|| {
        view! {
            <article class="card" data-testid="dashboard-todo">
                <h2>{t(Msg::DashboardTodoTitle)}</h2>
                <TodoList entries=board.todo empty=Msg::DashboardNothingWaits />
            </article>
        }
    });
    let admin = caller.is_admin.then(|| {
        view! {
            <article class="card" data-testid="dashboard-admin">
                <h2>{t(Msg::DashAdminTitle)}</h2>
                <h3>{t(Msg::DashboardAdminTodoTitle)}</h3>
                <TodoList entries=board.admin empty=Msg::DashboardAdminNothing />
                <ul class="links">
                    <li><a href="/admin/teams">{t(Msg::NavAdminTeams)}</a></li>
                    <li><a href="/admin/users">{t(Msg::NavAdminUsers)}</a></li>
                </ul>
            </article>
        }
    });
    view! {
        {counts(board.counts)}
        <div class="card-grid">{todo} {is_manager.then(|| decisions(board.decisions))} {admin}</div>
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
    let data = Resource::new(|| (), |()| get_dashboard());
    let in_team = caller.active_membership().is_some();
    view! {
        <Title text=t(Msg::NavDashboard) />
        {heading}
        <Loaded resource=data let:loaded>
            {board(&caller, loaded)}
        </Loaded>
        // A sibling of the board's `<Loaded>` (nested suspense does not hydrate reliably).
        {in_team.then(|| view! { <super::rentals_overdue::OverdueRentals /> })}
    }
    .into_any()
}

/// The dashboard page.
#[component]
pub fn DashboardPage() -> impl IntoView {
    member_page(dashboard)
}
