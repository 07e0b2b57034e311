//! The plan page's view of a comparison's rental plan ([`super::planned`]): the planner's facts
//! put into words in the reader's language. Pure: no I/O.
//!
//! - The recommendation in one sentence: the plan, when it is done and what it costs, then
//!   why the cheaper plans lost ("4 nodes of X, on demand: done in 26 h (2026-12-14 10:00 UTC)
//!   for ¥18,230.00; 3 nodes would finish 5 h after the deadline").
//! - The front, soonest first; for each quote, its best plan that is not on the front, with why
//!   it lost (cheapest first); the vendor questions.

use super::{Computed, Planned};
use crate::{
    domain::{
        bills::timestamp,
        money::format_money,
        plan::{LossReason, NoPlan, Plan, PlanKey, PlanResult, Unstated, VendorQuestion},
        rentals::Instant,
        runs::GpuUse,
        tco::{Currency, Pricing, QuoteGroup},
    },
    i18n::{Locale, Msg, group},
    views::plan::{PlanRow, PlanView},
};
use rust_decimal::Decimal;

/// The plan page for comparison `c` and what was planned from it.
#[must_use]
pub fn plan_view(c: &Computed, planned: Option<&Planned>, locale: Locale) -> PlanView {
    let mut view = PlanView {
        workloads: c.view.workloads.clone(),
        workload_id: c.view.workload_id,
        workload_name: c.view.workload_name.clone(),
        query: c.view.query.clone(),
        ..PlanView::default()
    };
    match planned.and_then(|p| p.plan.as_ref()) {
        None if c.view.workload_id.is_some() => view.no_plan = Some(locale.t(Msg::PlanNothingCosted).to_string()),
        None => {}
        Some(Err(reason)) => view.no_plan = Some(locale.fmt(Msg::PlanFailed, &[("reason", reason)])),
        Some(Ok(result)) => fill(&mut view, result, locale),
    }
    view
}

/// The view's parts from the planner's `result`.
fn fill(view: &mut PlanView, r: &PlanResult, locale: Locale) {
    let words = Words { r, locale };
    view.basis = words.basis();
    if let Some(w) = r.weighed {
        view.basis.push(locale.fmt(
            Msg::PlanQuotesWeighed,
            &[
                ("weighed", &crate::i18n::group(w.weighed.into(), 0)),
                ("of", &crate::i18n::group(w.of.into(), 0)),
            ],
        ));
    }
    view.plans_weighed = r.front.len() + r.others.len();
    match &r.recommended {
        Some(rec) => {
            view.sentence = Some(words.sentence(&rec.plan, [rec.fewer_nodes.as_ref(), rec.cheapest.as_ref()]));
            view.recommended_at_risk = rec.plan.at_risk;
        }
        None => {
            view.no_plan = r.no_plan.map(|n| match words.nearest(n) {
                Some(nearest) => format!("{} {nearest}", locale.t(no_plan_msg(n))),
                None => locale.t(no_plan_msg(n)).to_string(),
            });
        }
    }
    view.front = r.front.iter().map(|p| words.row(p)).collect();
    view.others = best_other_per_quote(r).into_iter().map(|p| words.row(p)).collect();
    view.questions = r
        .quotes
        .iter()
        .flat_map(|q| {
            q.questions.iter().map(|question| {
                let text = match question {
                    VendorQuestion::CapacityNotStated => {
                        locale.fmt(Msg::PlanAskCapacity, &[("nodes", &q.max_nodes.to_string())])
                    }
                    VendorQuestion::LeadTimeNotStated => locale.t(Msg::PlanAskLeadTime).to_string(),
                };
                (q.label.clone(), text)
            })
        })
        .collect();
}

/// Each quote's cheapest plan off the front, cheapest first (`others` is already so): one line
/// per quote says why it lost, the recommended vendor's other node counts included.
fn best_other_per_quote(r: &PlanResult) -> Vec<&Plan> {
    let mut seen: Vec<&str> = Vec::new();
    r.others
        .iter()
        .filter(|p| {
            let first = !seen.contains(&p.quote_id.as_str());
            if first {
                seen.push(&p.quote_id);
            }
            first
        })
        .collect()
}

