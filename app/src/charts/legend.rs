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
}

/// Draws the centred title and, below it, the legend in rows that wrap at
/// `width`; returns the header height in pixels.
pub(super) fn draw_header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    width: u32,
    title: &str,
    legend: &[(Swatch, String)],
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    let title_style = style::font(20)
        .style(FontStyle::Bold)
        .color(&style::INK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    let centre = i32::try_from(width / 2).unwrap_or(0);
    root.draw(&Text::new(title.to_owned(), (centre, 8), title_style))?;

    let text_style = style::font(LEGEND_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (left, right, row_h) = (90_i32, i32::try_from(width).unwrap_or(0) - 24, 20_i32);
    let (mut x, mut y) = (left, 44_i32);
    for (swatch, text) in legend {
        let text_w = i32::try_from(svg::text_width(text, LEGEND_PX)).unwrap_or(i32::MAX / 4);
        let item_w = 22 + 6 + text_w + 18;
        if x > left && x + item_w > right {
            x = left;
            y += row_h;
        }
        match swatch {
            Swatch::Line(c) => {
                root.draw(&Rectangle::new([(x, y - 2), (x + 22, y + 2)], c.filled()))?
            }
            Swatch::Band(c) => {
                root.draw(&Rectangle::new([(x, y - 6), (x + 22, y + 6)], c.filled()))?
            }
            Swatch::Dashed(c) => {
                for dash in [0, 9, 18] {
                    root.draw(&Rectangle::new(
                        [(x + dash, y - 1), (x + dash + 5, y + 1)],
                        c.filled(),
                    ))?;
                }
            }
        }
        root.draw(&Text::new(text.clone(), (x + 28, y), text_style.clone()))?;
        x += item_w;
    }
    Ok(u32::try_from(y + row_h / 2 + 6).unwrap_or(60))
}
