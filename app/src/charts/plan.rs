//! Every rental plan as a dot: time to finish against total cost, with the best trade-offs
//! joined, the recommendation ringed, and the deadline and budget as dashed lines.

use std::collections::HashSet;

use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::legend::Swatch;
use super::plot::{self, Area, Chart, DrawResult, WIDTH};
use super::style;
use super::telemetry_data::value_range;

/// Height of the plot below the header, x axis included, pixels.
const PLOT_H: u32 = 440;
/// Width of the drawing for a desktop (every line chart's).
pub const PLAN_WIDE_WIDTH: u32 = WIDTH;
/// Width of the drawing for a phone: shown about 350 px wide, its 12 px ticks read at 10 px or
/// more (the 960 px drawing, scaled to a phone, would write them at 4 px).
pub const PLAN_NARROW_WIDTH: u32 = 400;
/// Height of the plot of the phone's drawing: about as high as wide.
const NARROW_PLOT_H: u32 = 380;

/// Plans on the best trade-offs and the line joining them: the house accent blue.
const FRONT: RGBColor = style::BAR_ACCENT;
/// Every other plan: a mid grey that still prints.
const OTHER: RGBColor = RGBColor(0x8C, 0x8C, 0x8C);
/// A plan that finishes after the deadline or costs more than the budget: the house red.
const WARNING: RGBColor = style::THROTTLE;
/// The ring round the recommended plan: dark green, apart from blue, grey and red.
const RECOMMENDED: RGBColor = RGBColor(0x1B, 0x7A, 0x2E);
/// The dashed deadline line.
const DEADLINE: RGBColor = style::CAPACITY;
/// The dashed budget line: the house marker magenta, apart from the deadline's grey.
const BUDGET: RGBColor = style::CURRENT;

/// Radius of a plan on the best trade-offs, pixels.
const FRONT_R: u32 = 4;
/// Radius of any other plan, pixels: small, so thousands stay readable.
const OTHER_R: u32 = 2;
/// Radius of the ring round the recommended plan, pixels.
const RING_R: u32 = 9;

/// One plan: when it would finish and what it would cost.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlanPoint {
    /// Time to finish, hours; non-finite values are not drawn.
    pub hours: f64,
    /// Total cost in the compared currency; non-finite values are not drawn.
    pub cost: f64,
    /// On the best trade-offs: no other plan is both cheaper and sooner.
    pub on_front: bool,
    /// Its throughput is estimated, not measured: drawn hollow.
    pub estimated: bool,
    /// The recommended plan: ringed.
    pub recommended: bool,
    /// Finishes after the deadline or costs more than the budget: drawn in the warning colour.
    pub late_or_over: bool,
}

/// Every text of the plan chart, in the reader's language.
///
/// Axis texts should carry their unit (e.g. `"完成用时（小时）"`, `"Total cost (CNY)"`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlanChartLabels {
    /// Chart heading, also the SVG `<title>`.
    pub title: String,
    /// Horizontal axis: time to finish.
    pub x_axis: String,
    /// Vertical axis: total cost with its currency.
    pub y_axis: String,
    /// Legend entry of the best trade-offs.
    pub front: String,
    /// Legend entry of the other plans.
    pub other: String,
    /// Legend entry of the hollow (estimated) plans.
    pub estimated: String,
    /// Legend entry of the ring round the recommended plan.
    pub recommended: String,
    /// Legend entry of the dashed deadline line.
    pub deadline: String,
    /// Legend entry of the dashed budget line.
    pub budget: String,
    /// Legend entry of the warning colour: late or over the budget.
    pub late: String,
    /// The note naming the plans above the chart, with `{n}` (how many) and `{max}` (the
    /// costliest, as the axis writes amounts).
    pub off_chart: String,
}

/// What is drawn, after dropping non-finite values.
struct Prepared {
    /// Plans on the front, soonest first.
    front: Vec<PlanPoint>,
    /// Every other plan.
    others: Vec<PlanPoint>,
    deadline_h: Option<f64>,
    budget: Option<f64>,
    /// Plans costlier than the chart's top, left out (how many, and the costliest).
    above: Option<(usize, f64)>,
}

