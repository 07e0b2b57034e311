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
//! | window covered ≥ 95 % / partly / not at all | info / warn / invalid |
//! | warm-up left out of a per-interval throughput | info |
//! | whole-run throughput includes a warm-up > 10 % of the run | invalid (≤ 10 %: info) |
//! | under 10 min after the warm-up | invalid |
//! | duration unknown (and no satisfied MLPerf `min_duration`) | warn |
//! | no telemetry of VRAM peak and throttling | warn |
//! | thermal/power-brake/hardware slowdown > 10 % of the run | invalid (else warn) |
//! | `sw_power_cap` (at the configured power limit) | info |
//! | VRAM peak × (1 + headroom) > usable ([`crate::domain::vram`]) | warn |
//! | steady utilisation < 50 % | warn |
//! | MLPerf INVALID | invalid |
//! | result file and telemetry disagree; quote vs observed | [`severity_of`](super::severity_of) |

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::canonical::{CanonicalRun, TelemetrySample, Throttle};
use super::clock;
use super::merge::EXTRA_TELEMETRY_SOURCE;
use super::mlperf::MlperfSummary;
use super::quote::{self, dec};
use super::verdict::{Reason, Severity, Verdict, VerdictContext, VerdictReason};
use super::vocab::ThrottleReason;
use super::warmup;
use crate::domain::vram;

/// Key in `extra` keeping the whole-run mean utilisation once [`assess`]
/// replaced `gpu_util_mean_pct` with the steady-state mean.
pub const EXTRA_UTIL_INCL_WARMUP: &str = "gpu_util_mean_pct_incl_warmup";

/// Key in `extra` keeping the whole-run throughput once [`assess`] replaced
/// `throughput.value` with the steady state of the run's `intervals`.
pub const EXTRA_THROUGHPUT_INCL_WARMUP: &str = "throughput_incl_warmup";

/// Key in `extra` keeping the whole capture's VRAM peak once [`assess`] set
/// `vram_peak_mib` to the peak inside the result's window.
pub const EXTRA_VRAM_PEAK_WHOLE_CAPTURE: &str = "vram_peak_mib_whole_capture";

/// Key in `extra` keeping the whole capture's throttle summary once
/// [`assess`] set `throttle` to the one inside the result's window.
pub const EXTRA_THROTTLE_WHOLE_CAPTURE: &str = "throttle_whole_capture";

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
/// capture's move to `extra`). Judging the result again gives the same record.
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
    run.verdict = Some(found.verdict);
    run
}

/// What [`evaluate`] found besides the verdict.
struct Found {
    verdict: Verdict,
    warmup_s: Option<f64>,
    steady_util: Option<f64>,
    steady_throughput: Option<f64>,
    window_peak: Option<f64>,
    window_throttle: Option<Throttle>,
}

/// Where the result lies in its telemetry, telemetry seconds.
#[derive(Clone, Copy)]
struct Window {
    start: f64,
    end: f64,
}

impl Window {
    fn contains(self, t: f64) -> bool {
        t >= self.start - EPS && t <= self.end + EPS
    }
    fn len(self) -> f64 {
        self.end - self.start
    }
}

/// How the result relates to the telemetry's clock.
enum Placement {
    /// The telemetry is the run's own (or there is none): judge all of it.
    Own,
    /// Placed: judge inside the window.
    Placed(Window),
    /// From another file, but it cannot be placed: judge all of it, say so.
    Unknown,
}

fn placement(run: &CanonicalRun) -> Placement {
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
        (Some(s), Some(e), Some(o)) if e >= s && (merged || run.source_format == super::Format::Canonical) => {
            Placement::Placed(Window {
                start: s - o,
                end: e - o,
            })
        }
        _ if merged => Placement::Unknown,
        _ => Placement::Own,
    }
}

