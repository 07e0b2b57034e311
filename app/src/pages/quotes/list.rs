//! The quote list: filters, sort, pages; tick quotes to compare them.

use crate::{
    components::{guard::member_page, loaded::Loaded, route::urlencode},
    error::AppError,
    i18n::{Msg, t, use_locale},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::{components::Form, hooks::use_query_map};
use serde::{Deserialize, Serialize};

/// Quotes per page.
pub const PER_PAGE: u32 = 50;
/// The last page number a list query may ask for.
pub const MAX_PAGE: u32 = 100_000;

/// The list's query string, as typed in the filter form (parsed and checked on the server).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteQuery {
    /// Vendor name.
    pub vendor: Option<String>,
    /// Part of the GPU model.
    pub gpu: Option<String>,
    /// VRAM per GPU at least, GiB.
    pub vram: Option<String>,
    /// GPUs per node.
    pub gpus: Option<String>,
    /// `on`: whole GPUs only.
    pub exclusive: Option<String>,
    /// Part of the region.
    pub region: Option<String>,
    /// Node price per hour at most.
    pub max_price: Option<String>,
    /// `on`: include expired quotes.
    pub expired: Option<String>,
    /// Sort order (snake case of [`crate::store::quotes::QuoteSort`]).
    pub sort: Option<String>,
    /// Page, from 1.
    pub page: Option<String>,
}

impl QuoteQuery {
    /// How many filters the query sets (sort and page are not filters): the filter disclosure is
    /// open whenever one is set, so a phone never hides why the list is shorter.
    #[must_use]
    pub fn active_filters(&self) -> usize {
        [
            &self.vendor,
            &self.gpu,
            &self.vram,
            &self.gpus,
            &self.exclusive,
            &self.region,
            &self.max_price,
            &self.expired,
        ]
        .into_iter()
        .filter(|v| v.as_deref().is_some_and(|v| !v.trim().is_empty()))
        .count()
    }
}

/// One line of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteRow {
    /// Quote id.
    pub quote_id: i64,
    /// Latest revision number.
    pub revision: i64,
    /// Vendor.
    pub vendor: String,
    /// Vendor's reference.
    pub reference: String,
    /// GPU model.
    pub gpu_model: String,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// VRAM per GPU, GiB.
    pub vram_gib: String,
    /// Not a whole exclusive GPU.
    pub sliced: bool,
    /// Region.
    pub region: String,
    /// Node price per hour, formatted with the currency.
    pub node_hour: String,
    /// GPU price per hour, formatted.
    pub gpu_hour: String,
    /// Last valid day.
    pub valid_until: String,
    /// Validity has ended.
    pub expired: bool,
}

/// One page of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotePage {
    /// The quotes.
    pub rows: Vec<QuoteRow>,
    /// Quotes matching the filter.
    pub total: i64,
    /// This page, from 1.
    pub page: u32,
    /// Number of pages.
    pub pages: u32,
    /// The team's vendors, for the filter.
    pub vendors: Vec<String>,
    /// The caller may add and import quotes.
    pub can_edit: bool,
    /// The currency prices are filtered and sorted in (the team's base currency), if set.
    pub price_currency: Option<String>,
    /// Currencies of the team's quotes with no rate into the base currency: those quotes are
    /// left out of a price filter and listed last when sorting by price.
    pub unconverted: Vec<String>,
}

/// The filter and sort a list query string asks for (the CSV export exports what the list shows).
#[cfg(feature = "ssr")]
pub fn parse_query(
    query: &QuoteQuery,
) -> Result<(crate::store::quotes::QuoteFilter, crate::store::quotes::QuoteSort), AppError> {
    server::parse(query).map(|(filter, sort, _)| (filter, sort))
}

/// One page of the active team's quotes.
#[server(endpoint = "quotes/list", input = server_fn::codec::Json)]
pub async fn list_quotes(query: QuoteQuery) -> Result<QuotePage, AppError> {
    server::list(query).await
}

