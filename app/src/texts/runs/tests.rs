//! The run texts read well, with their figures, in both languages.

use super::*;
use crate::domain::{gpus::GpuMount, runs::ThrottleReason};

#[test]
fn numbers_read_well() {
    assert_eq!(num(12.50, 2), "12.5");
    assert_eq!(num(600.0, 1), "600");
    assert_eq!(num(81_920.0, 0), "81,920", "grouped");
    assert_eq!(num(-1_234_567.26, 1), "-1,234,567.3");
    assert_eq!(num(-0.01, 1), "0", "no negative zero");
    assert_eq!(num(f64::NAN, 1), "—");
    assert_eq!(pct(0.142_86), "14.3 %");
    assert_eq!(bytes(1_234_567), "1.2 MB");
    assert_eq!(bytes(830_000), "830 KB");
    assert_eq!(duration(1500.0), "25 min");
    assert_eq!(duration(45.2), "45 s");
    assert_eq!(duration(7200.0), "2 h");
}

#[test]
fn a_reservation_and_a_run_on_part_of_the_node_read_with_their_figures() {
    // A reservation is said as such, with what the headroom was judged on instead.
    let r = Reason::VramReserved {
        reserved_mib: 74_213.0,
        share: Some(0.91),
        slice: false,
        source: ReserveSource::Stated,
        need_mib: Some(20_480.0),
        basis: Some(NeedBasis::WorkloadStated),
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "74,213 MiB (91 % of the card) is held by the serving engine up front (stated by the result or the engineer), \
         not needed by the workload; the headroom is judged on the workload's stated peak of 20,480 MiB."
    );
    // On a MIG slice the share is of the slice: 36,800 MiB of a 40 GB slice, not 44 % of the card.
    let slice = Reason::VramReserved {
        reserved_mib: 36_800.0,
        share: Some(0.92),
        slice: true,
        source: ReserveSource::Stated,
        need_mib: None,
        basis: None,
    };
    assert!(reason_text(Locale::En, &slice).starts_with("36,800 MiB (92 % of the slice)"));
    assert!(reason_text(Locale::ZhCn, &slice).starts_with("36,800 MiB（占切片 92 %）"));
    let r = Reason::PartOfNode {
        used: 1,
        node_gpus: 8,
        job_gpus: None,
        gpu_use: GpuUse::TaskPerGpu,
    };
    assert_eq!(
        reason_text(Locale::ZhCn, &r),
        "在节点 8 张卡中的 1 张上运行，每卡一个任务：节点吞吐量 = 每卡吞吐量 × 8。"
    );
}

#[test]
fn every_reason_reads_in_both_languages_with_its_figures() {
    let r = Reason::ShortRun {
        duration_s: 300.0,
        warmup_s: 30.0,
        min_s: 600.0,
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "The run lasted 5 min, 4.5 min of it after the warm-up; a test needs at least 10 min of steady load."
    );
    assert!(reason_text(Locale::ZhCn, &r).contains("5 分钟"));
    let r = Reason::VramHeadroomLow {
        peak_mib: 20_480.0,
        usable_mib: 23_028.0,
        headroom_pct: rust_decimal::Decimal::from(20),
        required_mib: rust_decimal::Decimal::from(24_576),
        actual_pct: Some(12),
        basis: None,
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "VRAM peak 20,480 MiB with the workload's 20 % headroom needs 24,576 MiB per GPU; 23,028 MiB are usable."
    );
    let r = Reason::FilesDisagree {
        difference: Difference::GpuModel,
        result: "NVIDIA L40S".into(),
        telemetry: "NVIDIA A100-SXM4-80GB".into(),
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "The result file and the telemetry are not from the same node: GPU model is NVIDIA L40S in the result, NVIDIA A100-SXM4-80GB in the telemetry."
    );
    let r = Reason::WarmupIncluded {
        warmup_s: 30.0,
        duration_s: 412.0,
        share: 30.0 / 412.0,
        max_share: 0.1,
    };
    assert!(
        reason_text(Locale::En, &r).contains("includes 30 s warm-up of 412 s (7.3 %"),
        "{}",
        reason_text(Locale::En, &r)
    );
    let r = Reason::VramShortfall {
        quoted_mib: 81920.0,
        observed_mib: 40960.0,
        shortfall_share: 0.5,
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "VRAM per GPU: quoted 81,920 MiB, observed 40,960 MiB (50 % short)."
    );
    assert!(is_quote_mismatch(&r));
    let r = Reason::MigMismatch {
        quoted: false,
        observed: true,
    };
    assert_eq!(
        reason_text(Locale::En, &r),
        "MIG mode: the quote implies MIG off, observed MIG on."
    );
    let r = Reason::QuoteUnverifiable {
        field: QuoteField::Driver,
    };
    assert!(!is_quote_mismatch(&r));
    assert!(!reason_text(Locale::En, &r).contains('{'));
}

