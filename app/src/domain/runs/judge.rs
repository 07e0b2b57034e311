//! The validity gate: pure rules from a run and a context to a verdict.

use super::canonical::CanonicalRun;
use super::mlperf::MlperfSummary;
use super::quote;
use super::verdict::{Reason, Severity, Verdict, VerdictContext, VerdictReason};
use super::warmup::{self, Steady};

/// Key in `extra` keeping the whole-run mean utilisation once [`assess`]
/// replaced `gpu_util_mean_pct` with the steady-state mean.
pub const EXTRA_UTIL_INCL_WARMUP: &str = "gpu_util_mean_pct_incl_warmup";

/// Judges a run. Pure: same inputs, same verdict.
#[must_use]
pub fn judge(run: &CanonicalRun, ctx: &VerdictContext) -> Verdict {
    evaluate(run, ctx).0
}

/// Judges a run and records the result in it: `verdict`, `warmup_s` and, when
/// a warm-up was excluded, the steady-state `gpu_util_mean_pct` (the whole-run
/// mean moves to `extra[EXTRA_UTIL_INCL_WARMUP]`).
#[must_use]
pub fn assess(mut run: CanonicalRun, ctx: &VerdictContext) -> CanonicalRun {
    let (verdict, steady) = evaluate(&run, ctx);
    if let Some(steady) = steady {
        run.warmup_s = Some(steady.warmup_s);
        if steady.warmup_s > 0.0 && steady.util_mean_pct.is_some() {
            if let Some(whole) = run.gpu_util_mean_pct
                && !run.extra.contains_key(EXTRA_UTIL_INCL_WARMUP)
            {
                run.extra
                    .insert(EXTRA_UTIL_INCL_WARMUP.into(), whole.into());
            }
            run.gpu_util_mean_pct = steady.util_mean_pct;
        }
    }
    run.verdict = Some(verdict);
    run
}

fn evaluate(run: &CanonicalRun, ctx: &VerdictContext) -> (Verdict, Option<Steady>) {
    let th = &ctx.thresholds;
    let mut out = Vec::new();
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });
    let steady = warmup::detect(&run.telemetry, th);
    if let Some(s) = steady.filter(|s| s.warmup_s > 0.0) {
        push(
            Severity::Info,
            Reason::WarmupExcluded {
                warmup_s: s.warmup_s,
                steady_util_mean_pct: s.util_mean_pct,
            },
        );
    }
    let mlperf = MlperfSummary::from_run(run);
    match run.duration_s {
        Some(d) if d < th.min_duration_s => {
            push(
                Severity::Warn,
                Reason::ShortRun {
                    duration_s: d,
                    min_s: th.min_duration_s,
                },
            );
        }
        Some(_) => {}
        None if mlperf_min_duration_ok(mlperf.as_ref(), th.min_duration_s) => {}
        None => push(Severity::Warn, Reason::DurationUnknown),
    }
    let no_telemetry = run.telemetry.is_empty()
        && run.gpu_util_mean_pct.is_none()
        && run.throttle.is_none()
        && run.vram_peak_mib.is_none();
    if no_telemetry {
        push(Severity::Info, Reason::TelemetryMissing);
    }
    if let Some(t) = run.throttle.as_ref().filter(|t| t.active_s > 0.0) {
        let span = telemetry_span(run);
        let denom = run.duration_s.unwrap_or(0.0).max(span);
        let share = (denom > 0.0).then(|| t.active_s / denom);
        let max_share = th.max_throttle_share;
        let severity = if share.is_some_and(|s| s > max_share + 1e-12) {
            Severity::Invalid
        } else {
            Severity::Warn
        };
        let reasons = t.reasons.clone();
        push(
            severity,
            Reason::ThermalOrPowerSlowdown {
                active_s: t.active_s,
                share,
                max_share,
                reasons,
            },
        );
    }
    let total = run
        .node
        .vram_total_mib
        .or(ctx.quote.as_ref().and_then(|q| q.vram_per_gpu_mib));
    if let (Some(peak_mib), Some(total_mib)) = (run.vram_peak_mib, total) {
        let limit_mib = total_mib * (1.0 - ctx.headroom_share);
        if peak_mib > limit_mib + total_mib.abs() * 1e-9 {
            let headroom_share = ctx.headroom_share;
            push(
                Severity::Warn,
                Reason::VramHeadroomLow {
                    peak_mib,
                    total_mib,
                    headroom_share,
                    limit_mib,
                },
            );
        }
    }
    let util = steady
        .and_then(|s| s.util_mean_pct)
        .or(run.gpu_util_mean_pct);
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
    if let Some(q) = &ctx.quote {
        quote::check(q, &run.node, th, &mut out);
    }
    (Verdict::from_reasons(out), steady)
}

/// An MLPerf run without a measured duration still proves its length when
/// loadgen confirms a `min_duration` at least as long as ours.
fn mlperf_min_duration_ok(m: Option<&MlperfSummary>, min_s: f64) -> bool {
    m.is_some_and(|m| {
        m.min_duration_satisfied == Some(true)
            && m.min_duration_ms.is_some_and(|ms| ms / 1000.0 >= min_s)
    })
}

/// Time covered by the telemetry series, seconds.
fn telemetry_span(run: &CanonicalRun) -> f64 {
    let ts = run.telemetry.iter().map(|s| s.t).filter(|t| t.is_finite());
    let (lo, hi) = ts.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
        (lo.min(t), hi.max(t))
    });
    if hi > lo { hi - lo } else { 0.0 }
}
