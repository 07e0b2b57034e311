//! The header's notifications: a badge counting what waits for the signed-in user in the active
//! team (the dashboard's to-do, `services::dashboard::todo`), and a list of those entries, each a
//! link to its place. Loaded in the browser and reloaded on every navigation (one request,
//! keyed on the path).

use crate::{
    domain::dashboard::Todo,
    error::AppError,
    i18n::{Msg, t, use_locale},
    texts::dashboard as words,
};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

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

/// The bell with its count; opens the list. Closes again when the page changes.
///
/// Loaded in the browser only, by an effect that runs after hydration and again after every
/// navigation: the header is itself rendered inside the session's `Suspense`, which would wait
/// for (and on the server, never see the end of) a resource read here. The server renders
/// nothing here; the badge appears once the page is hydrated, and keeps its last count while
/// the next one loads.
#[component]
pub fn Notifications() -> impl IntoView {
    let location = use_location();
    let entries = RwSignal::new(None::<Vec<Todo>>);
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        location.pathname.track();
        open.set(false);
        leptos::task::spawn_local(async move {
            match get_notifications().await {
                Ok(list) => entries.set(Some(list)),
                Err(e) => leptos::logging::warn!("notifications: {e}"),
            }
        });
    });
    let locale = use_locale();
    move || {
        let Some(entries) = entries.get() else {
            return ().into_any();
        };
        let n = entries.len();
        let label = locale.fmt(Msg::NotifyBadgeLabel, &[("n", &n.to_string())]);
        let title = label.clone();
        view! {
            <div class="notifications" data-testid="notifications">
                <button
                    type="button"
                    class="link-button notify-button"
                    aria-expanded=move || open.get().to_string()
                    aria-controls="notify-panel"
                    title=title
                    on:click=move |_| open.update(|o| *o = !*o)
                >
                    <span class="visually-hidden">{t(Msg::NotifyLabel)} ": " {label}</span>
                    <span aria-hidden="true">"🔔"</span>
                    <span class="badge" class:badge-zero=n == 0 aria-hidden="true" data-testid="notify-count">
                        {n}
                    </span>
                </button>
                <div id="notify-panel" class="notify-panel" hidden=move || !open.get() data-testid="notify-panel">
                    <TodoList entries empty=Msg::NotifyEmpty />
                    <a href="/" class="small">{t(Msg::NotifyDashboard)}</a>
                </div>
            </div>
        }
        .into_any()
    }
}
