//! The cost comparison: one workload, the chosen quotes, the assumptions; the ranked totals with
//! their breakdown, what-if profiles, budget, charts and exports. The page is a GET form, so a
//! comparison is a link that can be shared, printed or exported.

use crate::{
    components::{guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::tco::{CostComparison, CostRow},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;

/// The comparison for the query string of the page (`?workload=…&q=…&setup_h=…`), shared with
/// the page's charts for a few seconds (`services::tco::ComparisonCache`).
#[server(endpoint = "tco")]
pub async fn compare_costs(query: String) -> Result<CostComparison, AppError> {
    use crate::{app::request_locale, auth, domain::roles::Capability};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let state = auth::state()?;
    let computed = state
        .tco_cache
        .compare(&state.db, team.team_id, &query, request_locale())
        .await?;
    let mut view = computed.view.clone();
    view.can_set_budget = caller.may(Capability::EditWorkloads);
    Ok(view)
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
        // Bounded so budget arithmetic can never overflow (issue 13, item 4).
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

/// One ranked table: the measured group, or the "estimated, not measured" group (each row
/// then says what to measure). Every money column is in the base currency; a quote in another
/// currency shows its own amounts in a tooltip.
fn ranking(rows: &[CostRow], base: &str, estimated: bool) -> impl IntoView + use<> {
    let base = base.to_string();
    let testid = if estimated { "tco-estimated" } else { "tco-ranking" };
    view! {
        <table class="table cards" data-testid=testid>
            <thead>
                <tr>
                    <th class="num">{t(Msg::TcoColRank)}</th>
                    <th>{t(Msg::TcoColQuote)}</th>
                    <th class="num">{t(Msg::TcoColTotal)}</th>
                    <th class="num">{t(Msg::TcoColUnitCost)}</th>
                    <th class="num">{t(Msg::TcoColTime)}</th>
                    <th class="num">{t(Msg::TcoColGpuHour)}</th>
                    <th>{t(Msg::TcoColNotes)}</th>
                </tr>
            </thead>
            <tbody>
                {rows.iter().map(|r| {
                    let class = if r.rank == 1 { "cheapest" } else { "" };
                    let own = (r.currency != base).then(|| r.total.clone());
                    view! {
                        <tr class=class data-testid="tco-row">
                            <td class="num" data-label=t(Msg::TcoColRank)>{r.rank}</td>
                            <td data-label=t(Msg::TcoColQuote)>
                                <a href=format!("/quotes/{}", r.quote_id)>{r.label.clone()}</a>
                                {(r.rank == 1).then(|| view! { <span class="tag">{t(Msg::TcoCheapest)}</span> })}
                                {r.over_budget.then(|| view! { <span class="tag danger">{t(Msg::TcoOverBudget)}</span> })}
                                <br /><small class="hint">{r.hours_note.clone()}</small>
                            </td>
                            <td class="num" data-label=t(Msg::TcoColTotal)><strong data-testid="tco-total">{r.compared_total.clone()}</strong>
                                {own.map(|o| view! { <br /><small class="hint">{o}</small> })}
                                {r.rate_note.clone().map(|n| view! { <br /><small class="hint">{n}</small> })}
                            </td>
                            <td class="num" data-label=t(Msg::TcoColUnitCost) title=r.cost_per_unit_title.clone() data-testid="tco-unit-cost">{r.cost_per_unit.clone().unwrap_or_default()}</td>
                            <td class="num" data-label=t(Msg::TcoColTime)>{r.time_to_finish.clone()}</td>
                            <td class="num" data-label=t(Msg::TcoColGpuHour) title=r.gpu_hour_title.clone() data-testid="tco-gpu-hour">{r.gpu_hour.clone().unwrap_or_default()}</td>
                            <td data-label=t(Msg::TcoColNotes)>
                                <ul class="warnings">
                                    {r.to_measure.clone().map(|m| view! { <li data-testid="tco-to-measure"><strong>{m}</strong></li> })}
                                    {r.throughput.clone().map(|tp| view! { <li class="hint">{tp}</li> })}
                                    {r.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
                                </ul>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

fn breakdown(r: &CostRow) -> impl IntoView + use<> {
    let locale = use_locale();
    view! {
        <details class="card breakdown" open=r.rank == 1 data-testid="tco-breakdown">
            <summary><strong>{format!("{}. {}", r.rank, r.label)}</strong> " — " {r.total.clone()} " · " {locale.fmt(Msg::TcoIdle, &[("amount", &r.idle)])}</summary>
            <table class="table cards">
                <thead><tr>
                    <th>{t(Msg::TcoCompName)}</th><th>{t(Msg::TcoCompUnit)}</th>
                    <th class="num">{t(Msg::TcoCompQty)}</th><th class="num">{t(Msg::TcoCompPrice)}</th><th class="num">{t(Msg::TcoCompCost)}</th>
                </tr></thead>
                <tbody>
                    {r.components.iter().map(|c| view! {
                        <tr><td data-label=t(Msg::TcoCompName)>{c.name.clone()}</td><td data-label=t(Msg::TcoCompUnit)>{c.unit.clone()}</td><td class="num" data-label=t(Msg::TcoCompQty)>{c.quantity.clone()}</td><td class="num" data-label=t(Msg::TcoCompPrice)>{c.price.clone()}</td><td class="num" data-label=t(Msg::TcoCompCost)>{c.cost.clone()}</td></tr>
                    }).collect_view()}
                </tbody>
                <tfoot><tr><th colspan="4">{t(Msg::TcoColTotal)}</th><th class="num">{r.total.clone()}</th></tr></tfoot>
            </table>
            {r.pricing_note.clone().map(|n| view! { <p>{n}</p> })}
            {(!r.what_if.is_empty()).then(|| view! {
                <h3>{t(Msg::TcoWhatIf)}</h3>
                <dl class="facts what-if" data-testid="tco-what-if">
                    {r.what_if.iter().map(|(name, total)| view! { <dt>{name.clone()}</dt><dd>{total.clone()}</dd> }).collect_view()}
                </dl>
                <p class="hint">{locale.fmt(Msg::TcoWhatIfHint, &[("low", "0.8"), ("high", "1.3")])}</p>
            })}
        </details>
    }
}

fn form(c: &CostComparison) -> impl IntoView + use<> {
    let locale = use_locale();
    let selected: Vec<_> = c.quotes.iter().filter(|q| q.selected).cloned().collect();
    view! {
        <form method="get" action="/tco" class="card form no-print" data-testid="tco-form">
            <input type="hidden" name="picked" value="1" />
            <label>{t(Msg::TcoWorkload)}
                <select name="workload" data-testid="tco-workload">
                    {c.workloads.iter().map(|(id, name)| view! { <option value=id.to_string() selected=Some(*id) == c.workload_id>{name.clone()}</option> }).collect_view()}
                </select>
            </label>
            <fieldset>
                <legend>{t(Msg::TcoQuotes)}</legend>
                <div class="check-grid">
                    {c.quotes.iter().map(|q| view! {
                        <label class="check">
                            <input type="checkbox" name="q" value=q.id.to_string() checked=q.selected />
                            {q.label.clone()}
                            {q.expired.then(|| view! { <span class="tag warn">{t(Msg::TcoQuoteExpired)}</span> })}
                            {q.fails_requirements.then(|| view! { <span class="tag danger">{t(Msg::TcoQuoteFails)}</span> })}
                        </label>
                    }).collect_view()}
                </div>
            </fieldset>
            <fieldset>
                <legend>{t(Msg::TcoAssumptions)}</legend>
                <p class="hint">{t(Msg::TcoAssumptionsHint)}</p>
                <div class="field-grid">
                    {c.assumptions.iter().map(|f| {
                        let label = locale.t(Msg::from_key(&format!("tco.f_{}", f.name)).unwrap_or(Msg::TcoAssumptions));
                        view! {
                            <label>{label}
                                <input type="text" inputmode="decimal" name=f.name.clone() value=f.value.clone() aria-invalid=f.error.is_some().then_some("true") />
                                {f.error.clone().map(|e| view! { <span class="field-error">{e}</span> })}
                            </label>
                        }
                    }).collect_view()}
                </div>
            </fieldset>
            {(!selected.is_empty()).then(|| view! {
                <details data-testid="tco-overrides">
                    <summary>{t(Msg::TcoOverrides)}</summary>
                    {selected.iter().map(|q| {
                        let id = q.id;
                        view! {
                            <fieldset>
                                <legend>{q.label.clone()}</legend>
                                <div class="field-grid">
                                    <label>{t(Msg::TcoOverrideTp)}<input type="text" inputmode="decimal" name=format!("tp_{id}") /></label>
                                    <label>{t(Msg::TcoOverrideTpNodes)}<input type="text" inputmode="numeric" name=format!("tpn_{id}") /></label>
                                    {crate::views::tco::ASSUMPTION_FIELDS.iter().map(|name| view! {
                                        <label>{locale.t(Msg::from_key(&format!("tco.f_{name}")).unwrap_or(Msg::TcoAssumptions))}
                                            <input type="text" inputmode="decimal" name=format!("{name}_{id}") />
                                        </label>
                                    }).collect_view()}
                                </div>
                            </fieldset>
                        }
                    }).collect_view()}
                </details>
            })}
            <button type="submit" data-testid="tco-compare">{t(Msg::TcoCompare)}</button>
        </form>
    }
}

fn budget_form(c: &CostComparison) -> impl IntoView + use<> {
    let locale = use_locale();
    let action = ServerAction::<SetBudget>::new();
    crate::components::forms::reload_on_success(action, "");
    let workload_id = c.workload_id.unwrap_or_default();
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

fn charts(c: &CostComparison) -> impl IntoView + use<> {
    let locale = use_locale();
    let q = c.query.clone();
    let cheapest = c.rows.first().map(|r| r.label.clone()).unwrap_or_default();
    view! {
        <section class="card" data-testid="tco-charts">
            <h2>{t(Msg::TcoCharts)}</h2>
            <img class="chart" data-testid="chart-stack" src=format!("/tco/stack.svg?{q}") alt=locale.fmt(Msg::TcoChartStack, &[("currency", &c.base_currency)]) />
            <img class="chart" data-testid="chart-hours" src=format!("/tco/hours.svg?{q}") alt=locale.fmt(Msg::TcoChartHours, &[("quote", &cheapest)]) />
            <img class="chart" data-testid="chart-nodes" src=format!("/tco/nodes.svg?{q}") alt=locale.fmt(Msg::TcoChartNodes, &[("quote", &cheapest)]) />
        </section>
    }
}

/// Why there is nothing to rank, if the form is fine: no quotes at all, none passes the
/// requirement check (only then), or none is ticked. `None` when quotes were ticked but could
/// not be costed (the problems say why).
fn empty_reason(c: &CostComparison) -> Option<Msg> {
    if c.quotes.is_empty() {
        Some(Msg::TcoNoQuotesYet)
    } else if c.quotes.iter().all(|q| q.fails_requirements) && !c.quotes.iter().any(|q| q.selected) {
        Some(Msg::TcoNoQuotes)
    } else if !c.quotes.iter().any(|q| q.selected) {
        Some(Msg::TcoNonePicked)
    } else {
        None
    }
}

fn results(c: &CostComparison) -> impl IntoView + use<> {
    let q = c.query.clone();
    let fix = c.assumptions.iter().any(|f| f.error.is_some());
    let (measured, estimated): (Vec<CostRow>, Vec<CostRow>) = c.rows.iter().cloned().partition(|r| !r.estimated);
    view! {
        {fix.then(|| view! { <p class="form-error" role="alert">{t(Msg::TcoFixFields)}</p> })}
        {(!c.problems.is_empty()).then(|| view! {
            <section class="callout callout-danger" data-testid="tco-problems">
                <strong>{t(Msg::TcoProblems)}</strong>
                <ul>{c.problems.iter().map(|p| view! { <li>{format!("{}: {}", p.label, p.message)}</li> }).collect_view()}</ul>
            </section>
        })}
        {if c.rows.is_empty() {
            (!fix).then(|| empty_reason(c)).flatten().map(|m| view! { <p class="empty-state" data-testid="tco-empty">{t(m)}</p> }).into_any()
        } else {
            view! {
                {(!measured.is_empty()).then(|| view! {
                    <h2>{t(Msg::TcoRanked)}</h2>
                    <div class="table-scroll">{ranking(&measured, &c.base_currency, false)}</div>
                })}
                {(!estimated.is_empty()).then(|| view! {
                    <section data-testid="tco-estimated-group">
                        <h2>{t(Msg::TcoEstimated)}</h2>
                        <p class="hint">{t(Msg::TcoEstimatedHint)}</p>
                        <div class="table-scroll">{ranking(&estimated, &c.base_currency, true)}</div>
                    </section>
                })}
                <p class="actions no-print">
                    <a class="button-link secondary" rel="external" href=format!("/tco/export.csv?{q}") data-testid="tco-export-csv">{t(Msg::TcoExportCsv)}</a>
                    " "
                    <a class="button-link secondary" rel="external" href=format!("/tco/export.json?{q}") title=t(Msg::TcoExportJsonHint)>{t(Msg::TcoExportJson)}</a>
                    " "
                    <PrintButton />
                </p>
                {c.rows.iter().map(breakdown).collect_view()}
                {charts(c)}
            }.into_any()
        }}
    }
}

/// A button that opens the browser's print dialog (the page prints without forms).
#[component]
fn PrintButton() -> impl IntoView {
    let print = move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    };
    view! { <button type="button" class="secondary" on:click=print>{t(Msg::TcoPrint)}</button> }
}

/// The cost comparison page.
#[component]
pub fn CostPage() -> impl IntoView {
    member_page(|_caller| {
        let location = use_location();
        let data = Resource::new(move || location.search.get(), compare_costs);
        view! {
            <Title text=t(Msg::TcoTitle) />
            <h1>{t(Msg::TcoTitle)}</h1>
            <p class="lead">{t(Msg::TcoLead)}</p>
            <Loaded resource=data let:c>
                {if c.workloads.is_empty() {
                    view! {
                        <p class="empty-state">{t(Msg::TcoNoWorkloads)} " " <a href="/workloads">{t(Msg::NavWorkloads)}</a></p>
                    }.into_any()
                } else {
                    view! {
                        {form(&c)}
                        {budget_form(&c)}
                        {results(&c)}
                    }.into_any()
                }}
            </Loaded>
            // Issue 15: what past rentals took, offered as assumptions (a sibling suspense).
            <super::tco_learned::LearnedDefaults />
        }
        .into_any()
    })
}