/// One value of every reason; the match makes the compiler ask for a sample of a new variant.
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
fn every_reason() -> Vec<Reason> {
    let all = vec![
        Reason::WarmupExcluded {
            warmup_s: 30.0,
            steady_util_mean_pct: Some(90.0),
            throughput_incl_warmup: Some(10.0),
        },
        Reason::WarmupExcluded {
            warmup_s: 30.0,
            steady_util_mean_pct: None,
            throughput_incl_warmup: None,
        },
        Reason::WarmupIncluded {
            warmup_s: 30.0,
            duration_s: 400.0,
            share: 0.075,
            max_share: 0.1,
        },
        Reason::DurationUnknown,
        Reason::DurationFromMlperf { min_duration_s: 600.0 },
        Reason::ShortRun {
            duration_s: 300.0,
            warmup_s: 30.0,
            min_s: 600.0,
        },
        Reason::TelemetryMissing,
        Reason::RunWindow {
            start_s: 10.0,
            end_s: 610.0,
            covered_share: 1.0,
        },
        Reason::RunWindowUnknown,
        Reason::ThermalOrPowerSlowdown {
            active_s: 40.0,
            share: None,
            max_share: 0.05,
            reasons: vec![ThrottleReason::HwSlowdown],
        },
        Reason::PowerCapped {
            active_s: 40.0,
            share: Some(0.1),
        },
        Reason::VramHeadroomLow {
            peak_mib: 20_480.0,
            usable_mib: 23_028.0,
            headroom_pct: rust_decimal::Decimal::from(20),
            required_mib: rust_decimal::Decimal::from(24_576),
            actual_pct: Some(12),
            basis: None,
        },
        Reason::VramUsableUnknown,
        Reason::VramReserved {
            reserved_mib: 74_213.0,
            share: Some(0.91),
            slice: false,
            source: ReserveSource::Telemetry,
            need_mib: Some(20_480.0),
            basis: Some(NeedBasis::WorkloadStated),
        },
        Reason::GpusUsed {
            used: vec![0],
            idle: vec![1, 2, 3],
            named: false,
        },
        Reason::PartOfNode {
            used: 1,
            node_gpus: 8,
            job_gpus: Some(8),
            gpu_use: GpuUse::OneJob,
        },
        Reason::WorkloadDiffers {
            what: WorkloadField::Model,
            run: "Qwen/Qwen2.5-7B-Instruct".into(),
            workload: "Llama-3.1-8B".into(),
            stands_for: false,
        },
        Reason::LowUtilization {
            mean_pct: 40.0,
            threshold_pct: 70.0,
        },
        Reason::MlperfInvalid {
            min_duration_satisfied: Some(true),
            min_queries_satisfied: Some(false),
            early_stopping_satisfied: None,
        },
        Reason::FilesDisagree {
            difference: Difference::Driver,
            result: "550".into(),
            telemetry: "535".into(),
        },
        Reason::GpuNameMismatch {
            quoted: "H100".into(),
            observed: "A100".into(),
        },
        Reason::GpuFormMismatch {
            quoted: GpuMount::Pcie,
            observed: GpuMount::Sxm,
            gpu: "NVIDIA A100-SXM4-80GB".into(),
        },
        Reason::UnknownGpuModel {
            name: "Ascend 910B".into(),
        },
        Reason::GpuCountMismatch { quoted: 8, observed: 4 },
        Reason::VramShortfall {
            quoted_mib: 81_920.0,
            observed_mib: 40_960.0,
            shortfall_share: 0.5,
        },
        Reason::VramExceeds {
            quoted_mib: 40_960.0,
            observed_mib: 81_920.0,
        },
        Reason::DriverMismatch {
            quoted: "550".into(),
            observed: "535".into(),
        },
        Reason::MigMismatch {
            quoted: true,
            observed: false,
        },
        Reason::QuoteUnverifiable {
            field: QuoteField::Cuda,
        },
        Reason::CommandFailed { exit_code: 3 },
        Reason::ImpossibleFigure {
            field: "output_throughput".into(),
            problem: crate::domain::runs::FigureProblem::NotFinite,
        },
        Reason::RequestsFailed {
            completed: 0,
            failed: 4200,
            share: 1.0,
            max_share: 0.01,
        },
        Reason::ThroughputInconsistent {
            field: "output_throughput".into(),
            stated: 1702.4,
            computed: 851.2,
            max_gap: 0.05,
        },
        Reason::NoThroughput,
        Reason::ResponseTimeMet {
            target: target(),
            measured_ms: 14.63,
            concurrency: Some(8),
        },
        Reason::MissesResponseTarget {
            target: target(),
            measured_ms: 26.16,
            concurrency: None,
        },
        Reason::ResponseTimeUnreported { target: target() },
        Reason::BusBandwidth {
            bus_gbps: 480.9,
            largest_bytes: 8_589_934_592,
            ranks: 8,
            expected: crate::domain::gpus::links::expected("H100 SXM5 80GB", true, 1, None),
        },
        Reason::BusTestWrong { wrong: 12 },
        Reason::BusTestSmall {
            largest_bytes: 1 << 20,
            least_bytes: 128 << 20,
        },
        Reason::BusTestUnchecked,
        Reason::Retired { was: "old_rule".into() },
    ];
    for r in &all {
        // No arm may be removed: a new variant is a compile error until it has a sample above.
        match r {
            Reason::WarmupExcluded { .. }
            | Reason::WarmupIncluded { .. }
            | Reason::DurationUnknown
            | Reason::DurationFromMlperf { .. }
            | Reason::ShortRun { .. }
            | Reason::TelemetryMissing
            | Reason::RunWindow { .. }
            | Reason::RunWindowUnknown
            | Reason::ThermalOrPowerSlowdown { .. }
            | Reason::PowerCapped { .. }
            | Reason::VramHeadroomLow { .. }
            | Reason::VramUsableUnknown
            | Reason::VramReserved { .. }
            | Reason::GpusUsed { .. }
            | Reason::PartOfNode { .. }
            | Reason::WorkloadDiffers { .. }
            | Reason::ResponseTimeMet { .. }
            | Reason::MissesResponseTarget { .. }
            | Reason::ResponseTimeUnreported { .. }
            | Reason::LowUtilization { .. }
            | Reason::MlperfInvalid { .. }
            | Reason::FilesDisagree { .. }
            | Reason::GpuNameMismatch { .. }
            | Reason::GpuFormMismatch { .. }
            | Reason::UnknownGpuModel { .. }
            | Reason::GpuCountMismatch { .. }
            | Reason::VramShortfall { .. }
            | Reason::VramExceeds { .. }
            | Reason::DriverMismatch { .. }
            | Reason::MigMismatch { .. }
            | Reason::QuoteUnverifiable { .. }
            | Reason::CommandFailed { .. }
            | Reason::ImpossibleFigure { .. }
            | Reason::RequestsFailed { .. }
            | Reason::ThroughputInconsistent { .. }
            | Reason::NoThroughput
            | Reason::BusBandwidth { .. }
            | Reason::BusTestWrong { .. }
            | Reason::BusTestSmall { .. }
            | Reason::BusTestUnchecked
            | Reason::Retired { .. } => {}
        }
    }
    all
}

