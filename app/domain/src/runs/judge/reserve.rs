//! Whether the memory a run shows is a serving engine's reservation.
//!
//! vLLM takes `--gpu-memory-utilization` (default 0.9) of every card when it starts and fills
//! it with KV-cache blocks; SGLang (`--mem-fraction-static`), TGI and TensorRT-LLM do the same.
//! nvidia-smi's `memory.used` then sits at that share for the whole run, whatever the model
//! needs (≈ 74 GiB of an 80 GB card for a 7B model that needs 20). Seen in the telemetry, a
//! reservation is memory that, on every one of the run's GPUs, reaches at least
//! [`Thresholds::reserve_min_share`] of the card and stays there (within 3 % of the card) to the
//! end, while utilisation moves by at least [`Thresholds::reserve_util_range_pct`] points: the
//! load changed and the memory did not.

use crate::runs::Thresholds;
use crate::runs::canonical::TelemetrySample;

/// Largest movement of a reservation's memory, as a share of the card.
const FLAT_SHARE: f64 = 0.03;

/// Fewest samples after the first high one that can show memory staying flat.
const MIN_SAMPLES: usize = 5;

/// Whether `samples` (the run's GPUs, inside its window) show a reservation on cards of
/// `card_mib` each.
pub(super) fn seen_in(samples: &[TelemetrySample], card_mib: f64, th: &Thresholds) -> bool {
    if !(card_mib.is_finite() && card_mib > 0.0) {
        return false;
    }
    let mut gpus: Vec<u32> = samples.iter().map(|s| s.gpu).collect();
    gpus.sort_unstable();
    gpus.dedup();
    !gpus.is_empty() && gpus.iter().all(|gpu| gpu_reserved(samples, *gpu, card_mib, th))
}

fn gpu_reserved(samples: &[TelemetrySample], gpu: u32, card_mib: f64, th: &Thresholds) -> bool {
    let mut series: Vec<(f64, f64, Option<f64>)> = samples
        .iter()
        .filter(|s| s.gpu == gpu && s.t.is_finite())
        .filter_map(|s| s.mem_used_mib.filter(|m| m.is_finite()).map(|m| (s.t, m, s.util_pct)))
        .collect();
    series.sort_by(|a, b| a.0.total_cmp(&b.0));
    let high = card_mib * th.reserve_min_share;
    let Some(first) = series.iter().position(|(_, m, _)| *m >= high) else {
        return false;
    };
    let held = &series[first..];
    if held.len() < MIN_SAMPLES {
        return false;
    }
    let (lo, hi) = held
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, m, _)| {
            (lo.min(*m), hi.max(*m))
        });
    let flat = lo >= high && hi - lo <= card_mib * FLAT_SHARE;
    let utils = held.iter().filter_map(|(_, _, u)| *u).filter(|u| u.is_finite());
    let (ulo, uhi) = utils.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), u| (lo.min(u), hi.max(u)));
    flat && uhi - ulo >= th.reserve_util_range_pct
}
