//! The validity gate at its edges: run length, throttling, telemetry, utilisation, warm-up,
//! and how a verdict is stored.

use super::super::{
    CanonicalRun, Format, NodeInfo, Reason, RunStatus, Severity, TelemetrySample, Throttle, ThrottleReason,
    VerdictContext, assess, judge,
};
use super::has_reason;

/// A clean 600 s run on 80 GB GPUs with telemetry (VRAM peak, throttling
/// watched and never active): valid under the default context.
pub(super) fn base() -> CanonicalRun {
    let mut run = CanonicalRun::new(Format::Canonical);
    run.duration_s = Some(600.0);
    run.throughput = Some(super::super::canonical::Throughput {
        value: 1000.0,
        unit: super::super::ThroughputUnit::TokensPerS,
    });
    run.gpu_util_mean_pct = Some(90.0);
    run.vram_peak_mib = Some(60_000.0);
    run.throttle = Some(Throttle::default());
    run.node = NodeInfo {
        gpu_name: Some("NVIDIA A100-SXM4-80GB".into()),
        gpu_count: Some(8),
        vram_total_mib: Some(81_920.0),
        driver_version: Some("550.54.15".into()),
        cuda_version: None,
        mig: Some(false),
    };
    run
}

pub(super) fn codes(run: &CanonicalRun, ctx: &VerdictContext) -> Vec<(Severity, Reason)> {
    judge(run, ctx)
        .reasons
        .into_iter()
        .map(|r| (r.severity, r.reason))
        .collect()
}

#[test]
fn clean_run_is_valid_with_no_reasons() {
    let v = judge(&base(), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Valid);
    assert!(v.reasons.is_empty(), "{:?}", v.reasons);
}

#[test]
fn duration_exactly_600_s_passes_and_just_below_is_invalid() {
    let ctx = VerdictContext::default();
    assert!(codes(&base(), &ctx).is_empty());
    let mut short = base();
    short.duration_s = Some(599.999);
    assert_eq!(
        codes(&short, &ctx),
        [(
            Severity::Invalid,
            Reason::ShortRun {
                duration_s: 599.999,
                warmup_s: 0.0,
                min_s: 600.0
            }
        )]
    );
    assert_eq!(judge(&short, &ctx).status, RunStatus::Invalid);
    short.duration_s = None;
    assert_eq!(codes(&short, &ctx), [(Severity::Warn, Reason::DurationUnknown)]);
}

fn throttled(active_s: f64) -> CanonicalRun {
    let mut run = base();
    run.duration_s = Some(1000.0);
    run.throttle = Some(Throttle {
        active_s,
        reasons: vec![ThrottleReason::HwThermalSlowdown],
        power_cap_s: None,
    });
    run
}

#[test]
fn throttle_share_exactly_at_threshold_warns_above_is_invalid() {
    let ctx = VerdictContext::default();
    let at = judge(&throttled(100.0), &ctx);
    assert_eq!(at.status, RunStatus::Warn);
    assert_eq!(
        at.reasons[0].reason,
        Reason::ThermalOrPowerSlowdown {
            active_s: 100.0,
            share: Some(0.1),
            max_share: 0.1,
            reasons: vec![ThrottleReason::HwThermalSlowdown]
        }
    );
    assert_eq!(judge(&throttled(100.001), &ctx).status, RunStatus::Invalid);
    assert_eq!(judge(&throttled(0.0), &ctx).status, RunStatus::Valid);
    let mut unknown = throttled(5.0);
    unknown.duration_s = None;
    let v = judge(&unknown, &ctx);
    assert!(has_reason(&v, |r| matches!(
        r,
        Reason::ThermalOrPowerSlowdown { share: None, .. }
    )));
    assert_eq!(v.status, RunStatus::Warn);
}

