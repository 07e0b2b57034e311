//! `/requests/new`: a request made from a workload. The questions are the checklist items a
//! vendor answers for that kind of work (editable, one per line); the links are shown once, to
//! send (only their hashes are kept).

use crate::{
    components::{forms::ActionError, guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::rfq::{CreatedRequest, RequestFormData},
};
use leptos::prelude::*;
use leptos_meta::Title;
use std::collections::BTreeMap;

/// The workloads and vendors to choose from, and the questions for the first workload.
#[server(endpoint = "requests/form")]
pub async fn load_request_form() -> Result<RequestFormData, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, team) = auth::require_team(Capability::EditProcurement)?;
    let db = auth::db()?;
    let workloads = store::workloads::list(&db, team.team_id).await?;
    let questions = workloads.first().map_or_else(String::new, |w| {
        crate::services::orders::asks::request_questions(crate::i18n::request_locale(), &w.record)
            .into_iter()
            .map(|(_, q)| q)
            .collect::<Vec<_>>()
            .join("\n")
    });
    Ok(RequestFormData {
        workloads: workloads.into_iter().map(|w| (w.id, w.record.name)).collect(),
        vendors: crate::services::rfq::vendor_choices(&db, team.team_id).await?,
        questions,
    })
}

/// The questions for one of the team's workloads, one per line.
#[server(endpoint = "requests/questions")]
pub async fn request_questions(workload_id: i64) -> Result<String, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, team) = auth::require_team(Capability::EditProcurement)?;
    let w = store::workloads::by_id(&auth::db()?, team.team_id, workload_id)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(
        crate::services::orders::asks::request_questions(crate::i18n::request_locale(), &w.record)
            .into_iter()
            .map(|(_, q)| q)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The new-request form as posted (`form[title]`, …): a vendor is invited when
/// `form[vendors][<id>]` is checked;
/// `close_local` is `YYYY-MM-DDTHH:MM` at `utc_offset` (`+08:00`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RequestForm {
    pub workload_id: String,
    pub title: String,
    pub region: String,
    /// Left out of the request when blank.
    pub budget: String,
    pub currency: String,
    pub questions: String,
    pub close_local: String,
    pub utc_offset: String,
    pub vendors: BTreeMap<String, String>,
    /// The price-sheet fields to ask for: `form[fields][<column>]` checked.
    pub fields: BTreeMap<String, String>,
}

/// Makes the request and a link per invited vendor.
#[server(endpoint = "requests/create")]
pub async fn create_request(form: RequestForm) -> Result<CreatedRequest, AppError> {
    use crate::{auth, domain::roles::Capability, services::rfq};
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let close = format!("{}{}", form.close_local.trim(), form.utc_offset.trim());
    let close_at = crate::domain::bills::timestamp::parse(&close).ok_or(AppError::Invalid(Msg::RfqErrCloseFormat))?;
    let budget = form.budget.trim();
    let new = rfq::NewRequest {
        workload_id: form.workload_id.trim().parse().map_err(|_| AppError::NotFound)?,
        budget: (!budget.is_empty()).then(|| (budget.to_string(), form.currency.trim().to_uppercase())),
        title: form.title,
        region: form.region,
        questions: form.questions,
        close_at,
        vendor_ids: form.vendors.keys().filter_map(|k| k.parse().ok()).collect(),
        fields: form.fields.into_keys().collect(),
    };
    let locale = crate::i18n::request_locale();
    rfq::create(
        &auth::db()?,
        caller.user_id,
        &team,
        new,
        crate::clock::now_unix(),
        locale,
    )
    .await
}

/// UTC offsets a close time may be typed in (China's first).
pub(super) const OFFSETS: &[&str] = &[
    "+08:00", "+00:00", "+01:00", "+02:00", "+03:00", "+05:30", "+09:00", "-05:00", "-08:00",
];