#[test]
fn every_reason_variant_has_a_sentence_in_both_languages() {
    let all = every_reason();
    let codes: std::collections::BTreeSet<&str> = all.iter().map(Reason::code).collect();
    assert_eq!(codes.len(), 41, "one sample of each of the 41 reasons");
    for reason in &all {
        for locale in Locale::ALL {
            let text = reason_text(locale, reason);
            assert!(!text.trim().is_empty(), "{} in {locale:?}", reason.code());
            assert_ne!(text, reason.code(), "{} has no sentence in {locale:?}", reason.code());
            assert!(
                !text.contains('{'),
                "{} in {locale:?} leaves a placeholder: {text}",
                reason.code()
            );
        }
    }
}

/// A p95 TPOT target of 22 ms.
fn target() -> crate::domain::runs::ResponseTarget {
    crate::domain::runs::ResponseTarget {
        metric: crate::domain::runs::LatencyMetric::Tpot,
        percentile: crate::domain::runs::Percentile::P95,
        max_ms: rust_decimal::Decimal::from(22),
    }
}

/// The run form's format choices read as tools, not wire ids, in both languages.
#[test]
fn every_format_has_a_label_in_both_languages() {
    use crate::domain::runs::Format;
    for f in Format::ALL {
        for locale in Locale::ALL {
            let label = super::format_label(locale, f.as_str());
            assert_ne!(label, f.as_str(), "{f} has no label in {locale:?}");
        }
    }
}
