use super::super::{QuotedNode, Reason, Severity, Status, ThrottleReason, VerdictContext, judge};
use super::{MLPERF_OFFLINE, MLPERF_SERVER, SMI_MULTI, SMI_NOUNITS, SMI_UNITS, run_of};

#[test]
fn mlperf_offline_valid_proves_duration_through_loadgen() {
    let v = judge(&run_of(MLPERF_OFFLINE), &VerdictContext::default());
    assert_eq!(v.status, Status::Valid, "{:?}", v.reasons);
    assert_eq!(v.reasons.len(), 1);
    assert_eq!(v.reasons[0].reason, Reason::TelemetryMissing);
}

#[test]
fn mlperf_invalid_is_invalid() {
    let v = judge(&run_of(MLPERF_SERVER), &VerdictContext::default());
    assert_eq!(v.status, Status::Invalid);
    assert!(v.reasons.iter().any(|r| r.severity == Severity::Invalid
        && r.reason
            == Reason::MlperfInvalid {
                min_duration_satisfied: Some(true),
                min_queries_satisfied: Some(true),
                early_stopping_satisfied: Some(false),
            }));
}

#[test]
fn telemetry_with_warmup_and_short_thermal_slowdown_warns() {
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            gpu_name: Some("A100 SXM4 80GB".into()),
            gpu_count: Some(1),
            vram_per_gpu_mib: Some(81_920.0),
            driver: Some("550".into()),
            mig: Some(false),
        }),
        ..VerdictContext::default()
    };
    let v = judge(&run_of(SMI_UNITS), &ctx);
    assert_eq!(v.status, Status::Warn, "{:?}", v.reasons);
    assert!(
        matches!(v.reasons[0].reason, Reason::WarmupExcluded { warmup_s, .. } if warmup_s > 0.0 && warmup_s <= 60.0)
    );
    assert!(v.reasons.iter().any(|r| matches!(&r.reason,
        Reason::ThermalOrPowerSlowdown { active_s, share: Some(share), reasons, .. }
            if (*active_s - 30.0).abs() < 1e-6
                && (*share - 30.0 / 650.0).abs() < 1e-9
                && reasons == &[ThrottleReason::HwThermalSlowdown])));
    assert_eq!(v.reasons.len(), 2, "{:?}", v.reasons);
}

#[test]
fn short_power_capped_capture_with_tight_vram_warns_three_times() {
    let v = judge(&run_of(SMI_NOUNITS), &VerdictContext::default());
    assert_eq!(v.status, Status::Warn);
    let warns: Vec<_> = v
        .reasons
        .iter()
        .filter(|r| r.severity == Severity::Warn)
        .collect();
    assert_eq!(warns.len(), 3, "{:?}", v.reasons);
    assert!(matches!(warns[0].reason, Reason::ShortRun { duration_s, .. } if duration_s == 120.0));
    assert!(
        matches!(warns[1].reason, Reason::ThermalOrPowerSlowdown { share: Some(s), .. } if s < 0.1)
    );
    assert!(
        matches!(warns[2].reason, Reason::VramHeadroomLow { total_mib, .. } if total_mib == 24_564.0)
    );
}

#[test]
fn one_gpu_throttled_for_a_seventh_of_the_run_is_invalid() {
    let v = judge(&run_of(SMI_MULTI), &VerdictContext::default());
    assert_eq!(v.status, Status::Invalid, "{:?}", v.reasons);
    let vram_warn = v
        .reasons
        .iter()
        .any(|r| matches!(r.reason, Reason::VramHeadroomLow { .. }));
    assert!(vram_warn, "70+ GiB of 79.6 GiB used leaves < 20 %");
}
