use rust_decimal_macros::dec;

use super::super::{
    CanonicalRun, Format, NodeInfo, QuoteField, QuotedNode, Reason, RunStatus, Severity, TelemetrySample, Throttle,
    ThrottleReason, VerdictContext, assess, judge, names_match,
};

/// A clean 600 s run on 80 GB GPUs with telemetry (VRAM peak, throttling
/// watched and never active): valid under the default context.
fn base() -> CanonicalRun {
    let mut run = CanonicalRun::new(Format::Canonical);
    run.duration_s = Some(600.0);
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

fn codes(run: &CanonicalRun, ctx: &VerdictContext) -> Vec<(Severity, Reason)> {
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
    assert!(
        v.reasons
            .iter()
            .any(|r| matches!(r.reason, Reason::ThermalOrPowerSlowdown { share: None, .. }))
    );
    assert_eq!(v.status, RunStatus::Warn);
}

/// The one headroom rule (`vram::assess`): peak × 1.2 against 81920 MiB.
#[test]
fn vram_headroom_exactly_at_limit_passes_above_warns() {
    let ctx = VerdictContext::default();
    let mut run = base();
    run.vram_peak_mib = Some(68_266.0); // × 1.2 = 81 919.2 MiB
    assert!(codes(&run, &ctx).is_empty());
    run.vram_peak_mib = Some(68_267.0); // × 1.2 = 81 920.4 MiB
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                peak_mib: 68_267.0,
                usable_mib: 81_920.0,
                headroom_pct: dec!(20),
                required_mib: dec!(81920.4),
                actual_pct: Some(19)
            }
        )]
    );
    let mut odd = base();
    odd.node.vram_total_mib = Some(81_559.0);
    odd.vram_peak_mib = Some(67_965.8); // × 1.2 = 81 558.96 exactly, in decimals
    assert!(codes(&odd, &ctx).is_empty(), "float peaks enter as decimals");
    odd.vram_peak_mib = Some(67_966.0);
    assert!(matches!(
        codes(&odd, &ctx)[..],
        [(Severity::Warn, Reason::VramHeadroomLow { .. })]
    ));
}

fn a10(peak_mib: f64) -> (CanonicalRun, VerdictContext) {
    let mut run = base();
    run.node = NodeInfo {
        gpu_name: Some("NVIDIA A10".into()),
        gpu_count: Some(1),
        vram_total_mib: Some(23_028.0), // what nvidia-smi reports for a 24 GiB A10 with ECC
        ..NodeInfo::default()
    };
    run.vram_peak_mib = Some(peak_mib);
    let ctx = VerdictContext {
        headroom_pct: dec!(20),
        quote: Some(QuotedNode {
            gpu_name: Some("A10".into()),
            gpu_count: Some(1),
            vram_per_gpu_mib: Some(dec!(24576)),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    (run, ctx)
}

/// Issue 10: peak 20 GiB on a 24 GiB A10 at 20 % is exactly enough; the
/// quote's usable VRAM is the base, and its ECC-reduced report is no shortfall.
#[test]
fn a_20_gib_peak_on_a_24_gib_a10_at_20_percent_fits() {
    let (run, ctx) = a10(20_480.0);
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
    assert!(v.reasons.is_empty(), "{:?}", v.reasons);
    let (run, ctx) = a10(20_481.0);
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                peak_mib: 20_481.0,
                usable_mib: 24_576.0,
                headroom_pct: dec!(20),
                required_mib: dec!(24577.2),
                actual_pct: Some(19)
            }
        )]
    );
    let (run, mut ctx) = a10(20_481.0);
    ctx.headroom_pct = dec!(15);
    assert!(codes(&run, &ctx).is_empty(), "15 % needs 23 553.15 MiB");
}

#[test]
fn headroom_uses_quoted_vram_when_none_observed() {
    let mut run = base();
    run.node.vram_total_mib = None;
    run.vram_peak_mib = Some(21_000.0);
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(dec!(24576)),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &ctx);
    assert!(
        found
            .iter()
            .any(|(_, r)| matches!(r, Reason::VramHeadroomLow { required_mib, .. } if *required_mib == dec!(25200)))
    );
    assert!(found.contains(&(
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram
        }
    )));
}

/// A MIG GPU reports the parent's memory: the slice of the quote is the base,
/// and without a quote the headroom cannot be checked.
#[test]
fn mig_headroom_uses_the_slice_never_the_parent_gpu() {
    let mut run = base();
    run.node.mig = Some(true);
    run.vram_peak_mib = Some(9_000.0);
    let sliced = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(dec!(10240)),
            mig: Some(true),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &sliced);
    assert!(
        found.iter().any(|(s, r)| *s == Severity::Warn
            && matches!(r, Reason::VramHeadroomLow { usable_mib, required_mib, .. }
                if *usable_mib == 10_240.0 && *required_mib == dec!(10800))),
        "{found:?}"
    );
    assert!(found.contains(&(
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram
        }
    )));
    assert_eq!(
        codes(&run, &VerdictContext::default()),
        [(Severity::Info, Reason::VramUsableUnknown)]
    );
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
        throughput_incl_warmup: None,
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

