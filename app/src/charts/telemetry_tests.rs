//! Tests of [`super::telemetry_svg`].

use super::*;
use crate::domain::runs::{Format, ThrottleReason};

pub(super) fn labels() -> TelemetryLabels {
    TelemetryLabels {
        title: "Telemetry".into(),
        time_axis: "Time (s)".into(),
        time_axis_min: "Time (min)".into(),
        util: "Utilisation (%)".into(),
        vram: "Memory (MiB)".into(),
        sm_clock: "SM clock (MHz)".into(),
        warmup: "Warm-up".into(),
        throttled: "Throttled".into(),
        gpu: "GPU {n}".into(),
        vram_total: "Capacity".into(),
    }
}

fn sample(t: f64, gpu: u32) -> TelemetrySample {
    TelemetrySample {
        t,
        gpu,
        util_pct: Some(50.0 + f64::from(gpu) * 5.0 + (t / 7.0).sin() * 20.0),
        mem_used_mib: Some(30_000.0 + f64::from(gpu) * 1000.0 + t),
        sm_clock_mhz: Some(1410.0 - f64::from(gpu) * 10.0),
        temp_c: None,
        power_w: None,
        throttle_reasons: Vec::new(),
    }
}

/// `gpus` GPUs with `points` samples each, one per second, no warm-up.
pub(super) fn run(gpus: u32, points: u32) -> CanonicalRun {
    let mut run = CanonicalRun::new(Format::NvidiaSmi);
    for g in 0..gpus {
        run.telemetry.extend((0..points).map(|i| sample(f64::from(i), g)));
    }
    run
}

fn colour_attr(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// `<polyline>` elements stroked in `colour`.
fn polylines(svg: &str, colour: RGBColor) -> usize {
    let stroke = format!("stroke=\"{}\"", colour_attr(colour));
    svg.lines()
        .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
        .count()
}

/// `<rect>` elements filled with `colour`.
fn rects(svg: &str, colour: RGBColor) -> usize {
    let fill = format!("fill=\"{}\"", colour_attr(colour));
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&fill))
        .count()
}

#[test]
fn none_without_telemetry() {
    assert!(telemetry_svg(&run(0, 0), &labels()).is_none());
}

#[test]
fn one_line_per_gpu_and_panel() {
    for gpus in [1, 3] {
        let svg = telemetry_svg(&run(gpus, 50), &labels()).unwrap();
        let gpus = usize::try_from(gpus).unwrap();
        for i in 0..gpus {
            assert_eq!(polylines(&svg, style::gpu_colour(i)), 3, "GPU {i}");
        }
        assert_eq!(polylines(&svg, style::gpu_colour(gpus)), 0);
        for i in 0..gpus {
            assert!(svg.contains(&format!(">\nGPU {i}\n</text>")), "legend GPU {i}");
        }
    }
}

#[test]
fn missing_values_break_lines_and_empty_panels_stay() {
    let mut r = run(1, 10);
    r.telemetry[5].util_pct = None;
    r.telemetry[7].util_pct = Some(f64::NAN);
    for s in &mut r.telemetry {
        s.sm_clock_mhz = None;
    }
    let svg = telemetry_svg(&r, &labels()).unwrap();
    // util: [0..5), lone 6, [8..10); memory: one line; clock: none.
    assert_eq!(polylines(&svg, style::gpu_colour(0)), 3);
    assert_eq!(svg.matches("<circle").count(), 1);
    assert!(svg.contains("SM clock (MHz)"), "the empty panel keeps its axis");
}

#[test]
fn single_sample_is_drawn_as_a_dot() {
    let svg = telemetry_svg(&run(1, 1), &labels()).unwrap();
    assert_eq!(svg.matches("<circle").count(), 3);
    assert_eq!(polylines(&svg, style::gpu_colour(0)), 0);
}

#[test]
fn warmup_band_iff_warmup_positive() {
    let band = |warmup: Option<f64>| {
        let mut r = run(2, 30);
        r.warmup_s = warmup;
        rects(&telemetry_svg(&r, &labels()).unwrap(), style::WARMUP)
    };
    assert_eq!(band(None), 0);
    assert_eq!(band(Some(0.0)), 0);
    assert_eq!(band(Some(f64::NAN)), 0);
    assert_eq!(band(Some(10.0)), 3 + 1, "one per panel plus the legend swatch");
    assert_eq!(band(Some(1e9)), 4, "clamped to the run");
}

#[test]
fn throttle_bands_iff_throttled_samples() {
    let mut r = run(2, 30);
    let svg = telemetry_svg(&r, &labels()).unwrap();
    assert_eq!(rects(&svg, style::THROTTLE), 0);
    assert!(!svg.contains("Throttled"));
    // GPU 0 at 5..7 s and GPU 1 at 7..9 s merge into one band; GPU 1 at 20 s is another.
    for (gpu, t) in [(0, 5), (0, 6), (1, 7), (1, 8), (1, 20)] {
        r.telemetry[gpu * 30 + t].throttle_reasons = vec![ThrottleReason::SwPowerCap];
    }
    let svg = telemetry_svg(&r, &labels()).unwrap();
    assert_eq!(rects(&svg, style::THROTTLE), 2 * 3 + 1);
    assert!(svg.contains("Throttled"));
}

