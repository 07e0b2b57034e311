//! The audit log: administrators' actions (users, teams, roles, tokens, settings) as recorded in
//! the tamper-evident chain, newest first, with the chain's head. Administrators only.

use crate::{
    components::{guard::admin_page, loaded::Loaded, local_time::Moment},
    error::AppError,
    i18n::{Msg, t, use_locale},
    texts::audit as words,
    views::audit::{SiteEvent, SiteLog},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// The chain's head and the site events before seq `before` (all newest first when `None`).
#[server(endpoint = "admin/audit")]
pub async fn load_site_log(before: Option<i64>) -> Result<SiteLog, AppError> {
    use crate::{auth, services};
    auth::require_admin()?;
    Ok(services::site_audit::log(&auth::db()?, before).await?)
}

fn event_row(e: SiteEvent) -> impl IntoView {
    let locale = use_locale();
    view! {
        <tr data-testid="audit-event" data-action=e.action.as_str()>
            <td>{e.seq}</td>
            <td><Moment at=e.at.clone() /></td>
            <td>{words::actor(locale, &e)}</td>
            <td>{t(words::action_msg(e.action))}</td>
            <td>{words::detail(locale, &e)}</td>
        </tr>
    }
}

fn log_view(log: SiteLog) -> impl IntoView {
    let locale = use_locale();
    let head = locale.fmt(
        Msg::SecAuditHead,
        &[("events", &log.events.to_string()), ("hash", &log.head_hash)],
    );
    let older = log.older;
    let table = (!log.entries.is_empty()).then(|| {
        view! {
            <table class="table" data-testid="audit-table">
                <thead><tr>
                    <th>{t(Msg::SecAuditColSeq)}</th>
                    <th>{t(Msg::SecAuditColAt)}</th>
                    <th>{t(Msg::SecAuditColActor)}</th>
                    <th>{t(Msg::SecAuditColAction)}</th>
                    <th>{t(Msg::SecAuditColDetail)}</th>
                </tr></thead>
                <tbody>{log.entries.into_iter().map(event_row).collect_view()}</tbody>
            </table>
        }
    });
    view! {
        <p data-testid="audit-head"><code class="token">{head}</code></p>
        {match table {
            Some(table) => table.into_any(),
            None => view! { <p class="empty-state">{t(Msg::SecAuditNone)}</p> }.into_any(),
        }}
        {older.map(|seq| view! {
            <a class="button-link small" href=format!("/admin/audit?before={seq}") data-testid="audit-older">{t(Msg::SecAuditOlder)}</a>
        })}
    }
}

/// The audit log page.
#[component]
pub fn AdminAuditPage() -> impl IntoView {
    admin_page(|_| {
        // Older events: a link (`?before=` the oldest shown), so the page needs no script.
        let query = use_query_map();
        let before = move || query.read().get("before").and_then(|v| v.parse::<i64>().ok());
        let log = Resource::new(before, load_site_log);
        view! {
            <Title text=t(Msg::SecAuditTitle) />
            <h1>{t(Msg::SecAuditTitle)}</h1>
            <p class="lead">{t(Msg::SecAuditLead)}</p>
            <Loaded resource=log let:log>
                {log_view(log)}
            </Loaded>
        }
        .into_any()
    })
}