impl Prepared {
    fn all(&self) -> impl Iterator<Item = &PlanPoint> + Clone {
        self.front.iter().chain(&self.others)
    }
}

/// How one dot is drawn: its colour, size and whether it is filled.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Marker {
    colour: (u8, u8, u8),
    radius: u32,
    filled: bool,
}

impl Marker {
    fn of(p: &PlanPoint) -> Marker {
        let colour = match (p.late_or_over, p.on_front) {
            (true, _) => WARNING,
            (false, true) => FRONT,
            (false, false) => OTHER,
        };
        Marker {
            colour: (colour.0, colour.1, colour.2),
            radius: if p.on_front { FRONT_R } else { OTHER_R },
            filled: !p.estimated,
        }
    }

    fn at(self, at: (f64, f64)) -> Circle<(f64, f64), u32> {
        let colour = RGBColor(self.colour.0, self.colour.1, self.colour.2);
        let style = if self.filled {
            colour.filled()
        } else {
            colour.stroke_width(if self.radius > OTHER_R { 2 } else { 1 })
        };
        Circle::new(at, self.radius, style)
    }
}

/// An SVG (960 px wide) of every plan: time to finish across, total cost up. Plans on the
/// front are larger blue dots joined in order of hours; the others are small grey dots;
/// estimated plans are hollow; plans late or over budget are red; the recommended plan is
/// ringed in green. A dashed vertical line marks `deadline_h` and a dashed horizontal line
/// `budget`, when given; both axes reach them.
///
/// Plans with a non-finite hour or cost are skipped. Dots that would fall on the same pixel
/// with the same look are drawn once, so thousands of plans stay a bounded file; the legend
/// has one entry per kind, never per plan. Without any finite plan the SVG holds only the
/// title.
#[must_use]
pub fn plan_scatter_svg(
    labels: &PlanChartLabels,
    points: &[PlanPoint],
    deadline_h: Option<f64>,
    budget: Option<f64>,
) -> String {
    plan_scatter_svg_at(WIDTH, labels, points, deadline_h, budget)
}

/// [`plan_scatter_svg`] drawn `width` pixels wide: below [`WIDTH`] (a phone's
/// [`PLAN_NARROW_WIDTH`]) the plot is about as high as wide, with half the ticks across.
#[must_use]
pub fn plan_scatter_svg_at(
    width: u32,
    labels: &PlanChartLabels,
    points: &[PlanPoint],
    deadline_h: Option<f64>,
    budget: Option<f64>,
) -> String {
    let finite: Vec<PlanPoint> = points
        .iter()
        .filter(|p| p.hours.is_finite() && p.cost.is_finite())
        .copied()
        .collect();
    if finite.is_empty() {
        return plot::title_only(width, &labels.title);
    }
    let budget = budget.filter(|b| b.is_finite());
    let top = cost_top(&finite, budget);
    let (shown, above): (Vec<_>, Vec<_>) = finite.into_iter().partition(|p| top.is_none_or(|t| p.cost <= t));
    let (mut front, others): (Vec<_>, Vec<_>) = shown.into_iter().partition(|p| p.on_front);
    front.sort_by(|a, b| a.hours.total_cmp(&b.hours));
    let data = Prepared {
        front,
        others,
        deadline_h: deadline_h.filter(|h| h.is_finite()),
        budget,
        above: (!above.is_empty()).then(|| (above.len(), above.iter().map(|p| p.cost).fold(f64::MIN, f64::max))),
    };
    let legend = legend_items(&data, labels);
    let (plot_h, x_ticks) = if width < WIDTH {
        (NARROW_PLOT_H, 5)
    } else {
        (PLOT_H, 10)
    };
    plot::with_legend_at(width, &labels.title, &legend, plot_h, |body| {
        draw_plot(body, &data, labels, x_ticks)
    })
}

