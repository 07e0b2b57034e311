//! The problems found on the checklist, listed before everything else on the order page: what
//! procurement acknowledges at submission and what the manager reads first.

use crate::{
    domain::orders::OrderState,
    i18n::{Msg, t},
    views::orders::ProblemLine,
};
use leptos::prelude::*;

/// The problems card: each problem with its item (linked), the explanation and who recorded it;
/// once submitted, who acknowledged them and when. Hidden while there is none.
pub(super) fn problems_card(
    state: OrderState,
    problems: &[ProblemLine],
    acknowledged: Option<String>,
) -> impl IntoView + use<> {
    let lead = t(if state == OrderState::Draft {
        Msg::OrdersProblemsLeadDraft
    } else {
        Msg::OrdersProblemsLeadReview
    });
    (!problems.is_empty()).then(|| {
        view! {
            <section class="card callout callout-warn" id="order-problems" data-testid="order-problems" aria-labelledby="order-problems-title">
                <h2 id="order-problems-title">{t(Msg::OrdersProblemsTitle)}</h2>
                <p class="hint">{lead}</p>
                <ul>{problems.iter().cloned().map(problem_view).collect_view()}</ul>
                {acknowledged.map(|a| view! { <p data-testid="order-problems-acknowledged">{a}</p> })}
            </section>
        }
    })
}

/// One problem: the item (a link to it in the checklist), the explanation, who and when.
fn problem_view(p: ProblemLine) -> impl IntoView {
    view! {
        <li data-testid="order-problem" data-item=p.item_id.clone()>
            <a href=format!("#item-{}", p.item_id)><strong>{p.text}</strong></a>
            " — " <span data-testid="order-problem-note">{p.note}</span>
            {p.answered.map(|a| view! { " " <small class="hint">"(" {a} ")"</small> })}
        </li>
    }
}
