//! The validity gate: pure rules from a run and a context to a verdict.
//!
//! # One clock per run
//! A merged run has two clocks: the result's (`started_at`/`ended_at`, or the
//! end and the duration) and the telemetry's (`telemetry_origin` + `t`). When
//! both are known the result is placed inside the telemetry and the warm-up,
//! the slowdown share and the VRAM peak are judged inside that window only
//! (reason `run_window`, with the share of the window the telemetry covers).
//! When they are not, the reason `run_window_unknown` says so and the whole
//! telemetry is judged.
//!
//! # Rules, in the order their reasons appear
//! | rule | severity |
//! |---|---|
//! | sanity: a figure not finite, negative or zero where it cannot be; requests failed; throughput ≠ tokens ÷ duration; no throughput ([`sanity`]) | invalid |
//! | the run's GPUs: named, or those that worked; idle cards listed, left out of what follows | info |
//! | window covered ≥ 95 % / partly / not at all | info / warn / invalid |
//! | result not placeable in its telemetry: the whole telemetry is judged | info |
//! | warm-up left out of a per-interval throughput | info |
//! | whole-run throughput includes a warm-up > 10 % of the run | invalid (≤ 10 %: info) |
//! | under 10 min after the warm-up | invalid |
//! | duration unknown (and no satisfied MLPerf `min_duration`) | warn |
//! | no telemetry of VRAM peak and throttling | warn |
//! | thermal/power-brake/hardware slowdown > 10 % of the run | invalid (else warn) |
//! | `sw_power_cap` (at the configured power limit) | info |
//! | memory is a serving engine's reservation (stated, or seen in the telemetry) | info |
//! | VRAM peak (beneath a reservation: the workload's need) × (1 + headroom) > usable ([`crate::vram`]) | warn |
//! | steady utilisation < 50 % | warn |
//! | MLPerf INVALID | invalid |
//! | another model or precision than the workload's (unless it stands for it) | warn (info) |
//! | result file and telemetry disagree; quote vs observed | [`severity_of`](super::severity_of) |
//! | run on fewer GPUs than the node: one task per GPU / one job across more GPUs than it used | info / warn |

mod bus;
mod reserve;
mod rules;
pub mod sanity;
mod used;
mod window;
mod workload;

use rules::Judging;

use super::canonical::{CanonicalRun, Throttle};
use super::mlperf::MlperfSummary;
use super::verdict::{Verdict, VerdictContext};

/// Key in `extra` keeping the whole-run mean utilisation once [`assess`]
/// replaced `gpu_util_mean_pct` with the steady-state mean.
pub const EXTRA_UTIL_INCL_WARMUP: &str = "gpu_util_mean_pct_incl_warmup";

/// Key in `extra` keeping the mean utilisation over every GPU of the file once [`assess`]
/// replaced `gpu_util_mean_pct` with the mean of the run's GPUs (idle cards left out).
pub const EXTRA_UTIL_ALL_GPUS: &str = "gpu_util_mean_pct_all_gpus";

/// Key in `extra` keeping the whole-run throughput once [`assess`] replaced
/// `throughput.value` with the steady state of the run's `intervals`.
pub const EXTRA_THROUGHPUT_INCL_WARMUP: &str = "throughput_incl_warmup";

/// Key in `extra` keeping the whole capture's VRAM peak once [`assess`] set
/// `vram_peak_mib` to the peak inside the result's window.
pub const EXTRA_VRAM_PEAK_WHOLE_CAPTURE: &str = "vram_peak_mib_whole_capture";

/// Key in `extra` keeping the whole capture's throttle summary once
/// [`assess`] set `throttle` to the one inside the result's window.
pub const EXTRA_THROTTLE_WHOLE_CAPTURE: &str = "throttle_whole_capture";

/// Key in `extra`: the exit code of the command `nodeledger probe --keep-failed` measured;
/// not 0 makes the run invalid ([`Reason::CommandFailed`](super::Reason::CommandFailed)).
pub const EXTRA_COMMAND_EXIT_CODE: &str = "command_exit_code";

/// Tolerance of time comparisons, seconds.
const EPS: f64 = 1e-9;

/// Judges a run. Pure: same inputs, same verdict.
#[must_use]
pub fn judge(run: &CanonicalRun, ctx: &VerdictContext) -> Verdict {
    evaluate(run, ctx).verdict
}

