//! `/requests/:id`: one request. Until the close the team sees, per vendor, only whether it
//! submitted; procurement can revoke or replace a link and close early with a reason. After the
//! close: the quote each bid became, to compare.

use super::load_request;
use crate::{
    components::{
        forms::{ActionError, shown_once},
        guard::member_page,
        loaded::Loaded,
        local_time::Moment,
    },
    domain::bills::timestamp,
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::rfq::{OpenedBid, RequestDetail, SentLink, VendorStatus},
};
use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

/// Revokes a vendor's link; with `replace`, makes it a new one (shown once).
#[server(endpoint = "requests/revoke")]
pub async fn revoke_link(
    request_id: i64,
    invitation_id: i64,
    #[server(default)] replace: bool,
) -> Result<Option<SentLink>, AppError> {
    use crate::{auth, domain::roles::Capability};
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let now = crate::clock::now_unix();
    let link = crate::services::rfq::revoke_link(
        &auth::db()?,
        caller.user_id,
        &team,
        request_id,
        invitation_id,
        replace,
        now,
    )
    .await?;
    match &link {
        Some(new) if crate::components::forms::show_once_after_plain_post(RevokeLink::PATH, new).await? => Ok(None),
        Some(_) => Ok(link),
        None => {
            crate::components::forms::saved_after_plain_post();
            Ok(None)
        }
    }
}

/// Opens the bids before the close time, with a reason (audited).
#[server(endpoint = "requests/close")]
pub async fn close_request(request_id: i64, reason: String) -> Result<usize, AppError> {
    use crate::{auth, domain::roles::Capability};
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let now = crate::clock::now_unix();
    let opened =
        crate::services::rfq::close::close_early(&auth::db()?, caller.user_id, team.team_id, request_id, &reason, now)
            .await?;
    crate::components::forms::saved_after_plain_post();
    Ok(opened)
}

/// A change to an open request as posted (`form[close_local]`, …): a new close time when one is
/// typed, the vendors checked (`form[vendors][<id>]`) invited as well.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ChangeForm {
    pub request_id: String,
    pub close_local: String,
    pub utc_offset: String,
    pub vendors: std::collections::BTreeMap<String, String>,
}

/// Moves the close time or invites more vendors (their links shown once), audited.
#[server(endpoint = "requests/change")]
pub async fn change_request(form: ChangeForm) -> Result<Vec<SentLink>, AppError> {
    use crate::{auth, domain::roles::Capability, services::rfq::change};
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let request_id = form.request_id.trim().parse().map_err(|_| AppError::NotFound)?;
    let close = format!("{}{}", form.close_local.trim(), form.utc_offset.trim());
    let close_at = if form.close_local.trim().is_empty() {
        None
    } else {
        Some(crate::domain::bills::timestamp::parse(&close).ok_or(AppError::Invalid(Msg::RfqErrCloseFormat))?)
    };
    let wanted = change::Change {
        close_at,
        add_vendor_ids: form.vendors.keys().filter_map(|k| k.parse().ok()).collect(),
    };
    let now = crate::clock::now_unix();
    let links = change::change(&auth::db()?, caller.user_id, &team, request_id, wanted, now).await?;
    if crate::components::forms::show_once_after_plain_post(ChangeRequest::PATH, &links).await? {
        return Ok(Vec::new());
    }
    Ok(links)
}

/// The change form, open with the links of the vendors it just invited (shown this once).
fn change_form(r: &RequestDetail, change: ServerAction<ChangeRequest>) -> impl IntoView + use<> {
    let id = r.id.to_string();
    let vendors = r.invitable.clone();
    let invited = shown_once::<Vec<SentLink>>(ChangeRequest::PATH);
    let open = invited.is_some();
    view! {
        <details class="card" open=open>
            <summary>{t(Msg::RfqChange)}</summary>
            <ActionForm action=change attr:class="form" attr:data-testid="request-change" attr:data-in-place="">
                <input type="hidden" name="form[request_id]" value=id />
                <div class="form-row">
                    <label>{t(Msg::RfqNewCloseAt)}<input type="datetime-local" name="form[close_local]" /></label>
                    <label>{t(Msg::RfqUtcOffset)}
                        <select name="form[utc_offset]">{super::new::OFFSETS.iter().map(|o| view! { <option value=*o>{format!("UTC{o}")}</option> }).collect_view()}</select>
                    </label>
                </div>
                {vendors.into_iter().map(|v| {
                    let name = format!("form[vendors][{}]", v.id);
                    let email = v.email.clone();
                    view! {
                        <label class="check"><input type="checkbox" name=name value="on" disabled=email.is_none() />
                            " " {v.name} " " <small class="hint">{email.unwrap_or_else(|| t(Msg::RfqVendorNoEmail).to_string())}</small></label>
                    }
                }).collect_view()}
                <ActionError action=change />
                <button type="submit">{t(Msg::RfqChangeSave)}</button>
            </ActionForm>
            {invited.map(|links| view! {
                <ul data-testid="request-change-links">
                    {links.into_iter().map(|l| view! { <li>{l.vendor} ": " <code class="link-text">{l.path}</code></li> }).collect_view()}
                </ul>
            })}
        </details>
    }
}

