//! Horizontal bar chart of steady-state throughput per quote.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style;
use super::svg;

/// Width of the bar chart, pixels.
const WIDTH: u32 = 960;
/// Top of the first bar row, pixels (below the title).
const TOP: u32 = 52;
/// Height of one bar row, pixels.
const ROW: u32 = 30;
/// Height of one bar, pixels.
const BAR_H: i32 = 20;
/// Margin left and right, pixels.
const MARGIN: u32 = 16;
/// Label and value text size, pixels.
const TEXT_PX: u32 = 13;

/// One bar: a quote's steady-state throughput.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Row label (e.g. vendor and quote reference).
    pub label: String,
    /// Throughput in the chart's unit; negative or non-finite values draw no length.
    pub value: f64,
    /// Drawn in the accent colour (e.g. the selected or recommended quote).
    pub highlight: bool,
}

/// An SVG (960 px wide, one 30 px row per bar) of horizontal bars in the given
/// order, each labelled on the left and with its value and `unit` at its end.
///
/// Lengths are proportional to the largest value; a zero value is a 1 px stub.
/// With no bars, the SVG holds only the title.
#[must_use]
pub fn throughput_bars_svg(title: &str, unit: &str, bars: &[Bar]) -> String {
    let rows = u32::try_from(bars.len()).unwrap_or(u32::MAX / ROW - TOP);
    let height = TOP + rows.saturating_mul(ROW) + MARGIN;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        // Drawing into a String cannot fail; a failed element would only be missing.
        let drawn = draw(&root, title, unit, bars).and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "{drawn:?}");
    }
    svg::finish(out, title)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    unit: &str,
    bars: &[Bar],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let title_style = style::font(20)
        .style(FontStyle::Bold)
        .color(&style::INK)
        .pos(Pos::new(HPos::Left, VPos::Top));
    root.draw(&Text::new(title.to_owned(), (px(MARGIN), 12), title_style))?;
    if bars.is_empty() {
        return Ok(());
    }

    let values: Vec<Option<f64>> = bars.iter().map(|b| Some(b.value).filter(|v| v.is_finite())).collect();
    let texts: Vec<String> = values.iter().map(|v| value_text(*v, unit)).collect();
    let max = values.iter().flatten().copied().fold(0.0_f64, f64::max);
    let label_w = bars
        .iter()
        .map(|b| svg::text_width(&b.label, TEXT_PX))
        .max()
        .unwrap_or(0)
        .clamp(40, WIDTH * 35 / 100);
    let value_w = texts.iter().map(|t| svg::text_width(t, TEXT_PX)).max().unwrap_or(0);
    let x0 = MARGIN + label_w + 10;
    let span = WIDTH.saturating_sub(x0 + 8 + value_w + MARGIN).max(40);

    let label_style = style::font(TEXT_PX)
        .color(&style::INK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    for (i, ((bar, value), text)) in bars.iter().zip(&values).zip(&texts).enumerate() {
        let mid = px(TOP + ROW / 2) + px(ROW) * i32::try_from(i).unwrap_or(i32::MAX / 64);
        let len = match value {
            Some(v) if *v > 0.0 && max > 0.0 => (v / max * f64::from(span)).round().max(1.0),
            _ => 1.0,
        };
        // `len` is within [1, span], span < WIDTH.
        #[expect(clippy::cast_possible_truncation, reason = "len is within [1, WIDTH]")]
        let end = px(x0) + len as i32;
        let colour = if bar.highlight { style::BAR_ACCENT } else { style::BAR };
        root.draw(&Rectangle::new(
            [(px(x0), mid - BAR_H / 2), (end, mid + BAR_H / 2)],
            colour.filled(),
        ))?;
        let label = svg::truncate_to(&bar.label, TEXT_PX, label_w);
        root.draw(&Text::new(label, (px(x0) - 8, mid), label_style.clone()))?;
        let weight = if bar.highlight {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let value_style = style::font(TEXT_PX)
            .style(weight)
            .color(&style::INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        root.draw(&Text::new(text.clone(), (end + 6, mid), value_style))?;
    }
    let axis_bottom = px(TOP) + px(ROW) * i32::try_from(bars.len()).unwrap_or(i32::MAX / 64);
    root.draw(&PathElement::new(
        vec![(px(x0), px(TOP)), (px(x0), axis_bottom)],
        style::INK.stroke_width(1),
    ))?;
    Ok(())
}

/// A pixel count as a coordinate (all chart sizes are far below `i32::MAX`).
fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// The value with a precision fitting its size, then the unit; `–` when not finite.
fn value_text(value: Option<f64>, unit: &str) -> String {
    let Some(v) = value else {
        return "–".to_owned();
    };
    let number = match v.abs() {
        0.0 => "0".to_owned(),
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    };
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(label: &str, value: f64, highlight: bool) -> Bar {
        Bar {
            label: label.into(),
            value,
            highlight,
        }
    }

    fn fill(c: RGBColor) -> String {
        format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2)
    }

    /// `(ordinary, highlighted)` bar rectangles, with their widths in order.
    fn bar_rects(svg: &str) -> (Vec<i32>, Vec<i32>) {
        let width = |l: &str| -> i32 {
            let w = l.split("width=\"").nth(1).unwrap();
            w[..w.find('"').unwrap()].parse().unwrap()
        };
        let pick = |c: RGBColor| -> Vec<i32> {
            svg.lines()
                .filter(|l| l.starts_with("<rect") && l.contains(&fill(c)))
                .map(width)
                .collect()
        };
        (pick(style::BAR), pick(style::BAR_ACCENT))
    }

    #[test]
    fn one_rect_per_bar_proportional_in_order() {
        let bars = [
            bar("a", 100.0, false),
            bar("b", 50.0, true),
            bar("c", 0.0, false),
            bar("d", 25.0, false),
        ];
        let svg = throughput_bars_svg("Throughput", "tokens/s", &bars);
        let (plain, accent) = bar_rects(&svg);
        assert_eq!(plain.len(), 3);
        assert_eq!(accent.len(), 1);
        let (a, c, d) = (plain[0], plain[1], plain[2]);
        assert_eq!(c, 1, "zero is a stub");
        assert!((f64::from(accent[0]) / f64::from(a) - 0.5).abs() < 0.01);
        assert!((f64::from(d) / f64::from(a) - 0.25).abs() < 0.01);
        let pos = |s: &str| svg.find(s).unwrap();
        assert!(pos(">\na\n<") < pos(">\nb\n<") && pos(">\nb\n<") < pos(">\nc\n<"));
        assert!(svg.contains("100 tokens/s") && svg.contains("50.0 tokens/s") && svg.contains(">\n0 tokens/s\n<"));
    }

    #[test]
    fn empty_input_keeps_title() {
        let svg = throughput_bars_svg("Nothing yet", "req/s", &[]);
        assert!(svg.contains("<title>Nothing yet</title>"));
        assert!(svg.contains(">\nNothing yet\n</text>"));
        assert_eq!(bar_rects(&svg), (vec![], vec![]));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn all_zero_and_non_finite_values() {
        let bars = [bar("z", 0.0, false), bar("n", f64::NAN, false), bar("neg", -3.0, true)];
        let svg = throughput_bars_svg("T", "", &bars);
        assert_eq!(bar_rects(&svg), (vec![1, 1], vec![1]));
        assert!(svg.contains(">\n–\n<"));
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn texts_are_escaped() {
        let evil = "<script>alert('&')</script>";
        let svg = throughput_bars_svg(evil, evil, &[bar(evil, 1.0, true)]);
        assert!(!svg.contains("<script"));
        assert!(svg.contains("&lt;script&gt;alert(&apos;&amp;&apos;)&lt;/script&gt;"));
    }

    #[test]
    fn long_labels_are_truncated() {
        let long = "供应商".repeat(40);
        let svg = throughput_bars_svg("T", "", &[bar(&long, 1.0, false)]);
        assert!(!svg.contains(&long));
        let label = svg
            .split(">\n")
            .filter_map(|t| t.split_once("\n<").map(|(text, _)| text))
            .find(|text| text.ends_with('…'))
            .expect("a label cut short with an ellipsis");
        let kept = label.trim_end_matches('…');
        assert!(
            !kept.is_empty() && long.starts_with(kept) && kept.chars().count() < long.chars().count(),
            "the label keeps the start of the name: {label}"
        );
    }

    #[test]
    #[ignore = "writes a sample chart to the temp dir for a visual check"]
    fn write_sample() {
        let bars = [
            bar("星河算力 · Q-00017 (8× H100)", 10_412.5, false),
            bar("Lambda · L-2231 (8× A100 80GB)", 9_120.0, true),
            bar("Acme GPU · 88 (4× L40S)", 4_210.3, false),
            bar("云算科技 · X1 (1× RTX 4090)", 0.0, false),
        ];
        let svg = throughput_bars_svg("Steady-state throughput", "tokens/s", &bars);
        std::fs::write(std::env::temp_dir().join("bars.svg"), svg).unwrap();
    }
}