fn evaluate(run: &CanonicalRun, ctx: &VerdictContext) -> Found {
    let th = &ctx.thresholds;
    let mut out = Vec::new();
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });

    let place = placement(run);
    let window = match place {
        Placement::Placed(w) => Some(w),
        _ => None,
    };
    let samples: Cow<'_, [TelemetrySample]> = match window {
        Some(w) => Cow::Owned(run.telemetry.iter().filter(|s| w.contains(s.t)).cloned().collect()),
        None => Cow::Borrowed(&run.telemetry),
    };
    match place {
        Placement::Placed(w) => {
            let covered_share = coverage(&run.telemetry, w);
            let severity = if covered_share + EPS >= th.min_window_coverage {
                Severity::Info
            } else if covered_share > 0.0 {
                Severity::Warn
            } else {
                Severity::Invalid
            };
            push(
                severity,
                Reason::RunWindow {
                    start_s: w.start,
                    end_s: w.end,
                    covered_share,
                },
            );
        }
        Placement::Unknown => push(Severity::Warn, Reason::RunWindowUnknown),
        Placement::Own => {}
    }

    // Warm-up: from the utilisation (inside the window) and from the
    // throughput series, whichever ends later.
    let steady = warmup::detect(samples.iter(), th);
    let interval_warmup = warmup::intervals_end(&run.intervals, th).map(|end| {
        let t0 = run.intervals.iter().map(|i| i.t).fold(f64::INFINITY, f64::min);
        (end - t0).max(0.0)
    });
    let warmup_s = match (steady.map(|s| s.warmup_s), interval_warmup) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let steady_util = steady.and_then(|s| s.util_mean_pct);
    let steady_throughput = run
        .throughput
        .as_ref()
        .and_then(|_| steady_of_intervals(run, warmup_s.unwrap_or(0.0)));
    let mlperf = MlperfSummary::from_run(run);
    let mlperf_duration = mlperf
        .as_ref()
        .filter(|m| m.min_duration_satisfied == Some(true))
        .and_then(|m| m.min_duration_ms)
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .map(|ms| ms / 1000.0);
    let duration = run.duration_s.or(mlperf_duration);
    if let Some(w) = warmup_s.filter(|w| *w > 0.0) {
        match (&run.throughput, steady_throughput, duration) {
            (Some(_), None, Some(d)) if d > 0.0 => {
                let share = w / d;
                let severity = if share > th.max_warmup_share + EPS {
                    Severity::Invalid
                } else {
                    Severity::Info
                };
                push(
                    severity,
                    Reason::WarmupIncluded {
                        warmup_s: w,
                        duration_s: d,
                        share,
                        max_share: th.max_warmup_share,
                    },
                );
            }
            (whole, steady_tp, _) => {
                let incl = steady_tp.and_then(|_| {
                    run.extra
                        .get(EXTRA_THROUGHPUT_INCL_WARMUP)
                        .and_then(serde_json::Value::as_f64)
                        .or(whole.as_ref().map(|t| t.value))
                });
                push(
                    Severity::Info,
                    Reason::WarmupExcluded {
                        warmup_s: w,
                        steady_util_mean_pct: steady_util,
                        throughput_incl_warmup: incl,
                    },
                );
            }
        }
    }

    if run.duration_s.is_none()
        && let Some(d) = mlperf_duration
    {
        push(Severity::Info, Reason::DurationFromMlperf { min_duration_s: d });
    }
    match duration {
        Some(d) => {
            let w = warmup_s.unwrap_or(0.0).min(d);
            if d - w < th.min_duration_s - EPS {
                push(
                    Severity::Invalid,
                    Reason::ShortRun {
                        duration_s: d,
                        warmup_s: w,
                        min_s: th.min_duration_s,
                    },
                );
            }
        }
        None => push(Severity::Warn, Reason::DurationUnknown),
    }

    let mem_seen = samples.iter().any(|s| s.mem_used_mib.is_some());
    if run.throttle.is_none() || (run.vram_peak_mib.is_none() && !mem_seen) {
        push(Severity::Warn, Reason::TelemetryMissing);
    }

    let mut window_throttle = None;
    if let Some(t) = &run.throttle {
        let (active_s, capped_s, reasons, base) = match window {
            Some(w) => {
                let (active, capped, mask) = slowdown_in(&run.telemetry, w);
                let reasons = ThrottleReason::from_mask(mask & ThrottleReason::SLOWDOWN_MASK);
                window_throttle = Some(Throttle {
                    active_s: active,
                    reasons: reasons.clone(),
                    power_cap_s: (capped > 0.0).then_some(capped),
                });
                (active, Some(capped), reasons, Some(w.len()))
            }
            None => {
                let counted: Vec<ThrottleReason> = t.reasons.iter().copied().filter(|r| r.is_slowdown()).collect();
                // Before sw_power_cap stopped counting, it was folded into active_s.
                let legacy_cap = counted.is_empty() && t.reasons.contains(&ThrottleReason::SwPowerCap);
                let active = if counted.is_empty() { 0.0 } else { t.active_s };
                let capped = t.power_cap_s.or(legacy_cap.then_some(t.active_s));
                let span = telemetry_span(&run.telemetry);
                let base = run.duration_s.or(duration).unwrap_or(0.0).max(span);
                (active, capped, counted, (base > 0.0).then_some(base))
            }
        };
        let share = |s: f64| base.filter(|b| *b > 0.0).map(|b| s / b);
        if active_s > 0.0 {
            let share = share(active_s);
            let severity = if share.is_some_and(|s| s > th.max_throttle_share + 1e-12) {
                Severity::Invalid
            } else {
                Severity::Warn
            };
            push(
                severity,
                Reason::ThermalOrPowerSlowdown {
                    active_s,
                    share,
                    max_share: th.max_throttle_share,
                    reasons,
                },
            );
        }
        if let Some(c) = capped_s.filter(|c| *c > 0.0) {
            push(
                Severity::Info,
                Reason::PowerCapped {
                    active_s: c,
                    share: share(c),
                },
            );
        }
    }

    let window_peak = window.and_then(|_| {
        samples
            .iter()
            .filter_map(|s| s.mem_used_mib)
            .filter(|m| m.is_finite())
            .reduce(f64::max)
    });
    let peak = window_peak.or(run.vram_peak_mib);
    if let Some(peak_mib) = peak {
        let quoted = ctx.quote.as_ref().and_then(|q| q.vram_per_gpu_mib);
        let observed = run.node.vram_total_mib.filter(|_| run.node.mig != Some(true));
        // Physical bounds (1 KiB … 1 PiB per GPU) keep the exact arithmetic in range.
        let plausible = |m: Decimal| m >= Decimal::new(1, 3) && m <= Decimal::from(1_000_000_000_000_i64);
        let usable = quoted.or_else(|| observed.and_then(dec)).filter(|u| plausible(*u));
        match (dec(peak_mib).filter(|p| plausible(*p)), usable) {
            (Some(p), Some(usable)) => {
                let h = vram::assess(p, ctx.headroom_pct, usable);
                if !h.fits {
                    push(
                        Severity::Warn,
                        Reason::VramHeadroomLow {
                            peak_mib,
                            usable_mib: f64::try_from(usable).unwrap_or(f64::NAN),
                            headroom_pct: ctx.headroom_pct,
                            required_mib: h.required.round_dp(3),
                            actual_pct: h.actual_pct,
                        },
                    );
                }
            }
            (Some(_), None) if run.node.mig == Some(true) => push(Severity::Info, Reason::VramUsableUnknown),
            _ => {}
        }
    }

    let util = match window {
        Some(_) => steady_util,
        None => steady_util.or(run.gpu_util_mean_pct),
    };
    if let Some(mean_pct) = util.filter(|u| *u < th.low_util_pct) {
        push(
            Severity::Warn,
            Reason::LowUtilization {
                mean_pct,
                threshold_pct: th.low_util_pct,
            },
        );
    }
    if let Some(m) = mlperf.as_ref().filter(|m| m.result_valid == Some(false)) {
        push(
            Severity::Invalid,
            Reason::MlperfInvalid {
                min_duration_satisfied: m.min_duration_satisfied,
                min_queries_satisfied: m.min_queries_satisfied,
                early_stopping_satisfied: m.early_stopping_satisfied,
            },
        );
    }
    if let Some(stated) = &run.result_node {
        quote::check_files(stated, &run.node, th, &mut out);
    }
    if let Some(q) = &ctx.quote {
        quote::check(q, &run.node, th, &mut out);
    }
    Found {
        verdict: Verdict::from_reasons(out),
        warmup_s,
        steady_util,
        steady_throughput,
        window_peak,
        window_throttle,
    }
}

