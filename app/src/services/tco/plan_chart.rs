//! The rental plan's chart (`/plan/chart.svg`): every plan the planner weighed, its time to
//! finish against its total in the comparison currency, with the workload's deadline and
//! budget. Pure: the points are read from [`PlanResult`], then handed to [`crate::charts`].

use super::Planned;
use crate::{
    charts::{PLAN_NARROW_WIDTH, PLAN_WIDE_WIDTH, PlanChartLabels, PlanPoint, plan_scatter_svg_at},
    domain::{plan::PlanResult, tco::QuoteGroup},
    i18n::{Locale, Msg},
};
use rust_decimal::{Decimal, prelude::ToPrimitive};

/// Seconds in an hour: plans finish in seconds, the chart reads in hours.
const HOUR_S: f64 = 3600.0;

/// The chart of `planned`'s plans in the reader's language, drawn for a desktop or, `narrow`,
/// for a phone ([`PLAN_NARROW_WIDTH`]); `None` when nothing was planned (no workload, or the
/// planner gave a reason instead of plans).
#[must_use]
pub fn plan_svg(planned: &Planned, locale: Locale, narrow: bool) -> Option<String> {
    let result = planned.plan.as_ref()?.as_ref().ok()?;
    Some(result_svg(result, locale, narrow))
}

/// Every plan of `r`, front and others, with its deadline and budget.
fn result_svg(r: &PlanResult, locale: Locale, narrow: bool) -> String {
    let deadline_h = r.deadline_s.map(hours_of);
    let budget = r.budget.map(f64_of);
    plan_scatter_svg_at(
        if narrow { PLAN_NARROW_WIDTH } else { PLAN_WIDE_WIDTH },
        &labels(r.compare_currency.code(), locale),
        &points(r),
        deadline_h,
        budget,
    )
}

/// A point per plan; the recommended one is found by its key.
fn points(r: &PlanResult) -> Vec<PlanPoint> {
    let recommended = r.recommended.as_ref().map(|rec| rec.plan.key());
    r.front
        .iter()
        .chain(&r.others)
        .map(|p| PlanPoint {
            hours: hours_of(p.finish_s),
            cost: f64_of(p.compared_total),
            on_front: p.on_front,
            estimated: p.group == QuoteGroup::Estimated,
            recommended: recommended.as_ref() == Some(&p.key()),
            late_or_over: p.late || p.over_budget,
        })
        .collect()
}

fn labels(currency: &str, locale: Locale) -> PlanChartLabels {
    let t = |msg| locale.t(msg).to_string();
    PlanChartLabels {
        title: locale.fmt(Msg::PlanChartTitle, &[("currency", currency)]),
        x_axis: t(Msg::PlanChartX),
        y_axis: locale.fmt(Msg::PlanChartY, &[("currency", currency)]),
        front: t(Msg::PlanChartFront),
        other: t(Msg::PlanChartOther),
        estimated: t(Msg::PlanChartEstimated),
        recommended: t(Msg::PlanChartRecommended),
        deadline: t(Msg::PlanChartDeadline),
        budget: t(Msg::PlanChartBudget),
        late: t(Msg::PlanChartLate),
        off_chart: t(Msg::PlanChartOffChart),
    }
}

/// Seconds as hours, for drawing.
#[expect(clippy::cast_precision_loss, reason = "a finish far below 2^52 seconds")]
fn hours_of(seconds: u64) -> f64 {
    seconds as f64 / HOUR_S
}

/// An amount as the chart draws it (a drawing, not money: a float is fine here).
fn f64_of(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::plan::{PlanScenario, plan};

    /// The buying guide's example: 72 h on one card or 24 h on four, a 48 h deadline.
    fn example() -> PlanResult {
        let file: PlanScenario = serde_json::from_str(include_str!("../../../domain/src/plan/example-plan.json"))
            .expect("the example reads");
        plan(&file).expect("the example plans")
    }

    #[test]
    fn every_plan_is_a_point_and_the_recommended_one_is_marked() {
        let r = example();
        let points = points(&r);
        assert_eq!(points.len(), r.front.len() + r.others.len());
        assert_eq!(points.iter().filter(|p| p.recommended).count(), 1);
        let rec = &r.recommended.as_ref().expect("the example recommends a plan").plan;
        let marked = points.iter().find(|p| p.recommended).expect("marked");
        assert!((marked.hours * HOUR_S - rec.finish_s as f64).abs() < 1e-6);
        assert!(!marked.late_or_over);
        assert!(points.iter().any(|p| p.late_or_over), "the one-card plan is late");
    }

    #[test]
    fn titles_and_lines_in_the_readers_language() {
        let r = example();
        let en = result_svg(&r, Locale::En, false);
        let cur = r.compare_currency.code();
        assert!(en.contains(&format!(
            "<title>Every plan: time to finish against total cost ({cur})</title>"
        )));
        assert!(en.contains(">\nDeadline\n</text>"));
        let zh = result_svg(&r, Locale::ZhCn, false);
        assert!(
            zh.contains(&format!("<title>所有计划：完成用时与总费用（{cur}）</title>")),
            "{zh}"
        );
        assert!(zh.contains(">\n截止时间\n</text>"));
    }

    /// The phone's drawing is 400 px wide, so that, scaled to a 390 px screen, its smallest
    /// text (12 px ticks) reads at 10 px; the desktop's is 960 px.
    #[test]
    fn the_phone_s_chart_is_drawn_narrow_with_the_same_texts() {
        let r = example();
        let narrow = result_svg(&r, Locale::En, true);
        assert!(narrow.contains("width=\"400\""), "{narrow}");
        assert!(narrow.contains(">\nDeadline\n</text>"));
        let sizes = narrow
            .split("font-size=\"")
            .skip(1)
            .filter_map(|t| t.split('"').next()?.parse::<f64>().ok());
        let smallest = sizes.fold(f64::MAX, f64::min);
        assert!(smallest * 350.0 / 400.0 >= 10.0, "{smallest}");
        assert!(result_svg(&r, Locale::En, false).contains("width=\"960\""));
    }
}
