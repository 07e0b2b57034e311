//! The header's notifications: a badge counting what waits for the signed-in user in the active
//! team (the dashboard's to-do, `services::dashboard::todo`), and a list of those entries, each a
//! link to its place. Rendered on the server with every page; it needs no script.

use crate::{
    domain::dashboard::Todo,
    error::AppError,
    i18n::{Msg, t, use_locale},
    texts::dashboard as words,
};
use leptos::prelude::*;

/// What waits for the caller: their active team's to-do and, for administrators, the site's.
/// Nothing for someone signed out.
#[server(endpoint = "notifications")]
pub async fn get_notifications() -> Result<Vec<Todo>, AppError> {
    use crate::{auth, services, store};
    let Some(caller) = auth::caller()? else {
        return Ok(Vec::new());
    };
    let db = auth::db()?;
    services::dashboard::todo(
        &db,
        caller.user_id,
        caller.is_admin,
        caller.active_membership(),
        store::today(),
    )
    .await
}

/// A list of to-do entries, each a link to its place, or `empty` (in words) when there are none.
#[component]
pub fn TodoList(entries: Vec<Todo>, empty: Msg) -> impl IntoView {
    let locale = use_locale();
    if entries.is_empty() {
        return view! { <p class="empty-state">{t(empty)}</p> }.into_any();
    }
    view! {
        <ul class="todo-list">
            {entries
                .into_iter()
                .map(|e| {
                    let detail = words::todo_detail(locale, &e);
                    view! {
                        <li data-testid="todo-entry" data-kind=e.kind()>
                            <a href=e.href()>{words::todo(locale, &e)}</a>
                            {detail.map(|d| view! { <p class="hint">{d}</p> })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

/// The bell: a `<details>` whose summary opens the list without a script, rendered whole on the
/// server with every page (each page is a new load, so the count is always fresh). Nothing
/// when the list cannot be read.
#[component]
pub fn Notifications() -> impl IntoView {
    let locale = use_locale();
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let entries = get_notifications().await.ok()?;
                let title = badge_label(locale, entries.len());
                Some(view! {
                    <details class="notifications" data-testid="notifications">
                        <summary class="link-button notify-button" title=title>
                            {bell_face(locale, entries.len())}
                        </summary>
                        <div id="notify-panel" class="notify-panel" data-testid="notify-panel">
                            {panel_body(entries)}
                        </div>
                    </details>
                })
            })}
        </Suspense>
    }
}

/// "n waiting", the bell's accessible name and tooltip.
fn badge_label(locale: crate::i18n::Locale, n: usize) -> String {
    locale.fmt(Msg::NotifyBadgeLabel, &[("n", &n.to_string())])
}

/// What the bell shows: the icon and the count (its words for screen readers). The icon is an
/// inline SVG drawn in the text colour, so it shows on a system without an emoji font; its name
/// is the hidden text before it.
fn bell_face(locale: crate::i18n::Locale, n: usize) -> impl IntoView + use<> {
    view! {
        <span class="visually-hidden">{t(Msg::NotifyLabel)} ": " {badge_label(locale, n)}</span>
        <svg
            class="icon bell-icon"
            aria-hidden="true"
            focusable="false"
            width="18"
            height="18"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
            stroke-linejoin="round"
        >
            <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
            <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span class="badge" class:badge-zero=n == 0 aria-hidden="true" data-testid="notify-count">
            {n}
        </span>
    }
}

/// The opened bell: the list and a link to the dashboard.
fn panel_body(entries: Vec<Todo>) -> impl IntoView {
    view! {
        <TodoList entries empty=Msg::NotifyEmpty />
        <a href="/" class="small">{t(Msg::NotifyDashboard)}</a>
    }
}
