//! Tests of [`super::plan_scatter_svg`].

use super::*;
use crate::charts::legend::{LEGEND_DOT_R, LEGEND_RING_R};

fn labels() -> PlanChartLabels {
    PlanChartLabels {
        title: "Every plan".into(),
        x_axis: "Time to finish (h)".into(),
        y_axis: "Total cost (CNY)".into(),
        front: "Best trade-offs".into(),
        other: "Other plans".into(),
        estimated: "Estimated, not measured (hollow)".into(),
        recommended: "Recommended".into(),
        deadline: "Deadline".into(),
        budget: "Budget".into(),
        late: "Late or over budget".into(),
        off_chart: "{n} costlier plans above the chart (up to {max})".into(),
    }
}

fn point(hours: f64, cost: f64) -> PlanPoint {
    PlanPoint {
        hours,
        cost,
        ..PlanPoint::default()
    }
}

/// Three plans on the front (the middle one recommended, the soonest over budget), two
/// measured others, one estimated other and one estimated plan on the front.
fn plans() -> Vec<PlanPoint> {
    let front = |hours, cost| PlanPoint {
        on_front: true,
        ..point(hours, cost)
    };
    vec![
        PlanPoint {
            late_or_over: true,
            ..front(12.0, 900.0)
        },
        PlanPoint {
            recommended: true,
            ..front(24.0, 600.0)
        },
        front(72.0, 300.0),
        PlanPoint {
            estimated: true,
            ..front(40.0, 450.0)
        },
        point(30.0, 800.0),
        point(80.0, 700.0),
        PlanPoint {
            estimated: true,
            ..point(60.0, 650.0)
        },
    ]
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// `<circle>` elements of radius `r`, filled in `colour` or (hollow) stroked in it.
fn dots(svg: &str, colour: RGBColor, r: u32, filled: bool) -> usize {
    let look = if filled {
        format!("r=\"{r}\" opacity=\"1\" fill=\"{}\" stroke=\"none\"", hex(colour))
    } else {
        format!("r=\"{r}\" opacity=\"1\" fill=\"none\" stroke=\"{}\"", hex(colour))
    };
    svg.lines()
        .filter(|l| l.starts_with("<circle") && l.contains(&look))
        .count()
}

/// `<polyline>` elements stroked in `colour` (a dashed line is one per dash).
fn polylines(svg: &str, colour: RGBColor) -> Vec<&str> {
    let stroke = format!("stroke=\"{}\"", hex(colour));
    svg.lines()
        .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
        .collect()
}

fn has_text(svg: &str, text: &str) -> bool {
    svg.contains(&format!(">\n{text}\n</text>"))
}

#[test]
fn a_dot_per_plan_of_each_kind_and_the_front_joined_soonest_first() {
    let svg = plan_scatter_svg(&labels(), &plans(), Some(48.0), Some(1000.0));
    assert_eq!(dots(&svg, FRONT, FRONT_R, true), 2, "measured front, in time");
    assert_eq!(dots(&svg, FRONT, FRONT_R, false), 1, "estimated front");
    assert_eq!(dots(&svg, WARNING, FRONT_R, true), 1, "front, over budget");
    assert_eq!(dots(&svg, OTHER, OTHER_R, true), 2, "measured others");
    assert_eq!(dots(&svg, OTHER, OTHER_R, false), 1, "estimated other");
    assert_eq!(dots(&svg, RECOMMENDED, RING_R, false), 1, "one ring");
    // Eight plans, and five legend swatches drawn as the marks are: a filled blue and a filled
    // grey dot, a hollow grey one, the green ring and a filled red dot.
    assert_eq!(svg.matches("<circle").count(), 8 + 5);
    let legend = |colour: RGBColor, r: u32, filled: bool| dots(&svg, colour, r, filled);
    assert_eq!(legend(FRONT, LEGEND_DOT_R, true), 1, "front swatch");
    assert_eq!(legend(OTHER, LEGEND_DOT_R, true), 1, "other swatch");
    assert_eq!(legend(OTHER, LEGEND_DOT_R, false), 1, "estimated swatch: hollow");
    assert_eq!(
        legend(RECOMMENDED, LEGEND_RING_R, false),
        1,
        "recommended swatch: a ring"
    );
    assert_eq!(legend(WARNING, LEGEND_DOT_R, true), 1, "late swatch: a red dot");

    let front_line = polylines(&svg, FRONT);
    assert_eq!(front_line.len(), 1);
    let xs: Vec<i32> = front_line[0]
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split(' ')
        .filter_map(|xy| xy.split(',').next()?.parse().ok())
        .collect();
    assert_eq!(xs.len(), 4, "every front plan joined");
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "in hours order: {xs:?}");
    for text in [
        "Best trade-offs",
        "Other plans",
        "Estimated, not measured (hollow)",
        "Recommended",
        "Time to finish (h)",
        "Total cost (CNY)",
    ] {
        assert!(has_text(&svg, text), "{text}");
    }
}

