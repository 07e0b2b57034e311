//! The cost comparison: one workload, the chosen quotes, the assumptions; the ranked totals with
//! their breakdown, what-if profiles, budget, charts and exports. The page is a GET form, so a
//! comparison is a link that can be shared, printed or exported.
//!
//! Page weight: the server renders the read-only parts (`markup`) once, as HTML, and
//! the page hydrates only the budget form and the print button from a few fields ([`CostPageData`]);
//! the comparison's records are not sent again as hydration data.

use crate::{
    components::{guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::tco::CostComparison,
};
use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_location;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
mod markup;

/// `data-lazy` of the per-quote overrides.
pub const OVERRIDES: &str = "overrides";
/// `data-lazy` prefix of a quote's breakdown (`breakdown:<quote id>`).
pub const BREAKDOWN: &str = "breakdown:";

/// The comparison for the query string of the page (`?workload=…&q=…&setup_h=…`), as data:
/// what the page is rendered from (scripts and the router tests read it), shared with the
/// page's charts for a few seconds (`services::tco::ComparisonCache`).
#[server(endpoint = "tco")]
pub async fn compare_costs(query: String) -> Result<CostComparison, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let comparisons = use_context::<crate::services::tco::ComparisonCache>().ok_or_else(|| {
        tracing::error!("the comparison cache is missing from the Leptos context");
        AppError::Internal
    })?;
    let computed = comparisons
        .compare(&auth::db()?, (team.team_id, caller.user_id), &query, request_locale())
        .await?;
    let mut view = computed.view.page_view();
    view.can_set_budget = caller.may(Capability::EditWorkloads);
    Ok(view)
}

/// What the comparison page hydrates from: whether there is anything to show, the query (for
/// the export links) and the budget form's fields. The read-only parts arrive as [`Markup`],
/// left out of the hydration data: the browser already has them as HTML.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostPageData {
    /// The team has workloads (else the page says where to add one).
    pub has_workloads: bool,
    /// Some quote was costed (the exports and the print button are offered).
    pub has_rows: bool,
    /// The query that reproduces this comparison.
    pub query: String,
    /// The budget section.
    pub budget: PageBudget,
    /// "Order this", for a caller who may start orders when a quote was costed.
    #[serde(default)]
    pub order: Option<OrderThis>,
    /// The server-rendered parts; empty in the browser when it hydrated from the server's HTML.
    #[serde(skip)]
    pub markup: Markup,
}

/// The budget section of the comparison page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageBudget {
    /// The workload compared for (0 when none).
    pub workload_id: i64,
    /// The team's base currency.
    pub base_currency: String,
    /// The workload's budget, formatted.
    pub budget: Option<String>,
    /// The budget, exact (the form's value).
    pub budget_exact: Option<String>,
    /// The budget in the base currency, or why it cannot be converted.
    pub budget_note: Option<String>,
    /// No rate converts the budget.
    pub budget_unconverted: bool,
    /// The caller may set the budget.
    pub can_set_budget: bool,
}

/// The "Order this" section: which quote to order and what the action will do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderThis {
    /// The workload's name.
    pub workload: String,
    /// The costed quotes, cheapest first: id and label.
    pub quotes: Vec<(i64, String)>,
    /// The team's draft order for the workload that the action updates (id and title); `None`:
    /// it creates one.
    pub draft: Option<(i64, String)>,
}

/// The order "Order this" made or updated, and which of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderedAnswer {
    /// The draft order.
    pub order_id: i64,
    /// A new order was created (else the workload's draft was updated).
    pub created: bool,
}

/// Where "Order this" leads: the order, saying whether it was created or updated.
#[must_use]
pub fn ordered_href(answer: &OrderedAnswer) -> String {
    let made = if answer.created { "created" } else { "updated" };
    format!("/orders/{}?made={made}", answer.order_id)
}

/// Makes the comparison of `query` (the cost page's query string) the draft order of its
/// workload with `quote_id` chosen: the quotes compared, the runs behind the measured figures
/// and the assumptions go with it (procurement). Updates the team's draft for the workload when
/// there is one, else creates it.
#[server(endpoint = "tco/order")]
pub async fn order_from_comparison(query: String, quote_id: i64) -> Result<OrderedAnswer, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    let db = auth::db()?;
    let made = orders::order_this(&db, &caller, &team, &query, quote_id, request_locale()).await?;
    let answer = OrderedAnswer {
        order_id: made.order_id,
        created: made.created,
    };
    crate::components::forms::open_after_plain_post(&ordered_href(&answer));
    Ok(answer)
}

