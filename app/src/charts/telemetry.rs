//! The telemetry chart of one run: utilisation, memory and SM clock over time.

use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::legend::{self, Swatch};
use super::plot::{self, Area, Chart, DrawResult, WIDTH, X_AXIS_PX};
use super::style;
use super::svg;
use super::telemetry_data::{self, Prepared, TimeUnit};
use crate::domain::runs::{CanonicalRun, TelemetrySample};

/// Height of the telemetry chart, pixels.
const HEIGHT: u32 = 640;

/// Every text of the telemetry chart, in the reader's language.
///
/// Axis texts should carry their unit (e.g. `"GPU 利用率 (%)"`, `"Memory used (MiB)"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelemetryLabels {
    /// Chart heading, also the SVG `<title>`.
    pub title: String,
    /// Time axis description when the axis is in seconds (runs up to 20 minutes).
    pub time_axis: String,
    /// Time axis description when the axis is in minutes (runs longer than 20 minutes).
    pub time_axis_min: String,
    /// Utilisation panel axis (percent).
    pub util: String,
    /// Memory panel axis (MiB).
    pub vram: String,
    /// SM clock panel axis (MHz).
    pub sm_clock: String,
    /// Legend entry of the shaded warm-up interval.
    pub warmup: String,
    /// Legend entry of the red throttle bands.
    pub throttled: String,
    /// Legend entry of one GPU's line; `{n}` is replaced by the GPU index (e.g. `"GPU {n}"`).
    pub gpu: String,
    /// Legend entry of the dashed per-GPU memory capacity line.
    pub vram_total: String,
}

/// An SVG (960×640) of the run's telemetry: three panels sharing the time axis
/// (GPU utilisation %, memory used MiB with a dashed line at the GPU's capacity
/// when known, SM clock MHz), one line per GPU, the warm-up interval shaded grey
/// and throttled stretches (any GPU) marked red.
///
/// Missing or non-finite values break a line. The time axis is in minutes when
/// the run spans more than 20 minutes, else in seconds. Panels whose values are
/// all missing are kept, empty. GPU colours repeat after eight GPUs.
///
/// `None` when the run has no telemetry sample with a finite time (or, never
/// expected with an in-memory target, when drawing fails).
#[must_use]
pub fn telemetry_svg(run: &CanonicalRun, labels: &TelemetryLabels) -> Option<String> {
    let data = telemetry_data::prepare(&run.telemetry)?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, run, &data, labels).ok()?;
        root.present().ok()?;
    }
    Some(svg::finish(out, &labels.title))
}

/// What the panels share: time axis, bands, series.
struct Frame<'a> {
    data: &'a Prepared<'a>,
    unit: TimeUnit,
    x: (f64, f64),
    /// Warm-up band, in axis units.
    warmup: Option<(f64, f64)>,
    /// Throttle bands, in axis units.
    throttled: Vec<(f64, f64)>,
}

/// One panel: its axis text, value column and optional reference line.
struct Panel<'a> {
    axis: &'a str,
    value: fn(&TelemetrySample) -> Option<f64>,
    reference: Option<f64>,
    /// A value the y range always covers (100 for percentages).
    y_include: Option<f64>,
    time_axis: Option<&'a str>,
}

fn draw(root: &Area<'_>, run: &CanonicalRun, data: &Prepared<'_>, labels: &TelemetryLabels) -> DrawResult {
    root.fill(&WHITE)?;
    let frame = frame(run, data);
    let capacity = run.node.vram_total_mib.filter(|v| v.is_finite() && *v > 0.0);
    let legend = legend_items(&frame, capacity.is_some(), labels);
    let header = legend::draw_header(root, WIDTH, &labels.title, &legend)?;

    let (_, body) = root.split_vertically(header);
    let panel_h = (HEIGHT - header - X_AXIS_PX) / 3;
    let (top, rest) = body.split_vertically(panel_h);
    let (middle, bottom) = rest.split_vertically(panel_h);
    let time_axis = match frame.unit {
        TimeUnit::Seconds => &labels.time_axis,
        TimeUnit::Minutes => &labels.time_axis_min,
    };
    let panels = [
        (
            &top,
            Panel {
                axis: &labels.util,
                value: |s| s.util_pct,
                reference: None,
                y_include: Some(100.0),
                time_axis: None,
            },
        ),
        (
            &middle,
            Panel {
                axis: &labels.vram,
                value: |s| s.mem_used_mib,
                reference: capacity,
                y_include: None,
                time_axis: None,
            },
        ),
        (
            &bottom,
            Panel {
                axis: &labels.sm_clock,
                value: |s| s.sm_clock_mhz,
                reference: None,
                y_include: None,
                time_axis: Some(time_axis),
            },
        ),
    ];
    for (area, panel) in panels {
        draw_panel(area, &frame, &panel)?;
    }
    Ok(())
}

