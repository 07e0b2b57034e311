//! Where the result lies in its telemetry (the "One clock per run" section of
//! [`super`]) and what the telemetry shows inside that window.

use super::EPS;
use crate::runs::Format;
use crate::runs::canonical::{CanonicalRun, TelemetrySample};
use crate::runs::clock;
use crate::runs::merge::EXTRA_TELEMETRY_SOURCE;
use crate::runs::vocab::ThrottleReason;

/// Where the result lies in its telemetry, telemetry seconds.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) start: f64,
    pub(super) end: f64,
}

impl Window {
    pub(super) fn contains(self, t: f64) -> bool {
        t >= self.start - EPS && t <= self.end + EPS
    }
    pub(super) fn len(self) -> f64 {
        self.end - self.start
    }
}

/// How the result relates to the telemetry's clock.
pub(super) enum Placement {
    /// The telemetry is the run's own (or there is none): judge all of it.
    Own,
    /// Placed: judge inside the window.
    Placed(Window),
    /// From another file, but it cannot be placed: judge all of it, say so.
    Unknown,
}

/// Places the result in its telemetry (the "One clock per run" section of [`super`]).
pub(super) fn placement(run: &CanonicalRun) -> Placement {
    if run.telemetry.is_empty() {
        return Placement::Own;
    }
    let merged = run.extra.contains_key(EXTRA_TELEMETRY_SOURCE);
    let at = |s: &Option<String>| s.as_deref().and_then(clock::seconds);
    let (start, end, origin) = (at(&run.started_at), at(&run.ended_at), at(&run.telemetry_origin));
    let d = run.duration_s.filter(|d| d.is_finite() && *d >= 0.0);
    let (start, end) = match (start, end, d) {
        (Some(s), Some(e), _) => (Some(s), Some(e)),
        (Some(s), None, Some(d)) => (Some(s), Some(s + d)),
        (None, Some(e), Some(d)) => (Some(e - d), Some(e)),
        _ => (None, None),
    };
    match (start, end, origin) {
        (Some(s), Some(e), Some(o)) if e >= s && (merged || run.source_format == Format::Canonical) => {
            Placement::Placed(Window {
                start: s - o,
                end: e - o,
            })
        }
        _ if merged => Placement::Unknown,
        _ => Placement::Own,
    }
}

/// Seconds with a slowdown and at the power cap on the worst GPU inside the
/// window, and the union of the reasons seen there. A sample's reasons hold
/// until the next sample of its GPU (as the parser counts them), clipped to
/// the window; a bucket of a downsampled series counts whole when any of its
/// rows had the reason (an upper bound).
pub(super) fn slowdown_in(samples: &[TelemetrySample], w: Window) -> (f64, f64, u16) {
    let mut gpus: Vec<u32> = samples.iter().map(|s| s.gpu).collect();
    gpus.sort_unstable();
    gpus.dedup();
    let (mut worst_slow, mut worst_cap, mut mask) = (0.0_f64, 0.0_f64, 0u16);
    for gpu in gpus {
        let mut series: Vec<(f64, u16)> = samples
            .iter()
            .filter(|s| s.gpu == gpu && s.t.is_finite())
            .map(|s| (s.t, ThrottleReason::to_mask(&s.throttle_reasons)))
            .collect();
        series.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (mut slow, mut cap) = (0.0, 0.0);
        for pair in series.windows(2) {
            let (t, m) = pair[0];
            let dt = (pair[1].0.min(w.end) - t.max(w.start)).max(0.0);
            if m & ThrottleReason::SLOWDOWN_MASK != 0 && dt > 0.0 {
                slow += dt;
                mask |= m;
            }
            if m & ThrottleReason::SwPowerCap.bit() != 0 {
                cap += dt;
            }
        }
        worst_slow = worst_slow.max(slow);
        worst_cap = worst_cap.max(cap);
    }
    (worst_slow, worst_cap, mask)
}

/// Share of the window that the telemetry spans.
pub(super) fn coverage(telemetry: &[TelemetrySample], w: Window) -> f64 {
    let (lo, hi) = bounds(telemetry);
    if w.len() <= 0.0 {
        return if lo <= w.start + EPS && hi >= w.end - EPS {
            1.0
        } else {
            0.0
        };
    }
    ((hi.min(w.end) - lo.max(w.start)) / w.len()).clamp(0.0, 1.0)
}

fn bounds(telemetry: &[TelemetrySample]) -> (f64, f64) {
    let ts = telemetry.iter().map(|s| s.t).filter(|t| t.is_finite());
    ts.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| (lo.min(t), hi.max(t)))
}

/// Time covered by the telemetry series, seconds.
pub(super) fn telemetry_span(telemetry: &[TelemetrySample]) -> f64 {
    let (lo, hi) = bounds(telemetry);
    if hi > lo { hi - lo } else { 0.0 }
}
