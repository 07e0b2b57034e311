//! The comparison's charts, drawn from a computed comparison: each quote's cost by component
//! (`/tco/stack.svg`), one quote's cost against busy hours (`/tco/hours.svg`) and its cost and
//! time to finish against the number of nodes (`/tco/nodes.svg`). Pure: the series are built
//! from [`Computed`] and the cost engine, then handed to [`crate::charts`].

use super::{Computed, chart_of};
use crate::{
    charts::{
        CostStack, HoursLabels, HoursSeries, NodesLabels, NodesPoint, ResponseLabels, ResponseSeries,
        cost_and_time_vs_nodes_svg, cost_stack_svg, cost_vs_hours_svg, response_curve_svg,
    },
    domain::tco::{BreakEven, TcoError, cost_vs_hours, cost_vs_nodes},
    i18n::{Locale, Msg},
};
use rust_decimal::{Decimal, prelude::ToPrimitive};

/// Points on the hours chart's axis, from 0 to its top.
const HOURS_STEPS: u32 = 80;

/// A figure as the chart draws it (charts are drawing, not money: a float is fine here).
fn f64_of(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(f64::NAN)
}

/// Each quote's cost by component, in the base currency, cheapest first: the quotes the page
/// shows ([`crate::views::tco::SHOWN_ROWS`]).
#[must_use]
pub fn stack_svg(c: &Computed, locale: Locale) -> String {
    let stacks: Vec<CostStack> = c
        .view
        .rows
        .iter()
        .zip(&c.costed)
        .take(crate::views::tco::SHOWN_ROWS)
        .map(|(row, costed)| {
            let e = &costed.ranked.estimate;
            // Components are in the quote's currency; scale them to the base currency for display.
            let factor = if e.total.is_zero() {
                1.0
            } else {
                f64_of(costed.ranked.compared_total) / f64_of(e.total)
            };
            CostStack {
                label: row.label.clone(),
                parts: e
                    .components
                    .iter()
                    .zip(&row.components)
                    .map(|(comp, line)| (line.name.clone(), f64_of(comp.cost) * factor))
                    .collect(),
                highlight: row.rank == 1,
            }
        })
        .collect();
    let title = locale.fmt(Msg::TcoChartStack, &[("currency", c.base.code())]);
    cost_stack_svg(&title, c.base.code(), &stacks)
}

/// Each costed quote's curve of throughput per node against the workload's response-time
/// metric, with the target; `None` when the workload states no target.
#[must_use]
pub fn response_svg(c: &Computed, locale: Locale) -> Option<String> {
    let target = c.workload.as_ref()?.response_target?;
    let unit = c
        .workload
        .as_ref()
        .and_then(|w| w.total_work.as_ref())
        .map_or_else(String::new, |w| w.unit.clone());
    let series: Vec<ResponseSeries> = c
        .costed
        .iter()
        .map(|x| ResponseSeries {
            label: x.ranked.label.clone(),
            points: x
                .curve
                .iter()
                .map(|p| (f64_of(p.latency_ms), f64_of(p.throughput)))
                .collect(),
            at_target: x.at_target.and_then(|a| a.throughput()).map(f64_of),
        })
        .collect();
    let shown = crate::texts::response::target_text(&target);
    let labels = ResponseLabels {
        title: locale.t(Msg::TcoChartResponse).to_string(),
        x_axis: format!(
            "{} {} (ms)",
            target.percentile.as_str(),
            crate::texts::response::metric_short(target.metric)
        ),
        y_axis: locale.fmt(Msg::TcoAxPerNode, &[("unit", &unit)]),
        target: locale.fmt(Msg::TcoLTarget, &[("target", &shown)]),
    };
    Some(response_curve_svg(&labels, f64_of(target.max_ms), &series))
}

/// The quote the hours and nodes charts are drawn for: the query's `chart=<quote id>`, else the
/// cheapest; its position in `c.costed` (`None`: no quote was costed).
#[must_use]
pub fn chart_quote(c: &Computed, query: Option<&str>) -> Option<usize> {
    let wanted = query.and_then(chart_of);
    wanted
        .and_then(|id| c.costed.iter().position(|x| x.quote_id == id))
        .or((!c.costed.is_empty()).then_some(0))
}