/// Time-weighted mean of the intervals starting at or after `warmup_s`
/// seconds into the run; `None` without such intervals.
fn steady_of_intervals(run: &CanonicalRun, warmup_s: f64) -> Option<f64> {
    let t0 = run.intervals.iter().map(|i| i.t).fold(f64::INFINITY, f64::min);
    let (sum, len) = run
        .intervals
        .iter()
        .filter(|i| i.t.is_finite() && i.dt.is_finite() && i.dt > 0.0 && i.value.is_finite())
        .filter(|i| i.t - t0 >= warmup_s - EPS)
        .fold((0.0, 0.0), |(s, l), i| (s + i.value * i.dt, l + i.dt));
    (len > 0.0).then(|| sum / len)
}

/// Seconds with a slowdown and at the power cap on the worst GPU inside the
/// window, and the union of the reasons seen there. A sample's reasons hold
/// until the next sample of its GPU (as the parser counts them), clipped to
/// the window; a bucket of a downsampled series counts whole when any of its
/// rows had the reason (an upper bound).
fn slowdown_in(samples: &[TelemetrySample], w: Window) -> (f64, f64, u16) {
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
fn coverage(telemetry: &[TelemetrySample], w: Window) -> f64 {
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
fn telemetry_span(telemetry: &[TelemetrySample]) -> f64 {
    let (lo, hi) = bounds(telemetry);
    if hi > lo { hi - lo } else { 0.0 }
}
