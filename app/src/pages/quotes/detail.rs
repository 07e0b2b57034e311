//! One quote: every field of a revision, and the revision history.

use crate::{
    components::{guard::member_page, loaded::Loaded, local_time::Moment, route::route_id},
    domain::{
        money::{format_money, format_per_unit},
        quotes::{hourly_per_gpu, hourly_per_node},
        tco::PriceSheet,
    },
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    pages::quotes::form::{SECTIONS, display_value, label},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A revision in the history list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionLine {
    /// Revision id.
    pub id: i64,
    /// Revision number.
    pub revision: i64,
    /// Saved at.
    pub created_at: String,
    /// Saved by.
    pub created_by: String,
}

/// A quote revision with its history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteDetail {
    /// Quote id.
    pub quote_id: i64,
    /// Shown revision number.
    pub revision: i64,
    /// Vendor.
    pub vendor: String,
    /// Reference.
    pub reference: String,
    /// Field values by column name.
    pub values: BTreeMap<String, String>,
    /// Node price per hour, formatted.
    pub node_hour: String,
    /// GPU price per hour, formatted.
    pub gpu_hour: String,
    /// The quote's validity has ended.
    pub expired: bool,
    /// History, newest first.
    pub revisions: Vec<RevisionLine>,
    /// The caller may edit.
    pub can_edit: bool,
    /// The vendor's documents attached to this revision.
    pub documents: Vec<DocumentLine>,
    /// The nccl-tests runs of the quote's node.
    pub link_tests: Vec<super::link_tests::LinkTestLine>,
}

/// An attached document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentLine {
    /// Document id (download at `/documents/{id}`).
    pub id: i64,
    /// File name.
    pub file_name: String,
    /// Size in KB.
    pub size_kb: i64,
    /// SHA-256, hex.
    pub sha256: String,
}

/// The on-demand price of a node-hour and of a GPU-hour as every quote page shows them: in
/// the quote's currency, the GPU-hour with up to two more digits. A sheet of packages only says
/// "not offered" and a price of 0 "free" (never 0.00), in `locale`; empty when the price cannot
/// be worked out (a node without GPUs).
pub fn hourly_prices(price: &PriceSheet, gpus_per_node: u32, locale: Locale) -> (String, String) {
    let word = match price.on_demand_hourly {
        None => Some(Msg::QuotesNotOffered),
        Some(hourly) if hourly.is_zero() => Some(Msg::QuotesFree),
        Some(_) => None,
    };
    if let Some(word) = word {
        let text = locale.t(word).to_string();
        return (text.clone(), text);
    }
    let currency = price.currency;
    (
        hourly_per_node(price, gpus_per_node)
            .map(|p| format_money(p, currency))
            .unwrap_or_default(),
        hourly_per_gpu(price, gpus_per_node)
            .map(|p| format_per_unit(p, currency))
            .unwrap_or_default(),
    )
}

/// One of the active team's quotes, at `revision` (default: the latest).
#[server(endpoint = "quotes/detail")]
pub async fn load_quote(quote_id: i64, revision: Option<i64>) -> Result<QuoteDetail, AppError> {
    use crate::{
        auth,
        domain::{quotes, roles::Capability},
        store,
    };
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let db = auth::db()?;
    let history = store::quotes::revisions(&db, team.team_id, quote_id).await?;
    let chosen = match revision {
        Some(n) => history.iter().find(|r| r.revision == n),
        None => history.first(),
    }
    .ok_or(AppError::NotFound)?
    .id;
    let q = store::quotes::revision(&db, team.team_id, chosen)
        .await?
        .ok_or(AppError::NotFound)?;
    let d = &q.draft;
    let (node_hour, gpu_hour) = hourly_prices(&d.price, d.spec.gpus_per_node, crate::i18n::request_locale());
    Ok(QuoteDetail {
        quote_id,
        revision: q.revision,
        vendor: d.vendor.clone(),
        reference: d.reference.clone(),
        node_hour,
        gpu_hour,
        expired: d.is_expired(store::today()),
        values: quotes::QuoteInput::from_draft(d).into_cells(),
        revisions: history
            .into_iter()
            .map(|r| RevisionLine {
                id: r.id,
                revision: r.revision,
                created_at: r.created_at,
                created_by: r.created_by.unwrap_or_default(),
            })
            .collect(),
        can_edit: caller.may(Capability::EditProcurement),
        documents: store::documents::of_revision(&db, team.team_id, chosen)
            .await?
            .into_iter()
            .map(|doc| DocumentLine {
                id: doc.id,
                file_name: doc.file_name,
                size_kb: (doc.size + 1023) / 1024,
                sha256: doc.sha256,
            })
            .collect(),
        link_tests: super::link_tests::load(&db, team.team_id, quote_id, crate::i18n::request_locale()).await?,
    })
}