/// The read-only parts of the page as HTML, in page order around the budget section and the
/// actions: the form; the problems and ranked tables; the breakdowns and charts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Markup {
    /// The comparison form.
    pub form: String,
    /// Form problems, costing problems, the ranked tables or the empty state.
    pub results: String,
    /// Each quote's breakdown, then the charts.
    pub details: String,
}

/// [`CostPageData`] as [`cost_page`] answers it, with its [`Markup`] (a page the browser renders
/// itself after a client-side navigation needs it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostPageAnswer {
    /// The page.
    pub page: CostPageData,
    /// Its server-rendered parts.
    pub markup: Markup,
}

impl From<CostPageAnswer> for CostPageData {
    fn from(answer: CostPageAnswer) -> Self {
        Self {
            markup: answer.markup,
            ..answer.page
        }
    }
}

/// The comparison page for the query string of the page, its read-only parts rendered.
#[server(endpoint = "tco/page")]
pub async fn cost_page(query: String) -> Result<CostPageAnswer, AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let comparison = compare_costs(query).await?;
    let mut answer = markup::answer(&comparison, crate::i18n::request_locale());
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    if let Some(workload_id) = comparison.workload_id
        && caller.may(Capability::SubmitOrders)
        && !comparison.rows.is_empty()
    {
        let draft = orders::workload_draft(&auth::db()?, team.team_id, workload_id)
            .await?
            .map(|row| (row.id, row.title));
        answer.page.order = Some(OrderThis {
            workload: comparison.workload_name.clone(),
            quotes: comparison.rows.iter().map(|r| (r.quote_id, r.label.clone())).collect(),
            draft,
        });
    }
    Ok(answer)
}

/// One part of the comparison page loaded when it is opened ([`OVERRIDES`] or
/// [`BREAKDOWN`]`<quote id>`), as HTML.
#[server(endpoint = "tco/part")]
pub async fn cost_page_part(query: String, part: String) -> Result<String, AppError> {
    let comparison = compare_costs(query).await?;
    markup::part(&comparison, &part, crate::i18n::request_locale()).ok_or(AppError::NotFound)
}

/// Sets the budget of one of the team's workloads in the base currency; an empty amount removes it.
#[server(endpoint = "tco/budget")]
pub async fn set_budget(workload_id: i64, amount: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, error::FieldIssue, store};
    use rust_decimal::Decimal;
    let (_, team) = auth::require_team(Capability::EditWorkloads)?;
    let db = auth::db()?;
    let amount = amount.trim();
    let mut tx = store::begin_write(&db).await?;
    if amount.is_empty() {
        store::budgets::clear(&mut tx, team.team_id, workload_id).await?;
    } else {
        let value = crate::domain::numbers::parse_decimal(amount)
            .map_err(|e| AppError::InvalidFields(vec![FieldIssue::from_number("amount", e)]))?;
        if value <= Decimal::ZERO {
            return Err(AppError::InvalidFields(vec![FieldIssue::new("amount", "not_positive")]));
        }
        // Bounded so budget arithmetic can never overflow.
        if value > Decimal::from(crate::domain::quotes::MAX_BUDGET) {
            return Err(AppError::InvalidFields(vec![FieldIssue {
                limit: Some(crate::domain::quotes::MAX_BUDGET.to_string()),
                ..FieldIssue::new("amount", "too_large")
            }]));
        }
        let base = store::teams::base_currency(&mut *tx, team.team_id)
            .await?
            .ok_or(AppError::Internal)?;
        if !store::budgets::set(&mut tx, team.team_id, workload_id, value, base).await? {
            return Err(AppError::NotFound);
        }
    }
    tx.commit().await?;
    Ok(())
}

fn budget_form(c: &PageBudget) -> impl IntoView + use<> {
    let locale = use_locale();
    let action = ServerAction::<SetBudget>::new();
    crate::components::forms::reload_on_success(action, "");
    let workload_id = c.workload_id;
    let amount_label = locale.fmt(Msg::TcoBudgetAmount, &[("currency", &c.base_currency)]);
    let amount = c.budget_exact.clone().unwrap_or_default();
    view! {
        <section class="card budget">
            <h2>{t(Msg::TcoBudget)}</h2>
            <p data-testid="tco-budget">{match &c.budget {
                Some(b) => locale.fmt(Msg::TcoBudgetIs, &[("amount", b)]),
                None => locale.t(Msg::TcoBudgetNone).to_string(),
            }}
            {c.budget_note.clone().map(|n| {
                let class = if c.budget_unconverted { "callout callout-danger" } else { "hint" };
                view! { " " <span class=class data-testid="tco-budget-note">{n}</span> }
            })}</p>
            {c.can_set_budget.then(|| view! {
                <ActionForm action attr:class="form-inline no-print" attr:data-testid="budget-form">
                    <input type="hidden" name="workload_id" value=workload_id.to_string() />
                    <label>{amount_label}
                        <input type="text" inputmode="decimal" name="amount" value=amount />
                    </label>
                    <button type="submit" class="small">{t(Msg::TcoBudgetSet)}</button>
                </ActionForm>
                <crate::components::forms::ActionError action />
            })}
        </section>
    }
}