#[cfg(feature = "ssr")]
pub(crate) mod server {
    use super::*;
    use crate::{
        auth,
        domain::{numbers, quotes::Sharing, roles::Capability},
        store::{
            self,
            quotes::{QuoteFilter, QuoteSort, QuoteSummary},
        },
    };
    use rust_decimal::Decimal;

    fn text(v: &Option<String>) -> Option<String> {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    }

    /// A whole-number filter, typed as people type numbers (`2,000`; see `domain::numbers`),
    /// within `min..=max`; `refused` names the field and its bounds.
    fn whole(v: &Option<String>, min: u32, max: u32, refused: Msg) -> Result<Option<u32>, AppError> {
        text(v)
            .map(|s| match numbers::parse_integer::<u32>(&s) {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(AppError::Invalid(refused)),
            })
            .transpose()
    }

    /// The largest price filter (a node-hour in the base currency): far above any quote, far
    /// below what the price arithmetic holds.
    const MAX_PRICE_FILTER: i64 = 1_000_000_000_000;

    /// A price filter, typed as people type numbers (`1 234,50`; see `domain::numbers`), from 0
    /// to [`MAX_PRICE_FILTER`].
    fn decimal(v: &Option<String>) -> Result<Option<Decimal>, AppError> {
        text(v)
            .map(|s| match numbers::parse_decimal(&s) {
                Ok(d) if !d.is_sign_negative() && d <= Decimal::from(MAX_PRICE_FILTER) => Ok(d),
                _ => Err(AppError::Invalid(Msg::LimitsFilterMaxPrice)),
            })
            .transpose()
    }

    /// The filter, sort and page a query asks for.
    pub fn parse(q: &QuoteQuery) -> Result<(QuoteFilter, QuoteSort, u32), AppError> {
        let filter = QuoteFilter {
            vendor: text(&q.vendor),
            gpu_model: text(&q.gpu),
            min_vram_gib: whole(
                &q.vram.as_deref().map(|v| numbers::without_unit(v, "GiB").to_string()),
                0,
                1024,
                Msg::LimitsFilterVram,
            )?,
            gpus_per_node: whole(&q.gpus, 1, 64, Msg::LimitsFilterGpus)?,
            exclusive_only: q.exclusive.is_some(),
            region: text(&q.region),
            max_node_hourly: decimal(&q.max_price)?,
            include_expired: q.expired.is_some(),
        };
        let sort = match text(&q.sort).as_deref() {
            None | Some("price_asc") => QuoteSort::PriceAsc,
            Some("price_desc") => QuoteSort::PriceDesc,
            Some("vram_desc") => QuoteSort::VramDesc,
            Some("received_desc") => QuoteSort::ReceivedDesc,
            Some("valid_until_asc") => QuoteSort::ValidUntilAsc,
            Some(_) => return Err(AppError::Invalid(Msg::QerrInvalidChoice)),
        };
        let page = whole(&q.page, 1, MAX_PAGE, Msg::LimitsPage)?.unwrap_or(1);
        Ok((filter, sort, page))
    }

    /// A list line from a stored quote.
    pub fn row(q: QuoteSummary, today: crate::domain::quotes::Date, locale: crate::i18n::Locale) -> QuoteRow {
        let d = q.draft;
        let (node_hour, gpu_hour) = crate::pages::quotes::detail::hourly_prices(&d.price, d.spec.gpus_per_node, locale);
        QuoteRow {
            quote_id: q.quote_id,
            revision: q.revision,
            node_hour,
            gpu_hour,
            expired: d.is_expired(today),
            valid_until: d.valid_until.to_string(),
            sliced: !matches!(d.spec.sharing, Sharing::Exclusive),
            vram_gib: d.spec.vram_gib.normalize().to_string(),
            gpus_per_node: d.spec.gpus_per_node,
            gpu_model: d.spec.gpu_model,
            region: d.spec.region,
            reference: d.reference,
            vendor: d.vendor,
        }
    }