#[test]
fn deadline_and_budget_lines_only_when_given() {
    let svg = plan_scatter_svg(&labels(), &plans(), None, None);
    assert!(polylines(&svg, DEADLINE).is_empty() && polylines(&svg, BUDGET).is_empty());
    assert!(!has_text(&svg, "Deadline") && !has_text(&svg, "Budget"));

    let svg = plan_scatter_svg(&labels(), &plans(), Some(48.0), None);
    assert!(polylines(&svg, DEADLINE).len() > 5, "dashes");
    assert!(polylines(&svg, BUDGET).is_empty());
    assert!(has_text(&svg, "Deadline") && !has_text(&svg, "Budget"));

    let svg = plan_scatter_svg(&labels(), &plans(), Some(f64::NAN), Some(1000.0));
    assert!(polylines(&svg, DEADLINE).is_empty());
    assert!(polylines(&svg, BUDGET).len() > 5, "dashes");
    assert!(!has_text(&svg, "Deadline") && has_text(&svg, "Budget"));
}

#[test]
fn the_axes_reach_a_deadline_and_budget_beyond_every_plan() {
    let svg = plan_scatter_svg(&labels(), &plans(), Some(500.0), Some(20_000.0));
    let numbers: Vec<f64> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .filter_map(|t| t.trim().replace(',', "").parse().ok())
        .collect();
    assert!(
        numbers.iter().any(|n| (500.0..20_000.0).contains(n)),
        "hours tick: {numbers:?}"
    );
    assert!(numbers.iter().any(|&n| n >= 20_000.0), "cost tick: {numbers:?}");
    // The dashed deadline is inside the plot, right of every dot.
    let x_of = |l: &str, attr: &str| -> i32 {
        l.split(&format!("{attr}=\""))
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let rightmost_dot = svg
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| x_of(l, "cx"))
        .max();
    let deadline_x: i32 = polylines(&svg, DEADLINE)[0]
        .split("points=\"")
        .nth(1)
        .and_then(|p| p.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        rightmost_dot.is_some_and(|x| x < deadline_x) && deadline_x < 960,
        "{deadline_x}"
    );
}

#[test]
fn non_finite_plans_are_skipped_and_none_left_is_title_only() {
    let mut p = plans();
    p[4].cost = f64::NAN;
    p[5].hours = f64::INFINITY;
    let svg = plan_scatter_svg(&labels(), &p, Some(48.0), Some(1000.0));
    assert_eq!(dots(&svg, OTHER, OTHER_R, true), 0);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));

    let nothing: Vec<_> = p.iter().map(|q| PlanPoint { cost: f64::NAN, ..*q }).collect();
    for points in [&nothing[..], &[]] {
        let svg = plan_scatter_svg(&labels(), points, Some(48.0), Some(1000.0));
        assert_eq!(svg, plot::title_only(WIDTH, "Every plan"));
        assert!(!svg.contains("<circle") && !has_text(&svg, "Deadline"));
    }
}