fn no_plan_msg(n: NoPlan) -> Msg {
    match n {
        NoPlan::NoQuotePlanned => Msg::PlanNoneNoQuote,
        NoPlan::NoneInTime => Msg::PlanNoneInTime,
        NoPlan::NoneWithinBudget => Msg::PlanNoneWithinBudget,
        NoPlan::NoneInTimeAndBudget => Msg::PlanNoneInTimeAndBudget,
    }
}

/// The planner's facts in one language.
struct Words<'a> {
    r: &'a PlanResult,
    locale: Locale,
}

impl Words<'_> {
    fn currency(&self) -> Currency {
        self.r.compare_currency
    }

    fn money(&self, amount: Decimal) -> String {
        format_money(amount, self.currency())
    }

    /// "26 h (2026-12-14 10:00 UTC)".
    fn when(&self, seconds: u64) -> String {
        finish_when(self.locale, self.r.earliest_start.map(Instant::unix), seconds)
    }

    /// "4 nodes of X, on demand".
    fn name(&self, p: &Plan) -> String {
        plan_name(self.locale, &p.label, p.nodes, p.pricing)
    }

    fn name_of(&self, key: &PlanKey) -> String {
        self.r
            .front
            .iter()
            .chain(&self.r.others)
            .find(|p| p.key() == *key)
            .map_or_else(|| key.quote_id.clone(), |p| self.name(p))
    }

    /// When no plan fits: the nearest one (the soonest when none is in time, the cheapest when
    /// none is within budget, the cheapest in time when none is both) and the change that would
    /// make it fit. `None` when no quote was planned.
    fn nearest(&self, n: NoPlan) -> Option<String> {
        let plans = || self.r.front.iter().chain(&self.r.others);
        let cheapest = |p: &&Plan, q: &&Plan| p.compared_total.cmp(&q.compared_total);
        let over = |p: &Plan| self.r.budget.map(|b| self.money(p.compared_total - b));
        let (p, msg) = match n {
            NoPlan::NoQuotePlanned => return None,
            NoPlan::NoneInTime => (plans().min_by_key(|p| p.finish_s)?, Msg::PlanNearestInTime),
            NoPlan::NoneWithinBudget => (plans().min_by(cheapest)?, Msg::PlanNearestWithinBudget),
            NoPlan::NoneInTimeAndBudget => (
                plans().filter(|p| !p.late).min_by(cheapest)?,
                Msg::PlanNearestInTimeAndBudget,
            ),
        };
        let late = self.r.deadline_s.map(|d| hours_number(p.finish_s.saturating_sub(d)));
        Some(self.locale.fmt(
            msg,
            &[
                ("plan", &self.name(p)),
                ("when", &self.when(p.finish_s)),
                ("total", &self.money(p.compared_total)),
                ("late", &late.unwrap_or_default()),
                ("over", &over(p).unwrap_or_default()),
            ],
        ))
    }

    /// What the plans are measured against.
    fn basis(&self) -> Vec<String> {
        let l = self.locale;
        let mut lines = Vec::new();
        if let Some(start) = self.r.earliest_start {
            lines.push(l.fmt(Msg::PlanBasisStart, &[("at", &moment(start.unix()))]));
        }
        lines.push(match (self.r.deadline_s, self.r.deadline_at) {
            (Some(s), Some(at)) => l.fmt(
                Msg::PlanBasisDeadlineAt,
                &[("at", &moment(at.unix())), ("hours", &hours_number(s))],
            ),
            (Some(s), None) => l.fmt(Msg::PlanBasisDeadlineHours, &[("hours", &hours_number(s))]),
            _ => l.t(Msg::PlanBasisNoDeadline).to_string(),
        });
        lines.push(match self.r.budget {
            Some(b) => l.fmt(Msg::PlanBasisBudget, &[("amount", &self.money(b))]),
            None => l.t(Msg::PlanBasisNoBudget).to_string(),
        });
        lines.push(
            l.t(match self.r.gpu_use {
                GpuUse::OneJob => Msg::PlanBasisOneJob,
                GpuUse::TaskPerGpu => Msg::PlanBasisTaskPerGpu,
            })
            .to_string(),
        );
        lines
    }

    /// The recommendation, then why each of `losers` (the plan with one node fewer, the
    /// cheapest plan) lost, each once.
    fn sentence(&self, p: &Plan, losers: [Option<&Plan>; 2]) -> String {
        let mut text = self.locale.fmt(
            Msg::PlanSentence,
            &[
                ("plan", &self.name(p)),
                ("when", &self.when(p.finish_s)),
                ("total", &self.money(p.compared_total)),
            ],
        );
        let mut said: Vec<PlanKey> = Vec::new();
        for loser in losers.into_iter().flatten() {
            if said.contains(&loser.key()) || loser.key() == p.key() {
                continue;
            }
            said.push(loser.key());
            if let Some(why) = loser.reasons.first() {
                let clause = self.locale.fmt(
                    Msg::PlanWouldInstead,
                    &[("plan", &self.name(loser)), ("why", &self.reason(why))],
                );
                text.push_str(self.locale.t(Msg::PlanClauseSeparator));
                text.push_str(&clause);
            }
        }
        if !p.rests_on.is_empty() {
            let what = unstated_list(self.locale, &p.rests_on);
            text.push_str(&self.locale.fmt(Msg::PlanRestsOnNote, &[("what", &what)]));
        }
        text.push_str(self.locale.t(Msg::PlanSentenceEnd));
        text
    }

    /// One reason in words ("would finish 24 h after the deadline").
    fn reason(&self, why: &LossReason) -> String {
        let l = self.locale;
        match why {
            LossReason::Late { by_s } => l.fmt(Msg::PlanWhyLate, &[("hours", &hours_number(*by_s))]),
            LossReason::OverBudget { by } => l.fmt(Msg::PlanWhyOverBudget, &[("amount", &self.money(*by))]),
            LossReason::AtRisk { by_s } => l.fmt(Msg::PlanWhyAtRisk, &[("hours", &hours_number(*by_s))]),
            LossReason::CapacityReached { capacity } => {
                l.fmt(Msg::PlanWhyCapacity, &[("nodes", &capacity.to_string())])
            }
            LossReason::Dominated { by } => l.fmt(Msg::PlanWhyDominated, &[("plan", &self.name_of(by))]),
            LossReason::RestsOnUnstated { what } => l.fmt(Msg::PlanWhyRestsOn, &[("what", &unstated_list(l, what))]),
            LossReason::Costlier { by } => l.fmt(Msg::PlanWhyCostlier, &[("amount", &self.money(*by))]),
        }
    }

    /// Measured, stated or estimated, with what the plan rests on that was not stated:
    /// "measured · capacity not stated, lead time not stated".
    fn group_text(&self, p: &Plan) -> String {
        let group = self.locale.t(match p.group {
            QuoteGroup::Measured => Msg::PlanGroupMeasured,
            QuoteGroup::Stated => Msg::PlanGroupStated,
            QuoteGroup::Estimated => Msg::PlanGroupEstimated,
        });
        if p.rests_on.is_empty() {
            group.to_string()
        } else {
            format!("{group} · {}", unstated_list(self.locale, &p.rests_on))
        }
    }

    /// One plan as a row.
    fn row(&self, p: &Plan) -> PlanRow {
        let recommended = self.r.recommended.as_ref().is_some_and(|rec| rec.plan.key() == p.key());
        let reasons: Vec<String> = p.reasons.iter().map(|why| self.reason(why)).collect();
        PlanRow {
            quote_id: p.quote_id.parse().unwrap_or_default(),
            label: p.label.clone(),
            nodes: p.nodes,
            pricing: match p.pricing {
                Pricing::OnDemand => "on_demand",
                Pricing::Monthly => "monthly",
            }
            .into(),
            pricing_text: pricing_text(self.locale, p.pricing).to_string(),
            group_text: self.group_text(p),
            total: self.money(p.compared_total),
            total_exact: p.compared_total.normalize().to_string(),
            finish_s: p.finish_s,
            finish: self.when(p.finish_s),
            pessimistic_finish_s: p.pessimistic_finish_s,
            pessimistic_finish: self.when(p.pessimistic_finish_s),
            recommended,
            at_risk: p.at_risk,
            late: p.late,
            over_budget: p.over_budget,
            unknowns: p.group != QuoteGroup::Measured || !p.rests_on.is_empty(),
            reasons: reasons.join(self.locale.t(Msg::PlanClauseSeparator)),
        }
    }
}

