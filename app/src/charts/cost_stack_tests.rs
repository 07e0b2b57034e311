//! Tests of [`super::cost_stack_svg`].

use super::*;

fn stack(label: &str, parts: &[(&str, f64)], highlight: bool) -> CostStack {
    CostStack {
        label: label.into(),
        parts: parts.iter().map(|(n, v)| ((*n).to_owned(), *v)).collect(),
        highlight,
    }
}

fn fill(c: RGBColor) -> String {
    format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2)
}

/// `(x, width)` of the `<rect>` elements filled with `colour`, in document order.
fn rects(svg: &str, colour: RGBColor) -> Vec<(i32, i32)> {
    let attr = |l: &str, name: &str| -> i32 {
        let v = l.split(&format!(" {name}=\"")).nth(1).unwrap();
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&fill(colour)))
        .map(|l| (attr(l, "x"), attr(l, "width")))
        .collect()
}

fn sample() -> Vec<CostStack> {
    vec![
        stack("Cheap", &[("Compute", 60.0), ("Disk", 20.0), ("Traffic", 0.0)], true),
        stack(
            "Dear",
            &[("Disk", 40.0), ("Compute", 100.0), ("Public IP", 20.0)],
            false,
        ),
    ]
}

#[test]
fn one_rect_per_drawn_segment_same_colour_per_component() {
    let svg = cost_stack_svg("TCO", "CNY", &sample());
    let (compute, disk, ip) = (style::cost_colour(0), style::cost_colour(1), style::cost_colour(2));
    // One per bar plus the legend swatch (drawn first).
    let c = rects(&svg, compute);
    let d = rects(&svg, disk);
    let p = rects(&svg, ip);
    assert_eq!((c.len(), d.len(), p.len()), (3, 3, 2));
    assert!(rects(&svg, style::cost_colour(3)).is_empty(), "zero traffic");
    // Widths proportional: Dear's total 160 is the full span.
    let (c1, c2, d1, d2, p2) = (c[1].1, c[2].1, d[1].1, d[2].1, p[1].1);
    assert!((f64::from(c1) / f64::from(c2) - 0.6).abs() < 0.02);
    assert!((f64::from(d1) / f64::from(d2) - 0.5).abs() < 0.03);
    assert!((f64::from(p2) / f64::from(c2) - 0.2).abs() < 0.02);
    // Stacked in the given order: Dear's disk starts the bar, compute follows it.
    assert_eq!(c[1].0, d[2].0, "both bars start at the axis");
    assert_eq!(d[2].0 + d2, c[2].0);
    assert_eq!(c[2].0 + c2, p[1].0);
}

#[test]
fn legend_totals_and_highlight() {
    let svg = cost_stack_svg("TCO", "CNY", &sample());
    for name in ["Compute", "Disk", "Public IP"] {
        assert_eq!(svg.matches(&format!(">\n{name}\n</text>")).count(), 1, "{name}");
    }
    assert!(!svg.contains("Traffic"), "a component that is zero everywhere");
    assert!(svg.contains(">\n80.00 CNY\n</text>") && svg.contains(">\n160.00 CNY\n</text>"));
    let accent = format!("stroke=\"#{:02X}{:02X}{:02X}\"", 0x1D, 0x4E, 0xD8);
    assert_eq!(svg.matches(&accent).count(), 1, "one outline");
    let bold_before = |text: &str| {
        let at = svg.find(&format!(">\n{text}\n</text>")).unwrap();
        let start = svg[..at].rfind("<text").unwrap();
        svg[start..at].contains("bold")
    };
    assert!(bold_before("Cheap") && bold_before("80.00 CNY"));
    assert!(!bold_before("Dear") && !bold_before("160.00 CNY"));
    let pos = |s: &str| svg.find(&format!(">\n{s}\n</text>")).unwrap();
    assert!(pos("Cheap") < pos("Dear"), "given order");
}

