//! Tests of [`super::cost_and_time_vs_nodes_svg`].

use super::*;

fn labels() -> NodesLabels {
    NodesLabels {
        title: "Scaling".into(),
        x_axis: "Nodes".into(),
        cost_axis: "Total cost (CNY)".into(),
        time_axis: "Time to finish (h)".into(),
        cost: "Cost".into(),
        time: "Time".into(),
    }
}

/// 1…n nodes: 100 h of work on one node, 5 % overhead per extra node, 10/h per node.
fn points(n: u32) -> Vec<NodesPoint> {
    (1..=n)
        .map(|nodes| {
            let k = f64::from(nodes);
            let hours = 100.0 / k * (1.0 + 0.05 * (k - 1.0));
            NodesPoint {
                nodes,
                total: hours * k * 10.0,
                hours,
            }
        })
        .collect()
}

fn colour(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn polylines(svg: &str, c: RGBColor) -> Vec<&str> {
    let stroke = format!("stroke=\"{}\"", colour(c));
    svg.lines()
        .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
        .collect()
}

fn dots(svg: &str, c: RGBColor) -> usize {
    let fill = format!("fill=\"{}\"", colour(c));
    svg.lines()
        .filter(|l| l.starts_with("<circle") && l.contains(&fill))
        .count()
}

/// The texts of `<text>` elements that are whole numbers.
fn number_ticks(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ','))
        .map(str::to_owned)
        .collect()
}

#[test]
fn two_panels_with_a_dot_per_point() {
    let svg = cost_and_time_vs_nodes_svg(&labels(), &points(8));
    let cost = polylines(&svg, style::COST_LINE);
    let time = polylines(&svg, style::TIME_LINE);
    assert_eq!((cost.len(), time.len()), (1, 1));
    assert_eq!(cost[0].matches(',').count(), 8);
    assert_eq!((dots(&svg, style::COST_LINE), dots(&svg, style::TIME_LINE)), (8, 8));
    for text in ["Nodes", "Total cost (CNY)", "Time to finish (h)", "Cost", "Time"] {
        assert_eq!(svg.matches(&format!(">\n{text}\n</text>")).count(), 1, "{text}");
    }
    // Cost panel above the time panel: the first y of the cost line is smaller.
    let first_y = |l: &str| -> i32 {
        let p = l.split("points=\"").nth(1).unwrap();
        p.split([',', ' ']).nth(1).unwrap().parse().unwrap()
    };
    assert!(first_y(cost[0]) < first_y(time[0]));
}

#[test]
fn node_ticks_are_whole_numbers_in_range() {
    let svg = cost_and_time_vs_nodes_svg(&labels(), &points(8));
    let ticks = number_ticks(&svg);
    for n in 1..=8 {
        assert!(ticks.contains(&n.to_string()), "tick {n} in {ticks:?}");
    }
    assert!(!ticks.contains(&"9".to_owned()), "padding tick left blank");
    assert!(!ticks.iter().any(|t| t.contains('.')), "{ticks:?}");
}

#[test]
fn single_point_and_unsorted_input() {
    let svg = cost_and_time_vs_nodes_svg(&labels(), &points(1));
    assert!(polylines(&svg, style::COST_LINE).is_empty());
    assert_eq!((dots(&svg, style::COST_LINE), dots(&svg, style::TIME_LINE)), (1, 1));
    let mut p = points(4);
    p.reverse();
    let svg = cost_and_time_vs_nodes_svg(&labels(), &p);
    let line = polylines(&svg, style::TIME_LINE)[0];
    let xs: Vec<i32> = line
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split(' ')
        .filter_map(|xy| xy.split(',').next()?.parse().ok())
        .collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "sorted by nodes: {xs:?}");
}

#[test]
fn non_finite_values_skipped_per_panel() {
    let mut p = points(4);
    p[1].total = f64::NAN;
    p[2].hours = f64::INFINITY;
    let svg = cost_and_time_vs_nodes_svg(&labels(), &p);
    assert_eq!((dots(&svg, style::COST_LINE), dots(&svg, style::TIME_LINE)), (3, 3));
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
    let all_bad: Vec<_> = p
        .iter()
        .map(|q| NodesPoint {
            total: f64::NAN,
            hours: f64::NEG_INFINITY,
            ..*q
        })
        .collect();
    let svg = cost_and_time_vs_nodes_svg(&labels(), &all_bad);
    assert!(!svg.contains("<polyline") && !svg.contains("<circle"));
}

#[test]
fn all_zero_values() {
    let p: Vec<_> = (1..=3)
        .map(|nodes| NodesPoint {
            nodes,
            total: 0.0,
            hours: 0.0,
        })
        .collect();
    let svg = cost_and_time_vs_nodes_svg(&labels(), &p);
    assert_eq!(polylines(&svg, style::COST_LINE).len(), 1);
    assert!(!svg.contains("NaN"));
}

#[test]
fn empty_input_keeps_title() {
    let svg = cost_and_time_vs_nodes_svg(&labels(), &[]);
    assert!(svg.starts_with("<svg role=\"img\" width=\"960\""));
    assert!(svg.contains("<title>Scaling</title>"));
    assert!(!svg.contains("<polyline") && !svg.contains("Nodes"));
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn labels_are_escaped() {
    let evil = "<script>alert(\"x&y\")</script>";
    let l = NodesLabels {
        title: evil.into(),
        x_axis: evil.into(),
        cost_axis: evil.into(),
        time_axis: evil.into(),
        cost: evil.into(),
        time: evil.into(),
    };
    let svg = cost_and_time_vs_nodes_svg(&l, &points(3));
    assert!(!svg.contains("<script"));
    // Title twice, three axes, two legend entries.
    assert_eq!(svg.matches("&lt;script&gt;").count(), 7, "{svg}");
}

#[test]
#[ignore = "writes a sample chart to the temp dir for a visual check"]
fn write_sample() {
    let l = NodesLabels {
        title: "节点数与总成本、完成时间".into(),
        x_axis: "节点数".into(),
        cost_axis: "总成本 (元)".into(),
        time_axis: "完成时间 (小时)".into(),
        cost: "总成本".into(),
        time: "完成时间".into(),
    };
    let svg = cost_and_time_vs_nodes_svg(&l, &points(16));
    std::fs::write(std::env::temp_dir().join("cost_time_nodes.svg"), svg).unwrap();
}

#[test]
fn every_text_names_the_cjk_font_stack() {
    style::assert_font_stack(&cost_and_time_vs_nodes_svg(&labels(), &points(8)));
}