/// What a plan rests on, in words: "capacity not stated, lead time not stated".
fn unstated_list(locale: Locale, what: &[Unstated]) -> String {
    let words: Vec<String> = what
        .iter()
        .map(|u| match u {
            Unstated::Capacity => locale.t(Msg::PlanUnstatedCapacity).to_string(),
            Unstated::LeadTime => locale.t(Msg::PlanUnstatedLeadTime).to_string(),
            Unstated::BeyondMeasured { measured_nodes } => {
                locale.fmt(Msg::PlanUnstatedBeyond, &[("nodes", &measured_nodes.to_string())])
            }
        })
        .collect();
    words.join(locale.t(Msg::PlanUnstatedListSeparator))
}

/// A plan named in words: "4 nodes of X, on demand".
#[must_use]
pub fn plan_name(locale: Locale, label: &str, nodes: u32, pricing: Pricing) -> String {
    let plan = if nodes == 1 {
        locale.fmt(Msg::PlanOneNodeOf, &[("label", label)])
    } else {
        locale.fmt(Msg::PlanNodesOf, &[("n", &nodes.to_string()), ("label", label)])
    };
    locale.fmt(
        Msg::PlanNamed,
        &[("plan", &plan), ("pricing", pricing_text(locale, pricing))],
    )
}

