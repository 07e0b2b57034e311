//! Tests of [`super::cost_vs_hours_svg`].

use super::*;

fn labels() -> HoursLabels {
    HoursLabels {
        title: "Compute cost".into(),
        x_axis: "Busy hours / month".into(),
        y_axis: "Cost (CNY)".into(),
        on_demand: "On demand".into(),
        monthly: "Monthly".into(),
        break_even: "Break-even".into(),
        current: "Current".into(),
        never_within_term: "Break-even: never within the term".into(),
    }
}

/// 0…720 h every 24 h: on demand billed per started 8 h block at 10/h, monthly flat 4000.
fn series() -> HoursSeries {
    let busy_h: Vec<f64> = (0..=30).map(|i| f64::from(i) * 24.0).collect();
    let on_demand = busy_h.iter().map(|h| (h / 8.0).ceil() * 80.0).collect();
    let monthly = Some(vec![4000.0; busy_h.len()]);
    HoursSeries {
        busy_h,
        on_demand,
        monthly,
        break_even_h: Some(400.0),
        break_even_never: false,
        current_h: Some(300.0),
    }
}

/// `<polyline>` elements stroked in `colour`.
fn polylines(svg: &str, colour: RGBColor) -> usize {
    let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", colour.0, colour.1, colour.2);
    svg.lines()
        .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
        .count()
}

#[test]
fn lines_markers_and_legend() {
    let svg = cost_vs_hours_svg(&labels(), &series());
    assert_eq!(polylines(&svg, style::ON_DEMAND), 1);
    assert_eq!(polylines(&svg, style::MONTHLY), 1);
    assert!(polylines(&svg, style::BREAK_EVEN) > 5, "dashes");
    assert!(
        polylines(&svg, style::CURRENT) > polylines(&svg, style::BREAK_EVEN),
        "dots"
    );
    for text in [
        "On demand",
        "Monthly",
        "Break-even",
        "Current",
        "Busy hours / month",
        "Cost (CNY)",
    ] {
        assert!(svg.contains(&format!(">\n{text}\n</text>")), "{text}");
    }
    assert!(svg.contains(">\nBreak-even 400\n</text>"), "labelled line");
    let on_demand = svg
        .lines()
        .find(|l| l.starts_with("<polyline") && l.contains("#E07B00"))
        .unwrap();
    assert_eq!(on_demand.matches(',').count(), 31, "every point drawn");
}

#[test]
fn break_even_iff_given() {
    let mut s = series();
    s.break_even_h = None;
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::BREAK_EVEN), 0);
    assert!(!svg.contains("Break-even"));
    s.break_even_h = Some(f64::NAN);
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::BREAK_EVEN), 0);
    s.break_even_h = Some(2000.0);
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert!(polylines(&svg, style::BREAK_EVEN) > 5, "axis extended to it");
    assert!(svg.contains(">\nBreak-even 2,000\n</text>"));
}

#[test]
fn never_within_the_term_is_a_legend_entry_and_no_line() {
    let mut s = series();
    s.break_even_h = None;
    s.break_even_never = true;
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::BREAK_EVEN), 0, "no break-even line");
    assert!(svg.contains("Break-even: never within the term"), "{svg}");
    s.break_even_never = false;
    assert!(!cost_vs_hours_svg(&labels(), &s).contains("never within"));
}

#[test]
fn monthly_iff_given() {
    let mut s = series();
    s.monthly = None;
    s.break_even_h = None;
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::MONTHLY), 0);
    assert!(!svg.contains("Monthly"));
    assert_eq!(polylines(&svg, style::ON_DEMAND), 1);
    s.monthly = Some(vec![f64::NAN; 3]);
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::MONTHLY), 0);
    assert!(!svg.contains("Monthly"));
}

#[test]
fn current_marker_iff_given() {
    let mut s = series();
    s.current_h = None;
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::CURRENT), 0);
    assert!(!svg.contains("Current"));
}

#[test]
fn non_finite_points_skipped_single_point_is_a_dot() {
    let s = HoursSeries {
        busy_h: vec![0.0, f64::NAN, 10.0],
        on_demand: vec![f64::INFINITY, 5.0, 100.0],
        ..HoursSeries::default()
    };
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::ON_DEMAND), 0);
    assert_eq!(svg.matches("<circle").count(), 1);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn all_zero_values() {
    let s = HoursSeries {
        busy_h: vec![0.0, 0.0],
        on_demand: vec![0.0, 0.0],
        monthly: Some(vec![0.0, 0.0]),
        break_even_h: Some(0.0),
        break_even_never: false,
        current_h: Some(0.0),
    };
    let svg = cost_vs_hours_svg(&labels(), &s);
    assert_eq!(polylines(&svg, style::ON_DEMAND), 1);
    assert!(!svg.contains("NaN"));
}

#[test]
fn empty_input_keeps_title() {
    let mut s = series();
    s.on_demand.clear();
    s.monthly = None;
    for s in [HoursSeries::default(), s] {
        let svg = cost_vs_hours_svg(&labels(), &s);
        assert!(svg.starts_with("<svg role=\"img\" width=\"960\""));
        assert!(svg.contains("<title>Compute cost</title>"));
        assert!(!svg.contains("<polyline") && !svg.contains("Break-even"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}

#[test]
fn labels_are_escaped() {
    let evil = "<script>alert(\"x&y\")</script>";
    let l = HoursLabels {
        title: evil.into(),
        x_axis: evil.into(),
        y_axis: evil.into(),
        on_demand: evil.into(),
        monthly: evil.into(),
        break_even: evil.into(),
        current: evil.into(),
        never_within_term: evil.into(),
    };
    let svg = cost_vs_hours_svg(&l, &series());
    assert!(!svg.contains("<script"));
    // Title twice, two axes, four legend entries, two marker labels.
    assert_eq!(svg.matches("&lt;script&gt;").count(), 10, "{svg}");
}

#[test]
#[ignore = "writes a sample chart to the temp dir for a visual check"]
fn write_sample() {
    let l = HoursLabels {
        title: "计算成本与忙碌小时".into(),
        x_axis: "忙碌小时 / 月".into(),
        y_axis: "计算成本 (元)".into(),
        on_demand: "按需".into(),
        monthly: "包月".into(),
        break_even: "盈亏平衡".into(),
        current: "当前负载".into(),
        never_within_term: "盈亏平衡：期限内不会出现".into(),
    };
    let svg = cost_vs_hours_svg(&l, &series());
    std::fs::write(std::env::temp_dir().join("cost_vs_hours.svg"), svg).unwrap();
}

#[test]
fn every_text_names_the_cjk_font_stack() {
    style::assert_font_stack(&cost_vs_hours_svg(&labels(), &series()));
}