fn quoted(q: QuotedNode) -> VerdictContext {
    VerdictContext {
        quote: Some(q),
        ..VerdictContext::default()
    }
}

#[test]
fn gpu_names_normalise_case_spaces_vendor_and_memory_suffix() {
    assert!(names_match("A100 80GB", "NVIDIA A100-SXM4-80GB"));
    assert!(names_match("nvidia  a100-sxm4", " NVIDIA A100-SXM4-80GB "));
    assert!(names_match("H100 80GB HBM3", "NVIDIA H100 80GB HBM3"));
    assert!(names_match("RTX 4090", "NVIDIA GeForce RTX 4090"));
    assert!(!names_match("H100", "NVIDIA A100-SXM4-80GB"));
    assert!(!names_match("A100 PCIe", "NVIDIA A100-SXM4-80GB"));
    let v = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_name: Some("H100 SXM".into()),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(v.status, RunStatus::Invalid, "another GPU model is not valid for costs");
    assert!(matches!(&v.reasons[0].reason, Reason::GpuNameMismatch { quoted, .. } if quoted == "H100 SXM"));
}

#[test]
fn gpu_count_shortfall_is_invalid_surplus_warns() {
    let fewer = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_count: Some(16),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(fewer.status, RunStatus::Invalid);
    assert_eq!(
        fewer.reasons[0].reason,
        Reason::GpuCountMismatch {
            quoted: 16,
            observed: 8
        }
    );
    let more = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_count: Some(4),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(more.status, RunStatus::Warn);
    assert_eq!(
        judge(
            &base(),
            &quoted(QuotedNode {
                gpu_count: Some(8),
                ..QuotedNode::default()
            })
        )
        .status,
        RunStatus::Valid
    );
}

#[test]
fn vram_differs_beyond_seven_percent_either_way() {
    let ctx = quoted(QuotedNode {
        vram_per_gpu_mib: Some(dec!(81920)),
        ..QuotedNode::default()
    });
    let mut run = base();
    run.node.vram_total_mib = Some(76_185.6); // exactly 7 % short
    run.vram_peak_mib = Some(50_000.0);
    assert_eq!(judge(&run, &ctx).status, RunStatus::Valid);
    run.node.vram_total_mib = Some(76_185.0);
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(
        matches!(v.reasons[0].reason, Reason::VramShortfall { quoted_mib, observed_mib, .. }
        if quoted_mib == 81_920.0 && observed_mib == 76_185.0)
    );
    // Issue 10: a quote of 24 GiB against 81920 MiB observed is flagged.
    let small = quoted(QuotedNode {
        vram_per_gpu_mib: Some(dec!(24576)),
        ..QuotedNode::default()
    });
    let mut big = base();
    big.vram_peak_mib = Some(20_000.0);
    assert_eq!(
        codes(&big, &small),
        [(
            Severity::Warn,
            Reason::VramExceeds {
                quoted_mib: 24_576.0,
                observed_mib: 81_920.0
            }
        )]
    );
}

/// One table: model, fewer GPUs, less VRAM and slicing are invalid for
/// costs; more GPUs or VRAM, driver and CUDA only warn.
#[test]
fn the_severity_table() {
    use super::super::{Difference as D, severity_of};
    let table = [
        (D::GpuModel, Severity::Invalid),
        (D::FewerGpus, Severity::Invalid),
        (D::LessVram, Severity::Invalid),
        (D::Slicing, Severity::Invalid),
        (D::MoreGpus, Severity::Warn),
        (D::MoreVram, Severity::Warn),
        (D::Driver, Severity::Warn),
        (D::Cuda, Severity::Warn),
    ];
    for (d, s) in table {
        assert_eq!(severity_of(d), s, "{d:?}");
    }
}

#[test]
fn driver_warns_and_mig_mismatch_is_invalid() {
    let ok = quoted(QuotedNode {
        driver: Some("550".into()),
        mig: Some(false),
        ..QuotedNode::default()
    });
    assert_eq!(judge(&base(), &ok).status, RunStatus::Valid);
    let bad = quoted(QuotedNode {
        driver: Some("535.104".into()),
        mig: Some(true),
        ..QuotedNode::default()
    });
    let found = codes(&base(), &bad);
    assert_eq!(
        found,
        [
            (
                Severity::Warn,
                Reason::DriverMismatch {
                    quoted: "535.104".into(),
                    observed: "550.54.15".into()
                }
            ),
            (
                Severity::Invalid,
                Reason::MigMismatch {
                    quoted: true,
                    observed: false
                }
            ),
        ]
    );
    let driver_only = quoted(QuotedNode {
        driver: Some("535.104".into()),
        ..QuotedNode::default()
    });
    assert_eq!(judge(&base(), &driver_only).status, RunStatus::Warn);
}

#[test]
fn unobserved_quote_fields_are_informational() {
    let mut run = base();
    run.node = NodeInfo::default();
    let ctx = quoted(QuotedNode {
        gpu_name: Some("A100".into()),
        gpu_count: Some(1),
        vram_per_gpu_mib: Some(dec!(81920)),
        driver: Some("550".into()),
        mig: Some(false),
    });
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Valid);
    assert_eq!(v.reasons.len(), 5);
    assert!(v.reasons.iter().all(|r| r.severity == Severity::Info));
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
