//! Each quote's curve of throughput against response time, with the workload's target.
//!
//! One line per quote through its runs at several concurrencies (sorted by latency): further
//! right is slower for each user and, on a healthy node, more tokens served. A dashed vertical
//! line marks the target; a diamond on each curve marks the throughput read at the target, so a
//! reader sees why a node that serves more tokens in total can lose: its curve crosses the
//! target lower.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::legend::Swatch;
use super::plot::{self, WIDTH, X_AXIS_PX};
use super::style;

/// Height of the panel without the x axis, pixels.
const PANEL_H: u32 = 320;

/// One quote's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseSeries {
    /// The quote, as the legend names it.
    pub label: String,
    /// (latency at the target's percentile in ms, throughput per node) of each run; points with
    /// a non-finite figure are not drawn.
    pub points: Vec<(f64, f64)>,
    /// The throughput read at the target, when some run meets it.
    pub at_target: Option<f64>,
}

/// A series to draw: its position (for its colour), itself, and its finite points by latency.
type Curve<'a> = (usize, &'a ResponseSeries, Vec<(f64, f64)>);

/// Every text of the chart, in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResponseLabels {
    /// Heading, also the SVG `<title>`.
    pub title: String,
    /// Horizontal axis: the latency with its percentile and unit ("p95 TPOT (ms)").
    pub x_axis: String,
    /// Vertical axis: throughput per node with its unit.
    pub y_axis: String,
    /// Legend entry and label of the target line ("Target p95 TPOT ≤ 22 ms").
    pub target: String,
}

/// An SVG (960 px wide) of every quote's curve and the target at `target_ms`; the title only
/// when no quote has a point to draw.
#[must_use]
pub fn response_curve_svg(labels: &ResponseLabels, target_ms: f64, series: &[ResponseSeries]) -> String {
    let curves: Vec<Curve<'_>> = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut points: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            (i, s, points)
        })
        .filter(|(_, _, p)| !p.is_empty())
        .collect();
    if curves.is_empty() || !target_ms.is_finite() {
        return plot::title_only(WIDTH, &labels.title);
    }
    let all = curves.iter().flat_map(|(_, _, p)| p.iter());
    let x_high = all.clone().map(|p| p.0).fold(target_ms, f64::max) * 1.12;
    let y_high = all.map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.12;
    let mut legend: Vec<(Swatch, String)> = curves
        .iter()
        .map(|(i, s, _)| (Swatch::Line(style::cost_colour(*i)), s.label.clone()))
        .collect();
    legend.push((Swatch::Dashed(style::THROTTLE), labels.target.clone()));
    plot::with_legend(&labels.title, &legend, PANEL_H + X_AXIS_PX, |body| {
        let mut chart = plot::panel(body, 0.0..x_high, 0.0..y_high, (X_AXIS_PX, 96))?;
        plot::draw_axes(&mut chart, &plot::Axes::numbers(&labels.x_axis, &labels.y_axis))?;
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(target_ms, 0.0), (target_ms, y_high)],
            7,
            5,
            style::THROTTLE.stroke_width(2),
        )))?;
        let text_style = style::font(12)
            .color(&style::THROTTLE)
            .pos(Pos::new(HPos::Left, VPos::Top));
        chart.draw_series(std::iter::once(
            EmptyElement::at((target_ms, y_high)) + Text::new(labels.target.clone(), (6, 4), text_style),
        ))?;
        for (i, s, points) in &curves {
            let colour = style::cost_colour(*i);
            if points.len() > 1 {
                chart.draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?;
            }
            chart.draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))?;
            if let Some(y) = s.at_target.filter(|y| y.is_finite()) {
                let diamond = vec![(-7, 0), (0, -7), (7, 0), (0, 7)];
                chart.draw_series(std::iter::once(
                    EmptyElement::at((target_ms, y)) + Polygon::new(diamond, colour.filled()),
                ))?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> ResponseLabels {
        ResponseLabels {
            title: "Throughput at the response-time target".into(),
            x_axis: "p95 TPOT (ms)".into(),
            y_axis: "tokens/s per node".into(),
            target: "Target p95 TPOT ≤ 22 ms".into(),
        }
    }

    #[test]
    fn each_quote_is_a_curve_with_its_point_at_the_target() {
        let series = [
            ResponseSeries {
                label: "Fast per user".into(),
                points: vec![(19.36, 1676.58), (14.63, 551.96), (26.16, 2448.93)],
                at_target: Some(1976.4),
            },
            ResponseSeries {
                label: "Many tokens, slow per user".into(),
                points: vec![(30.0, 2600.0), (40.0, 3400.0), (f64::NAN, 1.0)],
                at_target: None,
            },
        ];
        let svg = response_curve_svg(&labels(), 22.0, &series);
        assert!(svg.contains("<title>Throughput at the response-time target</title>"));
        assert!(svg.contains("Fast per user") && svg.contains("Many tokens, slow per user"));
        assert!(svg.contains("Target p95 TPOT ≤ 22 ms"));
        assert!(
            svg.matches("<polyline").count() >= 2,
            "one line per quote with two points or more"
        );
        assert_eq!(
            svg.matches("<polygon").count(),
            1,
            "one diamond: only the first meets the target"
        );
        assert_eq!(svg.matches("<circle").count(), 5, "the NaN point is not drawn");
        style::assert_font_stack(&svg);
    }

    #[test]
    fn without_points_only_the_title_is_drawn() {
        let svg = response_curve_svg(&labels(), 22.0, &[]);
        assert!(!svg.contains("<circle"));
        assert!(svg.contains("<title>"));
    }
}
