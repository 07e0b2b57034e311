//! The read-only parts of the cost comparison, rendered to HTML on the
//! server only: the form (a plain GET form), the ranked tables, each quote's breakdown and the
//! charts. The browser takes them over as they are — they have no event handlers — so their
//! records are not sent a second time as hydration data; only the budget form and the print
//! button hydrate, from the few fields of [`CostPageData`]. The per-quote overrides and every
//! breakdown but the cheapest (most of the page's weight, rarely all read) come when their
//! `<details>` is opened ([`part`]).

use super::{BREAKDOWN, CostPageAnswer, CostPageData, Markup, OVERRIDES, PageBudget};
use crate::{
    i18n::{Locale, Msg, t, use_locale},
    views::tco::{CostComparison, CostRow},
};
use leptos::prelude::*;

/// The page for comparison `c`, its markup rendered in `locale`.
pub fn answer(c: &CostComparison, locale: Locale) -> CostPageAnswer {
    let markup = Owner::new().with(|| {
        provide_context(locale);
        Markup {
            form: form(c).to_html(),
            results: results(c).to_html(),
            details: details(c).to_html(),
        }
    });
    let page = CostPageData {
        has_workloads: !c.workloads.is_empty(),
        has_rows: !c.rows.is_empty(),
        query: c.query.clone(),
        budget: PageBudget {
            workload_id: c.workload_id.unwrap_or_default(),
            base_currency: c.base_currency.clone(),
            budget: c.budget.clone(),
            budget_exact: c.budget_exact.clone(),
            budget_note: c.budget_note.clone(),
            budget_unconverted: c.budget_unconverted,
            can_set_budget: c.can_set_budget,
        },
        order: None,
        markup: Markup::default(),
    };
    CostPageAnswer { page, markup }
}

/// A part of the page loaded when its `<details>` is opened (`data-lazy`): [`OVERRIDES`] or
/// [`BREAKDOWN`]`<quote id>`, rendered in `locale`; `None` for a part this comparison lacks.
pub fn part(c: &CostComparison, part: &str, locale: Locale) -> Option<String> {
    Owner::new().with(|| {
        provide_context(locale);
        if part == OVERRIDES {
            return c.quotes.iter().any(|q| q.selected).then(|| overrides(c).to_html());
        }
        let id: i64 = part.strip_prefix(BREAKDOWN)?.parse().ok()?;
        c.rows
            .iter()
            .find(|r| r.quote_id == id)
            .map(|r| breakdown_body(r).to_html())
    })
}