fn documents_view(d: &QuoteDetail, doc_error: Option<String>) -> impl IntoView + use<> {
    let error = doc_error.and_then(|code| match code.as_str() {
        "empty" => Some(Msg::DocsErrorEmpty),
        "too_large" => Some(Msg::DocsErrorTooLarge),
        "kind" => Some(Msg::DocsErrorKind),
        "duplicate" => Some(Msg::DocsErrorDuplicate),
        _ => None,
    });
    let (quote_id, revision, documents) = (d.quote_id, d.revision, d.documents.clone());
    let upload = d.can_edit.then(|| view! {
        <form method="post" enctype="multipart/form-data" action=format!("/quotes/{quote_id}/documents") class="form-inline" data-testid="document-form">
            <input type="hidden" name="revision" value=revision.to_string() />
            <label>{t(Msg::DocsFile)}<input type="file" name="file" accept="application/pdf,image/png,image/jpeg,image/webp" required /></label>
            <button type="submit" class="small">{t(Msg::DocsUpload)}</button>
        </form>
    });
    view! {
        <section class="card" id="documents">
            <h2>{t(Msg::DocsTitle)}</h2>
            {error.map(|m| view! { <p class="form-error" role="alert">{t(m)}</p> })}
            {if documents.is_empty() {
                view! { <p class="empty-state">{t(Msg::DocsNone)}</p> }.into_any()
            } else {
                view! {
                    <ul class="links" data-testid="document-list">
                        {documents.into_iter().map(|doc| view! {
                            <li>
                                <a href=format!("/documents/{}", doc.id) rel="external" download=doc.file_name.clone()>{doc.file_name.clone()}</a>
                                {format!(" · {} KB · SHA-256 ", doc.size_kb)}
                                <code class="hash">{doc.sha256.clone()}</code>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
            {upload}
        </section>
    }
}

fn detail_view(d: QuoteDetail, doc_error: Option<String>) -> impl IntoView {
    let documents = documents_view(&d, doc_error);
    let link_tests = super::link_tests::card(d.link_tests.clone());
    let locale = use_locale();
    let id = d.quote_id;
    let shown = d.revision;
    view! {
        <Title text=format!("{} · {}", d.vendor, d.reference) />
        <p class="breadcrumb"><a href="/quotes">{t(Msg::QuotesBack)}</a></p>
        <div class="page-head">
            <h1>
                {format!("{} · {}", d.vendor, d.reference)}
                {d.expired.then(|| view! { <span class="tag danger">{t(Msg::QuotesExpired)}</span> })}
            </h1>
            {d.can_edit.then(|| view! { <a class="button-link" href=format!("/quotes/{id}/edit")>{t(Msg::QuotesEdit)}</a> })}
        </div>
        <p class="lead" data-testid="quote-revision">
            <span data-testid="quote-id">{locale.fmt(Msg::QuotesId, &[("id", &id.to_string())])}</span>
            " · " {locale.fmt(Msg::QuotesRevision, &[("n", &shown.to_string())])}
            " · " {t(Msg::QuotesColNodeHour)} " " <strong>{d.node_hour}</strong>
            " · " {t(Msg::QuotesColGpuHour)} " " <strong>{d.gpu_hour}</strong>
        </p>
        <div class="detail-grid quote-detail">
            {SECTIONS.iter().map(|(title, fields)| view! {
                <section class="card">
                    <h2>{t(*title)}</h2>
                    <dl class="facts">
                        {fields.iter().map(|(column, input, _)| {
                            let value = d.values.get(*column).cloned().unwrap_or_default();
                            view! { <dt>{label(column)}</dt><dd>{display_value(*input, &value)}</dd> }
                        }).collect_view()}
                    </dl>
                </section>
            }).collect_view()}
            {documents}
            {link_tests}
            <section class="card">
                <h2>{t(Msg::QuotesRevisions)}</h2>
                <ul class="links" data-testid="revision-list">
                    {d.revisions.into_iter().map(|r| {
                        let name = locale.fmt(Msg::QuotesRevision, &[("n", &r.revision.to_string())]);
                        let when = view! { " · " <Moment at=r.created_at.clone() /> " · " {r.created_by.clone()} };
                        if r.revision == shown {
                            view! { <li><strong>{name}</strong>{when}</li> }.into_any()
                        } else {
                            view! { <li><a href=format!("/quotes/{id}?rev={}", r.revision)>{name}</a>{when}</li> }.into_any()
                        }
                    }).collect_view()}
                </ul>
            </section>
        </div>
    }
}

/// `/quotes/:id`.
#[component]
pub fn QuoteDetailPage() -> impl IntoView {
    member_page(|_| {
        let id = route_id();
        let query = use_query_map();
        let key = move || {
            let id = id().unwrap_or(0);
            let rev = query.read().get("rev").and_then(|s| s.parse::<i64>().ok());
            (id, rev)
        };
        let detail = Resource::new(key, |(id, rev)| load_quote(id, rev));
        view! {
            <Loaded resource=detail keep_while_reloading=true let:detail>
                {detail_view(detail, query.read_untracked().get("doc_error"))}
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
mod tests {
    use super::hourly_prices;
    use crate::domain::tco::PriceSheet;
    use crate::i18n::Locale;

    /// An on-demand price of `hourly` per node or per GPU, nothing else charged.
    fn sheet(currency: &str, basis: &str, hourly: &str) -> PriceSheet {
        let zero = [
            "minimum_billable_hours",
            "disk_price_gb_month",
            "snapshot_price_gb_month",
        ]
        .into_iter()
        .chain([
            "egress_price_gb",
            "free_egress_gb",
            "ingress_price_gb",
            "public_ip_hourly",
        ])
        .map(|field| (field.to_string(), serde_json::json!("0")));
        let mut json: serde_json::Map<_, _> = zero.collect();
        json.extend([
            ("currency".into(), currency.into()),
            ("basis".into(), basis.into()),
            ("on_demand_hourly".into(), hourly.into()),
            ("billing_increment".into(), "hour".into()),
            ("stopped_bills_compute".into(), false.into()),
            ("other_fees".into(), serde_json::json!([])),
        ]);
        serde_json::from_value(json.into()).expect("a valid price sheet")
    }

    #[test]
    fn node_and_gpu_hour_in_the_quotes_currency() {
        let (node, gpu) = hourly_prices(&sheet("USD", "per_node", "10"), 3, Locale::En);
        assert_eq!((node.as_str(), gpu.as_str()), ("$10.00", "$3.33"));
        let (node, gpu) = hourly_prices(&sheet("CNY", "per_gpu", "12.5"), 8, Locale::ZhCn);
        assert_eq!((node.as_str(), gpu.as_str()), ("¥100.00", "¥12.50"));
        assert_eq!(
            hourly_prices(&sheet("USD", "per_node", "1"), 0, Locale::En),
            (String::new(), String::new())
        );
    }

    /// A sheet of packages only has no on-demand price: it says so, never 0.00; a price of 0 is
    /// a free offer and says that.
    #[test]
    fn no_on_demand_price_is_not_offered_and_zero_is_free_in_both_languages() {
        let mut packages_only = sheet("CNY", "per_node", "1");
        packages_only.on_demand_hourly = None;
        packages_only.monthly_price = Some(rust_decimal::Decimal::from(9000));
        let words = |s: &PriceSheet, locale| hourly_prices(s, 8, locale);
        let not_offered = |w: &str| (w.to_string(), w.to_string());
        assert_eq!(words(&packages_only, Locale::En), not_offered("not offered"));
        assert_eq!(words(&packages_only, Locale::ZhCn), not_offered("不提供"));
        let free = sheet("USD", "per_gpu", "0");
        assert_eq!(words(&free, Locale::En), not_offered("free"));
        assert_eq!(words(&free, Locale::ZhCn), not_offered("免费"));
    }
}