    pub async fn list(query: QuoteQuery) -> Result<QuotePage, AppError> {
        let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
        let (filter, sort, page) = parse(&query)?;
        let db = auth::db()?;
        let today = store::today();
        let locale = crate::i18n::request_locale();
        let basis = store::quotes::price_conversion(&db, team.team_id).await?;
        let unconverted = store::quotes::unconvertible_currencies(&db, team.team_id, &basis)
            .await?
            .into_iter()
            .map(str::to_string)
            .collect();
        let (items, total) =
            store::quotes::list(&db, team.team_id, &filter, &basis, sort, today, page - 1, PER_PAGE).await?;
        let vendors = store::vendors::list(&db, team.team_id)
            .await?
            .into_iter()
            .map(|v| v.name)
            .collect();
        let pages = u32::try_from((total.max(1) + i64::from(PER_PAGE) - 1) / i64::from(PER_PAGE)).unwrap_or(u32::MAX);
        Ok(QuotePage {
            rows: items.into_iter().map(|q| row(q, today, locale)).collect(),
            total,
            page,
            pages,
            vendors,
            can_edit: caller.may(Capability::EditProcurement),
            price_currency: basis.currency().map(str::to_string),
            unconverted,
        })
    }
}

fn query_from_url() -> Memo<QuoteQuery> {
    let map = use_query_map();
    Memo::new(move |_| {
        let m = map.read();
        let get = |k: &str| m.get(k);
        QuoteQuery {
            vendor: get("vendor"),
            gpu: get("gpu"),
            vram: get("vram"),
            gpus: get("gpus"),
            exclusive: get("exclusive"),
            region: get("region"),
            max_price: get("max_price"),
            expired: get("expired"),
            sort: get("sort"),
            page: get("page"),
        }
    })
}