/// The links to send, once.
fn sent_links(created: CreatedRequest) -> impl IntoView {
    let origin = window_origin();
    view! {
        <section class="card" data-testid="request-links">
            <h2>{t(Msg::RfqLinksTitle)}</h2>
            <p class="hint">{t(Msg::RfqLinksLead)}</p>
            <ul>
                {created.links.into_iter().map(|l| {
                    let url = format!("{origin}{}", l.path);
                    let mail = format!("mailto:{}?subject={}", l.email, t(Msg::RfqMailSubject));
                    view! {
                        <li data-testid="request-link">
                            <strong>{l.vendor}</strong> " · " <a href=mail>{l.email}</a><br />
                            <code class="link-text">{url}</code>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p><a href=format!("/requests/{}", created.id) data-testid="request-open">{t(Msg::RfqOpenRequest)}</a></p>
        </section>
    }
}

/// The site's origin as the browser sees it (empty on the server: the path alone still works).
fn window_origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        window().location().origin().unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}

fn vendor_boxes(data: &RequestFormData) -> impl IntoView + use<> {
    let vendors = data.vendors.clone();
    view! {
        <fieldset class="card" data-testid="request-vendors">
            <legend>{t(Msg::RfqVendors)}</legend>
            {vendors.into_iter().map(|v| {
                let name = format!("form[vendors][{}]", v.id);
                match v.email {
                    Some(email) => view! {
                        <label class="check"><input type="checkbox" name=name value="on" />
                            " " {v.name} " " <small class="hint">{email}</small></label>
                    }.into_any(),
                    None => view! {
                        <label class="check"><input type="checkbox" disabled=true />
                            " " {v.name} " " <small class="hint">{t(Msg::RfqVendorNoEmail)}</small></label>
                    }.into_any(),
                }
            }).collect_view()}
        </fieldset>
    }
}

/// The price-sheet fields to ask every vendor for, the checklist's usual ones checked.
fn field_boxes() -> impl IntoView {
    view! {
        <details class="card" data-testid="request-fields">
            <summary>{t(Msg::RfqFieldsAsked)}</summary>
            <p class="hint">{t(Msg::RfqFieldsAskedHint)}</p>
            <div class="form-row">
                {crate::views::rfq::requestable_fields().into_iter().map(|(column, asked)| view! {
                    <label class="check"><input type="checkbox" name=format!("form[fields][{column}]") value="on" checked=asked />
                        " " {crate::pages::quotes::form::label(column)}</label>
                }).collect_view()}
            </div>
        </details>
    }
}

/// The request form: the questions follow the chosen workload (the page's island).
#[island(lazy)]
fn RequestForm(data: RequestFormData) -> impl IntoView {
    let create = ServerAction::<CreateRequest>::new();
    let first = data.workloads.first().map(|(id, _)| *id).unwrap_or_default();
    let workload = RwSignal::new(first);
    // The questions follow the chosen workload: read again in the browser when it changes.
    let questions = RwSignal::new(data.questions.clone());
    Effect::new(move |ran: Option<()>| {
        let id = workload.get();
        if ran.is_some() {
            leptos::task::spawn_local(async move {
                if let Ok(text) = request_questions(id).await {
                    questions.set(text);
                }
            });
        }
    });
    let vendors = vendor_boxes(&data);
    view! {
        <ActionForm action=create attr:class="form" attr:data-testid="request-form">
            <div class="form-row">
                <label>{t(Msg::RfqWorkload)}
                    <select name="form[workload_id]" on:change=move |ev| workload.set(event_target_value(&ev).parse().unwrap_or_default())>
                        {data.workloads.into_iter().map(|(id, name)| view! { <option value=id.to_string()>{name}</option> }).collect_view()}
                    </select>
                </label>
                <label>{t(Msg::RfqTitle)}<input type="text" name="form[title]" required=true maxlength="200" /></label>
                <label>{t(Msg::RfqNeedRegion)}<input type="text" name="form[region]" /><small class="hint">{t(Msg::RfqRegionHint)}</small></label>
                <label>{t(Msg::RfqNeedBudget)}<input type="text" inputmode="decimal" name="form[budget]" />
                    <small class="hint">{t(Msg::RfqBudgetHint)}</small></label>
                <label>{t(Msg::RfqCurrency)}<input type="text" name="form[currency]" value="CNY" /></label>
                <label>{t(Msg::RfqCloseAt)}<input type="datetime-local" name="form[close_local]" required=true /></label>
                <label>{t(Msg::RfqUtcOffset)}
                    <select name="form[utc_offset]">{OFFSETS.iter().map(|o| view! { <option value=*o>{format!("UTC{o}")}</option> }).collect_view()}</select>
                </label>
            </div>
            {vendors}
            {field_boxes()}
            <label>{t(Msg::RfqQuestions)}
                {move || view! {
                    <textarea name="form[questions]" rows="14" data-testid="request-questions">{questions.get()}</textarea>
                }}
                <small class="hint">{t(Msg::RfqQuestionsHint)}</small>
            </label>
            <ActionError action=create />
            <button type="submit" disabled=move || create.pending().get()>{t(Msg::RfqSend)}</button>
        </ActionForm>
        {move || create.value().get().and_then(Result::ok).map(sent_links)}
    }
}

/// `/requests/new`.
#[component]
pub fn RequestNewPage() -> impl IntoView {
    member_page(|_| {
        let data = Resource::new(|| (), |()| load_request_form());
        let _ = use_locale();
        view! {
            <Title text=t(Msg::RfqNew) />
            <p class="breadcrumb"><a href="/requests">{t(Msg::RfqListTitle)}</a></p>
            <h1>{t(Msg::RfqNew)}</h1>
            <p class="lead">{t(Msg::RfqNewLead)}</p>
            <Loaded resource=data let:d><RequestForm data=d /></Loaded>
        }
        .into_any()
    })
}
