//! Rendering shared by the line charts: the SVG string, the title-only chart
//! for empty input, one panel's frame and axes in the house style, and point
//! filtering.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::style;

use super::legend;
use super::svg;

/// Width of every line chart, pixels.
pub(super) const WIDTH: u32 = 960;
/// Height of the x axis (tick labels and description) under a chart's bottom
/// panel, pixels.
pub(super) const X_AXIS_PX: u32 = 44;

/// The drawing area of an in-memory SVG.
pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// What drawing into an in-memory SVG returns.
pub(super) type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;
/// A panel of an in-memory SVG on cartesian coordinates `X`, `Y`.
pub(super) type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// A white `width`×`height` SVG drawn by `draw`, with its `<title>`.
pub(super) fn render(width: u32, height: u32, title: &str, draw: impl FnOnce(&Area<'_>) -> DrawResult) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        // Drawing into a String cannot fail; a failed element would only be missing.
        let drawn = root
            .fill(&WHITE)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "{drawn:?}");
    }
    svg::finish(out, title)
}

/// A chart [`WIDTH`] wide: the title and `legend` as its header, then a body `body_h` pixels
/// high drawn by `draw`.
pub(super) fn with_legend(
    title: &str,
    legend: &[(legend::Swatch, String)],
    body_h: u32,
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
) -> String {
    with_legend_at(WIDTH, title, legend, body_h, draw)
}

/// [`with_legend`] `width` pixels wide (a narrower drawing for a phone: the same texts read
/// larger once the image is scaled to the screen).
pub(super) fn with_legend_at(
    width: u32,
    title: &str,
    legend: &[(legend::Swatch, String)],
    body_h: u32,
    draw: impl FnOnce(&Area<'_>) -> DrawResult,
) -> String {
    let header = legend::header_height(width, legend);
    render(width, header + body_h, title, |root| {
        legend::draw_header(root, width, title, legend)?;
        let (_, body) = root.split_vertically(header);
        draw(&body)
    })
}

/// A chart holding only its heading (for input without data).
pub(super) fn title_only(width: u32, title: &str) -> String {
    let height = legend::header_height::<()>(width, &[]);
    render(width, height, title, |root| {
        legend::draw_header(root, width, title, &[]).map(|_| ())
    })
}

/// One chart panel of `area` over the ranges `x` and `y`, with the margins
/// every line chart uses and room for tick labels below (`x_label_px`, 0 for
/// a panel without its own x axis) and left (`y_label_px`).
pub(super) fn panel<'a, 'b, X: AsRangedCoord, Y: AsRangedCoord>(
    area: &'a Area<'b>,
    x: X,
    y: Y,
    (x_label_px, y_label_px): (u32, u32),
) -> Result<Chart<'a, 'b, X::CoordDescType, Y::CoordDescType>, DrawingAreaErrorKind<std::io::Error>> {
    ChartBuilder::on(area)
        .margin_left(8)
        .margin_right(24)
        .margin_top(6)
        .margin_bottom(4)
        .x_label_area_size(x_label_px)
        .y_label_area_size(y_label_px)
        .build_cartesian_2d(x, y)
}

/// The grid, axes and tick texts of one panel: how many ticks, how each
/// reads, and the axis descriptions (`x_desc` only on a panel that shows the
/// x axis).
pub(super) struct Axes<'f, XV, YV> {
    pub(super) x_labels: usize,
    pub(super) y_labels: usize,
    pub(super) x_tick: &'f dyn Fn(&XV) -> String,
    pub(super) y_tick: &'f dyn Fn(&YV) -> String,
    pub(super) x_desc: Option<&'f str>,
    pub(super) y_desc: &'f str,
}

impl<'f> Axes<'f, f64, f64> {
    /// A panel of plain numbers on both axes (10 ticks across, 6 up), both described.
    pub(super) fn numbers(x_desc: &'f str, y_desc: &'f str) -> Self {
        Axes {
            x_labels: 10,
            y_labels: 6,
            x_tick: &super::format::tick,
            y_tick: &super::format::tick,
            x_desc: Some(x_desc),
            y_desc,
        }
    }
}

/// Draws `axes` on `chart` in the house style of [`style`] (light grid, ink
/// axes, 12 px ticks, 13 px descriptions).
pub(super) fn draw_axes<X, Y>(
    chart: &mut Chart<'_, '_, X, Y>,
    axes: &Axes<'_, X::ValueType, Y::ValueType>,
) -> DrawResult
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_labels(axes.x_labels)
        .y_labels(axes.y_labels)
        .max_light_lines(1)
        .light_line_style(style::GRID.mix(0.6))
        .bold_line_style(style::GRID)
        .axis_style(style::INK)
        .label_style(style::font(12).color(&style::INK))
        .axis_desc_style(style::font(13).color(&style::INK))
        .x_label_formatter(axes.x_tick)
        .y_label_formatter(axes.y_tick)
        .y_desc(axes.y_desc);
    if let Some(desc) = axes.x_desc {
        mesh.x_desc(desc);
    }
    mesh.draw()
}

/// `(x, y)` pairs of `xs` and `ys` (up to the shorter) where both are finite.
pub(super) fn finite_points(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    xs.iter()
        .zip(ys)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_points_zip_and_filter() {
        let pts = finite_points(&[0.0, 1.0, f64::NAN, 3.0, 4.0], &[5.0, f64::INFINITY, 7.0, 8.0]);
        assert_eq!(pts, vec![(0.0, 5.0), (3.0, 8.0)]);
    }

    #[test]
    fn title_only_is_a_small_svg() {
        let svg = title_only(960, "a<b");
        assert!(svg.starts_with("<svg role=\"img\" width=\"960\" height=\"60\""));
        assert!(svg.contains("<title>a&lt;b</title>"));
        assert!(svg.contains(">\na&lt;b\n</text>"));
    }
}