#[test]
fn negative_nan_and_zero_parts_are_ignored() {
    let stacks = [
        stack("a", &[("X", f64::NAN), ("Y", -5.0), ("Z", 0.0)], false),
        stack("b", &[("X", f64::INFINITY), ("Y", 10.0)], true),
    ];
    let svg = cost_stack_svg("T", "", &stacks);
    assert_eq!(rects(&svg, style::cost_colour(0)).len(), 2, "Y: legend + b");
    assert!(rects(&svg, style::cost_colour(1)).is_empty());
    assert!(svg.contains(">\n0.00\n</text>") && svg.contains(">\n10.00\n</text>"));
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn all_zero_and_single_stack() {
    let svg = cost_stack_svg("T", "$", &[stack("only", &[("C", 0.0)], true)]);
    assert!(rects(&svg, style::cost_colour(0)).is_empty());
    assert!(svg.contains(">\n0.00 $\n</text>"));
    let svg = cost_stack_svg("T", "$", &[stack("only", &[("C", 5.0)], true)]);
    assert_eq!(rects(&svg, style::cost_colour(0)).len(), 2);
}

#[test]
fn tiny_segments_stay_visible() {
    let svg = cost_stack_svg("T", "", &[stack("a", &[("Big", 1e6), ("Tiny", 1e-3)], false)]);
    let tiny = rects(&svg, style::cost_colour(1));
    assert_eq!(tiny.len(), 2);
    assert!(tiny[1].1 >= 1);
}

#[test]
fn empty_input_keeps_title() {
    let svg = cost_stack_svg("No quotes", "CNY", &[]);
    assert!(svg.starts_with("<svg role=\"img\" width=\"960\""));
    assert!(svg.contains("<title>No quotes</title>"));
    assert!(svg.contains(">\nNo quotes\n</text>"));
    assert!(!svg.contains("<polyline"));
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn texts_are_escaped() {
    let evil = "<script>alert('&')</script>";
    let svg = cost_stack_svg(evil, evil, &[stack(evil, &[(evil, 1.0)], true)]);
    assert!(!svg.contains("<script"));
    // Title, heading, legend, label and total.
    assert_eq!(svg.matches("&lt;script&gt;").count(), 5, "{svg}");
}

#[test]
fn height_fits_rows_and_wrapped_legend() {
    let height = |svg: &str| -> u32 {
        let h = svg.split("height=\"").nth(1).unwrap();
        h[..h.find('"').unwrap()].parse().unwrap()
    };
    let one = cost_stack_svg("T", "", &[stack("a", &[("C", 1.0)], false)]);
    let three = cost_stack_svg("T", "", &vec![stack("a", &[("C", 1.0)], false); 3]);
    assert_eq!(height(&three) - height(&one), 2 * ROW);
    let many: Vec<(String, f64)> = (0..30).map(|i| (format!("Component {i}"), 1.0)).collect();
    let wide = CostStack {
        label: "a".into(),
        parts: many,
        highlight: false,
    };
    assert!(height(&cost_stack_svg("T", "", &[wide])) > height(&one) + 40);
}

#[test]
#[ignore = "writes a sample chart to the temp dir for a visual check"]
fn write_sample() {
    let stacks = [
        stack(
            "星河算力 · Q-00017 (8× H100)",
            &[
                ("计算", 31_200.0),
                ("停机计算", 2_100.0),
                ("磁盘", 800.0),
                ("公网 IP", 150.0),
                ("流量", 420.0),
            ],
            true,
        ),
        stack(
            "Lambda · L-2231 (8× A100 80GB)",
            &[
                ("计算", 35_000.0),
                ("磁盘", 1_200.0),
                ("快照", 300.0),
                ("其他费用", 99.0),
            ],
            false,
        ),
        stack(
            "Acme GPU · 88 (4× L40S)",
            &[("计算", 41_000.0), ("流量", 2_400.0)],
            false,
        ),
    ];
    let svg = cost_stack_svg("总拥有成本 (每月)", "元", &stacks);
    std::fs::write(std::env::temp_dir().join("cost_stack.svg"), svg).unwrap();
}