#[test]
fn low_utilisation_edge() {
    let ctx = VerdictContext::default();
    let mut run = base();
    run.gpu_util_mean_pct = Some(50.0);
    assert!(codes(&run, &ctx).is_empty());
    run.gpu_util_mean_pct = Some(49.99);
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::LowUtilization {
                mean_pct: 49.99,
                threshold_pct: 50.0
            }
        )]
    );
}

/// Without telemetry VRAM peak and throttling are unknown: at best a warning.
#[test]
fn missing_telemetry_warns_so_the_run_cannot_be_valid() {
    let mut run = base();
    run.gpu_util_mean_pct = None;
    run.vram_peak_mib = None;
    run.throttle = None;
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Warn);
    assert_eq!(
        v.reasons,
        [super::super::VerdictReason {
            severity: Severity::Warn,
            reason: Reason::TelemetryMissing
        }]
    );
    let mut vram_only = base();
    vram_only.throttle = None;
    assert_eq!(
        codes(&vram_only, &VerdictContext::default()),
        [(Severity::Warn, Reason::TelemetryMissing)],
        "throttling unknown"
    );
    let mut throttle_only = base();
    throttle_only.vram_peak_mib = None;
    assert_eq!(
        codes(&throttle_only, &VerdictContext::default()),
        [(Severity::Warn, Reason::TelemetryMissing)],
        "VRAM peak unknown"
    );
}

/// `sw_power_cap` alone is information; hardware, thermal and power-brake
/// slowdowns count.
#[test]
fn power_cap_alone_is_reported_not_counted() {
    let ctx = VerdictContext::default();
    let mut run = base();
    run.duration_s = Some(1000.0);
    run.throttle = Some(Throttle {
        active_s: 0.0,
        reasons: Vec::new(),
        power_cap_s: Some(400.0),
    });
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Info,
            Reason::PowerCapped {
                active_s: 400.0,
                share: Some(0.4)
            }
        )]
    );
    // A run stored before this rule, its power cap folded into active_s.
    run.throttle = Some(Throttle {
        active_s: 400.0,
        reasons: vec![ThrottleReason::SwPowerCap],
        power_cap_s: None,
    });
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Info,
            Reason::PowerCapped {
                active_s: 400.0,
                share: Some(0.4)
            }
        )]
    );
    for slowdown in [
        ThrottleReason::HwSlowdown,
        ThrottleReason::HwThermalSlowdown,
        ThrottleReason::HwPowerBrakeSlowdown,
        ThrottleReason::SwThermalSlowdown,
    ] {
        assert!(slowdown.is_slowdown());
        run.throttle = Some(Throttle {
            active_s: 101.0,
            reasons: vec![slowdown],
            power_cap_s: None,
        });
        assert_eq!(
            judge(&run, &ctx).status,
            RunStatus::Invalid,
            "{slowdown:?} 101 s of 1000 s"
        );
    }
    assert!(!ThrottleReason::SwPowerCap.is_slowdown());
    assert_eq!(ThrottleReason::SLOWDOWN_MASK, 0x8 | 0x20 | 0x40 | 0x80);
}

/// 1 s samples: `idle_s` seconds at `idle` %, then `busy_s` seconds at 95 %.
fn with_series(idle_s: u32, idle: f64, busy_s: u32) -> CanonicalRun {
    let mut run = base();
    run.duration_s = Some(f64::from(idle_s + busy_s));
    run.telemetry = (0..idle_s + busy_s)
        .map(|i| TelemetrySample {
            t: f64::from(i),
            gpu: 0,
            util_pct: Some(if i < idle_s {
                idle
            } else {
                95.0 + f64::from(i % 3) - 1.0
            }),
            mem_used_mib: None,
            sm_clock_mhz: None,
            temp_c: None,
            power_w: None,
            throttle_reasons: Vec::new(),
        })
        .collect();
    run.gpu_util_mean_pct =
        Some(run.telemetry.iter().filter_map(|s| s.util_pct).sum::<f64>() / f64::from(idle_s + busy_s));
    // The throughput per second, as serving benchmarks give it: nothing while idle, 1000/s after.
    run.intervals = (0..idle_s + busy_s)
        .map(|i| super::super::canonical::Interval {
            t: f64::from(i),
            dt: 1.0,
            value: if i < idle_s && idle < 50.0 { 0.0 } else { 1000.0 },
        })
        .collect();
    run
}

