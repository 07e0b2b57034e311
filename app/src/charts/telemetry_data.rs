//! Pure preparation of a run's telemetry for plotting: per-GPU series, line
//! segments broken at missing values, merged throttle intervals, axis ranges.

use std::collections::BTreeMap;

use crate::domain::runs::TelemetrySample;

/// Runs longer than this (seconds) get a time axis in minutes.
pub(super) const MINUTES_AFTER_S: f64 = 20.0 * 60.0;

/// The samples of one run, grouped by GPU and ordered by time.
pub(super) struct Prepared<'a> {
    /// `(gpu index, samples with a finite time, by time)`, by GPU index.
    pub gpus: Vec<(u32, Vec<&'a TelemetrySample>)>,
    /// Earliest sample time, seconds.
    pub t_min: f64,
    /// Latest sample time, seconds.
    pub t_max: f64,
}

/// Groups the samples; `None` when no sample has a finite time.
pub(super) fn prepare(samples: &[TelemetrySample]) -> Option<Prepared<'_>> {
    let mut by_gpu: BTreeMap<u32, Vec<&TelemetrySample>> = BTreeMap::new();
    for s in samples.iter().filter(|s| s.t.is_finite()) {
        by_gpu.entry(s.gpu).or_default().push(s);
    }
    let mut t_min = f64::INFINITY;
    let mut t_max = f64::NEG_INFINITY;
    for list in by_gpu.values_mut() {
        list.sort_by(|a, b| a.t.total_cmp(&b.t));
        for s in list.iter() {
            t_min = t_min.min(s.t);
            t_max = t_max.max(s.t);
        }
    }
    (t_min <= t_max).then(|| Prepared {
        gpus: by_gpu.into_iter().collect(),
        t_min,
        t_max,
    })
}

/// The unit of the time axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TimeUnit {
    /// Seconds.
    Seconds,
    /// Minutes (runs longer than [`MINUTES_AFTER_S`]).
    Minutes,
}

impl TimeUnit {
    /// The unit for a run spanning `span_s` seconds.
    pub(super) fn for_span(span_s: f64) -> Self {
        if span_s > MINUTES_AFTER_S {
            Self::Minutes
        } else {
            Self::Seconds
        }
    }

    /// Converts seconds into this unit.
    pub(super) fn axis_value(self, t: f64) -> f64 {
        match self {
            Self::Seconds => t,
            Self::Minutes => t / 60.0,
        }
    }
}

