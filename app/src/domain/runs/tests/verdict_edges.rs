use super::super::{
    CanonicalRun, Format, NodeInfo, QuoteField, QuotedNode, Reason, Severity, Status,
    TelemetrySample, Throttle, ThrottleReason, VerdictContext, assess, judge, names_match,
};

/// A clean 600 s run on one 80 GB GPU: valid under the default context.
fn base() -> CanonicalRun {
    let mut run = CanonicalRun::new(Format::Canonical);
    run.duration_s = Some(600.0);
    run.gpu_util_mean_pct = Some(90.0);
    run.vram_peak_mib = Some(60_000.0);
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
    assert_eq!(v.status, Status::Valid);
    assert!(v.reasons.is_empty(), "{:?}", v.reasons);
}

#[test]
fn duration_exactly_600_s_passes_and_just_below_warns() {
    let ctx = VerdictContext::default();
    assert!(codes(&base(), &ctx).is_empty());
    let mut short = base();
    short.duration_s = Some(599.999);
    assert_eq!(
        codes(&short, &ctx),
        [(
            Severity::Warn,
            Reason::ShortRun {
                duration_s: 599.999,
                min_s: 600.0
            }
        )]
    );
    short.duration_s = None;
    assert_eq!(
        codes(&short, &ctx),
        [(Severity::Warn, Reason::DurationUnknown)]
    );
}

fn throttled(active_s: f64) -> CanonicalRun {
    let mut run = base();
    run.duration_s = Some(1000.0);
    run.throttle = Some(Throttle {
        active_s,
        reasons: vec![ThrottleReason::HwThermalSlowdown],
    });
    run
}

#[test]
fn throttle_share_exactly_at_threshold_warns_above_is_invalid() {
    let ctx = VerdictContext::default();
    let at = judge(&throttled(100.0), &ctx);
    assert_eq!(at.status, Status::Warn);
    assert_eq!(
        at.reasons[0].reason,
        Reason::ThermalOrPowerSlowdown {
            active_s: 100.0,
            share: Some(0.1),
            max_share: 0.1,
            reasons: vec![ThrottleReason::HwThermalSlowdown]
        }
    );
    assert_eq!(judge(&throttled(100.001), &ctx).status, Status::Invalid);
    assert_eq!(judge(&throttled(0.0), &ctx).status, Status::Valid);
    let mut unknown = throttled(5.0);
    unknown.duration_s = None;
    let v = judge(&unknown, &ctx);
    assert!(
        v.reasons
            .iter()
            .any(|r| matches!(r.reason, Reason::ThermalOrPowerSlowdown { share: None, .. }))
    );
    assert_eq!(v.status, Status::Warn);
}

#[test]
fn vram_headroom_exactly_at_limit_passes_above_warns() {
    let ctx = VerdictContext::default();
    let mut run = base();
    run.vram_peak_mib = Some(81_920.0 * (1.0 - 0.20));
    assert!(
        codes(&run, &ctx).is_empty(),
        "peak exactly at 80 % of 81920 MiB"
    );
    run.vram_peak_mib = Some(65_536.5);
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                peak_mib: 65_536.5,
                total_mib: 81_920.0,
                headroom_share: 0.2,
                limit_mib: 65_536.0
            }
        )]
    );
    let mut odd = base();
    odd.node.vram_total_mib = Some(81_559.0);
    odd.vram_peak_mib = Some(81_559.0 * 0.8);
    assert!(codes(&odd, &ctx).is_empty());
}

#[test]
fn headroom_uses_quoted_vram_when_none_observed() {
    let mut run = base();
    run.node.vram_total_mib = None;
    run.vram_peak_mib = Some(20_000.0);
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(24_576.0),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &ctx);
    assert!(
        found
            .iter()
            .any(|(_, r)| matches!(r, Reason::VramHeadroomLow { .. }))
    );
    assert!(found.contains(&(
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram
        }
    )));
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

