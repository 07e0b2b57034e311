//! The rental plan the order was chosen from (absent when it was chosen otherwise): the plan in
//! one sentence, what it was planned against, and where it falls short. Prints with the record:
//! the manager signs the plan with the deadline and budget it was planned against.

use crate::{
    i18n::{Msg, t},
    views::orders::PlanLine,
};
use leptos::prelude::*;

/// The plan card, when the order holds a plan.
pub(super) fn plan_card(plan: Option<&PlanLine>) -> Option<impl IntoView + use<>> {
    let p = plan?.clone();
    let replan = p.replan_query.map(|q| {
        view! {
            <p class="no-print"><a href=format!("/plan?{q}") data-testid="order-plan-replan">{t(Msg::OrderPlanReplan)}</a></p>
        }
    });
    Some(view! {
        <section class="card order-plan" id="order-plan" data-testid="order-plan" aria-labelledby="order-plan-title">
            <h2 id="order-plan-title">{t(Msg::OrderPlanTitle)}</h2>
            <p class="hint">{t(Msg::OrderPlanLead)}</p>
            <p class="plan-sentence" data-testid="order-plan-sentence"><strong>{p.sentence}</strong></p>
            {p.shortfalls.into_iter().map(|s| view! {
                <p class="callout callout-warn" data-testid="order-plan-shortfall">{s}</p>
            }).collect_view()}
            <ul class="plain">
                <li data-testid="order-plan-start">{p.start}</li>
                <li data-testid="order-plan-deadline">{p.deadline}</li>
                <li data-testid="order-plan-budget">{p.budget}</li>
                <li data-testid="order-plan-slowest">{p.slowest}</li>
                <li data-testid="order-plan-chosen">{p.chosen}</li>
            </ul>
            {replan}
        </section>
    })
}