#[test]
fn caller_texts_are_escaped() {
    let evil = "a <&> b";
    let l = PlanChartLabels {
        title: evil.into(),
        x_axis: evil.into(),
        y_axis: evil.into(),
        front: evil.into(),
        other: evil.into(),
        estimated: evil.into(),
        recommended: evil.into(),
        deadline: evil.into(),
        budget: evil.into(),
        late: evil.into(),
        off_chart: evil.into(),
    };
    let svg = plan_scatter_svg(&l, &plans(), Some(48.0), Some(1000.0));
    assert!(!svg.contains("<&>"));
    // Title twice, two axes, seven legend entries.
    assert_eq!(svg.matches("a &lt;&amp;&gt; b").count(), 11, "{svg}");
}

/// 2,000 plans: 50 quotes × 20 node counts × 2 pricings, a tenth estimated, a quarter late.
fn many() -> Vec<PlanPoint> {
    (0..2000u32)
        .map(|i| {
            let nodes = f64::from(i % 20 + 1);
            let quote = f64::from(i / 40);
            let hours = 400.0 / nodes * (1.0 + 0.03 * nodes) + quote;
            PlanPoint {
                hours,
                cost: hours * nodes * (8.0 + quote * 0.7) * if i % 2 == 0 { 1.0 } else { 0.8 },
                on_front: i % 97 == 0,
                estimated: i % 10 == 3,
                recommended: i == 970,
                late_or_over: hours > 120.0 || i % 4 == 1,
            }
        })
        .collect()
}

#[test]
fn two_thousand_plans_stay_a_small_file_with_a_short_legend() {
    let points = many();
    let svg = plan_scatter_svg(&labels(), &points, Some(48.0), Some(20_000.0));
    assert!(svg.len() < 400_000, "{} bytes", svg.len());
    let circles = svg.matches("<circle").count();
    assert!(circles > 500 && circles <= 2001, "{circles} dots");
    // The title, seven legend entries, two axis texts and at most twenty ticks: nothing per plan.
    let texts = svg.matches("</text>").count();
    assert!(texts <= 1 + 7 + 2 + 20, "{texts} texts");
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
#[ignore = "prints the size of a 2,000-plan chart and writes it to the temp dir for a visual check"]
fn write_sample() {
    let svg = plan_scatter_svg(&labels(), &many(), Some(48.0), Some(20_000.0));
    println!(
        "2,000 plans: {} bytes, {} dots",
        svg.len(),
        svg.matches("<circle").count()
    );
    std::fs::write(std::env::temp_dir().join("plan_scatter.svg"), svg).unwrap();
}

#[test]
fn every_text_names_the_cjk_font_stack() {
    style::assert_font_stack(&plan_scatter_svg(&labels(), &plans(), Some(48.0), Some(1000.0)));
}

/// A fast estimate far above everything that meets the goal would squeeze the plans that matter
/// into the bottom of the chart: it is left out, and the legend says so.
#[test]
fn plans_far_costlier_than_the_goal_are_left_out_and_named() {
    let mut points = plans();
    points.push(PlanPoint {
        on_front: true,
        estimated: true,
        late_or_over: true,
        ..point(6.0, 23_000.0)
    });
    let svg = plan_scatter_svg(&labels(), &points, Some(48.0), Some(1000.0));
    assert!(
        has_text(&svg, "1 costlier plans above the chart (up to 23,000)"),
        "{svg}"
    );
    assert_eq!(dots(&svg, WARNING, FRONT_R, false), 0, "the outlier is not drawn");
    let numbers: Vec<f64> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .filter_map(|t| t.trim().replace(',', "").parse().ok())
        .collect();
    let highest = numbers.iter().copied().filter(|n| *n > 100.0).fold(0.0, f64::max);
    assert!(
        (1000.0..=1300.0).contains(&highest),
        "the cost axis frames the budget: {numbers:?}"
    );
    // Without a plan far above the goal, nothing is left out.
    let all = plan_scatter_svg(&labels(), &plans(), Some(48.0), Some(1000.0));
    assert!(!all.contains("above the chart"));
}
