//! Which of the node's GPUs the run used.
//!
//! nvidia-smi's `--query-gpu` prints one row per GPU per sample, numbered by `index`, for every
//! GPU it is asked about (all of them unless `-i` names some). An engineer who measures a
//! one-GPU job on an eight-GPU node (one task per card) therefore sends eight series,
//! seven of them idle. The run's GPUs are the ones the engineer names ([`CanonicalRun::gpus_named`]),
//! else the ones that worked: mean utilisation inside the run's window at or above
//! [`Thresholds::idle_gpu_util_pct`](crate::runs::Thresholds::idle_gpu_util_pct). When
//! none worked (or the telemetry has no utilisation) every GPU seen counts, so an idle run is
//! still flagged by the utilisation rule rather than losing its GPUs.

use super::window::Window;
use crate::runs::canonical::{CanonicalRun, TelemetrySample};

/// The run's GPUs and the idle ones, by telemetry index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct UsedGpus {
    /// The run's GPUs, ascending.
    pub(super) used: Vec<u32>,
    /// GPUs seen in the telemetry but idle (or not named), ascending.
    pub(super) idle: Vec<u32>,
    /// Whether `used` was named rather than found.
    pub(super) named: bool,
}

impl UsedGpus {
    /// Whether a sample belongs to one of the run's GPUs (every sample, without per-GPU data).
    pub(super) fn includes(&self, sample: &TelemetrySample) -> bool {
        self.used.is_empty() || self.used.contains(&sample.gpu)
    }

    /// GPUs the run used, when the telemetry or the engineer says.
    pub(super) fn count(&self) -> Option<u32> {
        u32::try_from(self.used.len()).ok().filter(|n| *n > 0)
    }
}

/// Finds the run's GPUs in its telemetry (inside `window` when placed).
pub(super) fn find(run: &CanonicalRun, window: Option<Window>, idle_below_pct: f64) -> UsedGpus {
    let seen = distinct_gpus(&run.telemetry);
    if !run.gpus_named.is_empty() {
        let mut used = run.gpus_named.clone();
        used.sort_unstable();
        used.dedup();
        let idle = seen.iter().copied().filter(|g| !used.contains(g)).collect();
        return UsedGpus {
            used,
            idle,
            named: true,
        };
    }
    let in_window = |s: &&TelemetrySample| window.is_none_or(|w| w.contains(s.t));
    let working: Vec<u32> = seen
        .iter()
        .copied()
        .filter(|gpu| {
            let utils = run
                .telemetry
                .iter()
                .filter(in_window)
                .filter(|s| s.gpu == *gpu)
                .filter_map(|s| s.util_pct)
                .filter(|u| u.is_finite());
            let (sum, n) = utils.fold((0.0, 0_u32), |(s, n), u| (s + u, n + 1));
            n == 0 || sum / f64::from(n) >= idle_below_pct
        })
        .collect();
    let used = if working.is_empty() { seen.clone() } else { working };
    let idle = seen.iter().copied().filter(|g| !used.contains(g)).collect();
    UsedGpus {
        used,
        idle,
        named: false,
    }
}

/// The GPU indices in the telemetry, ascending.
fn distinct_gpus(samples: &[TelemetrySample]) -> Vec<u32> {
    let mut gpus: Vec<u32> = samples.iter().map(|s| s.gpu).collect();
    gpus.sort_unstable();
    gpus.dedup();
    gpus
}