fn needs_table(rows: Vec<(String, String)>) -> impl IntoView {
    view! {
        <table class="table facts" data-testid="request-needs">
            <tbody>
                {rows.into_iter().map(|(label, value)| view! { <tr><th scope="row">{label}</th><td>{value}</td></tr> }).collect_view()}
            </tbody>
        </table>
    }
}

fn vendor_status(v: &VendorStatus) -> String {
    let locale = use_locale();
    if v.revoked {
        locale.t(Msg::RfqRevoked).to_string()
    } else if v.revisions == 0 {
        locale.t(Msg::RfqNotYet).to_string()
    } else {
        locale.fmt(Msg::RfqSubmittedRevisions, &[("n", &v.revisions.to_string())])
    }
}

fn vendor_row(request_id: i64, v: VendorStatus, can_edit: bool, revoke: ServerAction<RevokeLink>) -> impl IntoView {
    let status = vendor_status(&v);
    let submitted = v.revisions > 0 && !v.revoked;
    let actions = can_edit.then(|| {
        let id = v.invitation_id.to_string();
        let again = id.clone();
        view! {
            <ActionForm action=revoke attr:class="inline" attr:data-in-place="">
                <input type="hidden" name="request_id" value=request_id.to_string() />
                <input type="hidden" name="invitation_id" value=id.clone() />
                <button type="submit" class="secondary" name="replace" value="true">{t(Msg::RfqNewLink)}</button>
            </ActionForm>
            {(!v.revoked).then(|| view! {
                <ActionForm action=revoke attr:class="inline" attr:data-in-place="">
                    <input type="hidden" name="request_id" value=request_id.to_string() />
                    <input type="hidden" name="invitation_id" value=again.clone() />
                    <button type="submit" class="secondary">{t(Msg::RfqRevoke)}</button>
                </ActionForm>
            })}
        }
    });
    view! {
        <tr data-testid="request-vendor" data-submitted=submitted.to_string()>
            <td>{v.vendor}</td>
            <td>{v.email}</td>
            <td>{status} {v.last_submitted_at.map(|at| view! { " · " <Moment at=timestamp::format(at) /> })}</td>
            <td>{actions}</td>
        </tr>
    }
}

