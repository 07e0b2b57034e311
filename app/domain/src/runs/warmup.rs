//! Warm-up detection on the utilisation series.
//!
//! Per GPU, the steady level is the median utilisation of the second half of
//! its samples. Warm-up ends at the first sample where the rolling mean over
//! `warmup_window_s` is within `warmup_tolerance_pct` points of that median.
//! The run's warm-up is the latest such end over all GPUs.
//!
//! A throughput series (`intervals`) is read the same way, with the
//! tolerance as a share of its steady median (`warmup_tolerance_pct` % of it)
//! instead of percentage points.

use super::canonical::{Interval, TelemetrySample};
use super::verdict::Thresholds;

/// Steady-state figures derived from telemetry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Steady {
    /// Leading seconds excluded (0 when none).
    pub warmup_s: f64,
    /// Mean utilisation after the warm-up, percent.
    pub util_mean_pct: Option<f64>,
}

/// Detects the warm-up; `None` without utilisation samples.
pub(crate) fn detect<'a>(telemetry: impl Iterator<Item = &'a TelemetrySample>, th: &Thresholds) -> Option<Steady> {
    let samples: Vec<(u32, f64, f64)> = telemetry
        .filter(|s| s.t.is_finite())
        .filter_map(|s| s.util_pct.filter(|u| u.is_finite()).map(|u| (s.gpu, s.t, u)))
        .collect();
    let t0 = samples.iter().map(|s| s.1).reduce(f64::min)?;
    let mut gpus: Vec<u32> = samples.iter().map(|s| s.0).collect();
    gpus.sort_unstable();
    gpus.dedup();
    let mut end = t0;
    for gpu in gpus {
        let mut series: Vec<(f64, f64)> = samples.iter().filter(|s| s.0 == gpu).map(|s| (s.1, s.2)).collect();
        series.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(t) = warmup_end(&series, th.warmup_window_s, |_| th.warmup_tolerance_pct) {
            end = end.max(t);
        }
    }
    let steady: Vec<f64> = samples.iter().filter(|s| s.1 >= end).map(|s| s.2).collect();
    let util_mean_pct = (!steady.is_empty()).then(|| steady.iter().sum::<f64>() / steady.len() as f64);
    Some(Steady {
        warmup_s: end - t0,
        util_mean_pct,
    })
}

/// Where the warm-up of a throughput series ends, seconds since the run
/// started (`None` for fewer than 4 intervals or none close to steady).
pub(crate) fn intervals_end(intervals: &[Interval], th: &Thresholds) -> Option<f64> {
    let mut series: Vec<(f64, f64)> = intervals
        .iter()
        .filter(|i| i.t.is_finite() && i.value.is_finite())
        .map(|i| (i.t, i.value))
        .collect();
    series.sort_by(|a, b| a.0.total_cmp(&b.0));
    let share = th.warmup_tolerance_pct / 100.0;
    warmup_end(&series, th.warmup_window_s, |steady| steady.abs() * share)
}

/// Start time of the first window close to the steady median; `tolerance`
/// gives the allowed distance from that median.
fn warmup_end(series: &[(f64, f64)], window_s: f64, tolerance: impl Fn(f64) -> f64) -> Option<f64> {
    let n = series.len();
    if n < 4 {
        return None;
    }
    let mut dts: Vec<f64> = series
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .filter(|d| *d > 0.0)
        .collect();
    let dt = median(&mut dts)?;
    let k = ((window_s / dt).ceil().max(1.0) as usize).min(n / 2).max(1);
    let mut tail: Vec<f64> = series[n / 2..].iter().map(|s| s.1).collect();
    let steady = median(&mut tail)?;
    let tol = tolerance(steady);
    let mut sum: f64 = series[..k].iter().map(|s| s.1).sum();
    for i in 0..=n - k {
        if i > 0 {
            sum += series[i + k - 1].1 - series[i - 1].1;
        }
        if (sum / k as f64 - steady).abs() <= tol {
            return Some(series[i].0);
        }
    }
    None
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len().is_multiple_of(2) {
        f64::midpoint(v[m - 1], v[m])
    } else {
        v[m]
    })
}