/// Judges a run and records the result in it: `verdict`, `warmup_s`, the
/// steady-state `gpu_util_mean_pct` (the whole-run mean moves to
/// `extra[EXTRA_UTIL_INCL_WARMUP]`) and, for a run with `intervals`, the
/// steady-state throughput (the whole-run figure moves to
/// `extra[EXTRA_THROUGHPUT_INCL_WARMUP]`). When the result was placed in its
/// telemetry, `vram_peak_mib` and `throttle` become the window's (the whole
/// capture's move to `extra`). `gpus_used` becomes the run's GPUs. Judging the result again
/// gives the same record.
#[must_use]
pub fn assess(mut run: CanonicalRun, ctx: &VerdictContext) -> CanonicalRun {
    let found = evaluate(&run, ctx);
    if let Some(w) = found.warmup_s {
        run.warmup_s = Some(w);
    }
    if found.warmup_s.is_some_and(|w| w > 0.0)
        && let Some(steady) = found.steady_util
    {
        if let Some(whole) = run.gpu_util_mean_pct
            && !run.extra.contains_key(EXTRA_UTIL_INCL_WARMUP)
        {
            run.extra.insert(EXTRA_UTIL_INCL_WARMUP.into(), whole.into());
        }
        run.gpu_util_mean_pct = Some(steady);
    } else if let Some(used) = found.used_util {
        if let Some(all) = run.gpu_util_mean_pct
            && !run.extra.contains_key(EXTRA_UTIL_ALL_GPUS)
        {
            run.extra.insert(EXTRA_UTIL_ALL_GPUS.into(), all.into());
        }
        run.gpu_util_mean_pct = Some(used);
    }
    if let (Some(steady), Some(t)) = (found.steady_throughput, run.throughput.as_mut()) {
        if !run.extra.contains_key(EXTRA_THROUGHPUT_INCL_WARMUP) {
            run.extra.insert(EXTRA_THROUGHPUT_INCL_WARMUP.into(), t.value.into());
        }
        t.value = steady;
    }
    if let Some(peak) = found.window_peak {
        if let Some(whole) = run.vram_peak_mib
            && !run.extra.contains_key(EXTRA_VRAM_PEAK_WHOLE_CAPTURE)
        {
            run.extra.insert(EXTRA_VRAM_PEAK_WHOLE_CAPTURE.into(), whole.into());
        }
        run.vram_peak_mib = Some(peak);
    }
    if let Some(throttle) = found.window_throttle {
        if let Some(whole) = &run.throttle
            && !run.extra.contains_key(EXTRA_THROTTLE_WHOLE_CAPTURE)
            && let Ok(v) = serde_json::to_value(whole)
        {
            run.extra.insert(EXTRA_THROTTLE_WHOLE_CAPTURE.into(), v);
        }
        run.throttle = Some(throttle);
    }
    run.gpus_used = found.gpus_used;
    run.verdict = Some(found.verdict);
    run
}

/// What [`evaluate`] found besides the verdict.
struct Found {
    verdict: Verdict,
    gpus_used: Vec<u32>,
    used_util: Option<f64>,
    warmup_s: Option<f64>,
    steady_util: Option<f64>,
    steady_throughput: Option<f64>,
    window_peak: Option<f64>,
    window_throttle: Option<Throttle>,
}

/// Runs the rule steps of [`rules`] in the order of the module docs' table; an nccl-tests run
/// is judged on its link alone ([`bus`]).
fn evaluate(run: &CanonicalRun, ctx: &VerdictContext) -> Found {
    if let (Some(test), None) = (&run.bus_test, &run.throughput) {
        return Found {
            verdict: Verdict::from_reasons(bus::findings(test, run.node.gpu_name.as_deref(), ctx)),
            gpus_used: Vec::new(),
            used_util: None,
            warmup_s: None,
            steady_util: None,
            steady_throughput: None,
            window_peak: None,
            window_throttle: None,
        };
    }
    let place = window::placement(run);
    let window = match place {
        window::Placement::Placed(w) => Some(w),
        _ => None,
    };
    let used = used::find(run, window, ctx.thresholds.idle_gpu_util_pct);
    let mut judging = Judging::new(run, ctx, window, &used);
    judging.reasons.extend(sanity::findings(run, &ctx.thresholds));
    judging.gpus_used(&used);
    judging.window_covered(&place);
    let warm = judging.warmup();
    let mlperf = MlperfSummary::from_run(run);
    let mlperf_duration = rules::mlperf_duration(mlperf.as_ref());
    let duration = run.duration_s.or(mlperf_duration);
    judging.warmup_share(&warm, duration);
    judging.run_length(warm.warmup_s, mlperf_duration, duration);
    judging.telemetry_present();
    let window_throttle = judging.slowdown(duration);
    let window_peak = judging.vram_headroom();
    judging.utilisation(warm.steady_util);
    judging.mlperf_valid(mlperf.as_ref());
    judging.reasons.extend(
        workload::differences(run, ctx)
            .into_iter()
            .map(|(severity, reason)| crate::runs::VerdictReason { severity, reason }),
    );
    if let Some((severity, reason)) = workload::response_time(run, ctx) {
        judging.reasons.push(crate::runs::VerdictReason { severity, reason });
    }
    judging.stated_nodes(&used);
    judging.command_succeeded();
    Found {
        gpus_used: used.used,
        used_util: judging.used_util_mean(),
        verdict: Verdict::from_reasons(judging.reasons),
        warmup_s: warm.warmup_s,
        steady_util: warm.steady_util,
        steady_throughput: warm.steady_throughput,
        window_peak,
        window_throttle,
    }
}