/// The continuous stretches of `value` (time in seconds, value): a missing or
/// non-finite value ends a stretch, so gaps are never drawn as zero.
pub(super) fn segments(
    samples: &[&TelemetrySample],
    value: impl Fn(&TelemetrySample) -> Option<f64>,
) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for s in samples {
        match value(s).filter(|v| v.is_finite()) {
            Some(v) => current.push((s.t, v)),
            None if current.is_empty() => {}
            None => out.push(std::mem::take(&mut current)),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Time intervals (seconds) during which any GPU reported a throttle reason,
/// merged where they touch or overlap, by start.
///
/// A throttled sample covers the time up to the next sample of its GPU; the
/// last sample of a GPU covers as long as the gap before it (zero for a lone sample).
pub(super) fn throttle_intervals(gpus: &[(u32, Vec<&TelemetrySample>)]) -> Vec<(f64, f64)> {
    let mut raw = Vec::new();
    for (_, list) in gpus {
        for (i, s) in list.iter().enumerate() {
            if s.throttle_reasons.is_empty() {
                continue;
            }
            let end = match (list.get(i + 1), i.checked_sub(1).map(|p| list[p])) {
                (Some(next), _) => next.t,
                (None, Some(prev)) => s.t + (s.t - prev.t),
                (None, None) => s.t,
            };
            raw.push((s.t, end));
        }
    }
    raw.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for (start, end) in raw {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// A y range `[low, high)` covering `values`, zero and `reference`, with 5 %
/// headroom; `(0, 1)` when there is nothing to cover.
pub(super) fn value_range(values: impl Iterator<Item = f64>, reference: Option<f64>) -> (f64, f64) {
    let (mut low, mut high) = (0.0_f64, 0.0_f64);
    for v in values.chain(reference).filter(|v| v.is_finite()) {
        low = low.min(v);
        high = high.max(v);
    }
    if high - low <= 0.0 {
        return (low, low + 1.0);
    }
    let pad = (high - low) * 0.05;
    let padded_low = if low < 0.0 { low - pad } else { low };
    (
        Some(padded_low).filter(|v| v.is_finite()).unwrap_or(low),
        Some(high + pad).filter(|v| v.is_finite()).unwrap_or(high),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::runs::ThrottleReason;

    fn sample(t: f64, gpu: u32, util: Option<f64>, throttled: bool) -> TelemetrySample {
        TelemetrySample {
            t,
            gpu,
            util_pct: util,
            mem_used_mib: None,
            sm_clock_mhz: None,
            temp_c: None,
            power_w: None,
            throttle_reasons: if throttled {
                vec![ThrottleReason::HwThermalSlowdown]
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn prepare_groups_sorts_and_drops_non_finite_times() {
        let s = vec![
            sample(2.0, 1, None, false),
            sample(f64::NAN, 0, None, false),
            sample(1.0, 1, None, false),
            sample(0.5, 0, None, false),
        ];
        let p = prepare(&s).unwrap();
        assert_eq!(p.gpus.len(), 2);
        assert_eq!(p.gpus[1].1.iter().map(|s| s.t).collect::<Vec<_>>(), [1.0, 2.0]);
        assert_eq!((p.t_min, p.t_max), (0.5, 2.0));
        assert!(prepare(&[]).is_none());
        assert!(prepare(&[sample(f64::INFINITY, 0, None, false)]).is_none());
    }

    #[test]
    fn missing_and_non_finite_values_break_segments() {
        let s = [
            sample(0.0, 0, Some(1.0), false),
            sample(1.0, 0, Some(2.0), false),
            sample(2.0, 0, None, false),
            sample(3.0, 0, Some(f64::NAN), false),
            sample(4.0, 0, Some(3.0), false),
        ];
        let refs: Vec<_> = s.iter().collect();
        let segs = segments(&refs, |s| s.util_pct);
        assert_eq!(segs, vec![vec![(0.0, 1.0), (1.0, 2.0)], vec![(4.0, 3.0)]]);
        assert!(segments(&refs, |s| s.sm_clock_mhz).is_empty());
    }

    #[test]
    fn throttle_intervals_merge_across_gpus() {
        let g0 = [
            sample(0.0, 0, None, true),
            sample(1.0, 0, None, true),
            sample(2.0, 0, None, false),
            sample(3.0, 0, None, false),
            sample(4.0, 0, None, true),
        ];
        let g1 = [
            sample(0.0, 1, None, false),
            sample(2.0, 1, None, true),
            sample(3.0, 1, None, false),
        ];
        let gpus = vec![(0, g0.iter().collect()), (1, g1.iter().collect())];
        assert_eq!(throttle_intervals(&gpus), vec![(0.0, 3.0), (4.0, 5.0)]);
        let none = [sample(0.0, 0, None, false)];
        assert!(throttle_intervals(&[(0, none.iter().collect())]).is_empty());
    }

    #[test]
    fn value_range_includes_zero_and_reference() {
        assert_eq!(value_range([].into_iter(), None), (0.0, 1.0));
        let (lo, hi) = value_range([10.0, 20.0].into_iter(), Some(100.0));
        assert_eq!(lo, 0.0);
        assert!((hi - 105.0).abs() < 1e-9);
        assert_eq!(value_range([f64::MAX].into_iter(), None), (0.0, f64::MAX));
        assert_eq!(TimeUnit::for_span(1200.0), TimeUnit::Seconds);
        assert_eq!(TimeUnit::for_span(1201.0), TimeUnit::Minutes);
    }
}
