use super::super::{QuotedNode, Reason, RunStatus, Severity, ThrottleReason, VerdictContext, judge};
use super::{MLPERF_OFFLINE, MLPERF_SERVER, SMI_MULTI, SMI_NOUNITS, SMI_UNITS, has_reason, run_of};

/// Loadgen's satisfied `min_duration (ms): 600000` is the run's length (no
/// short-run finding), but without telemetry the run can only warn.
#[test]
fn mlperf_offline_proves_its_duration_through_loadgen_but_lacks_telemetry() {
    let v = judge(&run_of(MLPERF_OFFLINE), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Warn, "{:?}", v.reasons);
    assert_eq!(
        v.reasons
            .iter()
            .map(|r| (r.severity, r.reason.clone()))
            .collect::<Vec<_>>(),
        [
            (Severity::Info, Reason::DurationFromMlperf { min_duration_s: 600.0 }),
            (Severity::Warn, Reason::TelemetryMissing),
        ]
    );
}

/// A `min_duration` of 60 s, satisfied, is a 60 s run: too short.
#[test]
fn mlperf_min_duration_of_a_minute_is_too_short() {
    let text = String::from_utf8_lossy(MLPERF_OFFLINE).replace("min_duration (ms): 600000", "min_duration (ms): 60000");
    let v = judge(&run_of(text.as_bytes()), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(v.reasons.iter().any(|r| r.severity == Severity::Invalid
        && r.reason
            == Reason::ShortRun {
                duration_s: 60.0,
                warmup_s: 0.0,
                min_s: 600.0
            }));
    let unsatisfied =
        String::from_utf8_lossy(MLPERF_OFFLINE).replace("Min duration satisfied : Yes", "Min duration satisfied : No");
    let v = judge(&run_of(unsatisfied.as_bytes()), &VerdictContext::default());
    assert!(
        v.reasons.iter().any(|r| r.reason == Reason::DurationUnknown),
        "{:?}",
        v.reasons
    );
}

#[test]
fn mlperf_invalid_is_invalid() {
    let v = judge(&run_of(MLPERF_SERVER), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(v.reasons.iter().any(|r| r.severity == Severity::Invalid
        && r.reason
            == Reason::MlperfInvalid {
                min_duration_satisfied: Some(true),
                min_queries_satisfied: Some(true),
                early_stopping_satisfied: Some(false),
            }));
}

#[test]
fn telemetry_with_warmup_and_short_thermal_slowdown_warns_and_without_a_result_is_never_valid() {
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            gpu_name: Some("A100 SXM4 80GB".into()),
            gpu_count: Some(1),
            vram_per_gpu_mib: Some(rust_decimal_macros::dec!(81920)),
            driver: Some("550".into()),
            slicing: Some(crate::runs::Slicing::Whole),
            form_factor: None,
            nvlink: None,
            network_gbps: None,
        }),
        ..VerdictContext::default()
    };
    let v = judge(&run_of(SMI_UNITS), &ctx);
    assert_eq!(v.status, RunStatus::Invalid, "{:?}", v.reasons);
    assert_eq!(
        v.reasons[0].reason,
        Reason::NoThroughput,
        "telemetry alone measures no throughput"
    );
    assert!(
        matches!(v.reasons[1].reason, Reason::WarmupExcluded { warmup_s, .. } if warmup_s > 0.0 && warmup_s <= 60.0)
    );
    assert!(
        v.reasons[1..]
            .iter()
            .all(|r| r.severity != crate::runs::Severity::Invalid),
        "only the missing result makes it invalid: {:?}",
        v.reasons
    );
    assert!(v.reasons.iter().any(|r| matches!(&r.reason,
        Reason::ThermalOrPowerSlowdown { active_s, share: Some(share), reasons, .. }
            if (*active_s - 30.0).abs() < 1e-6
                && (*share - 30.0 / 650.0).abs() < 1e-9
                && reasons == &[ThrottleReason::HwThermalSlowdown])));
    assert_eq!(v.reasons.len(), 3, "{:?}", v.reasons);
}

/// A 120 s capture is too short (invalid); its 10 s at the power cap are
/// reported, not counted; its VRAM peak of 20392 MiB × 1.2 = 24470.4 MiB fits
/// the 24564 MiB of the RTX 4090 (the old `total × 0.8` rule said it did not).
#[test]
fn short_power_capped_capture_is_invalid_and_its_vram_fits() {
    let v = judge(&run_of(SMI_NOUNITS), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid, "{:?}", v.reasons);
    assert!(v.reasons.iter().any(|r| r.severity == Severity::Invalid
        && matches!(r.reason, Reason::ShortRun { duration_s, .. } if (duration_s - 120.0).abs() < 1e-9)));
    assert!(v.reasons.iter().any(|r| r.severity == Severity::Info
        && matches!(r.reason, Reason::PowerCapped { active_s, share: Some(s) }
            if (active_s - 10.0).abs() < 1e-9 && (s - 10.0 / 120.0).abs() < 1e-9)));
    assert!(!has_reason(&v, |r| matches!(r, Reason::ThermalOrPowerSlowdown { .. })));
    assert!(
        !has_reason(&v, |r| matches!(r, Reason::VramHeadroomLow { .. })),
        "{:?}",
        v.reasons
    );
    let tight = VerdictContext {
        headroom_pct: rust_decimal_macros::dec!(21),
        ..VerdictContext::default()
    };
    assert!(
        judge(&run_of(SMI_NOUNITS), &tight)
            .reasons
            .iter()
            .any(|r| matches!(r.reason,
        Reason::VramHeadroomLow { usable_mib, required_mib, .. }
            if usable_mib == 24_564.0 && required_mib == rust_decimal_macros::dec!(24674.32)))
    );
}

#[test]
fn one_gpu_throttled_for_a_seventh_of_the_run_is_invalid() {
    let v = judge(&run_of(SMI_MULTI), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid, "{:?}", v.reasons);
    // Memory flat at 70.0–70.8 GiB of 79.6 on every card while utilisation runs from 0 to
    // 99 %: a serving engine's reservation, not the workload's peak. Without a stated need
    // the headroom is not judged (it used to warn "< 20 % headroom" here).
    assert!(has_reason(&v, |r| matches!(
        r,
        Reason::VramReserved {
            source: crate::runs::ReserveSource::Telemetry,
            need_mib: None,
            ..
        }
    )));
    assert!(!has_reason(&v, |r| matches!(r, Reason::VramHeadroomLow { .. })));
    // With the workload's stated peak of 70 GiB, the headroom is judged on it, and it lacks.
    let stated = VerdictContext {
        workload_peak_mib: Some(rust_decimal_macros::dec!(71680)),
        ..VerdictContext::default()
    };
    let v = judge(&run_of(SMI_MULTI), &stated);
    assert!(has_reason(&v, |r| matches!(
        r,
        Reason::VramHeadroomLow {
            basis: Some(crate::runs::NeedBasis::WorkloadStated),
            ..
        }
    )));
}
