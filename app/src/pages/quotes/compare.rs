//! Quotes side by side, every field in one row with differences highlighted.

use crate::{
    components::{forms::ErrorBox, guard::signed_in},
    error::AppError,
    i18n::{Msg, t},
    pages::quotes::form::{SECTIONS, display_value, label},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most quotes compared at once.
pub const MAX_COMPARED: usize = 8;

/// A compared quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparedQuote {
    /// Quote id.
    pub quote_id: i64,
    /// "Vendor · reference".
    pub title: String,
    /// Revision shown.
    pub revision: i64,
    /// Validity has ended.
    pub expired: bool,
    /// Node price per hour, formatted.
    pub node_hour: String,
    /// GPU price per hour, formatted.
    pub gpu_hour: String,
    /// Field values by column.
    pub values: BTreeMap<String, String>,
}

/// The compared quotes (latest revisions of the active team's quotes).
#[server(endpoint = "quotes/compare", input = server_fn::codec::Json)]
pub async fn compare_quotes(ids: Vec<i64>) -> Result<Vec<ComparedQuote>, AppError> {
    use crate::{
        auth,
        domain::{money::{format_money, format_unit_price}, quotes, roles::Capability},
        pages::quotes::form::server::csv_to_map,
        store,
    };
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    if ids.len() > MAX_COMPARED {
        return Err(AppError::Invalid(Msg::CompareNeedTwo));
    }
    let db = auth::db()?;
    let today = store::today();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let q = store::quotes::latest(&db, team.team_id, id).await?.ok_or(AppError::NotFound)?;
        let d = &q.draft;
        let c = d.price.currency;
        out.push(ComparedQuote {
            quote_id: q.quote_id,
            title: format!("{} · {}", d.vendor, d.reference),
            revision: q.revision,
            expired: d.is_expired(today),
            node_hour: d.hourly_per_node().map(|p| format_money(p, c)).unwrap_or_default(),
            gpu_hour: d.hourly_per_gpu().map(|p| format_unit_price(p, c, 2)).unwrap_or_default(),
            values: csv_to_map(&quotes::export(std::slice::from_ref(d))),
        });
    }
    Ok(out)
}

fn compare_table(quotes: Vec<ComparedQuote>) -> impl IntoView {
    let header = quotes.clone();
    let prices = quotes.clone();
    view! {
        <div class="table-scroll">
            <table class="table compare" data-testid="compare-table">
                <thead>
                    <tr>
                        <th>{t(Msg::CompareField)}</th>
                        {header.into_iter().map(|q| view! {
                            <th>
                                <a href=format!("/quotes/{}", q.quote_id)>{q.title}</a>
                                {q.expired.then(|| view! { <span class="tag danger">{t(Msg::QuotesExpired)}</span> })}
                            </th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    <tr class:differs=prices.windows(2).any(|w| w[0].node_hour != w[1].node_hour)>
                        <th scope="row">{t(Msg::QuotesColNodeHour)}</th>
                        {prices.iter().map(|q| view! { <td class="num">{q.node_hour.clone()}</td> }).collect_view()}
                    </tr>
                    <tr class:differs=prices.windows(2).any(|w| w[0].gpu_hour != w[1].gpu_hour)>
                        <th scope="row">{t(Msg::QuotesColGpuHour)}</th>
                        {prices.iter().map(|q| view! { <td class="num">{q.gpu_hour.clone()}</td> }).collect_view()}
                    </tr>
                    {SECTIONS.iter().map(|(title, fields)| {
                        let quotes = quotes.clone();
                        view! {
                            <tr class="section-row"><th colspan=(quotes.len() + 1).to_string()>{t(*title)}</th></tr>
                            {fields.iter().map(|(column, input, _)| {
                                let values: Vec<String> = quotes.iter().map(|q| q.values.get(*column).cloned().unwrap_or_default()).collect();
                                let differs = values.windows(2).any(|w| w[0] != w[1]);
                                view! {
                                    <tr class:differs=differs>
                                        <th scope="row">
                                            {label(column)}
                                            {differs.then(|| view! { <span class="visually-hidden">{t(Msg::CompareDiffers)}</span> })}
                                        </th>
                                        {values.iter().map(|v| view! { <td>{display_value(*input, v)}</td> }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// `/quotes/compare?id=…&id=…`.
#[component]
pub fn QuoteComparePage() -> impl IntoView {
    signed_in(false, |_| {
        let query = use_query_map();
        let ids = Memo::new(move |_| {
            query.read().get_all("id").unwrap_or_default().iter().filter_map(|s| s.parse::<i64>().ok()).collect::<Vec<_>>()
        });
        let quotes = Resource::new(move || ids.get(), compare_quotes);
        view! {
            <Title text=t(Msg::CompareTitle) />
            <p class="breadcrumb"><a href="/quotes">{t(Msg::QuotesBack)}</a></p>
            <h1>{t(Msg::CompareTitle)}</h1>
            <Transition fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match quotes.await {
                        Ok(q) if q.len() < 2 => view! { <p class="empty-state">{t(Msg::CompareNeedTwo)}</p> }.into_any(),
                        Ok(q) => compare_table(q).into_any(),
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                    }
                })}
            </Transition>
        }
        .into_any()
    })
}
