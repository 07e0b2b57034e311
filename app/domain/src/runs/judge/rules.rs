//! The rule steps of the validity gate, one method per row of the rule table
//! in [`super`], called by [`super::evaluate`] in the order of that table.

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::used::UsedGpus;
use super::window::{Placement, Window, coverage, slowdown_in, telemetry_span};
use super::{EPS, EXTRA_THROUGHPUT_INCL_WARMUP, reserve};
use crate::runs::canonical::{CanonicalRun, TelemetrySample, Throttle};
use crate::runs::mlperf::MlperfSummary;
use crate::runs::quote::{self, dec};
use crate::runs::verdict::{NeedBasis, Reason, ReserveSource, Severity, Slicing, VerdictContext, VerdictReason};
use crate::runs::vocab::ThrottleReason;
use crate::runs::warmup;
use crate::vram;

mod memory;

/// One run being judged: what the rules read, and the reasons found so far
/// (in the order the rules ran).
pub(super) struct Judging<'a> {
    run: &'a CanonicalRun,
    ctx: &'a VerdictContext,
    /// The result's window in its telemetry; `None` when the whole telemetry is judged.
    window: Option<Window>,
    /// The telemetry of the run's GPUs inside `window` (all of it without a window).
    samples: Cow<'a, [TelemetrySample]>,
    /// The telemetry of the run's GPUs, whole.
    used_telemetry: Cow<'a, [TelemetrySample]>,
    /// Whether idle GPUs were left out of `samples`.
    idle_left_out: bool,
    pub(super) reasons: Vec<VerdictReason>,
}

/// The warm-up found in the utilisation and the throughput series.
#[derive(Clone, Copy)]
pub(super) struct Warmup {
    /// Seconds from the start of the run; the later of the two series' ends.
    pub(super) warmup_s: Option<f64>,
    /// Mean utilisation after the warm-up, percent.
    pub(super) steady_util: Option<f64>,
    /// Time-weighted throughput of the intervals after the warm-up; `None`
    /// without a whole-run throughput or without such intervals.
    pub(super) steady_throughput: Option<f64>,
}