#[test]
fn missing_telemetry_is_informational() {
    let mut run = base();
    run.gpu_util_mean_pct = None;
    run.vram_peak_mib = None;
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, Status::Valid);
    assert_eq!(v.reasons[0].reason, Reason::TelemetryMissing);
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
    run.gpu_util_mean_pct = Some(
        run.telemetry.iter().filter_map(|s| s.util_pct).sum::<f64>() / f64::from(idle_s + busy_s),
    );
    run
}

#[test]
fn warmup_is_detected_excluded_and_recorded() {
    let ctx = VerdictContext::default();
    let run = with_series(500, 0.0, 500);
    assert!(
        run.gpu_util_mean_pct.is_some_and(|u| u < 50.0),
        "whole-run mean is low"
    );
    let v = judge(&run, &ctx);
    assert_eq!(v.status, Status::Valid, "{:?}", v.reasons);
    let Reason::WarmupExcluded {
        warmup_s,
        steady_util_mean_pct,
    } = v.reasons[0].reason
    else {
        panic!("expected warm-up first: {:?}", v.reasons);
    };
    assert!((480.0..=500.0).contains(&warmup_s), "warm-up {warmup_s}");
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
    assert_eq!(v.status, Status::Warn);
    assert!(
        matches!(&v.reasons[0].reason, Reason::GpuNameMismatch { quoted, .. } if quoted == "H100 SXM")
    );
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
    assert_eq!(fewer.status, Status::Invalid);
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
    assert_eq!(more.status, Status::Warn);
    assert_eq!(
        judge(
            &base(),
            &quoted(QuotedNode {
                gpu_count: Some(8),
                ..QuotedNode::default()
            })
        )
        .status,
        Status::Valid
    );
}

#[test]
fn vram_shortfall_edge_at_five_percent() {
    let ctx = quoted(QuotedNode {
        vram_per_gpu_mib: Some(81_920.0),
        ..QuotedNode::default()
    });
    let mut run = base();
    run.node.vram_total_mib = Some(77_824.0); // exactly 5 % short
    run.vram_peak_mib = Some(50_000.0);
    assert_eq!(judge(&run, &ctx).status, Status::Valid);
    run.node.vram_total_mib = Some(77_823.0);
    let v = judge(&run, &ctx);
    assert_eq!(v.status, Status::Invalid);
    assert!(
        matches!(v.reasons[0].reason, Reason::VramShortfall { quoted_mib, observed_mib, .. }
        if quoted_mib == 81_920.0 && observed_mib == 77_823.0)
    );
}

#[test]
fn driver_and_mig_mismatches_warn() {
    let ok = quoted(QuotedNode {
        driver: Some("550".into()),
        mig: Some(false),
        ..QuotedNode::default()
    });
    assert_eq!(judge(&base(), &ok).status, Status::Valid);
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
                Severity::Warn,
                Reason::MigMismatch {
                    quoted: true,
                    observed: false
                }
            ),
        ]
    );
}

#[test]
fn unobserved_quote_fields_are_informational() {
    let mut run = base();
    run.node = NodeInfo::default();
    let ctx = quoted(QuotedNode {
        gpu_name: Some("A100".into()),
        gpu_count: Some(1),
        vram_per_gpu_mib: Some(81_920.0),
        driver: Some("550".into()),
        mig: Some(false),
    });
    let v = judge(&run, &ctx);
    assert_eq!(v.status, Status::Valid);
    assert_eq!(v.reasons.len(), 5);
    assert!(v.reasons.iter().all(|r| r.severity == Severity::Info));
}

#[test]
fn status_is_the_worst_reason_and_reasons_serialize_as_codes() {
    let mut run = throttled(500.0);
    run.duration_s = Some(300.0);
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, Status::Invalid);
    assert_eq!(v.reasons.len(), 2);
    let json = serde_json::to_value(&v).expect("serializes");
    assert_eq!(json["status"], "invalid");
    assert_eq!(json["reasons"][0]["code"], "short_run");
    assert_eq!(json["reasons"][0]["severity"], "warn");
    assert_eq!(json["reasons"][1]["code"], "thermal_or_power_slowdown");
    assert_eq!(json["reasons"][1]["reasons"][0], "hw_thermal_slowdown");
    let back: super::super::Verdict = serde_json::from_value(json).expect("deserializes");
    assert_eq!(back, v);
}
