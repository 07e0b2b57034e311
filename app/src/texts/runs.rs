//! Run figures and verdict reasons in the reader's language (pages and the API use these).

use crate::{
    domain::runs::{Difference, QuoteField, Reason, RunStatus, Severity},
    i18n::{Locale, Msg},
};

/// A number with at most `decimals` places, without trailing zeros ("12.5", "600").
#[must_use]
pub fn num(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let s = format!("{value:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A share as a percentage with one decimal ("14.3 %").
#[must_use]
pub fn pct(share: f64) -> String {
    format!("{} %", num(share * 100.0, 1))
}

/// A byte count for people ("1.2 MB", "830 KB", "512 B").
#[must_use]
pub fn bytes(n: i64) -> String {
    #[expect(clippy::cast_precision_loss, reason = "display only")]
    let f = n as f64;
    if n >= 1_000_000 {
        format!("{} MB", num(f / 1e6, 1))
    } else if n >= 1_000 {
        format!("{} KB", num(f / 1e3, 0))
    } else {
        format!("{n} B")
    }
}

/// A duration in seconds for people ("25.0 min", "45 s", "1.5 h").
#[must_use]
pub fn duration(seconds: f64) -> String {
    if seconds >= 5400.0 {
        format!("{} h", num(seconds / 3600.0, 1))
    } else if seconds >= 120.0 {
        format!("{} min", num(seconds / 60.0, 1))
    } else {
        format!("{} s", num(seconds, 0))
    }
}

/// The message of a verdict status.
#[must_use]
pub const fn status_msg(status: RunStatus) -> Msg {
    match status {
        RunStatus::Valid => Msg::RunsStatusValid,
        RunStatus::Warn => Msg::RunsStatusWarn,
        RunStatus::Invalid => Msg::RunsStatusInvalid,
    }
}

/// The CSS class of a verdict status.
#[must_use]
pub const fn status_class(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Valid => "verdict verdict-valid",
        RunStatus::Warn => "verdict verdict-warn",
        RunStatus::Invalid => "verdict verdict-invalid",
    }
}

/// The label of a reason's severity.
#[must_use]
pub const fn severity_msg(severity: Severity) -> Msg {
    match severity {
        Severity::Info => Msg::RunsSeverityInfo,
        Severity::Warn => Msg::RunsSeverityWarn,
        Severity::Invalid => Msg::RunsSeverityInvalid,
    }
}

const fn field_msg(field: QuoteField) -> Msg {
    match field {
        QuoteField::GpuName => Msg::QuoteFieldGpuName,
        QuoteField::GpuCount => Msg::QuoteFieldGpuCount,
        QuoteField::Vram => Msg::QuoteFieldVram,
        QuoteField::Driver => Msg::QuoteFieldDriver,
        QuoteField::Mig => Msg::QuoteFieldMig,
        QuoteField::Cuda => Msg::QuoteFieldCuda,
    }
}

const fn difference_msg(d: Difference) -> Msg {
    field_msg(match d {
        Difference::GpuModel => QuoteField::GpuName,
        Difference::FewerGpus | Difference::MoreGpus => QuoteField::GpuCount,
        Difference::LessVram | Difference::MoreVram => QuoteField::Vram,
        Difference::Slicing => QuoteField::Mig,
        Difference::Driver => QuoteField::Driver,
        Difference::Cuda => QuoteField::Cuda,
    })
}

fn yes_no(locale: Locale, v: Option<bool>) -> &'static str {
    match v {
        Some(true) => locale.t(Msg::RunsYes),
        Some(false) => locale.t(Msg::RunsNo),
        None => locale.t(Msg::RunsUnknown),
    }
}

/// Whether a reason says the node differs from the quote (shown prominently).
#[must_use]
pub const fn is_quote_mismatch(reason: &Reason) -> bool {
    matches!(
        reason,
        Reason::GpuNameMismatch { .. }
            | Reason::GpuCountMismatch { .. }
            | Reason::VramShortfall { .. }
            | Reason::VramExceeds { .. }
            | Reason::DriverMismatch { .. }
            | Reason::MigMismatch { .. }
    )
}

/// One verdict reason as a sentence. Each group of reasons is worded by its own function; the
/// match here names every variant, so a new reason cannot be left without a text.
#[must_use]
pub fn reason_text(locale: Locale, reason: &Reason) -> String {
    let text = match reason {
        Reason::WarmupExcluded { .. }
        | Reason::WarmupIncluded { .. }
        | Reason::DurationUnknown
        | Reason::DurationFromMlperf { .. }
        | Reason::ShortRun { .. } => length_text(locale, reason),
        Reason::TelemetryMissing
        | Reason::RunWindow { .. }
        | Reason::RunWindowUnknown
        | Reason::ThermalOrPowerSlowdown { .. }
        | Reason::PowerCapped { .. }
        | Reason::LowUtilization { .. } => telemetry_text(locale, reason),
        Reason::VramHeadroomLow { .. }
        | Reason::VramUsableUnknown
        | Reason::VramShortfall { .. }
        | Reason::VramExceeds { .. } => vram_text(locale, reason),
        Reason::MlperfInvalid { .. } | Reason::FilesDisagree { .. } | Reason::Retired { .. } => {
            file_text(locale, reason)
        }
        Reason::GpuNameMismatch { .. }
        | Reason::GpuCountMismatch { .. }
        | Reason::DriverMismatch { .. }
        | Reason::MigMismatch { .. }
        | Reason::QuoteUnverifiable { .. } => quote_text(locale, reason),
    };
    // `None` only if a group function lacks a variant the match above sends it (a test checks
    // every variant): the stable code then stands in for the sentence.
    text.unwrap_or_else(|| reason.code().to_string())
}