fn filter_form(
    q: QuoteQuery,
    vendors: Vec<String>,
    price_currency: Option<String>,
    unconverted: Vec<String>,
) -> impl IntoView {
    let locale = use_locale();
    let price_label = match &price_currency {
        Some(code) => format!("{} ({code})", locale.t(Msg::QuotesFilterPrice)),
        None => locale.t(Msg::QuotesFilterPrice).to_string(),
    };
    let unconverted_hint = (!unconverted.is_empty()).then(|| {
        let text = locale.fmt(
            Msg::QuotesUnconverted,
            &[("currencies", &unconverted.join(", ")), ("base", price_currency.as_deref().unwrap_or_default())],
        );
        view! { <p class="hint" data-testid="quote-unconverted">{text} " " <a href="/rates">{t(Msg::QuotesAddRate)}</a></p> }
    });
    let v = |o: &Option<String>| o.clone().unwrap_or_default();
    let sorts = [
        ("price_asc", Msg::QuotesSortPriceAsc),
        ("price_desc", Msg::QuotesSortPriceDesc),
        ("vram_desc", Msg::QuotesSortVramDesc),
        ("received_desc", Msg::QuotesSortReceivedDesc),
        ("valid_until_asc", Msg::QuotesSortValidUntilAsc),
    ];
    let sort = v(&q.sort);
    let vendor = v(&q.vendor);
    let active = q.active_filters();
    let open = active > 0;
    let summary = match active {
        0 => locale.t(Msg::LayoutFilters).to_string(),
        n => locale.fmt(Msg::LayoutFiltersActive, &[("count", &n.to_string())]),
    };
    view! {
        <details class="card filters" open=open data-testid="quote-filters">
        <summary>{summary}</summary>
        <Form method="GET" action="/quotes" attr:class="form filter-form" attr:data-testid="quote-filter">
            <div class="form-row">
                <label>
                    {t(Msg::QuotesFilterVendor)}
                    <select name="vendor">
                        <option value="">{t(Msg::QuotesFilterAnyVendor)}</option>
                        {vendors.into_iter().map(|name| {
                            let selected = name == vendor;
                            view! { <option value=name.clone() selected=selected>{name.clone()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label>{t(Msg::QuotesFilterGpu)}<input type="text" name="gpu" value=v(&q.gpu) /></label>
                <label>{t(Msg::QuotesFilterVram)}<input type="number" name="vram" min="0" value=v(&q.vram) /></label>
                <label>{t(Msg::QuotesFilterGpus)}<input type="number" name="gpus" min="1" value=v(&q.gpus) /></label>
                <label>{t(Msg::QuotesFilterRegion)}<input type="text" name="region" value=v(&q.region) /></label>
                <label>{price_label}<input type="text" inputmode="decimal" name="max_price" value=v(&q.max_price) /></label>
                <label>
                    {t(Msg::QuotesSort)}
                    <select name="sort">
                        {sorts.into_iter().map(|(value, label)| view! {
                            <option value=value selected=sort == value>{t(label)}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <div class="form-inline">
                <label class="checkbox"><input type="checkbox" name="exclusive" checked=q.exclusive.is_some() />{t(Msg::QuotesFilterExclusive)}</label>
                <label class="checkbox"><input type="checkbox" name="expired" checked=q.expired.is_some() />{t(Msg::QuotesFilterExpired)}</label>
                <button type="submit">{t(Msg::QuotesFilter)}</button>
                <a href="/quotes">{t(Msg::QuotesFilterReset)}</a>
            </div>
            {unconverted_hint}
        </Form>
        </details>
    }
}

fn page_link(q: &QuoteQuery, page: u32) -> String {
    let mut parts = query_pairs(q);
    parts.push(format!("page={page}"));
    format!("/quotes?{}", parts.join("&"))
}

/// The CSV export of what the list shows (same filters and order, every page).
fn export_link(q: &QuoteQuery) -> String {
    let parts = query_pairs(q);
    if parts.is_empty() {
        "/quotes/export.csv".to_string()
    } else {
        format!("/quotes/export.csv?{}", parts.join("&"))
    }
}

/// The query's filter and sort as `key=value` pairs (no page).
fn query_pairs(q: &QuoteQuery) -> Vec<String> {
    let mut parts = Vec::new();
    let mut push = |k: &str, v: &Option<String>| {
        if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
            parts.push(format!("{k}={}", urlencode(v)));
        }
    };
    push("vendor", &q.vendor);
    push("gpu", &q.gpu);
    push("vram", &q.vram);
    push("gpus", &q.gpus);
    push("exclusive", &q.exclusive);
    push("region", &q.region);
    push("max_price", &q.max_price);
    push("expired", &q.expired);
    push("sort", &q.sort);
    parts
}

fn table(page: QuotePage, q: QuoteQuery) -> impl IntoView {
    let locale = use_locale();
    let count = locale.fmt(
        Msg::QuotesCount,
        &[
            ("total", &page.total.to_string()),
            ("page", &page.page.to_string()),
            ("pages", &page.pages.to_string()),
        ],
    );
    let prev = (page.page > 1).then(|| page_link(&q, page.page - 1));
    let next = (page.page < page.pages).then(|| page_link(&q, page.page + 1));
    if page.rows.is_empty() {
        return view! { <p class="empty-state" data-testid="quote-empty">{t(Msg::QuotesNone)}</p> }.into_any();
    }
    view! {
        <form method="get" action="/quotes/compare" data-testid="compare-form">
            <p class="table-meta">
                <span data-testid="quote-count">{count}</span>
                <button type="submit" class="small">{t(Msg::QuotesCompare)}</button>
                <span class="hint">{t(Msg::QuotesCompareHint)}</span>
            </p>
            <div class="table-scroll">
                <table class="table cards" data-testid="quote-table">
                    <thead>
                        <tr>
                            <th><span class="visually-hidden">{t(Msg::QuotesCompare)}</span></th>
                            <th>{t(Msg::QfVendor)}</th>
                            <th>{t(Msg::QfReference)}</th>
                            <th>{t(Msg::QuotesColGpu)}</th>
                            <th class="num">{t(Msg::QfSpecVramGib)}</th>
                            <th>{t(Msg::QfSpecRegion)}</th>
                            <th class="num">{t(Msg::QuotesColNodeHour)}</th>
                            <th class="num">{t(Msg::QuotesColGpuHour)}</th>
                            <th>{t(Msg::QuotesColValid)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {page.rows.into_iter().map(|r| view! {
                            <tr class:muted=r.expired data-testid="quote-row">
                                <td data-label=t(Msg::QuotesCompare)><input type="checkbox" name="id" value=r.quote_id.to_string() aria-label=r.reference.clone() /></td>
                                <td data-label=t(Msg::QfVendor)>{r.vendor}</td>
                                <td data-label=t(Msg::QfReference)><a href=format!("/quotes/{}", r.quote_id)>{r.reference}</a> <small class="hint" data-testid="quote-id">{format!("#{}", r.quote_id)}</small></td>
                                <td data-label=t(Msg::QuotesColGpu)>
                                    {format!("{} × {}", r.gpus_per_node, r.gpu_model)}
                                    {r.sliced.then(|| view! { <span class="tag warn">{t(Msg::QuotesSliced)}</span> })}
                                </td>
                                <td class="num" data-label=t(Msg::QfSpecVramGib)>{r.vram_gib}</td>
                                <td data-label=t(Msg::QfSpecRegion)>{r.region}</td>
                                <td class="num" data-label=t(Msg::QuotesColNodeHour)>{r.node_hour}</td>
                                <td class="num" data-label=t(Msg::QuotesColGpuHour)>{r.gpu_hour}</td>
                                <td data-label=t(Msg::QuotesColValid)>
                                    {r.valid_until}
                                    {r.expired.then(|| view! { <span class="tag danger">{t(Msg::QuotesExpired)}</span> })}
                                </td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </form>
        <nav class="pager">
            {prev.map(|href| view! { <a href=href rel="prev">{t(Msg::QuotesPrev)}</a> })}
            {next.map(|href| view! { <a href=href rel="next">{t(Msg::QuotesNext)}</a> })}
        </nav>
    }
    .into_any()
}

/// Below the page head: “new” and “import” for those who may, the filter, the table.
fn list_view(p: QuotePage, q: QuoteQuery) -> impl IntoView {
    let edit = p.can_edit.then(|| {
        view! {
            <p class="actions">
                <a class="button-link" href="/quotes/new">{t(Msg::QuotesNew)}</a>
                <a class="button-link secondary" href="/quotes/import">{t(Msg::QuotesImport)}</a>
            </p>
        }
    });
    view! {
        {edit}
        {filter_form(q.clone(), p.vendors.clone(), p.price_currency.clone(), p.unconverted.clone())}
        {table(p, q)}
    }
}

/// The quote list page.
#[component]
pub fn QuoteListPage() -> impl IntoView {
    let query = query_from_url();
    let page = Resource::new(move || query.get(), list_quotes);
    member_page(move |_| {
        view! {
            <Title text=t(Msg::QuotesTitle) />
            <div class="page-head">
                <h1>{t(Msg::QuotesTitle)}</h1>
                <div class="actions">
                    <a class="button-link secondary" href=move || export_link(&query.get()) rel="external" download="quotes.csv" data-testid="quote-export">{t(Msg::QuotesExport)}</a>
                </div>
            </div>
            <Loaded resource=page keep_while_reloading=true let:page>
                {list_view(page, query.get_untracked())}
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
#[path = "list_tests.rs"]
mod tests;