/// "Order this": the quote to order (the cheapest first) and what the action will do — create
/// the workload's draft order or update the one there is; then the order opens.
fn order_this_form(o: OrderThis, query: String) -> impl IntoView {
    let locale = use_locale();
    // A plain post: the order opens (`order_from_comparison`).
    let action = ServerAction::<OrderFromComparison>::new();
    let what = match &o.draft {
        Some((_, title)) => locale.fmt(Msg::TcoOrderUpdates, &[("title", title), ("workload", &o.workload)]),
        None => locale.fmt(Msg::TcoOrderCreates, &[("workload", &o.workload)]),
    };
    view! {
        <section class="card no-print" data-testid="tco-order-this">
            <h2>{t(Msg::TcoOrderTitle)}</h2>
            <p class="hint" data-testid="tco-order-what">{what}</p>
            <ActionForm action attr:class="form-inline" attr:data-testid="tco-order-form">
                <input type="hidden" name="query" value=query />
                <label>{t(Msg::TcoOrderQuote)}
                    <select name="quote_id" data-testid="tco-order-quote">
                        {o.quotes.iter().map(|(id, label)| view! { <option value=id.to_string()>{label.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit" data-testid="tco-order-this-button">{t(Msg::TcoOrderThis)}</button>
            </ActionForm>
            <crate::components::forms::ActionError action />
        </section>
    }
}

/// A button that opens the browser's print dialog (the page prints without forms): the page's
/// script answers `data-print` ([`crate::components::page_scripts`]), no island needed.
fn print_button() -> impl IntoView {
    view! { <button type="button" class="secondary no-print" data-print="">{t(Msg::TcoPrint)}</button> }
}

/// The exports of this comparison and the print button.
fn actions(query: &str) -> impl IntoView + use<> {
    let q = query.to_string();
    view! {
        <p class="actions no-print">
            <a class="button-link" href=format!("/plan?{q}") title=t(Msg::PlanOpenHint) data-testid="tco-plan">{t(Msg::PlanOpen)}</a>
            " "
            <a class="button-link secondary" rel="external" href=format!("/tco/export.csv?{q}") data-testid="tco-export-csv">{t(Msg::TcoExportCsv)}</a>
            " "
            <a class="button-link secondary" rel="external" href=format!("/tco/export.json?{q}") title=t(Msg::TcoExportJsonHint)>{t(Msg::TcoExportJson)}</a>
            " "
            {print_button()}
        </p>
    }
}

/// The cost comparison page.
#[component]
pub fn CostPage() -> impl IntoView {
    let location = use_location();
    // Outside `member_page`: its view runs again when the session is known, and a resource
    // made there would be loaded and sent once per run.
    let data = Resource::new(
        move || location.search.get(),
        |query| async move { cost_page(query).await.map(CostPageData::from) },
    );
    member_page(move |_caller| {
        view! {
            <Title text=t(Msg::TcoTitle) />
            <h1>{t(Msg::TcoTitle)}</h1>
            <p class="lead">{t(Msg::TcoLead)}</p>
            <Loaded resource=data let:c>
                {if c.has_workloads { comparison(c).into_any() } else {
                    view! {
                        <p class="empty-state">{t(Msg::TcoNoWorkloads)} " " <a href="/workloads">{t(Msg::NavWorkloads)}</a></p>
                    }.into_any()
                }}
            </Loaded>
            // What past rentals took, offered as assumptions (a sibling suspense).
            <super::tco_learned::LearnedDefaults />
        }
        .into_any()
    })
}

/// The comparison: the server's markup, the budget and the actions (plain forms). The closed
/// parts (a quote's breakdown, the overrides) load when opened: the page's script posts their
/// name to [`cost_page_part`] ([`crate::components::page_scripts`]), no island needed.
fn comparison(c: CostPageData) -> impl IntoView {
    view! {
        <div class="tco" data-parts-from=CostPagePart::PATH data-parts-query=c.query.clone()>
            <div class="server-markup" inner_html=c.markup.form />
            {budget_form(&c.budget)}
            <div class="server-markup" inner_html=c.markup.results />
            {c.order.clone().map(|o| order_this_form(o, c.query.clone()))}
            {c.has_rows.then(|| actions(&c.query))}
            <div class="server-markup" inner_html=c.markup.details />
        </div>
    }
}