/// The compute cost of quote `at` on demand and under the monthly commitment against busy
/// hours (0 to twice this workload's, or past the break-even point), with the break-even point
/// and this workload's hours.
///
/// # Errors
/// The engine's, when the quote's sheet or node cannot be costed.
pub fn hours_svg(c: &Computed, at: usize, locale: Locale) -> Result<String, TcoError> {
    let x = &c.costed[at];
    let e = &x.ranked.estimate;
    let cur = e.currency.code();
    let break_even_h = match e.break_even {
        Some(BreakEven::WithinTerm { hours }) => Some(hours),
        _ => None,
    };
    let top = [
        e.busy_h * Decimal::TWO,
        break_even_h.unwrap_or_default() * Decimal::new(15, 1),
        Decimal::ONE,
    ]
    .into_iter()
    .max()
    .unwrap_or(Decimal::ONE);
    let hours: Vec<Decimal> = (0..=HOURS_STEPS)
        .map(|i| (top * Decimal::from(i) / Decimal::from(HOURS_STEPS)).round_dp(2))
        .collect();
    let points = cost_vs_hours(&x.draft.price, &x.draft.spec.shape(), e.nodes, &hours)?;
    let series = HoursSeries {
        busy_h: points.iter().map(|p| f64_of(p.busy_h)).collect(),
        // Empty for a sheet of packages only: it draws no on-demand line.
        on_demand: points.iter().filter_map(|p| p.on_demand.map(f64_of)).collect(),
        monthly: points
            .iter()
            .map(|p| p.monthly.map(f64_of))
            .collect::<Option<Vec<f64>>>(),
        break_even_h: break_even_h.map(f64_of),
        break_even_never: e.break_even == Some(BreakEven::NeverWithinTerm),
        current_h: Some(f64_of(e.busy_h)),
    };
    let labels = HoursLabels {
        title: locale.fmt(Msg::TcoChartHours, &[("quote", &x.ranked.label)]),
        x_axis: locale.t(Msg::TcoAxBusyH).to_string(),
        y_axis: locale.fmt(Msg::TcoAxCost, &[("currency", cur)]),
        on_demand: locale.t(Msg::TcoLOnDemand).to_string(),
        monthly: locale.t(Msg::TcoLMonthly).to_string(),
        break_even: locale.t(Msg::TcoLBreakEven).to_string(),
        never_within_term: locale.t(Msg::TcoLNever).to_string(),
        current: locale.t(Msg::TcoLCurrent).to_string(),
    };
    Ok(cost_vs_hours_svg(&labels, &series))
}

/// The total cost and time to finish of quote `at` against the number of nodes (up to twice the
/// nodes costed, at least 4 and at most 16); `None` when the comparison has no workload.
///
/// # Errors
/// The engine's, when the quote cannot be costed at some number of nodes.
pub fn nodes_svg(c: &Computed, at: usize, locale: Locale) -> Result<Option<String>, TcoError> {
    let x = &c.costed[at];
    let Some(w) = c.workload.as_ref() else {
        return Ok(None);
    };
    let max = (x.ranked.estimate.nodes * 2).clamp(4, 16);
    let series = cost_vs_nodes(&x.draft.price, &x.draft.spec.shape(), &w.to_tco(), &x.assumptions, max)?;
    let points: Vec<NodesPoint> = series
        .iter()
        .map(|e| NodesPoint {
            nodes: e.nodes,
            total: f64_of(e.total),
            hours: f64_of(e.time_to_finish_h),
        })
        .collect();
    let cur = x.ranked.estimate.currency.code();
    let labels = NodesLabels {
        title: locale.fmt(Msg::TcoChartNodes, &[("quote", &x.ranked.label)]),
        x_axis: locale.t(Msg::TcoAxNodes).to_string(),
        cost_axis: locale.fmt(Msg::TcoAxCost, &[("currency", cur)]),
        time_axis: locale.t(Msg::TcoAxTime).to_string(),
        cost: locale.t(Msg::TcoLCost).to_string(),
        time: locale.t(Msg::TcoLTime).to_string(),
    };
    Ok(Some(cost_and_time_vs_nodes_svg(&labels, &points)))
}
