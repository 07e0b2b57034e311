//! Total cost and time to finish against the number of nodes.

use plotters::prelude::*;

use super::format;
use super::legend::Swatch;
use super::plot::{self, Area, DrawResult, WIDTH, X_AXIS_PX};
use super::style;
use super::telemetry_data::value_range;

/// Height of each panel without the x axis, pixels.
const PANEL_H: u32 = 210;

/// The outcome of running the workload on a number of nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodesPoint {
    /// Number of nodes.
    pub nodes: u32,
    /// Total cost; non-finite values are not drawn.
    pub total: f64,
    /// Time to finish, hours; non-finite values are not drawn.
    pub hours: f64,
}

/// Every text of the cost-and-time-against-nodes chart, in the reader's language.
///
/// Axis texts should carry their unit (e.g. `"总成本 (元)"`, `"Time to finish (h)"`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodesLabels {
    /// Chart heading, also the SVG `<title>`.
    pub title: String,
    /// Horizontal axis: number of nodes.
    pub x_axis: String,
    /// Vertical axis of the top panel: total cost with its currency.
    pub cost_axis: String,
    /// Vertical axis of the bottom panel: time to finish with its unit.
    pub time_axis: String,
    /// Legend entry of the cost line.
    pub cost: String,
    /// Legend entry of the time line.
    pub time: String,
}

/// An SVG (960 px wide) of two panels sharing the node axis: total cost on
/// top, time to finish below, each a line with a dot per node count (points
/// sorted by node count). The node axis has whole-number ticks only.
///
/// Non-finite values are skipped in their panel. Without any point with a
/// finite total or time, the SVG holds only the title.
#[must_use]
pub fn cost_and_time_vs_nodes_svg(labels: &NodesLabels, points: &[NodesPoint]) -> String {
    let mut sorted = points.to_vec();
    sorted.sort_by_key(|p| p.nodes);
    let series = |value: fn(&NodesPoint) -> f64| -> Vec<(i64, f64)> {
        sorted
            .iter()
            .map(|p| (i64::from(p.nodes), value(p)))
            .filter(|(_, v)| v.is_finite())
            .collect()
    };
    let cost = series(|p| p.total);
    let time = series(|p| p.hours);
    if cost.is_empty() && time.is_empty() {
        return plot::title_only(WIDTH, &labels.title);
    }
    let nodes = cost.iter().chain(&time).map(|p| p.0);
    let shown = (nodes.clone().min().unwrap_or(0), nodes.max().unwrap_or(0));
    let legend = vec![
        (Swatch::Line(style::COST_LINE), labels.cost.clone()),
        (Swatch::Line(style::TIME_LINE), labels.time.clone()),
    ];
    plot::with_legend(&labels.title, &legend, 2 * PANEL_H + X_AXIS_PX, |body| {
        let (top, bottom) = body.split_vertically(PANEL_H);
        draw_panel(&top, shown, &cost, style::COST_LINE, &labels.cost_axis, None)?;
        draw_panel(
            &bottom,
            shown,
            &time,
            style::TIME_LINE,
            &labels.time_axis,
            Some(&labels.x_axis),
        )
    })
}

/// One panel over node counts `shown` (inclusive; the axis adds one on each
/// side); `x_axis` is the node axis text of the bottom panel.
fn draw_panel(
    area: &Area<'_>,
    shown: (i64, i64),
    points: &[(i64, f64)],
    colour: RGBColor,
    y_axis: &str,
    x_axis: Option<&str>,
) -> DrawResult {
    let (y_low, y_high) = value_range(points.iter().map(|p| p.1), None);
    let mut chart = plot::panel(
        area,
        shown.0 - 1..shown.1 + 1,
        y_low..y_high,
        (if x_axis.is_some() { X_AXIS_PX } else { 0 }, 96),
    )?;
    // Integer coordinates give whole-number ticks; the padding ticks stay blank.
    let node_tick = |n: &i64| {
        if (shown.0..=shown.1).contains(n) {
            n.to_string()
        } else {
            String::new()
        }
    };
    plot::draw_axes(
        &mut chart,
        &plot::Axes {
            x_labels: 12,
            y_labels: 5,
            x_tick: &node_tick,
            y_tick: &format::tick,
            x_desc: x_axis,
            y_desc: y_axis,
        },
    )?;

    if points.len() > 1 {
        chart.draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?;
    }
    chart.draw_series(points.iter().map(|p| Circle::new(*p, 3, colour.filled())))?;
    Ok(())
}

#[cfg(test)]
#[path = "nodes_tests.rs"]
mod tests;