fn frame<'a>(run: &CanonicalRun, data: &'a Prepared<'a>) -> Frame<'a> {
    let unit = TimeUnit::for_span(data.t_max - data.t_min);
    let start = unit.axis_value(data.t_min);
    let mut end = unit.axis_value(data.t_max);
    if end <= start {
        end = start + 1.0;
    }
    let clamp = |(a, b): (f64, f64)| {
        // At least 1/400 of the axis wide, so a lone throttled sample stays visible.
        let min_width = (end - start) / 400.0;
        let a = unit.axis_value(a).clamp(start, end - min_width);
        (a, unit.axis_value(b).clamp(a + min_width, end))
    };
    let warmup = run
        .warmup_s
        .filter(|w| w.is_finite() && *w > data.t_min)
        .map(|w| clamp((data.t_min, w)));
    let throttled = telemetry_data::throttle_intervals(&data.gpus)
        .into_iter()
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(clamp)
        .collect();
    Frame {
        data,
        unit,
        x: (start, end),
        warmup,
        throttled,
    }
}

/// One GPU's line of a panel, broken where values are missing: runs of
/// `(t, value)` points, `t` in seconds.
type Segments = Vec<Vec<(f64, f64)>>;

/// One panel: its axes over the frame's time axis, then the bands, the
/// reference line and one line per GPU on top.
fn draw_panel(area: &Area<'_>, frame: &Frame<'_>, panel: &Panel<'_>) -> DrawResult {
    let series: Vec<Segments> = frame
        .data
        .gpus
        .iter()
        .map(|(_, samples)| telemetry_data::segments(samples, panel.value))
        .collect();
    let values = series
        .iter()
        .flatten()
        .flatten()
        .map(|(_, v)| *v)
        .chain(panel.y_include);
    let (y_low, y_high) = telemetry_data::value_range(values, panel.reference);
    let x_label_px = if panel.time_axis.is_some() { X_AXIS_PX } else { 0 };
    let mut chart = plot::panel(area, frame.x.0..frame.x.1, y_low..y_high, (x_label_px, 84))?;
    plot::draw_axes(
        &mut chart,
        &plot::Axes {
            x_labels: 10,
            y_labels: 5,
            x_tick: &tick,
            y_tick: &tick,
            x_desc: panel.time_axis,
            y_desc: panel.axis,
        },
    )?;
    draw_bands(&mut chart, frame, (y_low, y_high), panel.reference)?;
    draw_lines(&mut chart, frame.unit, &series)
}

type Panel2d<'a, 'b> = Chart<'a, 'b, RangedCoordf64, RangedCoordf64>;

/// The grey warm-up band and the red throttle bands over the panel's height
/// `y`, and the dashed `reference` line across.
fn draw_bands(chart: &mut Panel2d<'_, '_>, frame: &Frame<'_>, y: (f64, f64), reference: Option<f64>) -> DrawResult {
    let band = |(a, b): (f64, f64), style: ShapeStyle| Rectangle::new([(a, y.0), (b, y.1)], style);
    if let Some(w) = frame.warmup {
        chart.draw_series(std::iter::once(band(
            w,
            style::WARMUP.mix(style::WARMUP_ALPHA).filled(),
        )))?;
    }
    let red = style::THROTTLE.mix(style::THROTTLE_ALPHA).filled();
    chart.draw_series(frame.throttled.iter().map(|t| band(*t, red)))?;
    if let Some(cap) = reference {
        let dashed = DashedPathElement::new(
            vec![(frame.x.0, cap), (frame.x.1, cap)],
            7,
            5,
            style::CAPACITY.stroke_width(2),
        );
        chart.draw_series(std::iter::once(dashed))?;
    }
    Ok(())
}

/// One line per GPU (thinner beyond four GPUs); a lone point is a dot.
fn draw_lines(chart: &mut Panel2d<'_, '_>, unit: TimeUnit, series: &[Segments]) -> DrawResult {
    let width = if series.len() > 4 { 1 } else { 2 };
    for (i, segments) in series.iter().enumerate() {
        let colour = style::gpu_colour(i);
        for seg in segments {
            let points = seg.iter().map(|(t, v)| (unit.axis_value(*t), *v));
            if let [(t, v)] = seg.as_slice() {
                chart.draw_series(std::iter::once(Circle::new(
                    (unit.axis_value(*t), *v),
                    2,
                    colour.filled(),
                )))?;
            } else {
                chart.draw_series(LineSeries::new(points, colour.stroke_width(width)))?;
            }
        }
    }
    Ok(())
}

/// Tick text: whole numbers without decimals, others with one.
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn legend_items(frame: &Frame<'_>, capacity: bool, labels: &TelemetryLabels) -> Vec<(Swatch, String)> {
    let mut items: Vec<(Swatch, String)> = frame
        .data
        .gpus
        .iter()
        .enumerate()
        .map(|(i, (gpu, _))| {
            (
                Swatch::Line(style::gpu_colour(i)),
                labels.gpu.replace("{n}", &gpu.to_string()),
            )
        })
        .collect();
    if frame.warmup.is_some() {
        items.push((
            Swatch::Band(style::WARMUP.mix(style::WARMUP_ALPHA)),
            labels.warmup.clone(),
        ));
    }
    if !frame.throttled.is_empty() {
        items.push((
            Swatch::Band(style::THROTTLE.mix(style::THROTTLE_ALPHA)),
            labels.throttled.clone(),
        ));
    }
    if capacity {
        items.push((Swatch::Dashed(style::CAPACITY), labels.vram_total.clone()));
    }
    items
}

#[cfg(test)]
#[path = "telemetry_tests.rs"]
mod tests;
