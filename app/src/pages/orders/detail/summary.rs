//! The top of the order page: what the order is at (state, decisions), the chosen quote's total,
//! the problems and who the order waits for; then the links to the page's sections.

use super::checklist::{progress, progress_text};
use crate::{
    domain::orders::OrderState,
    i18n::{Locale, Msg, t, use_locale},
    views::orders::{ItemLine, OrderView},
};
use leptos::prelude::*;

/// Items of each expert not yet done, as the checklist's progress counts them (the one rule,
/// [`crate::domain::checklist::is_done`]): (engineer, procurement).
fn open_counts(lines: &[ItemLine]) -> (usize, usize) {
    lines.iter().filter(|l| !l.done).fold(
        (0, 0),
        |(e, p), l| {
            if l.expert == "engineer" { (e + 1, p) } else { (e, p + 1) }
        },
    )
}

/// Who the order waits for, one line each, in `locale`: on a draft each expert with items still
/// open (else procurement, to fix what blocks or to submit); once submitted the manager; a
/// decided order or an earlier revision nobody.
fn waits_for(locale: Locale, state: OrderState, latest: bool, open: (usize, usize), blocked: bool) -> Vec<String> {
    if !latest {
        return vec![locale.t(Msg::OrderPageWaitOldRevision).to_string()];
    }
    match state {
        OrderState::Draft => {
            let mut lines: Vec<String> = [
                (Msg::OrderPageWhoEngineer, open.0),
                (Msg::OrderPageWhoProcurement, open.1),
            ]
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(who, n)| {
                let msg = if n == 1 {
                    Msg::OrderPageWaitDraftOpenOne
                } else {
                    Msg::OrderPageWaitDraftOpen
                };
                locale.fmt(msg, &[("who", locale.t(who)), ("n", &n.to_string())])
            })
            .collect();
            if lines.is_empty() {
                let msg = if blocked {
                    Msg::OrderPageWaitDraftBlocked
                } else {
                    Msg::OrderPageWaitDraftReady
                };
                lines.push(locale.t(msg).to_string());
            }
            lines
        }
        OrderState::Submitted => vec![locale.t(Msg::OrderPageWaitSubmitted).to_string()],
        OrderState::Approved => vec![locale.t(Msg::OrderPageWaitApproved).to_string()],
        OrderState::Rejected => vec![locale.t(Msg::OrderPageWaitRejected).to_string()],
    }
}

/// The summary card: the decisions, who the order waits for, the chosen quote's total and
/// rank, the checklist's progress and the problems.
pub(super) fn summary(v: &OrderView, lines: &[ItemLine]) -> impl IntoView + use<> {
    let locale = use_locale();
    let latest = v.revisions.first().is_none_or(|(n, _)| *n == v.revision);
    let waits = waits_for(locale, v.state, latest, open_counts(lines), !v.blockers.is_empty())
        .into_iter()
        .map(|w| view! { <li>{w}</li> })
        .collect_view();
    // The same count as the checklist's heading and sections: per role, done of all.
    let done = progress_text(locale, progress(lines));
    // The checklist's problems, then what the order's plan falls short of (late, at risk, over
    // budget): a late plan is a problem the manager reads here too.
    let shortfalls = v.plan.as_ref().map(|p| p.shortfalls.clone()).unwrap_or_default();
    let n = v.problems.len();
    let problems = if n == 0 && shortfalls.is_empty() {
        t(Msg::OrderPageProblemsNone).into_any()
    } else {
        let count = (n > 0).then(|| {
            view! { <li><a href="#order-problems">{locale.fmt(Msg::OrderPageProblemsCount, &[("n", &n.to_string())])}</a></li> }
        });
        let plan = shortfalls
            .into_iter()
            .map(|s| view! { <li data-testid="order-summary-plan-problem"><a href="#order-plan">{s}</a></li> })
            .collect_view();
        view! { <ul class="plain">{count}{plan}</ul> }.into_any()
    };
    let chosen = v.chosen.as_ref().map(|(id, label)| {
        let row = v.tco.iter().find(|r| r.quote_id == *id);
        let total = row.map(|r| {
            let (rank, count) = (r.rank.to_string(), v.tco.len().to_string());
            locale.fmt(Msg::OrderPageTotalValue, &[("total", &r.compared_total), ("rank", &rank), ("count", &count)])
        });
        view! {
            <dt>{t(Msg::OrderPageChosenTotal)}</dt>
            <dd>{label.clone()} {total.map(|s| view! { <br /><strong data-testid="order-summary-total">{s}</strong> })}</dd>
        }
    });
    // The plan the order was chosen from, in one sentence: nodes, pricing, when it is done and
    // what it costs.
    let plan = v.plan.as_ref().map(|p| {
        view! {
            <dt>{t(Msg::OrderPlanNav)}</dt>
            <dd data-testid="order-summary-plan"><a href="#order-plan">{p.sentence.clone()}</a></dd>
        }
    });
    view! {
        <section class="card order-summary" id="summary" data-testid="order-summary" aria-labelledby="order-summary-title">
            <h2 id="order-summary-title">{t(Msg::OrderPageSummary)}</h2>
            <dl class="facts">
                <dt>{t(Msg::OrderPageWaitsFor)}</dt>
                <dd><ul class="plain" data-testid="order-waits-for">{waits}</ul></dd>
                {chosen}
                {plan}
                <dt>{t(Msg::OrderPageChecklistProgress)}</dt>
                <dd data-testid="order-summary-checklist">{done}</dd>
                <dt>{t(Msg::OrderPageProblems)}</dt>
                <dd data-testid="order-summary-problems">{problems}</dd>
            </dl>
            {v.decisions.iter().map(|d| view! { <p data-testid="order-decision">{d.clone()}</p> }).collect_view()}
        </section>
    }
}

