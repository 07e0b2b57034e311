//! The rental plan of a workload (`/plan?workload=…`, the cost page's query): the
//! recommendation in one sentence, every plan as time to finish against cost, the best
//! trade-offs and why the others lost; a plan on the front goes into the workload's draft order
//! in one action, as "Order this" does from the cost page.

use crate::{
    components::{guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::plan::{PlanRow, PlanView},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;
use serde::{Deserialize, Serialize};

/// The plan page: the plan and, for procurement, what ordering a plan will do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanPageData {
    /// The plan in the reader's language.
    pub plan: PlanView,
    /// The caller may order a plan.
    pub can_order: bool,
    /// The team's draft order for the workload that ordering updates (id and title); `None`:
    /// ordering creates one.
    pub draft: Option<(i64, String)>,
}

/// The rental plan for the cost page's query (`?workload=…&q=…&setup_h=…`), planned from now
/// at the earliest.
#[server(endpoint = "plan")]
pub async fn plan_page(query: String) -> Result<PlanPageData, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let db = auth::db()?;
    let locale = request_locale();
    let comparisons = use_context::<services::tco::ComparisonCache>().ok_or_else(|| {
        tracing::error!("the comparison cache is missing from the Leptos context");
        AppError::Internal
    })?;
    let computed = comparisons
        .compare(&db, (team.team_id, caller.user_id), &query, locale)
        .await?;
    let planned = services::tco::planned(&db, team.team_id, &computed, crate::clock::now_unix()).await?;
    let plan = services::tco::plan_view(&computed, planned.as_ref(), locale);
    let can_order = caller.may(Capability::SubmitOrders) && !plan.front.is_empty();
    let draft = match plan.workload_id {
        Some(w) if can_order => services::orders::workload_draft(&db, team.team_id, w)
            .await?
            .map(|row| (row.id, row.title)),
        _ => None,
    };
    Ok(PlanPageData { plan, can_order, draft })
}

/// Puts the plan (`quote_id`, `nodes`, `pricing`: `on_demand` or `monthly`) of the plan page
/// for `query` into the workload's draft order: the comparison with the plan's node count, the
/// quote chosen, the plan kept on the order with the deadline and budget it was planned against
/// (procurement). Only a plan on the front, as the page showed it, is taken.
#[server(endpoint = "plan/order")]
pub async fn order_plan(query: String, quote_id: i64, nodes: u32, pricing: String) -> Result<OrderedPlan, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    let db = auth::db()?;
    let chosen = orders::PlanChoice {
        quote_id,
        nodes,
        pricing: pricing.trim().to_string(),
    };
    let made = orders::order_plan(&db, &caller, &team, &query, &chosen, request_locale()).await?;
    let created = if made.created { "created" } else { "updated" };
    crate::components::forms::open_after_plain_post(&format!("/orders/{}?made={created}", made.order_id));
    Ok(OrderedPlan {
        order_id: made.order_id,
        created: made.created,
    })
}

/// The order a plan went into, and whether it was created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderedPlan {
    /// The draft order.
    pub order_id: i64,
    /// A new order was created (else the workload's draft was updated).
    pub created: bool,
}

/// The plan page.
#[component]
pub fn RentalPlanPage() -> impl IntoView {
    let location = use_location();
    let data = Resource::new(move || location.search.get(), plan_page);
    member_page(move |_caller| {
        view! {
            <Title text=t(Msg::PlanTitle) />
            <h1>{t(Msg::PlanTitle)}</h1>
            <p class="lead">{t(Msg::PlanLead)}</p>
            <Loaded resource=data let:page>
                {if page.plan.workloads.is_empty() {
                    view! {
                        <p class="empty-state">{t(Msg::PlanNoWorkloads)} " " <a href="/workloads">{t(Msg::NavWorkloads)}</a></p>
                    }.into_any()
                } else {
                    plan(page).into_any()
                }}
            </Loaded>
        }
        .into_any()
    })
}

/// The workload picker: a GET form, so a plan is a link.
fn picker(p: &PlanView) -> impl IntoView + use<> {
    let chosen = p.workload_id;
    view! {
        <form method="get" action="/plan" class="form-inline no-print" data-testid="plan-picker">
            <label>{t(Msg::PlanWorkload)}
                <select name="workload">
                    {p.workloads.iter().map(|(id, name)| {
                        view! { <option value=id.to_string() selected=Some(*id) == chosen>{name.clone()}</option> }
                    }).collect_view()}
                </select>
            </label>
            <button type="submit" class="small">{t(Msg::PlanShow)}</button>
        </form>
    }
}