/// How high the cost axis reaches: the plans that meet the goal (in time and within the
/// budget), the recommended one and the budget, with a quarter more room. Costlier plans, often
/// fast estimates far above the rest, would squeeze every plan that matters into the bottom of
/// the chart; they are left out and named. `None` (every plan drawn) when no plan meets the
/// goal or none is left out.
fn cost_top(points: &[PlanPoint], budget: Option<f64>) -> Option<f64> {
    let framing = points
        .iter()
        .filter(|p| !p.late_or_over || p.recommended)
        .map(|p| p.cost);
    let highest = framing.chain(budget).fold(f64::NAN, f64::max);
    let top = highest * 1.25;
    (top.is_finite() && top > 0.0 && points.iter().any(|p| p.cost > top)).then_some(top)
}

/// One entry per kind of mark present, each swatch drawn as the mark is.
fn legend_items(data: &Prepared, labels: &PlanChartLabels) -> Vec<(Swatch, String)> {
    let mut items = Vec::new();
    if !data.front.is_empty() {
        items.push((Swatch::Dot(FRONT, true), labels.front.clone()));
    }
    if !data.others.is_empty() {
        items.push((Swatch::Dot(OTHER, true), labels.other.clone()));
    }
    if data.all().any(|p| p.estimated) {
        items.push((Swatch::Dot(OTHER, false), labels.estimated.clone()));
    }
    if data.all().any(|p| p.recommended) {
        items.push((Swatch::Ring(RECOMMENDED), labels.recommended.clone()));
    }
    if data.all().any(|p| p.late_or_over) {
        items.push((Swatch::Dot(WARNING, true), labels.late.clone()));
    }
    if let Some((n, max)) = data.above {
        let note = labels
            .off_chart
            .replace("{n}", &n.to_string())
            .replace("{max}", &super::format::amount(max, ""));
        items.push((Swatch::Note, note));
    }
    if data.deadline_h.is_some() {
        items.push((Swatch::Dashed(DEADLINE), labels.deadline.clone()));
    }
    if data.budget.is_some() {
        items.push((Swatch::Dashed(BUDGET), labels.budget.clone()));
    }
    items
}

fn draw_plot(area: &Area<'_>, data: &Prepared, labels: &PlanChartLabels, x_ticks: usize) -> DrawResult {
    let (x_low, x_high) = value_range(data.all().map(|p| p.hours), data.deadline_h);
    let (y_low, y_high) = value_range(data.all().map(|p| p.cost), data.budget);
    let mut chart = plot::panel(area, x_low..x_high, y_low..y_high, (44, 96))?;
    let axes = plot::Axes {
        x_labels: x_ticks,
        ..plot::Axes::numbers(&labels.x_axis, &labels.y_axis)
    };
    plot::draw_axes(&mut chart, &axes)?;
    if let Some(h) = data.deadline_h {
        chart.draw_series(std::iter::once(dashed([(h, y_low), (h, y_high)], DEADLINE)))?;
    }
    if let Some(b) = data.budget {
        chart.draw_series(std::iter::once(dashed([(x_low, b), (x_high, b)], BUDGET)))?;
    }
    draw_dots(&mut chart, &data.others)?;
    if data.front.len() > 1 {
        let line = data.front.iter().map(|p| (p.hours, p.cost));
        chart.draw_series(LineSeries::new(line, FRONT.stroke_width(2)))?;
    }
    draw_dots(&mut chart, &data.front)?;
    let rings = data.all().filter(|p| p.recommended);
    chart.draw_series(rings.map(|p| Circle::new((p.hours, p.cost), RING_R, RECOMMENDED.stroke_width(2))))?;
    Ok(())
}

/// A dashed reference line through `ends`.
fn dashed(ends: [(f64, f64); 2], colour: RGBColor) -> DashedPathElement<std::array::IntoIter<(f64, f64), 2>, u32> {
    DashedPathElement::new(ends, 7, 5, colour.stroke_width(2))
}

/// A dot per plan, but one per pixel and look: a second dot there would add bytes, not ink.
fn draw_dots(chart: &mut Chart<'_, '_, RangedCoordf64, RangedCoordf64>, points: &[PlanPoint]) -> DrawResult {
    let mut drawn = HashSet::new();
    let dots: Vec<_> = points
        .iter()
        .filter(|p| drawn.insert((chart.backend_coord(&(p.hours, p.cost)), Marker::of(p))))
        .map(|p| Marker::of(p).at((p.hours, p.cost)))
        .collect();
    chart.draw_series(dots)?;
    Ok(())
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
