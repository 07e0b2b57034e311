//! Estimate vs billed per cost component: two horizontal bars per component, the
//! estimate in grey and the bill in blue (red where it is above the estimate), each with its
//! formatted amount at its end.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{style, svg};

const WIDTH: u32 = 960;
/// Top of the first group (below the title and the legend).
const TOP: u32 = 64;
/// Height of one component's group: two bars and a gap.
const GROUP: u32 = 46;
const BAR_H: i32 = 16;
const MARGIN: u32 = 16;
const TEXT_PX: u32 = 13;
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

/// An SVG (960 px wide, 46 px per component) with a legend naming the two bars
/// (`legend`: estimated, billed). Lengths are proportional to the largest amount; negative
/// amounts (a component credited back) draw a 1 px stub.
#[must_use]
pub fn estimate_vs_billed_svg(title: &str, legend: (&str, &str), groups: &[BillBars]) -> String {
    let rows = u32::try_from(groups.len()).unwrap_or(64).min(64);
    let height = TOP + rows * GROUP + MARGIN;
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

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: (&str, &str),
    groups: &[BillBars],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let left_top = Pos::new(HPos::Left, VPos::Top);
    let title_style = style::font(20).style(FontStyle::Bold).color(&style::INK).pos(left_top);
    root.draw(&Text::new(title.to_owned(), (px(MARGIN), 12), title_style))?;
    let legend_style = style::font(TEXT_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = px(MARGIN);
    for (text, colour) in [(legend.0, style::BAR), (legend.1, style::BAR_ACCENT)] {
        root.draw(&Rectangle::new([(x, 38), (x + 14, 50)], colour.filled()))?;
        root.draw(&Text::new(text.to_owned(), (x + 20, 44), legend_style.clone()))?;
        x += 20 + px(svg::text_width(text, TEXT_PX)) + 24;
    }
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
        let top = px(TOP) + px(GROUP) * i32::try_from(i).unwrap_or(0);
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
    let bottom = px(TOP) + px(GROUP) * i32::try_from(groups.len()).unwrap_or(0);
    root.draw(&PathElement::new(
        vec![(x0, px(TOP)), (x0, bottom)],
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

    #[test]
    fn each_component_has_both_bars_and_a_bill_over_its_estimate_is_red() {
        let svg = estimate_vs_billed_svg(
            "Estimate vs billed",
            ("Estimated", "Billed"),
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
}
