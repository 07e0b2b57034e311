//! The heading of a chart: title and a wrapping legend.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style;
use super::svg;

/// Legend text size, pixels.
const LEGEND_PX: u32 = 13;

/// A legend swatch.
pub(super) enum Swatch {
    /// A solid line (a data series).
    Line(RGBColor),
    /// A shaded band.
    Band(RGBAColor),
    /// A dashed line (a reference value).
    Dashed(RGBColor),
    /// A dotted line (a marker, e.g. the current value).
    Dotted(RGBColor),
    /// A filled square (a bar segment).
    Block(RGBColor),
    /// A dot as a scatter chart draws it: filled, or hollow (a ring of its colour).
    Dot(RGBColor, bool),
    /// A ring round a mark (the recommended plan).
    Ring(RGBColor),
    /// No mark: a note about the chart (what lies outside it).
    Note,
}

/// Radius of a legend dot, pixels: a scatter's marks, a little larger to be read.
pub(super) const LEGEND_DOT_R: u32 = 5;
/// Radius of a legend ring, pixels.
pub(super) const LEGEND_RING_R: u32 = 7;

/// Left edge of the legend, pixels.
const LEFT: i32 = 90;
/// Height of one legend row, pixels.
const ROW_H: i32 = 20;
/// Vertical centre of the first legend row, pixels.
const FIRST_ROW: i32 = 44;

/// Title sizes tried, largest first (before [`style::font`]'s scaling).
const TITLE_PX: [u32; 4] = [20, 18, 16, 14];

/// The title's size and text so that it fits `width` with a margin each side: the largest size
/// at which it fits whole, else the smallest, cut with an ellipsis (the SVG's `<title>` keeps it
/// whole). Widths are measured at the drawn size (`style::font` scales by 1.24) plus a tenth
/// for bold: an English title with a quote's label is long.
fn fitted_title(title: &str, width: u32) -> (u32, String) {
    let room = width.saturating_sub(32);
    let drawn = |px: u32| (px * 124).div_ceil(100) * 11 / 10;
    TITLE_PX
        .into_iter()
        .find(|&px| svg::text_width(title, drawn(px)) <= room)
        .map_or_else(
            || (TITLE_PX[3], svg::truncate_to(title, drawn(TITLE_PX[3]), room)),
            |px| (px, title.to_owned()),
        )
}

/// The centre of each legend item and the header height, for a chart `width` wide.
fn layout<S>(width: u32, legend: &[(S, String)]) -> (Vec<(i32, i32)>, u32) {
    let right = i32::try_from(width).unwrap_or(0) - 24;
    let (mut x, mut y) = (LEFT, FIRST_ROW);
    let mut at = Vec::with_capacity(legend.len());
    for (_, text) in legend {
        let text_w = i32::try_from(svg::text_width(text, LEGEND_PX)).unwrap_or(i32::MAX / 4);
        let item_w = 22 + 6 + text_w + 18;
        if x > LEFT && x + item_w > right {
            x = LEFT;
            y += ROW_H;
        }
        at.push((x, y));
        x += item_w;
    }
    (at, u32::try_from(y + ROW_H / 2 + 6).unwrap_or(60))
}

/// The height [`draw_header`] will take, pixels (to size a chart before drawing).
pub(super) fn header_height<S>(width: u32, legend: &[(S, String)]) -> u32 {
    layout(width, legend).1
}

/// Draws the centred title and, below it, the legend in rows that wrap at
/// `width`; returns the header height in pixels.
pub(super) fn draw_header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    width: u32,
    title: &str,
    legend: &[(Swatch, String)],
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    let (title_px, title) = fitted_title(title, width);
    let title_style = style::font(title_px)
        .style(FontStyle::Bold)
        .color(&style::INK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    let centre = i32::try_from(width / 2).unwrap_or(0);
    root.draw(&Text::new(title, (centre, 8), title_style))?;

    let text_style = style::font(LEGEND_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (at, height) = layout(width, legend);
    for ((swatch, text), &(x, y)) in legend.iter().zip(&at) {
        match swatch {
            Swatch::Line(c) => root.draw(&Rectangle::new([(x, y - 2), (x + 22, y + 2)], c.filled()))?,
            Swatch::Band(c) => root.draw(&Rectangle::new([(x, y - 6), (x + 22, y + 6)], c.filled()))?,
            Swatch::Block(c) => root.draw(&Rectangle::new([(x + 5, y - 6), (x + 17, y + 6)], c.filled()))?,
            Swatch::Dot(c, true) => root.draw(&Circle::new((x + 11, y), LEGEND_DOT_R, c.filled()))?,
            Swatch::Dot(c, false) => root.draw(&Circle::new((x + 11, y), LEGEND_DOT_R, c.stroke_width(2)))?,
            Swatch::Ring(c) => root.draw(&Circle::new((x + 11, y), LEGEND_RING_R, c.stroke_width(2)))?,
            Swatch::Note => {}
            Swatch::Dashed(c) => {
                for dash in [0, 9, 18] {
                    root.draw(&Rectangle::new([(x + dash, y - 1), (x + dash + 5, y + 1)], c.filled()))?;
                }
            }
            Swatch::Dotted(c) => {
                for dot in [0, 5, 10, 15, 20] {
                    root.draw(&Rectangle::new([(x + dot, y - 1), (x + dot + 2, y + 1)], c.filled()))?;
                }
            }
        }
        root.draw(&Text::new(text.clone(), (x + 28, y), text_style.clone()))?;
    }
    Ok(height)
}

#[cfg(test)]
mod tests {
    use super::{fitted_title, svg};

    #[test]
    fn a_long_title_shrinks_then_is_cut_but_never_overflows() {
        assert_eq!(
            fitted_title("Cost by component (CNY)", 960),
            (20, "Cost by component (CNY)".to_owned())
        );
        let long = "Compute cost against busy hours — Zhisuan Cloud · ZS-H800-8-2026Q4-north (r2)";
        let (px, text) = fitted_title(long, 960);
        assert!(px < 20 && text == long, "{px} {text}");
        let longer = long.repeat(3);
        let (px, text) = fitted_title(&longer, 960);
        assert_eq!(px, 14);
        assert!(text.ends_with('…'));
        assert!(svg::text_width(&text, (14 * 124u32).div_ceil(100) * 11 / 10) <= 960 - 32);
    }
}