fn opened_table(opened: Vec<OpenedBid>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <section class="card" data-testid="request-opened">
            <h2>{t(Msg::RfqOpenedTitle)}</h2>
            <table class="table">
                <thead><tr><th>{t(Msg::RfqVendor)}</th><th>{t(Msg::RfqRevision)}</th><th>{t(Msg::RfqReceipt)}</th><th>{t(Msg::RfqAnswers)}</th></tr></thead>
                <tbody>
                    {opened.into_iter().map(|b| view! {
                        <tr>
                            <td><a href=format!("/quotes/{}", b.quote_id)>{b.vendor}</a></td>
                            <td>{b.revision}</td>
                            <td><code>{b.receipt.chars().take(16).collect::<String>()}"…"</code></td>
                            <td>{locale.fmt(Msg::RfqAnswerCount, &[("n", &b.answers.to_string())])}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p><a href="/tco" data-testid="request-compare">{t(Msg::RfqCompare)}</a></p>
        </section>
    }
}

fn close_form(request_id: i64, close: ServerAction<CloseRequest>) -> impl IntoView {
    view! {
        <details class="card">
            <summary>{t(Msg::RfqCloseEarly)}</summary>
            <ActionForm action=close attr:class="form" attr:data-testid="request-close" attr:data-in-place="">
                <input type="hidden" name="request_id" value=request_id.to_string() />
                <label>{t(Msg::RfqCloseReason)}<input type="text" name="reason" required=true maxlength="200" /></label>
                <ActionError action=close />
                <button type="submit">{t(Msg::RfqCloseNow)}</button>
            </ActionForm>
        </details>
    }
}

/// The actions that change a request, and its results.
#[derive(Clone, Copy)]
struct Actions {
    revoke: ServerAction<RevokeLink>,
    close: ServerAction<CloseRequest>,
    change: ServerAction<ChangeRequest>,
}

fn request_view(r: RequestDetail, actions: Actions) -> impl IntoView {
    let Actions { revoke, close, change } = actions;
    let changing = r.can_edit.then(|| change_form(&r, change));
    let locale = use_locale();
    let live: Vec<&VendorStatus> = r.vendors.iter().filter(|v| !v.revoked).collect();
    let submitted = live.iter().filter(|v| v.revisions > 0).count();
    let summary = locale.fmt(
        Msg::RfqSubmittedOf,
        &[("n", &submitted.to_string()), ("of", &live.len().to_string())],
    );
    let closed = r.closed_at.is_some();
    let id = r.id;
    view! {
        <p class="breadcrumb"><a href="/requests">{t(Msg::RfqListTitle)}</a></p>
        <h1>{r.title.clone()} " " <small>{format!("#{}", r.id)}</small></h1>
        <p data-testid="request-close-at">{t(Msg::RfqCloseAt)} ": " <Moment at=timestamp::format(r.close_at) />
            {r.closed_early_reason.clone().map(|why| view! { " · " {t(Msg::RfqClosedEarly)} ": " {why} })}</p>
        <p class="status" data-testid="request-submitted"><strong>{summary}</strong>
            {(!closed).then(|| view! { " · " <span class="hint">{t(Msg::RfqSealed)}</span> })}</p>
        <h2>{t(Msg::RfqVendors)}</h2>
        <table class="table" data-testid="request-vendors">
            <thead><tr><th>{t(Msg::RfqVendor)}</th><th>{t(Msg::RfqEmail)}</th><th>{t(Msg::RfqStatus)}</th><th></th></tr></thead>
            <tbody>{r.vendors.into_iter().map(|v| vendor_row(id, v, r.can_edit, revoke)).collect_view()}</tbody>
        </table>
        {shown_once::<SentLink>(RevokeLink::PATH).map(|l| view! {
            <p class="notice" data-testid="request-new-link">{l.vendor} ": " <code>{l.path}</code></p>
        })}
        <ActionError action=revoke />
        {(!r.opened.is_empty()).then(|| opened_table(r.opened))}
        {changing}
        {r.can_edit.then(|| close_form(id, close))}
        <h2>{t(Msg::RfqNeeds)}</h2>
        {needs_table(r.needs)}
        <h2>{t(Msg::RfqFieldsAsked)}</h2>
        <p data-testid="request-fields-asked">{
            let asked: Vec<&str> = r.requested.iter().map(|c| crate::pages::quotes::form::label(c)).collect();
            if asked.is_empty() { t(Msg::RfqFieldsNone).to_string() } else { asked.join(" · ") }
        }</p>
        <h2>{t(Msg::RfqQuestions)}</h2>
        <ol data-testid="request-question-list">{r.questions.into_iter().map(|q| view! { <li>{q}</li> }).collect_view()}</ol>
    }
}

/// `/requests/:id`.
#[component]
pub fn RequestPage() -> impl IntoView {
    member_page(|_| {
        let params = use_params_map();
        let id = move || {
            params
                .read()
                .get("id")
                .and_then(|id| id.parse::<i64>().ok())
                .unwrap_or_default()
        };
        let data = Resource::new(id, load_request);
        view! {
            <Loaded resource=data let:r>
                <Title text=r.title.clone() />
                <RequestWork r />
            </Loaded>
        }
        .into_any()
    })
}

/// The request; its forms (a new link, a change, the close) save in place (`data-in-place`) or
/// post as plain forms, and a new link is shown this once on the page they come back to.
#[component]
fn RequestWork(r: RequestDetail) -> impl IntoView {
    let actions = Actions {
        revoke: ServerAction::<RevokeLink>::new(),
        close: ServerAction::<CloseRequest>::new(),
        change: ServerAction::<ChangeRequest>::new(),
    };
    request_view(r, actions)
}
