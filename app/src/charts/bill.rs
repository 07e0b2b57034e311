//! Estimate vs billed per cost component: two horizontal bars per component, the
//! estimate in grey and the bill in blue (orange-red where it is above the estimate), each with
//! its formatted amount at its end; the legend names every colour drawn.
//!
//! The chart is drawn 480 px wide, the width the order page shows it at (`img.bill-chart`), so
//! its 15 px texts are read at 15 px on a desktop and still at 10 px on a 390 px phone, where the
//! image is scaled down to the card.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{style, svg};

const WIDTH: u32 = 480;
/// Vertical centre of the first legend row, below the title.
const LEGEND_Y: i32 = 48;
/// Height of one legend row.
const LEGEND_ROW: i32 = 22;
/// Height of one component's group: two bars and a gap.
const GROUP: u32 = 46;
const BAR_H: i32 = 16;
const MARGIN: u32 = 16;
/// Text size as written into the SVG: 15 px at the page's 480 px, 10 px on a 390 px phone.
const TEXT_PX: u32 = 15;
/// A bill above its estimate.
const OVER: RGBColor = RGBColor(0xC2, 0x41, 0x0C);

/// One component: its name, the two amounts (for the lengths) and their texts.
#[derive(Debug, Clone, PartialEq)]
pub struct BillBars {
    /// The component's name.
    pub label: String,
    /// Estimated amount (lengths only).
    pub estimated: f64,
    /// Billed amount (lengths only).
    pub billed: f64,
    /// The estimated amount as shown.
    pub estimated_text: String,
    /// The billed amount as shown.
    pub billed_text: String,
}

/// The legend's texts: the estimate's bar, the bill's, and the bill's where it is above the
/// estimate (named only when a component is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BillLegend<'a> {
    /// The estimate's bar.
    pub estimated: &'a str,
    /// The bill's bar.
    pub billed: &'a str,
    /// The bill's bar above its estimate.
    pub over: &'a str,
}

/// An SVG (480 px wide, 46 px per component) with a legend naming each colour drawn. Lengths
/// are proportional to the largest amount; negative amounts (a component credited back) draw a
/// 1 px stub.
#[must_use]
pub fn estimate_vs_billed_svg(title: &str, legend: BillLegend<'_>, groups: &[BillBars]) -> String {
    let rows = u32::try_from(groups.len()).unwrap_or(64).min(64);
    let (_, top) = legend_layout(&legend_items(legend, groups));
    let height = top + rows * GROUP + MARGIN;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        let drawn = draw(&root, title, legend, groups).and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "{drawn:?}");
    }
    svg::finish(out, title)
}

fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// The legend's items: each text with its colour, the "above the estimate" one only when a bar
/// is drawn in it.
fn legend_items<'a>(legend: BillLegend<'a>, groups: &[BillBars]) -> Vec<(&'a str, RGBColor)> {
    let mut items = vec![(legend.estimated, style::BAR), (legend.billed, style::BAR_ACCENT)];
    if groups.iter().any(|g| g.billed > g.estimated) {
        items.push((legend.over, OVER));
    }
    items
}

/// Where each legend item starts (wrapping onto a new row at the right margin) and the top of
/// the first bar below the legend.
fn legend_layout(items: &[(&str, RGBColor)]) -> (Vec<(i32, i32)>, u32) {
    let (mut x, mut y) = (px(MARGIN), LEGEND_Y);
    let mut at = Vec::with_capacity(items.len());
    for (text, _) in items {
        let w = 20 + px(svg::text_width(text, TEXT_PX)) + 24;
        if x > px(MARGIN) && x + w - 24 > px(WIDTH - MARGIN) {
            x = px(MARGIN);
            y += LEGEND_ROW;
        }
        at.push((x, y));
        x += w;
    }
    (at, u32::try_from(y + LEGEND_ROW).unwrap_or(64))
}

