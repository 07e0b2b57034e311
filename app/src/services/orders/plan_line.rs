//! The rental plan an order was chosen from, in words for its page: what was planned (quote,
//! nodes, pricing, when it is done and what it costs), what it was planned against (start,
//! deadline, budget), and where it falls short (late, at risk at the slowest run, over budget).
//! Pure: the plan is the signed one ([`SignedPlan`]), the label the quote's.

use crate::{
    domain::{money::format_money, orders::record::SignedPlan},
    i18n::{Locale, Msg},
    services::tco::{finish_when, hours_number, moment, plan_name},
    views::orders::PlanLine,
};

/// The plan card of an order whose record holds `plan` for the quote labelled `label`;
/// `comparison` is the order's cost-page query (the plan page opens on it to plan again).
#[must_use]
pub fn plan_line(plan: &SignedPlan, label: &str, comparison: Option<&str>, locale: Locale) -> PlanLine {
    let start = Some(plan.earliest_start);
    let money = |amount| format_money(amount, plan.compare_currency);
    let sentence = locale.fmt(
        Msg::PlanSentence,
        &[
            ("plan", &plan_name(locale, label, plan.nodes, plan.pricing)),
            ("when", &finish_when(locale, start, plan.finish_s)),
            ("total", &money(plan.compared_total)),
        ],
    ) + locale.t(Msg::PlanSentenceEnd);
    let deadline = match plan.deadline_s {
        Some(s) => {
            let at = plan
                .deadline_at
                .unwrap_or_else(|| plan.earliest_start.saturating_add_unsigned(s));
            locale.fmt(
                Msg::PlanBasisDeadlineAt,
                &[("at", &moment(at)), ("hours", &hours_number(s))],
            )
        }
        None => locale.t(Msg::OrderPlanNoDeadline).to_string(),
    };
    PlanLine {
        sentence,
        start: locale.fmt(Msg::PlanBasisStart, &[("at", &moment(plan.earliest_start))]),
        deadline,
        budget: match plan.budget {
            Some(b) => locale.fmt(Msg::PlanBasisBudget, &[("amount", &money(b))]),
            None => locale.t(Msg::PlanBasisNoBudget).to_string(),
        },
        slowest: locale.fmt(
            Msg::OrderPlanSlowest,
            &[("when", &finish_when(locale, start, plan.pessimistic_finish_s))],
        ),
        shortfalls: shortfalls(plan, locale),
        chosen: locale
            .t(if plan.recommended {
                Msg::OrderPlanRecommended
            } else {
                Msg::OrderPlanChosenOver
            })
            .to_string(),
        replan_query: comparison.map(str::to_string),
    }
}

/// Where the plan falls short of what it was planned against, worst first: done after the
/// deadline, after it at the slowest run, over the budget. Empty when it meets all three.
fn shortfalls(plan: &SignedPlan, locale: Locale) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(deadline) = plan.deadline_s {
        if plan.finish_s > deadline {
            let hours = hours_number(plan.finish_s - deadline);
            lines.push(locale.fmt(Msg::OrderPlanLate, &[("hours", &hours)]));
        } else if plan.at_risk || plan.pessimistic_finish_s > deadline {
            let hours = hours_number(plan.pessimistic_finish_s.saturating_sub(deadline));
            lines.push(locale.fmt(Msg::OrderPlanAtRisk, &[("hours", &hours)]));
        }
    }
    if let Some(budget) = plan.budget
        && plan.compared_total > budget
    {
        let over = format_money(plan.compared_total - budget, plan.compare_currency);
        lines.push(locale.fmt(Msg::OrderPlanOverBudget, &[("amount", &over)]));
    }
    lines
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::domain::tco::{Currency, Pricing};
    use rust_decimal_macros::dec;

    /// The seed's four-card plan: one node, 24 h, ¥840.00, against a 48-hour deadline.
    pub(in crate::services::orders) fn four_cards() -> SignedPlan {
        SignedPlan {
            quote_id: 2,
            nodes: 1,
            pricing: Pricing::OnDemand,
            compared_total: dec!(840.00),
            compare_currency: Currency::parse("CNY").expect("CNY"),
            earliest_start: 1_894_694_400,
            finish_s: 24 * 3600,
            pessimistic_finish_s: 30 * 3600,
            deadline_s: Some(48 * 3600),
            deadline_at: Some(1_894_694_400 + 48 * 3600),
            budget: Some(dec!(1000)),
            at_risk: false,
            recommended: true,
        }
    }

    #[test]
    fn a_recommended_plan_in_time_and_budget_reads_as_the_plan_page_said_it() {
        let line = plan_line(&four_cards(), "Acme · FOUR-GPU", Some("workload=1&q=2"), Locale::En);
        assert_eq!(
            line.sentence,
            "1 node of Acme · FOUR-GPU, on demand: done in 24 h (2030-01-16 08:00 UTC) for ¥840.00."
        );
        assert_eq!(line.start, "Start: 2030-01-15 08:00 UTC");
        assert_eq!(line.deadline, "Deadline: 2030-01-17 08:00 UTC (48 h after the start)");
        assert_eq!(line.budget, "Budget: ¥1,000.00");
        assert_eq!(line.slowest, "At the slowest run: done in 30 h (2030-01-16 14:00 UTC)");
        assert!(line.shortfalls.is_empty(), "{:?}", line.shortfalls);
        assert_eq!(line.chosen, "The planner's recommendation.");
        assert_eq!(line.replan_query.as_deref(), Some("workload=1&q=2"));
    }

    #[test]
    fn a_late_plan_over_budget_says_by_how_much_in_both_languages() {
        let plan = SignedPlan {
            nodes: 3,
            finish_s: 72 * 3600,
            pessimistic_finish_s: 80 * 3600,
            compared_total: dec!(1200),
            recommended: false,
            ..four_cards()
        };
        let en = plan_line(&plan, "X", None, Locale::En);
        assert_eq!(
            en.shortfalls,
            ["Late: done 24 h after the deadline.", "¥200.00 over the budget."]
        );
        assert!(en.sentence.starts_with("3 nodes of X, on demand"), "{}", en.sentence);
        assert!(en.chosen.contains("recommended another plan"), "{}", en.chosen);
        let zh = plan_line(&plan, "X", None, Locale::ZhCn);
        assert_eq!(
            zh.shortfalls,
            ["延误：截止时间之后 24 小时完成。", "超出预算 ¥200.00。"]
        );
        assert!(zh.sentence.starts_with("X 3 台节点"), "{}", zh.sentence);
    }

    #[test]
    fn in_time_but_late_at_the_slowest_run_is_at_risk_and_no_deadline_is_said() {
        let plan = SignedPlan {
            pessimistic_finish_s: 50 * 3600 + 1800,
            at_risk: true,
            ..four_cards()
        };
        assert_eq!(
            plan_line(&plan, "X", None, Locale::En).shortfalls,
            ["At risk: at the slowest run, done 2.5 h after the deadline."]
        );
        let open = SignedPlan {
            deadline_s: None,
            deadline_at: None,
            budget: None,
            ..plan
        };
        let line = plan_line(&open, "X", None, Locale::En);
        assert!(line.shortfalls.is_empty());
        assert_eq!(
            (line.deadline.as_str(), line.budget.as_str()),
            ("No deadline.", "No budget set.")
        );
    }
}