/// Run length and warm-up.
fn length_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::WarmupExcluded {
            warmup_s,
            throughput_incl_warmup: Some(whole),
            ..
        } => f(
            Msg::RunReasonWarmupExcludedThroughput,
            &[("seconds", &num(*warmup_s, 0)), ("whole", &num(*whole, 2))],
        ),
        Reason::WarmupExcluded { warmup_s, .. } => f(Msg::RunReasonWarmupExcluded, &[("seconds", &num(*warmup_s, 0))]),
        Reason::WarmupIncluded {
            warmup_s,
            duration_s,
            share,
            max_share,
        } => f(
            Msg::RunReasonWarmupIncluded,
            &[
                ("warmup", &num(*warmup_s, 0)),
                ("duration", &num(*duration_s, 0)),
                ("share", &pct(*share)),
                ("max", &pct(*max_share)),
            ],
        ),
        Reason::DurationUnknown => locale.t(Msg::RunReasonDurationUnknown).to_string(),
        Reason::DurationFromMlperf { min_duration_s } => f(
            Msg::RunReasonDurationFromMlperf,
            &[("minutes", &num(min_duration_s / 60.0, 1))],
        ),
        Reason::ShortRun {
            duration_s,
            warmup_s,
            min_s,
        } => f(
            Msg::RunReasonShortRun,
            &[
                ("minutes", &num(duration_s / 60.0, 1)),
                ("steady", &num((duration_s - warmup_s) / 60.0, 1)),
                ("min", &num(min_s / 60.0, 0)),
            ],
        ),
        _ => return None,
    })
}

/// What the telemetry shows: its window, slowdowns, utilisation.
fn telemetry_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    let share_or_unknown = |share: &Option<f64>| share.map_or_else(|| locale.t(Msg::RunsUnknown).to_string(), pct);
    Some(match reason {
        Reason::TelemetryMissing => locale.t(Msg::RunReasonTelemetryMissing).to_string(),
        Reason::RunWindow {
            start_s,
            end_s,
            covered_share,
        } => f(
            Msg::RunReasonRunWindow,
            &[
                ("start", &num(*start_s, 0)),
                ("end", &num(*end_s, 0)),
                ("covered", &pct(*covered_share)),
            ],
        ),
        Reason::RunWindowUnknown => locale.t(Msg::RunReasonRunWindowUnknown).to_string(),
        Reason::ThermalOrPowerSlowdown {
            active_s,
            share,
            max_share,
            reasons,
        } => {
            let names = reasons.iter().map(|r| r.smi_name()).collect::<Vec<_>>().join(", ");
            f(
                Msg::RunReasonThermalOrPowerSlowdown,
                &[
                    ("reasons", &names),
                    ("seconds", &num(*active_s, 0)),
                    ("share", &share_or_unknown(share)),
                    ("max", &pct(*max_share)),
                ],
            )
        }
        Reason::PowerCapped { active_s, share } => f(
            Msg::RunReasonPowerCapped,
            &[("seconds", &num(*active_s, 0)), ("share", &share_or_unknown(share))],
        ),
        Reason::LowUtilization {
            mean_pct,
            threshold_pct,
        } => f(
            Msg::RunReasonLowUtilization,
            &[("mean", &num(*mean_pct, 1)), ("threshold", &num(*threshold_pct, 0))],
        ),
        _ => return None,
    })
}

/// VRAM: the headroom rule and the quoted amount.
fn vram_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::VramHeadroomLow {
            peak_mib,
            usable_mib,
            headroom_pct,
            required_mib,
            ..
        } => f(
            Msg::RunReasonVramHeadroomLow,
            &[
                ("peak", &num(*peak_mib, 0)),
                ("headroom", &headroom_pct.normalize().to_string()),
                ("required", &required_mib.round_dp(0).to_string()),
                ("usable", &num(*usable_mib, 0)),
            ],
        ),
        Reason::VramUsableUnknown => locale.t(Msg::RunReasonVramUsableUnknown).to_string(),
        Reason::VramShortfall {
            quoted_mib,
            observed_mib,
            shortfall_share,
        } => f(
            Msg::RunReasonVramShortfall,
            &[
                ("quoted", &num(*quoted_mib, 0)),
                ("observed", &num(*observed_mib, 0)),
                ("share", &pct(*shortfall_share)),
            ],
        ),
        Reason::VramExceeds {
            quoted_mib,
            observed_mib,
        } => f(
            Msg::RunReasonVramExceeds,
            &[("quoted", &num(*quoted_mib, 0)), ("observed", &num(*observed_mib, 0))],
        ),
        _ => return None,
    })
}

