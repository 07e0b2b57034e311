//! `/bid/:link`: the vendor's page. No account: the link is the vendor's capability
//! ([`crate::domain::rfq`]). It shows only the request and this vendor's own bid — no team, no
//! other vendor, no user — in 简体中文 or English, and takes the same quote fields and checks as
//! the team's quote form plus the written answers. It is sent without WASM
//! ([`crate::components::page_scripts`]): the form posts as a plain form, and the answer sends
//! the browser back here, where the saved draft, the errors and the receipts are shown.
//!
//! A link that does not open (malformed, unknown, revoked, past the close) shows the not-found
//! page with status 404 and never says why.

use crate::{
    components::{form_fields::field_issues, forms::last_error, local_time::Moment},
    domain::bills::timestamp,
    error::AppError,
    i18n::{Msg, t, use_locale},
    pages::{
        not_found::NotFoundPage,
        quotes::form::{INCREMENTS, PACKAGE_PERIODS, SECTIONS, field, length_list},
    },
    views::rfq::{BidFileLine, BidPage, ReceiptLine},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use std::collections::BTreeMap;

/// The vendor's page, through its link.
#[server(endpoint = "bid/page")]
pub async fn load_bid(link: String) -> Result<BidPage, AppError> {
    let db = crate::auth::db()?;
    let locale = crate::i18n::request_locale();
    let now = crate::clock::now_unix();
    crate::services::rfq::limits::count_request(&link, now)?;
    crate::services::rfq::vendor::page(&db, &link, now, crate::clock::today(), locale).await
}

/// Saves what the vendor typed; with `submit`, checks it as the quote form does and submits it
/// as a new revision, returning its receipt. The draft is kept either way, so a bid with a
/// mistake comes back as typed, with the mistakes named.
#[server(endpoint = "bid/save")]
pub async fn save_bid(
    link: String,
    #[server(default)] fields: BTreeMap<String, String>,
    #[server(default)] answers: BTreeMap<String, String>,
    #[server(default)] submit: Option<String>,
) -> Result<Option<ReceiptLine>, AppError> {
    use crate::services::rfq::vendor;
    let db = crate::auth::db()?;
    let now = crate::clock::now_unix();
    crate::services::rfq::limits::count_request(&link, now)?;
    let mut typed: Vec<(usize, String)> = answers
        .into_iter()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
        .collect();
    typed.sort_by_key(|(i, _)| *i);
    let answers: Vec<String> = {
        let len = typed
            .last()
            .map_or(0, |(i, _)| i + 1)
            .min(crate::domain::rfq::MAX_QUESTIONS);
        let mut all = vec![String::new(); len];
        for (i, v) in typed.into_iter().filter(|(i, _)| *i < len) {
            all[i] = v;
        }
        all
    };
    vendor::save_draft(&db, &link, fields.clone(), answers.clone(), now).await?;
    if submit.is_none() {
        return Ok(None);
    }
    let row = vendor::taking_bids(&db, &link, now).await?;
    let fixed = vendor::fixed_fields(&row, crate::clock::today());
    // The fields the buyer asks for are required of this bid, named with any other mistake.
    let missing: Vec<crate::error::FieldIssue> =
        crate::domain::rfq::missing_requested(&fields, &vendor::requested(&row))
            .iter()
            .map(|f| crate::error::FieldIssue::new(f, "requested_by_buyer"))
            .collect();
    let cells = match crate::pages::quotes::form::server::checked_fields(fields, &fixed) {
        Ok((cells, _)) if missing.is_empty() => cells,
        Ok(_) => return Err(AppError::InvalidFields(missing)),
        Err(AppError::InvalidFields(mut issues)) => {
            issues.extend(missing);
            return Err(AppError::InvalidFields(issues));
        }
        Err(e) => return Err(e),
    };
    vendor::submit(&db, &link, cells, answers, now, crate::clock::now_stamp())
        .await
        .map(Some)
}

fn receipts(revisions: Vec<ReceiptLine>) -> impl IntoView {
    (!revisions.is_empty()).then(|| {
        view! {
            <section class="card" data-testid="bid-receipts">
                <h2>{t(Msg::RfqReceipts)}</h2>
                <p class="hint">{t(Msg::RfqReceiptsLead)}</p>
                <table class="table">
                    <thead><tr><th>{t(Msg::RfqRevision)}</th><th>{t(Msg::RfqSubmittedAt)}</th><th>{t(Msg::RfqReceipt)}</th></tr></thead>
                    <tbody>
                        {revisions.into_iter().rev().map(|r| view! {
                            <tr data-testid="bid-receipt">
                                <td>{r.revision}</td>
                                <td><Moment at=timestamp::format(r.submitted_at) /></td>
                                <td><code class="link-text">{r.receipt}</code></td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        }
    })
}

fn answers_section(questions: Vec<String>, answers: Vec<String>) -> impl IntoView {
    view! {
        <fieldset class="card" data-testid="bid-answers">
            <legend>{t(Msg::RfqWrittenAnswers)}</legend>
            <p class="hint">{t(Msg::RfqWrittenAnswersLead)}</p>
            {questions.into_iter().enumerate().map(|(i, q)| {
                let id = format!("answer-{i}");
                let value = answers.get(i).cloned().unwrap_or_default();
                view! {
                    <label for=id.clone()>{format!("{}. {q}", i + 1)}
                        <textarea id=id.clone() name=format!("answers[{i}]") rows="2" maxlength="4000">{value}</textarea>
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}

fn bid_form(link: String, page: BidPage) -> impl IntoView {
    let locale = use_locale();
    let save = ServerAction::<SaveBid>::new();
    let issues = field_issues(save);
    let values = page.values;
    let requested = page.requested.clone();
    view! {
        {length_list("increment-list", INCREMENTS)}
        {length_list("period-list", PACKAGE_PERIODS)}
        <ActionForm action=save attr:class="form quote-form" attr:data-testid="bid-form" attr:novalidate=true>
            <input type="hidden" name="link" value=link />
            {SECTIONS.iter().map(|(title, fields)| view! {
                <fieldset class="card">
                    <legend>{t(*title)}</legend>
                    <div class="form-row">
                        {fields.iter().filter(|(column, _, _)| !crate::domain::rfq::FIXED_COLUMNS.contains(column)).map(|(column, input, required)| {
                            let asked = *required || requested.iter().any(|r| r == column);
                            field(column, *input, asked, values.get(*column).cloned().unwrap_or_default(), false, issues)
                        }).collect_view()}
                    </div>
                </fieldset>
            }).collect_view()}
            {answers_section(page.questions, page.answers)}
            {move || (!issues.with(Vec::is_empty)).then(|| view! {
                <p class="form-error" role="alert" data-testid="bid-fix">{t(Msg::QuotesFixFields)}</p>
            })}
            {move || last_error(save).filter(|e| !matches!(e, AppError::InvalidFields(_))).map(|e| {
                view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }
            })}
            {move || save.value().get().and_then(Result::ok).flatten().map(|r| view! {
                <p class="notice" role="status" data-testid="bid-submitted">
                    {locale.fmt(Msg::RfqSubmittedReceipt, &[("n", &r.revision.to_string()), ("receipt", &r.receipt)])}
                </p>
            })}
            <div class="actions">
                <button type="submit" class="secondary" data-testid="bid-save">{t(Msg::RfqSaveDraft)}</button>
                <button type="submit" name="submit" value="1" data-testid="bid-submit">{t(Msg::RfqSubmitBid)}</button>
            </div>
        </ActionForm>
    }
}

/// Why an attachment was refused, from the page's address.
fn file_error(code: &str) -> Option<Msg> {
    Some(match code {
        "empty" => Msg::RfqFileEmpty,
        "too_large" => Msg::RfqFileTooLarge,
        "kind" => Msg::RfqFileKind,
        "too_many" => Msg::RfqFileTooMany,
        "duplicate" => Msg::RfqFileDuplicate,
        _ => return None,
    })
}

/// The attachments: each with its size and hash, a plain upload form (PDF, 10 MB at most).
fn files_section(link: &str, files: Vec<BidFileLine>) -> impl IntoView + use<> {
    let error = use_query_map()
        .read_untracked()
        .get("file_error")
        .and_then(|c| file_error(&c));
    let upload = format!("/bid/{link}/files");
    let link = link.to_string();
    view! {
        <section class="card" id="files" data-testid="bid-files">
            <h2>{t(Msg::RfqFiles)}</h2>
            <p class="hint">{t(Msg::RfqFilesLead)}</p>
            {error.map(|m| view! { <p class="form-error" role="alert" data-testid="bid-file-error">{t(m)}</p> })}
            <ul>
                {files.into_iter().map(|f| {
                    let remove = format!("/bid/{link}/files/{}/delete", f.id);
                    view! {
                        <li data-testid="bid-file">{f.name} " · " {crate::texts::runs::bytes(f.size)} " · "
                            <code>{f.sha256.chars().take(16).collect::<String>()}"…"</code>
                            <form method="post" action=remove class="inline"><button type="submit" class="secondary small">{t(Msg::RfqFileRemove)}</button></form>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <form method="post" enctype="multipart/form-data" action=upload class="form-inline" data-testid="bid-file-form">
                <input type="file" name="file" accept="application/pdf,.pdf" required=true />
                <button type="submit" class="secondary">{t(Msg::RfqFileUpload)}</button>
            </form>
        </section>
    }
}

fn bid_view(link: String, page: BidPage) -> impl IntoView {
    let needs = page.needs.clone();
    let revisions = page.revisions.clone();
    let files = files_section(&link, page.files.clone());
    view! {
        <Title text=page.title.clone() />
        <h1 data-testid="bid-title">{page.title.clone()}</h1>
        <p class="lead">{use_locale().fmt(Msg::RfqBidLead, &[("vendor", &page.vendor)])}</p>
        <p data-testid="bid-close-at"><strong>{t(Msg::RfqCloseAt)} ": " <Moment at=timestamp::format(page.close_at) /></strong>
            " · " <span class="hint">{t(Msg::RfqBidSealedNote)}</span></p>
        <h2>{t(Msg::RfqNeeds)}</h2>
        <table class="table facts" data-testid="bid-needs">
            <tbody>{needs.into_iter().map(|(l, v)| view! { <tr><th scope="row">{l}</th><td>{v}</td></tr> }).collect_view()}</tbody>
        </table>
        {receipts(revisions)}
        {bid_form(link, page)}
        {files}
    }
}

/// A link asked for too often: say so, with status 429.
fn too_fast(e: &AppError) -> impl IntoView + use<> {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::TOO_MANY_REQUESTS);
    }
    view! { <section class="card narrow"><p class="form-error" role="alert">{e.localized(use_locale())}</p></section> }
}

/// A bid that arrived after the close: not received, and when bids closed (status 403).
fn refused_late(e: &AppError) -> impl IntoView + use<> {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::FORBIDDEN);
    }
    view! { <section class="card narrow"><p class="form-error" role="alert" data-testid="bid-late">{e.localized(use_locale())}</p></section> }
}

/// `/bid/:link`.
#[component]
pub fn BidPageView() -> impl IntoView {
    let params = use_params_map();
    let link = params.read_untracked().get("link").unwrap_or_default();
    let data = Resource::new_blocking(move || link.clone(), load_bid);
    view! {
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || Suspend::new(async move {
                let link = params.read_untracked().get("link").unwrap_or_default();
                match data.await {
                    Ok(page) => bid_view(link, page).into_any(),
                    Err(e @ AppError::BidsTooFast(_)) => too_fast(&e).into_any(),
                    // A bid posted after the close comes back here: say it was not received, and
                    // when bids closed (the link itself still says nothing to a new visitor).
                    Err(_) => match last_error(ServerAction::<SaveBid>::new()) {
                        Some(e @ AppError::BidsClosed(_)) => refused_late(&e).into_any(),
                        _ => view! { <NotFoundPage /> }.into_any(),
                    },
                }
            })}
        </Suspense>
    }
}