impl<'a> Judging<'a> {
    pub(super) fn new(run: &'a CanonicalRun, ctx: &'a VerdictContext, window: Option<Window>, used: &UsedGpus) -> Self {
        let idle_left_out = !used.idle.is_empty();
        let used_telemetry: Cow<'a, [TelemetrySample]> = if idle_left_out {
            Cow::Owned(run.telemetry.iter().filter(|s| used.includes(s)).cloned().collect())
        } else {
            Cow::Borrowed(&run.telemetry)
        };
        let samples: Cow<'a, [TelemetrySample]> = match window {
            Some(w) => Cow::Owned(used_telemetry.iter().filter(|s| w.contains(s.t)).cloned().collect()),
            None => used_telemetry.clone(),
        };
        Self {
            run,
            ctx,
            window,
            samples,
            used_telemetry,
            idle_left_out,
            reasons: Vec::new(),
        }
    }

    /// Rule "the run's GPUs" (info): said when the GPUs were named or idle cards were seen.
    pub(super) fn gpus_used(&mut self, used: &UsedGpus) {
        if used.named || !used.idle.is_empty() {
            self.push(
                Severity::Info,
                Reason::GpusUsed {
                    used: used.used.clone(),
                    idle: used.idle.clone(),
                    named: used.named,
                },
            );
        }
    }

    /// Mean utilisation of the run's GPUs over `samples`, when idle GPUs were left out (the
    /// whole-run mean of the file averages them in).
    pub(super) fn used_util_mean(&self) -> Option<f64> {
        if !self.idle_left_out {
            return None;
        }
        let (sum, n) = self
            .samples
            .iter()
            .filter_map(|s| s.util_pct)
            .filter(|u| u.is_finite())
            .fold((0.0, 0_u32), |(s, n), u| (s + u, n + 1));
        (n > 0).then(|| sum / f64::from(n))
    }

    fn push(&mut self, severity: Severity, reason: Reason) {
        self.reasons.push(VerdictReason { severity, reason });
    }

    /// Rule "window covered ≥ 95 % / partly / not at all" (info / warn /
    /// invalid), and `run_window_unknown` when a merged result cannot be placed.
    pub(super) fn window_covered(&mut self, place: &Placement) {
        let th = &self.ctx.thresholds;
        match place {
            Placement::Placed(w) => {
                let covered_share = coverage(&self.run.telemetry, *w);
                let severity = if covered_share + EPS >= th.min_window_coverage {
                    Severity::Info
                } else if covered_share > 0.0 {
                    Severity::Warn
                } else {
                    Severity::Invalid
                };
                self.push(
                    severity,
                    Reason::RunWindow {
                        start_s: w.start,
                        end_s: w.end,
                        covered_share,
                    },
                );
            }
            // Said, not warned: without a clock on one side the whole telemetry is judged.
            Placement::Unknown => self.push(Severity::Info, Reason::RunWindowUnknown),
            Placement::Own => {}
        }
    }

    /// Warm-up: from the utilisation (inside the window) and from the
    /// throughput series, whichever ends later. Pushes no reason.
    pub(super) fn warmup(&self) -> Warmup {
        let (run, th) = (self.run, &self.ctx.thresholds);
        let steady = warmup::detect(self.samples.iter(), th);
        let interval_warmup = warmup::intervals_end(&run.intervals, th).map(|end| {
            let t0 = run.intervals.iter().map(|i| i.t).fold(f64::INFINITY, f64::min);
            (end - t0).max(0.0)
        });
        let warmup_s = match (steady.map(|s| s.warmup_s), interval_warmup) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        Warmup {
            warmup_s,
            steady_util: steady.and_then(|s| s.util_mean_pct),
            steady_throughput: run
                .throughput
                .as_ref()
                .and_then(|_| steady_of_intervals(run, warmup_s.unwrap_or(0.0))),
        }
    }

    /// Rules "warm-up left out of a per-interval throughput" (info) and
    /// "whole-run throughput includes a warm-up > 10 % of the run" (invalid;
    /// ≤ 10 %: info). `duration` is the run's, else MLPerf's `min_duration`.
    pub(super) fn warmup_share(&mut self, warm: &Warmup, duration: Option<f64>) {
        let (run, th) = (self.run, &self.ctx.thresholds);
        let Some(w) = warm.warmup_s.filter(|w| *w > 0.0) else {
            return;
        };
        match (&run.throughput, warm.steady_throughput, duration) {
            (Some(_), None, Some(d)) if d > 0.0 => {
                let share = w / d;
                let severity = if share > th.max_warmup_share + EPS {
                    Severity::Invalid
                } else {
                    Severity::Info
                };
                let max_share = th.max_warmup_share;
                self.push(
                    severity,
                    Reason::WarmupIncluded {
                        warmup_s: w,
                        duration_s: d,
                        share,
                        max_share,
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
                self.push(
                    Severity::Info,
                    Reason::WarmupExcluded {
                        warmup_s: w,
                        steady_util_mean_pct: warm.steady_util,
                        throughput_incl_warmup: incl,
                    },
                );
            }
        }
    }

    /// Rules "under 10 min after the warm-up" (invalid) and "duration unknown
    /// (and no satisfied MLPerf `min_duration`)" (warn); a duration taken from
    /// MLPerf is said first (info).
    pub(super) fn run_length(&mut self, warmup_s: Option<f64>, mlperf_duration: Option<f64>, duration: Option<f64>) {
        let th = &self.ctx.thresholds;
        if self.run.duration_s.is_none()
            && let Some(d) = mlperf_duration
        {
            self.push(Severity::Info, Reason::DurationFromMlperf { min_duration_s: d });
        }
        match duration {
            Some(d) => {
                let w = warmup_s.unwrap_or(0.0).min(d);
                if d - w < th.min_duration_s - EPS {
                    let min_s = th.min_duration_s;
                    self.push(
                        Severity::Invalid,
                        Reason::ShortRun {
                            duration_s: d,
                            warmup_s: w,
                            min_s,
                        },
                    );
                }
            }
            None => self.push(Severity::Warn, Reason::DurationUnknown),
        }
    }

    /// Rule "the measured command failed" (invalid): the exit code the probe recorded
    /// in `extra`, when it is not 0.
    pub(super) fn command_succeeded(&mut self) {
        let code = self
            .run
            .extra
            .get(super::EXTRA_COMMAND_EXIT_CODE)
            .and_then(serde_json::Value::as_i64);
        if let Some(exit_code) = code.filter(|c| *c != 0) {
            self.push(Severity::Invalid, Reason::CommandFailed { exit_code });
        }
    }

    /// Rule "no telemetry of VRAM peak and throttling" (warn).
    pub(super) fn telemetry_present(&mut self) {
        let mem_seen = self.samples.iter().any(|s| s.mem_used_mib.is_some());
        if self.run.throttle.is_none() || (self.run.vram_peak_mib.is_none() && !mem_seen) {
            self.push(Severity::Warn, Reason::TelemetryMissing);
        }
    }

    /// Rules "thermal/power-brake/hardware slowdown > 10 % of the run"
    /// (invalid, else warn) and "`sw_power_cap`" (info). Returns the throttle
    /// summary inside the window, when the result was placed.
    pub(super) fn slowdown(&mut self, duration: Option<f64>) -> Option<Throttle> {
        let (run, th) = (self.run, &self.ctx.thresholds);
        let t = run.throttle.as_ref()?;
        let mut window_throttle = None;
        let (active_s, capped_s, reasons, base) = match self.window {
            Some(w) => {
                let (active, capped, mask) = slowdown_in(&self.used_telemetry, w);
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
            let max_share = th.max_throttle_share;
            self.push(
                severity,
                Reason::ThermalOrPowerSlowdown {
                    active_s,
                    share,
                    max_share,
                    reasons,
                },
            );
        }
        if let Some(c) = capped_s.filter(|c| *c > 0.0) {
            self.push(
                Severity::Info,
                Reason::PowerCapped {
                    active_s: c,
                    share: share(c),
                },
            );
        }
        window_throttle
    }

    /// Rule "steady utilisation < 50 %" (warn); without a window the
    /// whole-run mean stands in when no steady state was found.
    pub(super) fn utilisation(&mut self, steady_util: Option<f64>) {
        let th = &self.ctx.thresholds;
        let util = match self.window {
            Some(_) => steady_util,
            None => steady_util
                .or_else(|| self.used_util_mean())
                .or(self.run.gpu_util_mean_pct),
        };
        if let Some(mean_pct) = util.filter(|u| *u < th.low_util_pct) {
            let threshold_pct = th.low_util_pct;
            self.push(
                Severity::Warn,
                Reason::LowUtilization {
                    mean_pct,
                    threshold_pct,
                },
            );
        }
    }

    /// Rule "MLPerf INVALID" (invalid).
    pub(super) fn mlperf_valid(&mut self, mlperf: Option<&MlperfSummary>) {
        if let Some(m) = mlperf.filter(|m| m.result_valid == Some(false)) {
            self.push(
                Severity::Invalid,
                Reason::MlperfInvalid {
                    min_duration_satisfied: m.min_duration_satisfied,
                    min_queries_satisfied: m.min_queries_satisfied,
                    early_stopping_satisfied: m.early_stopping_satisfied,
                },
            );
        }
    }

    /// Rule "result file and telemetry disagree; quote vs observed", with the
    /// severities of [`quote::severity_of`].
    pub(super) fn stated_nodes(&mut self, used: &UsedGpus) {
        let (run, ctx) = (self.run, self.ctx);
        if let Some(stated) = &run.result_node {
            quote::check_files(stated, &run.node, &ctx.thresholds, &mut self.reasons);
        }
        if let Some(q) = &ctx.quote {
            let seen = quote::SeenGpus {
                used: used.count(),
                idle: u32::try_from(used.idle.len()).unwrap_or(u32::MAX),
            };
            quote::check(q, &run.node, seen, ctx, &mut self.reasons);
        }
    }
}

/// MLPerf's `min_duration`, seconds, when MLPerf says it was satisfied.
pub(super) fn mlperf_duration(mlperf: Option<&MlperfSummary>) -> Option<f64> {
    mlperf
        .filter(|m| m.min_duration_satisfied == Some(true))
        .and_then(|m| m.min_duration_ms)
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .map(|ms| ms / 1000.0)
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
