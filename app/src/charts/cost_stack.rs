//! Horizontal stacked bars of the total cost of ownership per quote.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::format;
use super::legend::{self, Swatch};
use super::style;
use super::svg;

/// Width of the chart, pixels.
const WIDTH: u32 = 960;
/// Gap between the legend and the first bar row, pixels.
const GAP: u32 = 8;
/// Height of one bar row, pixels.
const ROW: u32 = 34;
/// Height of one bar, pixels.
const BAR_H: i32 = 22;
/// Margin left, right and below, pixels.
const MARGIN: u32 = 16;
/// Label and total text size, pixels.
const TEXT_PX: u32 = 13;

/// One bar: a quote's cost split into components.
#[derive(Debug, Clone, PartialEq)]
pub struct CostStack {
    /// Row label (e.g. vendor and quote reference).
    pub label: String,
    /// `(component name, amount)` in drawing order, left to right. A component
    /// name has the same colour in every bar. Zero, negative and non-finite
    /// amounts draw nothing and count nothing.
    pub parts: Vec<(String, f64)>,
    /// Drawn with a bold label and total and an accent outline (e.g. the cheapest quote).
    pub highlight: bool,
}

/// An SVG (960 px wide, height to fit) of one horizontal stacked bar per quote
/// in the given order: one segment per positive part, coloured by component
/// name (colours assigned in order of first appearance, repeating after
/// eight), a legend of the component names, each row labelled on the left and
/// with its total and `currency` at its end.
///
/// Lengths are proportional to the largest total; segments are at least 1 px
/// wide. With no stacks, the SVG holds only the title.
#[must_use]
pub fn cost_stack_svg(title: &str, currency: &str, stacks: &[CostStack]) -> String {
    let components = components(stacks);
    let legend: Vec<(Swatch, String)> = components
        .iter()
        .enumerate()
        .map(|(i, name)| (Swatch::Block(style::cost_colour(i)), (*name).to_owned()))
        .collect();
    let top = legend::header_height(WIDTH, &legend) + GAP;
    let rows = u32::try_from(stacks.len()).unwrap_or(u32::MAX / ROW / 2);
    let height = top + rows.saturating_mul(ROW) + MARGIN;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        // Drawing into a String cannot fail; a failed element would only be missing.
        let drawn = root
            .fill(&WHITE)
            .and_then(|()| legend::draw_header(&root, WIDTH, title, &legend))
            .and_then(|_| draw_rows(&root, top, currency, &components, stacks))
            .and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "{drawn:?}");
    }
    svg::finish(out, title)
}

/// The amount of a part when it is drawn: positive and finite.
fn drawn(value: f64) -> Option<f64> {
    Some(value).filter(|v| v.is_finite() && *v > 0.0)
}

/// Component names with at least one drawn part, in order of first appearance.
fn components(stacks: &[CostStack]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for (name, value) in stacks.iter().flat_map(|s| &s.parts) {
        if drawn(*value).is_some() && !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

fn draw_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    top: u32,
    currency: &str,
    components: &[&str],
    stacks: &[CostStack],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if stacks.is_empty() {
        return Ok(());
    }
    let totals: Vec<f64> = stacks
        .iter()
        .map(|s| s.parts.iter().filter_map(|(_, v)| drawn(*v)).fold(0.0, |a, v| a + v))
        .collect();
    let texts: Vec<String> = totals.iter().map(|t| format::amount(*t, currency)).collect();
    let max = totals.iter().copied().fold(0.0_f64, f64::max);
    let label_w = stacks
        .iter()
        .map(|s| svg::text_width(&s.label, TEXT_PX))
        .max()
        .unwrap_or(0)
        .clamp(40, WIDTH * 35 / 100);
    let value_w = texts.iter().map(|t| svg::text_width(t, TEXT_PX)).max().unwrap_or(0);
    let x0 = px(MARGIN + label_w + 10);
    let span = f64::from(
        WIDTH
            .saturating_sub(MARGIN + label_w + 10 + 10 + value_w + MARGIN)
            .max(40),
    );
    let scale = if max > 0.0 { span / max } else { 0.0 };

    for (i, ((stack, text), total)) in stacks.iter().zip(&texts).zip(&totals).enumerate() {
        let mid = px(top + ROW / 2) + px(ROW) * i32::try_from(i).unwrap_or(i32::MAX / 64);
        let (y0, y1) = (mid - BAR_H / 2, mid + BAR_H / 2);
        let mut sum = 0.0;
        let mut end = x0;
        for (name, value) in &stack.parts {
            let Some(v) = drawn(*value) else { continue };
            sum += v;
            let colour = components
                .iter()
                .position(|c| c == name)
                .map_or(style::INK, style::cost_colour);
            let right = (x0 + pixels(sum * scale)).max(end + 1);
            root.draw(&Rectangle::new([(end, y0), (right, y1)], colour.filled()))?;
            end = right;
        }
        if stack.highlight && *total > 0.0 {
            let outline = vec![
                (x0 - 3, y0 - 3),
                (end + 3, y0 - 3),
                (end + 3, y1 + 3),
                (x0 - 3, y1 + 3),
                (x0 - 3, y0 - 3),
            ];
            root.draw(&PathElement::new(outline, style::BAR_ACCENT.stroke_width(2)))?;
        }
        let weight = if stack.highlight {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let text_style = |h| {
            style::font(TEXT_PX)
                .style(weight)
                .color(&style::INK)
                .pos(Pos::new(h, VPos::Center))
        };
        let label = svg::truncate_to(&stack.label, TEXT_PX, label_w);
        root.draw(&Text::new(label, (x0 - 10, mid), text_style(HPos::Right)))?;
        root.draw(&Text::new(text.clone(), (end + 8, mid), text_style(HPos::Left)))?;
    }
    let bottom = px(top) + px(ROW) * i32::try_from(stacks.len()).unwrap_or(i32::MAX / 64);
    root.draw(&PathElement::new(
        vec![(x0 - 6, px(top)), (x0 - 6, bottom)],
        style::INK.stroke_width(1),
    ))?;
    Ok(())
}

/// A pixel count as a coordinate (all chart sizes are far below `i32::MAX`).
fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A length within the chart width, rounded to whole pixels.
fn pixels(len: f64) -> i32 {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "len is within [0, WIDTH], or NaN which casts to 0"
    )]
    let p = len.round() as i32;
    p
}

#[cfg(test)]
#[path = "cost_stack_tests.rs"]
mod tests;