#[test]
fn capacity_line_only_when_known() {
    let mut r = run(1, 10);
    let svg = telemetry_svg(&r, &labels()).unwrap();
    assert!(!svg.contains("Capacity"));
    assert_eq!(polylines(&svg, style::CAPACITY), 0);
    r.node.vram_total_mib = Some(81_559.0);
    let svg = telemetry_svg(&r, &labels()).unwrap();
    assert!(svg.contains("Capacity"));
    assert!(polylines(&svg, style::CAPACITY) > 10, "dashes of the capacity line");
}

#[test]
fn minutes_axis_for_long_runs() {
    let mut r = run(1, 0);
    r.telemetry = (0..=60).map(|i| sample(f64::from(i) * 30.0, 0)).collect();
    let svg = telemetry_svg(&r, &labels()).unwrap();
    assert!(svg.contains("Time (min)") && !svg.contains("Time (s)"));
    let svg = telemetry_svg(&run(1, 600), &labels()).unwrap();
    assert!(svg.contains("Time (s)") && !svg.contains("Time (min)"));
}

#[test]
fn labels_are_escaped() {
    let evil = "<script>alert(\"x&y\")</script>";
    let l = TelemetryLabels {
        title: evil.into(),
        time_axis: evil.into(),
        time_axis_min: evil.into(),
        util: evil.into(),
        vram: evil.into(),
        sm_clock: evil.into(),
        warmup: evil.into(),
        throttled: evil.into(),
        gpu: format!("{evil} {{n}}"),
        vram_total: evil.into(),
    };
    let mut r = run(2, 20);
    r.warmup_s = Some(5.0);
    r.node.vram_total_mib = Some(40_000.0);
    r.telemetry[3].throttle_reasons = vec![ThrottleReason::HwSlowdown];
    let svg = telemetry_svg(&r, &l).unwrap();
    assert!(!svg.contains("<script"), "raw markup in the SVG");
    assert!(!svg.contains("\"x&y"));
    assert!(svg.contains("<title>&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;</title>"));
    assert_eq!(svg.matches("&lt;script&gt;").count(), 1 + 1 + 3 + 2 + 3 + 1, "{svg}");
}

#[test]
fn svg_is_well_formed_enough() {
    let svg = telemetry_svg(&run(2, 20), &labels()).unwrap();
    assert!(svg.starts_with("<svg role=\"img\" width=\"960\" height=\"640\""));
    assert!(svg.contains("<title>Telemetry</title>"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
}

#[test]
fn eight_gpus_by_two_thousand_points() {
    let mut r = run(8, 2000);
    r.warmup_s = Some(120.0);
    r.node.vram_total_mib = Some(81_920.0);
    for s in r.telemetry.iter_mut().filter(|s| (500.0..600.0).contains(&s.t)) {
        s.throttle_reasons = vec![ThrottleReason::HwThermalSlowdown];
    }
    let svg = telemetry_svg(&r, &labels()).unwrap();
    for i in 0..8 {
        assert_eq!(polylines(&svg, style::gpu_colour(i)), 3);
    }
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
}

#[test]
#[ignore = "writes sample charts to the temp dir for a visual check"]
fn write_samples() {
    let mut r = run(4, 300);
    r.warmup_s = Some(40.0);
    r.node.vram_total_mib = Some(40_960.0);
    for s in r
        .telemetry
        .iter_mut()
        .filter(|s| (150.0..170.0).contains(&s.t) && s.gpu == 2)
    {
        s.throttle_reasons = vec![ThrottleReason::HwThermalSlowdown];
    }
    r.telemetry[100].util_pct = None;
    let mut zh = labels();
    zh.title = "遥测 — 节点 A".into();
    zh.util = "GPU 利用率 (%)".into();
    zh.vram = "显存占用 (MiB)".into();
    zh.sm_clock = "SM 频率 (MHz)".into();
    zh.time_axis = "时间 (秒)".into();
    zh.warmup = "预热".into();
    zh.throttled = "降频".into();
    zh.vram_total = "显存容量".into();
    let dir = std::env::temp_dir();
    std::fs::write(dir.join("telemetry_en.svg"), telemetry_svg(&r, &labels()).unwrap()).unwrap();
    std::fs::write(dir.join("telemetry_zh.svg"), telemetry_svg(&r, &zh).unwrap()).unwrap();
}

#[test]
fn every_text_names_the_cjk_font_stack() {
    style::assert_font_stack(&telemetry_svg(&run(2, 50), &labels()).unwrap());
}
