//! The page header: product name, active team, user menu, language switch.
//!
//! The links, the team and the user menu sit in one `<details>` disclosure: on a phone it is a
//! "Menu" button (one tab stop while closed, no script needed); from 40rem up the stylesheet shows
//! its content in the header row and hides the button.

use crate::{
    components::{
        forms::ActionError,
        notifications::Notifications,
        session::{Logout, SwitchTeam, get_session_info},
    },
    i18n::{Locale, Msg, t, use_locale},
    views::{Caller, SessionInfo},
};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// The header shown on every page.
#[component]
pub fn Header() -> impl IntoView {
    // The header reads its own copy of the session: one resource awaited by two `Suspense`
    // boundaries (header and page guard) can stall streaming SSR (leptos-rs/leptos#4851).
    let session = Resource::new(|| (), |()| get_session_info());
    // Not `<Loaded>`: while loading, and when the session cannot be read, the header shows no
    // menu (no loading line, no error box).
    view! {
        <header class="site-header">
            <a class="brand" href="/">
                <span class="brand-mark" aria-hidden="true">"◆"</span>
                "NodeLedger"
            </a>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match session.await {
                        Ok(SessionInfo { caller: Some(caller), .. }) => {
                            view! { <SignedInNav caller /> }.into_any()
                        }
                        _ => ().into_any(),
                    }
                })}
            </Suspense>
            <LanguageSwitch />
        </header>
    }
}

#[component]
fn SignedInNav(caller: Caller) -> impl IntoView {
    let logout = ServerAction::<Logout>::new();
    let active = caller.active_membership().cloned();
    let is_admin = caller.is_admin;
    // Flat on purpose: the three disclosure lines wrap the nav, team and user menu unchanged.
    // The notifications stay outside the menu: what waits for the user shows on a phone too.
    view! {
        <Notifications />
        <details class="nav-menu" data-testid="nav-menu">
        <summary class="nav-menu-toggle">{t(Msg::LayoutMenu)}</summary>
        <div class="nav-menu-body">
        <nav class="main-nav" aria-label=t(Msg::NavMain)>
            <a href="/">{t(Msg::NavDashboard)}</a>
            {active.is_some().then(|| view! {
                <a href="/quotes">{t(Msg::NavQuotes)}</a>
                <a href="/runs">{t(Msg::NavRuns)}</a>
                <a href="/tco">{t(Msg::NavTco)}</a>
                <a href="/orders">{t(Msg::NavOrders)}</a>
                <a href="/team">{t(Msg::NavTeam)}</a>
            })}
            {active.is_some().then(master_data_links)}
            {is_admin
                .then(|| {
                    view! {
                        <a href="/admin/teams">{t(Msg::NavAdminTeams)}</a>
                        <a href="/admin/users">{t(Msg::NavAdminUsers)}</a>
                        <a href="/admin/security">{t(Msg::SecondFactorNavAdmin)}</a>
                        <a href="/admin/audit">{t(Msg::SecAuditTitle)}</a>
                    }
                })}
        </nav>
        <TeamSwitch caller=caller.clone() />
        <div class="user-menu">
            <a href="/account" class="user-name" data-testid="user-name">{caller.display_name}</a>
            <ActionForm action=logout attr:class="inline-form">
                <button type="submit" class="link-button">{t(Msg::NavSignOut)}</button>
            </ActionForm>
        </div>
        </div>
        </details>
    }
}

/// The team's reference data: vendors, workloads, exchange rates (every member reads them).
fn master_data_links() -> impl IntoView {
    view! {
        <a href="/vendors">{t(Msg::NavVendors)}</a>
        <a href="/workloads">{t(Msg::NavWorkloads)}</a>
        <a href="/rates">{t(Msg::NavRates)}</a>
    }
}

#[component]
fn TeamSwitch(caller: Caller) -> impl IntoView {
    let switch = ServerAction::<SwitchTeam>::new();
    let active = caller.active_team;
    match caller.memberships.len() {
        0 => ().into_any(),
        1 => {
            let m = &caller.memberships[0];
            // The badge may be cut short on a narrow header: its title keeps the whole name.
            let whole = format!("{} · {}", m.team_name, t(m.role.label()));
            view! {
                <span class="team-badge" data-testid="active-team" title=whole>
                    {m.team_name.clone()} " · " {t(m.role.label())}
                </span>
            }
            .into_any()
        }
        _ => view! {
            <ActionForm action=switch attr:class="team-switch">
                <label class="visually-hidden" for="team-switch">{t(Msg::TeamSwitchLabel)}</label>
                <select id="team-switch" name="team_id" data-testid="active-team">
                    {caller
                        .memberships
                        .iter()
                        .map(|m| {
                            view! {
                                <option value=m.team_id.to_string() selected=Some(m.team_id) == active>
                                    {m.team_name.clone()} " · " {t(m.role.label())}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <button type="submit" class="small">{t(Msg::TeamSwitchSubmit)}</button>
                <ActionError action=switch />
            </ActionForm>
        }
        .into_any(),
    }
}

/// Switches the language with a plain form post: it works before hydration too, and the
/// server remembers the choice in a cookie.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let current = use_locale();
    let location = use_location();
    let next = move || {
        let query = location.search.get();
        let path = location.pathname.get();
        if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        }
    };
    view! {
        <form method="post" action="/lang" class="lang-switch" aria-label=t(Msg::LangSwitchLabel)>
            <input type="hidden" name="next" value=next />
            {Locale::ALL
                .into_iter()
                .map(|l| {
                    let name = match l {
                        Locale::En => Msg::LangEn,
                        Locale::ZhCn => Msg::LangZhCn,
                    };
                    view! {
                        <button
                            type="submit"
                            name="lang"
                            value=l.tag()
                            class="link-button"
                            aria-pressed=(l == current).to_string()
                            lang=l.tag()
                        >
                            {t(name)}
                        </button>
                    }
                })
                .collect_view()}
        </form>
    }
}