/// The links to the page's sections (those the order has), for a long page.
pub(super) fn section_nav(v: &OrderView, sign_off: bool) -> impl IntoView + use<> {
    let approved = v.state == OrderState::Approved;
    let links = [
        (sign_off, "#order-actions", Msg::OrderPageNavSignOff),
        (!v.problems.is_empty(), "#order-problems", Msg::OrderPageNavProblems),
        (true, "#order-selection", Msg::OrderPageNavQuote),
        (v.plan.is_some(), "#order-plan", Msg::OrderPlanNav),
        (true, "#order-comparison", Msg::OrderPageNavComparison),
        (true, "#order-checklist", Msg::OrderPageNavChecklist),
        (approved, "#rental", Msg::OrderPageNavRental),
        (approved, "#bill", Msg::OrderPageNavBill),
        (true, "#order-history", Msg::OrderPageNavHistory),
    ];
    view! {
        <nav class="section-nav no-print" aria-label=t(Msg::OrderPageOnThisPage) data-testid="order-nav">
            <ul>
                {links.into_iter().filter(|(shown, _, _)| *shown).map(|(_, href, msg)| view! {
                    <li><a href=href>{t(msg)}</a></li>
                }).collect_view()}
            </ul>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::{open_counts, waits_for};
    use crate::{domain::orders::OrderState, i18n::Locale, views::orders::ItemLine};

    fn line(expert: &str, status: &str) -> ItemLine {
        ItemLine {
            id: String::new(),
            text: String::new(),
            why: String::new(),
            expert: expert.to_string(),
            required: true,
            evidence_needed: Vec::new(),
            evidence_hint: None,
            status: status.to_string(),
            status_note: String::new(),
            answer: String::new(),
            evidence: Vec::new(),
            answered: None,
            suggestion: None,
            can_answer: false,
            blocker: None,
            done: status != "open",
            accept: None,
            fields_first: Vec::new(),
            ask_vendor: None,
            vendor_answer: None,
        }
    }

    #[test]
    fn open_items_are_counted_per_expert() {
        let lines = [
            line("engineer", "open"),
            line("engineer", "open"),
            line("engineer", "confirmed"),
            line("procurement", "open"),
            line("procurement", "problem"),
        ];
        assert_eq!(open_counts(&lines), (2, 1));
        // Confirmed without the evidence the item asks for is not done: the summary counts it
        // as the checklist's progress does.
        let unproven = ItemLine {
            done: false,
            ..line("procurement", "confirmed")
        };
        assert_eq!(open_counts(&[unproven]), (0, 1));
    }

    #[test]
    fn a_draft_waits_for_the_experts_with_open_items_then_for_procurement() {
        let en = Locale::En;
        assert_eq!(
            waits_for(en, OrderState::Draft, true, (3, 0), true),
            ["Engineer: 3 items open"]
        );
        assert_eq!(
            waits_for(en, OrderState::Draft, true, (1, 2), true),
            ["Engineer: 1 item open", "Procurement: 2 items open"]
        );
        assert!(waits_for(en, OrderState::Draft, true, (0, 0), false)[0].contains("ready to submit"));
        assert!(waits_for(en, OrderState::Draft, true, (0, 0), true)[0].contains("blocks submission"));
        assert_eq!(
            waits_for(en, OrderState::Submitted, true, (0, 0), false),
            ["The manager's sign-off"]
        );
        assert!(waits_for(en, OrderState::Submitted, false, (0, 0), false)[0].contains("earlier revision"));
        assert_eq!(
            waits_for(Locale::ZhCn, OrderState::Submitted, true, (0, 0), false),
            ["经理签批"]
        );
    }
}