/// The page's body for one plan: the recommendation first, with the one primary "Order this
/// plan"; the chart; the best trade-offs (the recommended plan first); the others.
fn plan(page: PlanPageData) -> impl IntoView {
    let p = page.plan.clone();
    let q = p.query.clone();
    let action = ordering();
    view! {
        {picker(&p)}
        <ul class="plan-basis" data-testid="plan-basis">
            {p.basis.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}
        </ul>
        <p class="no-print"><a href=format!("/tco?{q}")>{t(Msg::PlanOpenCosts)}</a></p>
        {recommendation(&page, action)}
        {(p.plans_weighed > 0).then(|| view! {
            // A phone gets the chart drawn narrow (`narrow=1`): the desktop's, scaled to the
            // screen, would write its ticks at 4 px.
            <picture>
                <source media="(max-width: 40rem)" srcset=format!("/plan/chart.svg?{q}&narrow=1") />
                <img class="chart" data-testid="plan-chart" src=format!("/plan/chart.svg?{q}") alt=t(Msg::PlanChartAlt) />
            </picture>
        })}
        {(!p.front.is_empty()).then(|| front(&page, action))}
        {(!p.others.is_empty()).then(|| others(&p))}
        {(!p.questions.is_empty()).then(|| questions(&p))}
    }
}

/// The action that puts a plan into the draft order: a plain post, after which the order opens
/// (`order_plan`).
fn ordering() -> ServerAction<OrderPlan> {
    ServerAction::<OrderPlan>::new()
}

/// The recommendation, or why there is none; with the recommended plan's order button, the
/// page's one primary action.
fn recommendation(page: &PlanPageData, action: ServerAction<OrderPlan>) -> impl IntoView + use<> {
    let p = &page.plan;
    let order = page
        .can_order
        .then(|| p.front.iter().find(|r| r.recommended))
        .flatten()
        .map(|r| order_button(action, &p.query, r, Prominence::Primary));
    view! {
        <section class="card" data-testid="plan-recommendation">
            <h2>{t(Msg::PlanRecommendation)}</h2>
            {p.sentence.clone().map(|s| view! { <p class="plan-sentence" data-testid="plan-sentence">{s}</p> })}
            {p.recommended_at_risk.then(|| view! {
                <p class="callout callout-danger" data-testid="plan-at-risk">{t(Msg::PlanAtRiskNote)}</p>
            })}
            {p.no_plan.clone().map(|s| view! { <p class="callout" data-testid="plan-none">{s}</p> })}
            {order}
        </section>
    }
}

/// The plans on the front, the recommended one first, each with its order button (secondary:
/// the recommendation card carries the primary one).
fn front(page: &PlanPageData, action: ServerAction<OrderPlan>) -> impl IntoView + use<> {
    let locale = use_locale();
    let p = &page.plan;
    let hint = page.can_order.then(|| {
        let what = match &page.draft {
            Some((_, title)) => locale.fmt(
                Msg::TcoOrderUpdates,
                &[("title", title), ("workload", &p.workload_name)],
            ),
            None => locale.fmt(Msg::TcoOrderCreates, &[("workload", &p.workload_name)]),
        };
        view! { <p class="hint no-print" data-testid="plan-order-what">{what} " " {t(Msg::PlanOrderHint)}</p> }
    });
    let can_order = page.can_order;
    let query = p.query.clone();
    let rows = p
        .front
        .iter()
        .filter(|r| r.recommended)
        .chain(p.front.iter().filter(|r| !r.recommended));
    view! {
        <section class="card" data-testid="plan-front">
            <h2>{t(Msg::PlanFrontTitle)}</h2>
            <p class="hint">{t(Msg::PlanFrontHint)}</p>
            {hint}
            <table class="table cards">
                {head()}
                <tbody>
                    {rows.map(|r| {
                        let order = can_order.then(|| order_button(action, &query, r, Prominence::Secondary));
                        row(r, order)
                    }).collect_view()}
                </tbody>
            </table>
            <crate::components::forms::ActionError action />
        </section>
    }
}

/// How an order button stands out: the recommendation's is the page's primary action.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prominence {
    Primary,
    Secondary,
}