/// "on demand" or "monthly commitment".
fn pricing_text(locale: Locale, pricing: Pricing) -> &'static str {
    locale.t(match pricing {
        Pricing::OnDemand => Msg::PlanOnDemand,
        Pricing::Monthly => Msg::PlanMonthly,
    })
}

/// When a plan is done, `seconds` after the start: "26 h (2026-12-14 10:00 UTC)", or only the
/// hours when the start (Unix seconds) is not known.
#[must_use]
pub fn finish_when(locale: Locale, start: Option<i64>, seconds: u64) -> String {
    let hours = hours_number(seconds);
    match start {
        Some(start) => {
            let at = moment(start.saturating_add(i64::try_from(seconds).unwrap_or(i64::MAX / 2)));
            locale.fmt(Msg::PlanHoursAt, &[("hours", &hours), ("at", &at)])
        }
        None => locale.fmt(Msg::PlanHours, &[("hours", &hours)]),
    }
}

/// Seconds as hours, one decimal place when not whole ("26", "25.5", "0.1").
#[must_use]
pub fn hours_number(seconds: u64) -> String {
    let hours = Decimal::from(seconds) / Decimal::from(3600);
    let text = group(hours, 1);
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// A moment as the page writes it: `2026-12-14 10:00 UTC`.
#[must_use]
pub fn moment(unix: i64) -> String {
    let text = timestamp::format(unix);
    format!("{} UTC", text.get(..16).unwrap_or(&text).replace('T', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buying guide's example with a deadline no plan meets, then a budget no plan meets:
    /// the page names the nearest plan and what would make it fit.
    #[test]
    fn when_no_plan_fits_the_nearest_is_named_with_the_change_that_would_fit_it() {
        let example: crate::domain::plan::PlanScenario =
            serde_json::from_str(include_str!("../../../domain/src/plan/example-plan.json")).expect("the example");
        let planned = |deadline_h: Option<&str>, budget: Option<&str>| {
            let mut scenario = example.clone();
            scenario.plan.deadline_h = deadline_h.map(|h| h.parse().expect("hours"));
            scenario.plan.budget = budget.map(|b| b.parse().expect("amount"));
            let result = crate::domain::plan::plan(&scenario).expect("planned");
            let mut view = PlanView::default();
            fill(&mut view, &result, Locale::En);
            (result, view)
        };
        let (result, view) = planned(Some("1"), None);
        assert_eq!(result.no_plan, Some(NoPlan::NoneInTime));
        let text = view.no_plan.expect("no plan in time");
        assert!(text.starts_with("No plan finishes by the deadline."), "{text}");
        assert!(
            text.contains("Nearest: ") && text.contains("h after the deadline"),
            "{text}"
        );
        assert!(text.contains("move the deadline"), "{text}");
        let (result, view) = planned(None, Some("1"));
        assert_eq!(result.no_plan, Some(NoPlan::NoneWithinBudget));
        let text = view.no_plan.expect("no plan within budget");
        assert!(
            text.contains("over the budget. To make it fit, raise the budget by ¥"),
            "{text}"
        );
    }

    #[test]
    fn hours_read_whole_or_with_one_decimal_and_moments_in_utc() {
        assert_eq!(hours_number(93_600), "26");
        assert_eq!(hours_number(91_800), "25.5");
        assert_eq!(hours_number(7_200_000), "2,000");
        assert_eq!(hours_number(1), "0");
        assert_eq!(moment(1_765_706_400), "2025-12-14 10:00 UTC");
    }
}