/// The title, and the legend: each colour's swatch a bar as the chart draws it (a filled
/// block), its text beside it. Returns the top of the first bar.
fn draw_heading<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    items: &[(&str, RGBColor)],
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    let left_top = Pos::new(HPos::Left, VPos::Top);
    let title_style = style::font(18).style(FontStyle::Bold).color(&style::INK).pos(left_top);
    let title = svg::truncate_to(title, 18 * 11 / 10, WIDTH - 2 * MARGIN);
    root.draw(&Text::new(title, (px(MARGIN), 10), title_style))?;
    let legend_style = style::font(TEXT_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (at, top) = legend_layout(items);
    for ((text, colour), (x, y)) in items.iter().zip(at) {
        root.draw(&Rectangle::new(
            [(x, y - BAR_H / 2), (x + 14, y + BAR_H / 2)],
            colour.filled(),
        ))?;
        root.draw(&Text::new((*text).to_owned(), (x + 20, y), legend_style.clone()))?;
    }
    Ok(top)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: BillLegend<'_>,
    groups: &[BillBars],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let top_of_bars = draw_heading(root, title, &legend_items(legend, groups))?;
    let legend_style = style::font(TEXT_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let max = groups
        .iter()
        .flat_map(|g| [g.estimated, g.billed])
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let label_w = groups
        .iter()
        .map(|g| svg::text_width(&g.label, TEXT_PX))
        .max()
        .unwrap_or(0)
        .clamp(40, WIDTH * 30 / 100);
    let value_w = groups
        .iter()
        .flat_map(|g| [&g.estimated_text, &g.billed_text])
        .map(|t| svg::text_width(t, TEXT_PX))
        .max()
        .unwrap_or(0);
    let x0 = px(MARGIN + label_w + 10);
    let span = WIDTH
        .saturating_sub(MARGIN + label_w + 10 + 8 + value_w + MARGIN)
        .max(40);
    let length = |v: f64| -> i32 {
        if v > 0.0 && max > 0.0 {
            // Within [1, span], span < WIDTH.
            #[expect(clippy::cast_possible_truncation, reason = "within [1, WIDTH]")]
            let len = (v / max * f64::from(span)).round().max(1.0) as i32;
            len
        } else {
            1
        }
    };
    let label_style = style::font(TEXT_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (i, g) in groups.iter().enumerate() {
        let top = px(top_of_bars) + px(GROUP) * i32::try_from(i).unwrap_or(0);
        let label = svg::truncate_to(&g.label, TEXT_PX, label_w);
        root.draw(&Text::new(label, (x0 - 8, top + BAR_H + 1), label_style.clone()))?;
        let over = g.billed > g.estimated;
        let bars = [
            (g.estimated, &g.estimated_text, style::BAR, top),
            (
                g.billed,
                &g.billed_text,
                if over { OVER } else { style::BAR_ACCENT },
                top + BAR_H + 2,
            ),
        ];
        for (value, text, colour, y) in bars {
            let end = x0 + length(value);
            root.draw(&Rectangle::new([(x0, y), (end, y + BAR_H)], colour.filled()))?;
            root.draw(&Text::new(text.clone(), (end + 6, y + BAR_H / 2), legend_style.clone()))?;
        }
    }
    let bottom = px(top_of_bars) + px(GROUP) * i32::try_from(groups.len()).unwrap_or(0);
    root.draw(&PathElement::new(
        vec![(x0, px(top_of_bars)), (x0, bottom)],
        style::INK.stroke_width(1),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars(label: &str, estimated: f64, billed: f64) -> BillBars {
        BillBars {
            label: label.into(),
            estimated,
            billed,
            estimated_text: format!("${estimated:.2}"),
            billed_text: format!("${billed:.2}"),
        }
    }

    const LEGEND: BillLegend<'static> = BillLegend {
        estimated: "Estimated",
        billed: "Billed",
        over: "Billed, above the estimate",
    };

    #[test]
    fn each_component_has_both_bars_and_a_bill_over_its_estimate_is_red() {
        let svg = estimate_vs_billed_svg(
            "Estimate vs billed",
            LEGEND,
            &[bars("Compute", 4158.72, 4500.0), bars("Disk <stopped>", 0.0, 12.0)],
        );
        assert!(
            svg.starts_with("<svg") && svg.contains("<title>Estimate vs billed</title>"),
            "{svg}"
        );
        assert!(svg.contains("$4158.72") && svg.contains("$4500.00") && svg.contains("$12.00"));
        assert!(svg.contains("Disk &lt;stopped&gt;"), "escaped");
        assert!(svg.to_uppercase().contains("#C2410C"), "over the estimate");
        style::assert_font_stack(&svg);
    }

    /// The orange-red of a bill above its estimate is named in the legend, its swatch a block as
    /// the bars are; a chart without such a bar does not name it.
    #[test]
    fn the_legend_names_the_colour_of_a_bill_above_its_estimate() {
        let over = estimate_vs_billed_svg("t", LEGEND, &[bars("Compute", 10.0, 12.0), bars("Disk", 5.0, 4.0)]);
        assert!(over.contains("Billed, above the estimate"), "{over}");
        let blocks = over.to_uppercase().matches("FILL=\"#C2410C\"").count();
        assert_eq!(blocks, 2, "the bar and the swatch: {over}");
        let under = estimate_vs_billed_svg("t", LEGEND, &[bars("Compute", 10.0, 9.0)]);
        assert!(!under.contains("above the estimate"), "{under}");
    }

    /// Drawn at the width the page shows it, every text is at least 15 px as written, so at least
    /// 12 px wherever the image is four fifths of its width or more.
    #[test]
    fn the_chart_is_drawn_at_the_page_s_width_with_texts_of_at_least_15_px() {
        let svg = estimate_vs_billed_svg("t", LEGEND, &[bars("Compute", 10.0, 12.0)]);
        assert!(svg.contains(&format!("width=\"{WIDTH}\"")), "{svg}");
        assert_eq!(WIDTH, 480);
        for size in svg.split("font-size=\"").skip(1) {
            let size: f64 = size.split('"').next().unwrap_or_default().parse().unwrap_or(0.0);
            assert!(size >= 15.0, "{size} in {svg}");
        }
    }
}