/// The "order this plan" form of one row.
fn order_button(
    action: ServerAction<OrderPlan>,
    query: &str,
    r: &PlanRow,
    prominence: Prominence,
) -> impl IntoView + use<> {
    let (class, testid) = match prominence {
        Prominence::Primary => ("", "plan-order-recommended"),
        Prominence::Secondary => ("small secondary", "plan-order"),
    };
    let (query, quote, nodes, pricing) = (
        query.to_string(),
        r.quote_id.to_string(),
        r.nodes.to_string(),
        r.pricing.clone(),
    );
    view! {
        <ActionForm action attr:class="form-inline no-print">
            <input type="hidden" name="query" value=query />
            <input type="hidden" name="quote_id" value=quote />
            <input type="hidden" name="nodes" value=nodes />
            <input type="hidden" name="pricing" value=pricing />
            <button type="submit" class=class data-testid=testid>{t(Msg::PlanOrder)}</button>
        </ActionForm>
    }
}

/// Each quote's best plan off the front and why it lost.
fn others(p: &PlanView) -> impl IntoView + use<> {
    let locale = use_locale();
    let hint = locale.fmt(
        Msg::PlanOthersHint,
        &[("n", &crate::i18n::group(p.plans_weighed.into(), 0))],
    );
    view! {
        <section class="card" data-testid="plan-others">
            <h2>{t(Msg::PlanOthersTitle)}</h2>
            <p class="hint">{hint}</p>
            <table class="table cards">
                {head()}
                <tbody>
                    {p.others.iter().map(|r| row(r, None::<()>)).collect_view()}
                </tbody>
            </table>
        </section>
    }
}

/// The plan tables' header; a plan on the front may also say why it is not the choice.
fn head() -> impl IntoView {
    view! {
        <thead>
            <tr>
                <th>{t(Msg::PlanColPlan)}</th>
                <th>{t(Msg::PlanColBasis)}</th>
                <th class="num">{t(Msg::PlanColTotal)}</th>
                <th class="num"><abbr title=t(Msg::PlanColDoneTitle)>{t(Msg::PlanColDone)}</abbr></th>
                <th class="num">{t(Msg::PlanColSlowest)}</th>
                <th>{t(Msg::PlanColWhy)}</th>
            </tr>
        </thead>
    }
}

/// One plan's row; the exact figures ride along as data attributes.
fn row<A: IntoView + 'static>(r: &PlanRow, action: Option<A>) -> impl IntoView + use<A> {
    let name = format!("{} × {}", r.label, r.nodes);
    let badges = [
        (r.recommended, "tag", Msg::PlanBadgeRecommended),
        (r.at_risk, "tag warn", Msg::PlanBadgeAtRisk),
        (r.late, "tag danger", Msg::PlanBadgeLate),
        (r.over_budget, "tag danger", Msg::PlanBadgeOverBudget),
        (r.unknowns, "tag warn", Msg::PlanBadgeUnknowns),
    ];
    view! {
        <tr
            data-testid="plan-row"
            data-quote=r.quote_id.to_string()
            data-nodes=r.nodes.to_string()
            data-pricing=r.pricing.clone()
            data-total=r.total_exact.clone()
            data-finish-s=r.finish_s.to_string()
            data-slowest-s=r.pessimistic_finish_s.to_string()
            class:recommended=r.recommended
        >
            <td data-label=t(Msg::PlanColPlan)>
                <strong>{name}</strong> " · " {r.pricing_text.clone()}
                {badges.into_iter().filter(|(on, _, _)| *on).map(|(_, class, msg)| view! { " " <span class=class>{t(msg)}</span> }).collect_view()}
            </td>
            <td data-label=t(Msg::PlanColBasis)>{r.group_text.clone()}</td>
            <td class="num" data-label=t(Msg::PlanColTotal)>{r.total.clone()}</td>
            <td class="num" data-label=t(Msg::PlanColDone)>{r.finish.clone()}</td>
            <td class="num" data-label=t(Msg::PlanColSlowest)>{r.pessimistic_finish.clone()}</td>
            <td data-label=t(Msg::PlanColWhy)>{r.reasons.clone()} {action}</td>
        </tr>
    }
}

/// What to ask the vendors before ordering.
fn questions(p: &PlanView) -> impl IntoView + use<> {
    view! {
        <section class="card" data-testid="plan-questions">
            <h2>{t(Msg::PlanAskTitle)}</h2>
            <ul>
                {p.questions.iter().map(|(label, q)| view! { <li><strong>{label.clone()}</strong> ": " {q.clone()}</li> }).collect_view()}
            </ul>
        </section>
    }
}