/// What the files themselves say: MLPerf's own verdict, files from two nodes, retired findings.
fn file_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::MlperfInvalid {
            min_duration_satisfied,
            min_queries_satisfied,
            early_stopping_satisfied,
        } => f(
            Msg::RunReasonMlperfInvalid,
            &[
                ("duration", yes_no(locale, *min_duration_satisfied)),
                ("queries", yes_no(locale, *min_queries_satisfied)),
                ("early", yes_no(locale, *early_stopping_satisfied)),
            ],
        ),
        Reason::FilesDisagree {
            difference,
            result,
            telemetry,
        } => f(
            Msg::RunReasonFilesDisagree,
            &[
                ("what", locale.t(difference_msg(*difference))),
                ("result", result),
                ("telemetry", telemetry),
            ],
        ),
        Reason::Retired { was } => f(Msg::RunReasonRetired, &[("was", was)]),
        _ => return None,
    })
}

/// The node against its quote (VRAM aside).
fn quote_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::GpuNameMismatch { quoted, observed } => f(
            Msg::RunReasonGpuNameMismatch,
            &[("quoted", quoted), ("observed", observed)],
        ),
        Reason::GpuCountMismatch { quoted, observed } => f(
            Msg::RunReasonGpuCountMismatch,
            &[("quoted", &quoted.to_string()), ("observed", &observed.to_string())],
        ),
        Reason::DriverMismatch { quoted, observed } => f(
            Msg::RunReasonDriverMismatch,
            &[("quoted", quoted), ("observed", observed)],
        ),
        Reason::MigMismatch { quoted, observed } => {
            let mode = |sliced: bool| {
                locale.t(if sliced {
                    Msg::RunReasonSliced
                } else {
                    Msg::RunReasonWhole
                })
            };
            f(
                Msg::RunReasonMigMismatch,
                &[("quoted", mode(*quoted)), ("observed", mode(*observed))],
            )
        }
        Reason::QuoteUnverifiable { field } => f(
            Msg::RunReasonQuoteUnverifiable,
            &[("field", locale.t(field_msg(*field)))],
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::runs::ThrottleReason;

    #[test]
    fn numbers_read_well() {
        assert_eq!(num(12.50, 2), "12.5");
        assert_eq!(num(600.0, 1), "600");
        assert_eq!(num(f64::NAN, 1), "—");
        assert_eq!(pct(0.142_86), "14.3 %");
        assert_eq!(bytes(1_234_567), "1.2 MB");
        assert_eq!(bytes(830_000), "830 KB");
        assert_eq!(duration(1500.0), "25 min");
        assert_eq!(duration(45.2), "45 s");
        assert_eq!(duration(7200.0), "2 h");
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
        };
        assert_eq!(
            reason_text(Locale::En, &r),
            "VRAM peak 20480 MiB with the workload's 20 % headroom needs 24576 MiB per GPU; 23028 MiB are usable."
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
            "VRAM per GPU: quoted 81920 MiB, observed 40960 MiB (50 % short)."
        );
        assert!(is_quote_mismatch(&r));
        let r = Reason::MigMismatch {
            quoted: false,
            observed: true,
        };
        assert!(reason_text(Locale::En, &r).contains("quoted whole GPU, observed sliced"));
        let r = Reason::QuoteUnverifiable {
            field: QuoteField::Driver,
        };
        assert!(!is_quote_mismatch(&r));
        assert!(!reason_text(Locale::En, &r).contains('{'));
    }

    /// One value of every reason; the match makes the compiler ask for a sample of a new variant.
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
            },
            Reason::VramUsableUnknown,
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
                | Reason::LowUtilization { .. }
                | Reason::MlperfInvalid { .. }
                | Reason::FilesDisagree { .. }
                | Reason::GpuNameMismatch { .. }
                | Reason::GpuCountMismatch { .. }
                | Reason::VramShortfall { .. }
                | Reason::VramExceeds { .. }
                | Reason::DriverMismatch { .. }
                | Reason::MigMismatch { .. }
                | Reason::QuoteUnverifiable { .. }
                | Reason::Retired { .. } => {}
            }
        }
        all
    }

    #[test]
    fn every_reason_variant_has_a_sentence_in_both_languages() {
        let all = every_reason();
        let codes: std::collections::BTreeSet<&str> = all.iter().map(Reason::code).collect();
        assert_eq!(codes.len(), 23, "one sample of each of the 23 reasons");
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
}