/// One ranked table (`testid` names it): the measured group, the "stated, not measured" or the
/// "estimated, not measured" group (each row of these then says what to measure). Every money
/// column is in the base currency; a quote in another currency shows its own amounts in a
/// tooltip.
fn ranking(rows: &[CostRow], base: &str, testid: &'static str) -> impl IntoView + use<> {
    let base = base.to_string();
    // One scale for the whole column, named once here (every row carries the same header).
    let unit_column = column_header(rows);
    view! {
        <table class="table cards" data-testid=testid>
            <thead>
                <tr>
                    <th class="num">{t(Msg::TcoColRank)}</th>
                    <th>{t(Msg::TcoColQuote)}</th>
                    <th class="num">{t(Msg::TcoColTotal)}</th>
                    <th class="num" data-testid="tco-unit-cost-column">{unit_column.clone()}</th>
                    <th class="num"><abbr title=t(Msg::TcoColTimeTitle)>{t(Msg::TcoColTime)}</abbr></th>
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
                            <td class="num" data-label=unit_column.clone() title=r.cost_per_unit_title.clone() data-testid="tco-unit-cost">{r.cost_per_unit.clone().unwrap_or_default()}</td>
                            <td class="num" data-label=t(Msg::TcoColTime)>{r.time_to_finish.clone()}</td>
                            <td class="num" data-label=t(Msg::TcoColGpuHour) title=r.gpu_hour_title.clone() data-testid="tco-gpu-hour">{r.gpu_hour.clone().unwrap_or_default()}</td>
                            <td data-label=t(Msg::TcoColNotes)>
                                <ul class="warnings">
                                    {r.to_measure.clone().map(|m| view! { <li data-testid="tco-to-measure"><strong>{m}</strong></li> })}
                                    {r.throughput.clone().map(|tp| view! { <li class="hint">{tp}</li> })}
                                    {r.response_note.clone().map(|n| view! { <li data-testid="tco-response">{n}</li> })}
                                    {r.token_costs.clone().map(|c| view! { <li data-testid="tco-token-costs">{c}</li> })}
                                    {runs_used(&r.run_ids)}
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

/// The runs the throughput comes from, each a link: they may be runs of another quote of the
/// same node (pooled), so the reader can open what the figure rests on.
fn runs_used(ids: &[i64]) -> Option<impl IntoView + use<>> {
    (!ids.is_empty()).then(|| {
        let links = ids
            .iter()
            .map(|id| view! { " " <a href=format!("/runs/{id}")>{format!("#{id}")}</a> })
            .collect_view();
        view! { <li class="hint" data-testid="tco-runs-used">{t(Msg::TcoRunsUsed)}{links}</li> }
    })
}

/// A figure as the ranking compares it (its base currency), the quote's own in parentheses when
/// that is another: "¥7,200.00 ($1,000.00)"; the own figure alone when nothing was converted.
pub fn in_ranking(compared: &str, own: &str) -> String {
    if compared.is_empty() || compared == own {
        own.to_owned()
    } else {
        format!("{compared} ({own})")
    }
}

/// One quote's breakdown: the cheapest one open and whole, the others closed with their body
/// loaded when opened (`data-lazy`, see `components/closed_parts.js`).
fn breakdown(r: &CostRow) -> impl IntoView + use<> {
    let locale = use_locale();
    let first = r.rank == 1;
    let lazy = (!first).then(|| format!("{BREAKDOWN}{}", r.quote_id));
    view! {
        <details class="card breakdown" open=first data-testid="tco-breakdown" data-lazy=lazy>
            <summary><strong>{format!("{}. {}", r.rank, r.label)}</strong> " — " <span data-testid="tco-breakdown-total">{in_ranking(&r.compared_total, &r.total)}</span>
                " · " {locale.fmt(Msg::TcoIdle, &[("amount", &in_ranking(&r.compared_idle, &r.idle))])}</summary>
            {if first { breakdown_body(r).into_any() } else { view! { <div class="lazy-body"></div> }.into_any() }}
        </details>
    }
}

/// Inside a breakdown: the cost components, the pricing note and the what-if totals.
fn breakdown_body(r: &CostRow) -> impl IntoView + use<> {
    let locale = use_locale();
    view! {
        <table class="table cards">
            <thead><tr>
                <th>{t(Msg::TcoCompName)}</th><th>{t(Msg::TcoCompUnit)}</th>
                <th class="num">{t(Msg::TcoCompQty)}</th><th class="num">{t(Msg::TcoCompPrice)}</th><th class="num">{t(Msg::TcoCompCost)}</th>
            </tr></thead>
            <tbody>
                {r.components.iter().map(|c| view! {
                    <tr><td data-label=t(Msg::TcoCompName)>{c.name.clone()}</td><td data-label=t(Msg::TcoCompUnit)>{c.unit.clone()}</td><td class="num" data-label=t(Msg::TcoCompQty)>{c.quantity.clone()}</td><td class="num" data-label=t(Msg::TcoCompPrice)>{c.price.clone()}</td><td class="num" data-label=t(Msg::TcoCompCost)>{c.cost.clone()}</td></tr>
                    {c.bands.iter().map(|b| view! {
                        <tr class="band" data-testid="traffic-band"><td data-label=t(Msg::TcoCompName)>{b.name.clone()}</td><td data-label=t(Msg::TcoCompUnit)>"GB"</td><td class="num" data-label=t(Msg::TcoCompQty)>{b.quantity.clone()}</td><td class="num" data-label=t(Msg::TcoCompPrice)>{b.price.clone()}</td><td class="num" data-label=t(Msg::TcoCompCost)>{b.cost.clone()}</td></tr>
                    }).collect_view()}
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
    }
}

fn form(c: &CostComparison) -> impl IntoView + use<> {
    let locale = use_locale();
    let selected = c.quotes.iter().any(|q| q.selected);
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
                {(c.choices_not_shown > 0).then(|| view! {
                    <p class="hint" data-testid="tco-choices-not-shown">
                        {locale.fmt(Msg::TcoChoicesNotShown, &[("count", &c.choices_not_shown.to_string())])}
                    </p>
                })}
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
            {selected.then(|| view! {
                <details data-testid="tco-overrides" data-lazy=OVERRIDES>
                    <summary>{t(Msg::TcoOverrides)}</summary>
                    <div class="lazy-body"></div>
                </details>
            })}
            <button type="submit" data-testid="tco-compare">{t(Msg::TcoCompare)}</button>
        </form>
    }
}

/// Inside the overrides: per ticked quote its throughput, node count and every assumption.
fn overrides(c: &CostComparison) -> impl IntoView + use<> {
    let locale = use_locale();
    c.quotes.iter().filter(|q| q.selected).map(|q| {
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
    }).collect_view()
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
            {c.response_target.is_some().then(|| view! {
                <img class="chart" data-testid="chart-response" src=format!("/tco/response.svg?{q}") alt=t(Msg::TcoChartResponse) />
            })}
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

/// Above the actions: a problem with the form, the quotes that could not be costed, and the
/// ranked tables (or why there is nothing to rank).
fn results(c: &CostComparison) -> impl IntoView + use<> {
    let fix = c.assumptions.iter().any(|f| f.error.is_some());
    let (estimated, rest): (Vec<CostRow>, Vec<CostRow>) = c.rows.iter().cloned().partition(|r| r.estimated);
    let (stated, measured): (Vec<CostRow>, Vec<CostRow>) = rest.into_iter().partition(|r| r.stated);
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
                    <div class="table-scroll">{ranking(&measured, &c.base_currency, "tco-ranking")}</div>
                })}
                {(!stated.is_empty()).then(|| view! {
                    <section data-testid="tco-stated-group">
                        <h2>{t(Msg::TcoStated)}</h2>
                        <p class="hint">{t(Msg::TcoStatedHint)}</p>
                        <div class="table-scroll">{ranking(&stated, &c.base_currency, "tco-stated")}</div>
                    </section>
                })}
                {(!estimated.is_empty()).then(|| view! {
                    <section data-testid="tco-estimated-group">
                        <h2>{t(Msg::TcoEstimated)}</h2>
                        <p class="hint">{t(Msg::TcoEstimatedHint)}</p>
                        <div class="table-scroll">{ranking(&estimated, &c.base_currency, "tco-estimated")}</div>
                    </section>
                })}
                {(c.rows_not_shown > 0).then(|| {
                    let shown = c.rows.len().to_string();
                    let total = (c.rows.len() + c.rows_not_shown).to_string();
                    let exported = c.rows_in_exports.to_string();
                    let args = [("shown", shown.as_str()), ("total", &total), ("exported", &exported)];
                    view! {
                        <p class="hint" data-testid="tco-rows-not-shown">
                            {use_locale().fmt(Msg::TcoRowsNotShown, &args)}
                        </p>
                    }
                })}
            }.into_any()
        }}
    }
}

/// Below the actions: each quote's breakdown and the charts.
fn details(c: &CostComparison) -> impl IntoView + use<> {
    (!c.rows.is_empty()).then(|| {
        view! {
            {c.rows.iter().map(breakdown).collect_view()}
            {charts(c)}
        }
    })
}

/// The header of the cost-per-unit column: its one scale and unit ("Cost per 1,000,000
/// tokens"), or the plain name when no row has a cost per unit.
fn column_header(rows: &[CostRow]) -> String {
    rows.iter()
        .find_map(|r| r.unit_cost_column.clone())
        .unwrap_or_else(|| t(Msg::TcoColUnitCost).to_string())
}