#[test]
fn warmup_is_detected_excluded_and_recorded() {
    let ctx = VerdictContext::default();
    let run = with_series(800, 0.0, 700);
    assert!(run.gpu_util_mean_pct.is_some_and(|u| u < 50.0), "whole-run mean is low");
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
    let Reason::WarmupExcluded {
        warmup_s,
        steady_util_mean_pct,
        ..
    } = v.reasons[0].reason
    else {
        panic!("expected warm-up first: {:?}", v.reasons);
    };
    assert!((780.0..=800.0).contains(&warmup_s), "warm-up {warmup_s}");
    assert!(steady_util_mean_pct.is_some_and(|u| u > 90.0));
    let assessed = assess(run.clone(), &ctx);
    assert_eq!(assessed.warmup_s, Some(warmup_s));
    assert_eq!(assessed.gpu_util_mean_pct, steady_util_mean_pct);
    assert_eq!(
        assessed
            .extra
            .get(super::super::EXTRA_UTIL_INCL_WARMUP)
            .and_then(serde_json::Value::as_f64),
        run.gpu_util_mean_pct
    );
    assert_eq!(assessed.verdict, Some(v));
}

#[test]
fn steady_from_the_start_has_no_warmup() {
    let run = with_series(0, 0.0, 700);
    let assessed = assess(run, &VerdictContext::default());
    assert_eq!(assessed.warmup_s, Some(0.0));
    assert_eq!(assessed.verdict.map(|v| v.reasons), Some(Vec::new()));
}

#[test]
fn warmup_within_tolerance_is_not_flagged() {
    let v = judge(&with_series(100, 86.0, 600), &VerdictContext::default());
    assert!(v.reasons.is_empty(), "{:?}", v.reasons);
}

#[test]
fn status_is_the_worst_reason_and_reasons_serialize_as_codes() {
    let mut run = throttled(500.0);
    run.duration_s = Some(300.0);
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
    assert_eq!(v.reasons.len(), 2);
    let json = serde_json::to_value(&v).expect("serializes");
    assert_eq!(json["status"], "invalid");
    assert_eq!(json["reasons"][0]["code"], "short_run");
    assert_eq!(json["reasons"][0]["severity"], "invalid");
    assert_eq!(json["reasons"][1]["code"], "thermal_or_power_slowdown");
    assert_eq!(json["reasons"][1]["reasons"][0], "hw_thermal_slowdown");
    let back: super::super::Verdict = serde_json::from_value(json).expect("deserializes");
    assert_eq!(back, v);
}

/// A stored reason of an earlier shape still reads: it becomes `retired`
/// with its severity, and the stored status stays.
#[test]
fn stored_verdicts_of_an_earlier_shape_still_read() {
    let stored = serde_json::json!({
        "status": "warn",
        "reasons": [
            { "severity": "warn", "code": "vram_headroom_low", "peak_mib": 20000.0, "total_mib": 24576.0, "headroom_share": 0.2, "limit_mib": 19660.8 },
            { "severity": "info", "code": "telemetry_missing" }
        ]
    });
    let v: super::super::Verdict = serde_json::from_value(stored).expect("reads");
    assert_eq!(v.status, RunStatus::Warn);
    assert_eq!(
        v.reasons[0].reason,
        Reason::Retired {
            was: "vram_headroom_low".into()
        }
    );
    assert_eq!(v.reasons[0].severity, Severity::Warn);
    assert_eq!(v.reasons[1].reason, Reason::TelemetryMissing);
}
