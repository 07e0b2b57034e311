//! Compute cost against busy hours: on demand, monthly commitment, break-even.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::format;
use super::legend::Swatch;
use super::plot::{self, Area, DrawResult, WIDTH};
use super::style;
use super::telemetry_data::value_range;

/// Height of the plot below the header, x axis included, pixels.
const PLOT_H: u32 = 420;

/// The cost curves of one workload, by busy hours (e.g. per month).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HoursSeries {
    /// Busy hours of each point (the x values), shared by both cost series.
    pub busy_h: Vec<f64>,
    /// On-demand compute cost at each of `busy_h` (a step function of billing
    /// increments and minimums; drawn through the points as given).
    pub on_demand: Vec<f64>,
    /// Monthly-commitment compute cost at each of `busy_h`, when offered.
    pub monthly: Option<Vec<f64>>,
    /// Busy hours per node within the term from which the monthly commitment is cheaper
    /// (term × monthly price ÷ node hourly price), when that lies within the term.
    pub break_even_h: Option<f64>,
    /// The commitment never pays off within its term: no line, a legend entry saying so.
    pub break_even_never: bool,
    /// The workload's current busy hours.
    pub current_h: Option<f64>,
}

/// Every text of the cost-against-hours chart, in the reader's language.
///
/// Axis texts should carry their unit (e.g. `"忙碌小时 / 月"`, `"Compute cost (CNY)"`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HoursLabels {
    /// Chart heading, also the SVG `<title>`.
    pub title: String,
    /// Horizontal axis: busy hours.
    pub x_axis: String,
    /// Vertical axis: compute cost with its currency.
    pub y_axis: String,
    /// Legend entry of the on-demand line.
    pub on_demand: String,
    /// Legend entry of the monthly-commitment line.
    pub monthly: String,
    /// Legend entry and line label (followed by the hours) of the break-even line.
    pub break_even: String,
    /// Legend entry and marker label of the current busy hours.
    pub current: String,
    /// Legend entry when the commitment never breaks even within its term.
    pub never_within_term: String,
}

/// What is drawn, after dropping non-finite values.
struct Prepared {
    on_demand: Vec<(f64, f64)>,
    monthly: Vec<(f64, f64)>,
    break_even: Option<f64>,
    never: bool,
    current: Option<f64>,
}

/// An SVG (960 px wide) of compute cost against busy hours: the on-demand line,
/// the monthly-commitment line when given, a dashed vertical line at the
/// break-even hours labelled with [`HoursLabels::break_even`] and the hours, and
/// a dotted vertical marker at the current busy hours. When the commitment never pays off
/// within its term ([`HoursSeries::break_even_never`]) the legend says so and no line is drawn.
///
/// Points with a non-finite hour or cost are skipped; a lone point is a dot.
/// Both axes start at zero (or below, for negative values). Without any finite
/// point, the SVG holds only the title.
#[must_use]
pub fn cost_vs_hours_svg(labels: &HoursLabels, series: &HoursSeries) -> String {
    let finite = |v: Option<f64>| v.filter(|h| h.is_finite());
    let data = Prepared {
        on_demand: plot::finite_points(&series.busy_h, &series.on_demand),
        monthly: series
            .monthly
            .as_deref()
            .map(|m| plot::finite_points(&series.busy_h, m))
            .unwrap_or_default(),
        break_even: finite(series.break_even_h),
        never: series.break_even_never && finite(series.break_even_h).is_none(),
        current: finite(series.current_h),
    };
    if data.on_demand.is_empty() && data.monthly.is_empty() {
        return plot::title_only(WIDTH, &labels.title);
    }
    let legend = legend_items(&data, labels);
    plot::with_legend(&labels.title, &legend, PLOT_H, |body| draw_plot(body, &data, labels))
}

fn legend_items(data: &Prepared, labels: &HoursLabels) -> Vec<(Swatch, String)> {
    let mut items = Vec::new();
    if !data.on_demand.is_empty() {
        items.push((Swatch::Line(style::ON_DEMAND), labels.on_demand.clone()));
    }
    if !data.monthly.is_empty() {
        items.push((Swatch::Line(style::MONTHLY), labels.monthly.clone()));
    }
    if data.break_even.is_some() {
        items.push((Swatch::Dashed(style::BREAK_EVEN), labels.break_even.clone()));
    } else if data.never && !data.monthly.is_empty() {
        items.push((Swatch::Dashed(style::BREAK_EVEN), labels.never_within_term.clone()));
    }
    if data.current.is_some() {
        items.push((Swatch::Dotted(style::CURRENT), labels.current.clone()));
    }
    items
}

fn draw_plot(area: &Area<'_>, data: &Prepared, labels: &HoursLabels) -> DrawResult {
    let points = || data.on_demand.iter().chain(&data.monthly);
    let xs = points().map(|p| p.0).chain(data.break_even).chain(data.current);
    let (x_low, x_high) = value_range(xs, None);
    let (y_low, y_high) = value_range(points().map(|p| p.1), None);

    let mut chart = plot::panel(area, x_low..x_high, y_low..y_high, (44, 96))?;
    plot::draw_axes(&mut chart, &plot::Axes::numbers(&labels.x_axis, &labels.y_axis))?;

    let right_half = |x: f64| x > x_low + (x_high - x_low) * 0.7;
    let marker_text = |x: f64, text: String, colour: RGBColor, dy: i32| {
        let (h, dx) = if right_half(x) {
            (HPos::Right, -6)
        } else {
            (HPos::Left, 6)
        };
        let text_style = style::font(12).color(&colour).pos(Pos::new(h, VPos::Top));
        EmptyElement::at((x, y_high)) + Text::new(text, (dx, dy), text_style)
    };
    if let Some(h) = data.break_even {
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(h, y_low), (h, y_high)],
            7,
            5,
            style::BREAK_EVEN.stroke_width(2),
        )))?;
        let text = format!("{} {}", labels.break_even, format::tick(&h));
        chart.draw_series(std::iter::once(marker_text(h, text, style::BREAK_EVEN, 4)))?;
    }
    if let Some(h) = data.current {
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(h, y_low), (h, y_high)],
            2,
            4,
            style::CURRENT.stroke_width(2),
        )))?;
        let text = labels.current.clone();
        chart.draw_series(std::iter::once(marker_text(h, text, style::CURRENT, 22)))?;
    }
    for (points, colour) in [(&data.monthly, style::MONTHLY), (&data.on_demand, style::ON_DEMAND)] {
        match points.as_slice() {
            [] => {}
            [p] => {
                chart.draw_series(std::iter::once(Circle::new(*p, 3, colour.filled())))?;
            }
            _ => {
                chart.draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "hours_tests.rs"]
mod tests;
