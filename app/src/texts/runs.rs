//! Run figures and verdict reasons in the reader's language (pages and the API use these).

use crate::{
    domain::runs::{
        Difference, GpuUse, NeedBasis, QuoteField, Reason, ReserveSource, RunStatus, Severity, WorkloadField,
    },
    i18n::{Locale, Msg},
};

/// A number with at most `decimals` places, without trailing zeros, grouped by thousands
/// ("12.5", "600", "81,920"): [`crate::i18n::figure`].
pub use crate::i18n::figure as num;

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

/// A benchmark format (`vllm_legacy`, `nvidia_smi`: the stored id) by its name for people
/// (`vLLM benchmark (older benchmark_serving.py)`); an id without a name is shown as it is.
#[must_use]
pub fn format_label(locale: Locale, id: &str) -> String {
    Msg::from_key(&format!("runs.format_{id}")).map_or_else(|| id.to_owned(), |m| locale.t(m).to_owned())
}

/// A named throughput of a run (`total_tokens`, `requests`, `goodput`: what the parsers name
/// them) by its name for people; others (llama-bench's `pp512`, a script's own) as they are.
#[must_use]
pub fn metric_label(locale: Locale, name: &str) -> String {
    Msg::from_key(&format!("runs.metric_{name}")).map_or_else(|| name.to_owned(), |m| locale.t(m).to_owned())
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
            | Reason::GpuFormMismatch { .. }
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
        | Reason::VramReserved { .. }
        | Reason::VramShortfall { .. }
        | Reason::VramExceeds { .. } => vram_text(locale, reason),
        Reason::GpusUsed { .. } | Reason::PartOfNode { .. } | Reason::WorkloadDiffers { .. } => {
            gpus_text(locale, reason)
        }
        Reason::MlperfInvalid { .. }
        | Reason::FilesDisagree { .. }
        | Reason::CommandFailed { .. }
        | Reason::Retired { .. } => file_text(locale, reason),
        Reason::GpuNameMismatch { .. }
        | Reason::GpuFormMismatch { .. }
        | Reason::UnknownGpuModel { .. }
        | Reason::GpuCountMismatch { .. }
        | Reason::DriverMismatch { .. }
        | Reason::MigMismatch { .. }
        | Reason::QuoteUnverifiable { .. } => quote_text(locale, reason),
        Reason::ImpossibleFigure { .. }
        | Reason::RequestsFailed { .. }
        | Reason::ThroughputInconsistent { .. }
        | Reason::NoThroughput => sanity_text(locale, reason),
        Reason::ResponseTimeMet { .. }
        | Reason::MissesResponseTarget { .. }
        | Reason::ResponseTimeUnreported { .. } => super::response::reason_text(locale, reason),
        Reason::BusBandwidth { .. }
        | Reason::BusTestWrong { .. }
        | Reason::BusTestSmall { .. }
        | Reason::BusTestUnchecked => super::bus::reason_text(locale, reason),
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
            basis,
            usable_mib,
            headroom_pct,
            required_mib,
            ..
        } => f(
            match basis {
                None => Msg::RunReasonVramHeadroomLow,
                Some(NeedBasis::Measured) => Msg::RunReasonVramHeadroomLowNeedMeasured,
                Some(NeedBasis::WorkloadStated) => Msg::RunReasonVramHeadroomLowNeedStated,
            },
            &[
                ("peak", &num(*peak_mib, 0)),
                ("headroom", &headroom_pct.normalize().to_string()),
                ("required", &crate::domain::money::grouped(required_mib.round_dp(0))),
                ("usable", &num(*usable_mib, 0)),
            ],
        ),
        Reason::VramUsableUnknown => locale.t(Msg::RunReasonVramUsableUnknown).to_string(),
        Reason::VramReserved {
            reserved_mib,
            share,
            slice,
            source,
            need_mib,
            basis,
        } => {
            let held = match share {
                Some(s) => f(
                    if *slice {
                        Msg::RunReasonVramReservedSliceShare
                    } else {
                        Msg::RunReasonVramReservedShare
                    },
                    &[("mib", &num(*reserved_mib, 0)), ("share", &pct(*s))],
                ),
                None => f(Msg::RunReasonVramReservedMib, &[("mib", &num(*reserved_mib, 0))]),
            };
            let who = locale.t(match source {
                ReserveSource::Stated => Msg::RunReasonVramReservedStated,
                ReserveSource::Telemetry => Msg::RunReasonVramReservedSeen,
            });
            let judged = match (need_mib, basis) {
                (Some(m), Some(NeedBasis::Measured)) => {
                    f(Msg::RunReasonVramReservedNeedMeasured, &[("need", &num(*m, 0))])
                }
                (Some(m), _) => f(Msg::RunReasonVramReservedNeedStated, &[("need", &num(*m, 0))]),
                (None, _) => locale.t(Msg::RunReasonVramReservedNotJudged).to_string(),
            };
            f(
                Msg::RunReasonVramReserved,
                &[("held", &held), ("who", who), ("judged", &judged)],
            )
        }
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

/// Which GPUs the run used, a run on part of a node, and whether it ran the workload's model.
fn gpus_text(locale: Locale, reason: &Reason) -> Option<String> {
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    let list = |gpus: &[u32]| gpus.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    Some(match reason {
        Reason::GpusUsed { used, idle, named } => {
            let m = match (named, idle.is_empty()) {
                (true, true) => Msg::RunReasonGpusNamed,
                (true, false) => Msg::RunReasonGpusNamedOthers,
                (false, _) => Msg::RunReasonGpusIdle,
            };
            f(m, &[("used", &list(used)), ("idle", &list(idle))])
        }
        Reason::PartOfNode {
            used,
            node_gpus,
            job_gpus,
            gpu_use,
        } => {
            let args = [
                ("used", used.to_string()),
                ("node", node_gpus.to_string()),
                ("job", job_gpus.unwrap_or(*node_gpus).to_string()),
            ];
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let m = match gpu_use {
                GpuUse::TaskPerGpu => Msg::RunReasonPartOfNodePerGpu,
                GpuUse::OneJob if job_gpus.is_some_and(|j| j > *used) => Msg::RunReasonPartOfNodeJobShort,
                GpuUse::OneJob => Msg::RunReasonPartOfNodeJob,
            };
            f(m, &args)
        }
        Reason::WorkloadDiffers {
            what,
            run,
            workload,
            stands_for,
        } => {
            let what = locale.t(match what {
                WorkloadField::Model => Msg::RunReasonWorkloadModel,
                WorkloadField::Precision => Msg::RunReasonWorkloadPrecision,
            });
            let m = if *stands_for {
                Msg::RunReasonWorkloadDiffersStandsFor
            } else {
                Msg::RunReasonWorkloadDiffers
            };
            f(m, &[("what", what), ("run", run), ("workload", workload)])
        }
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
        // The measured command of `nodeledger probe` failed.
        Reason::CommandFailed { exit_code } => f(Msg::ProbeReasonCommandFailed, &[("code", &exit_code.to_string())]),
        _ => return None,
    })
}

/// Figures no measurement can give.
fn sanity_text(locale: Locale, reason: &Reason) -> Option<String> {
    use crate::domain::runs::FigureProblem;
    let f = |m: Msg, args: &[(&str, &str)]| locale.fmt(m, args);
    Some(match reason {
        Reason::ImpossibleFigure { field, problem } => f(
            match problem {
                FigureProblem::NotFinite => Msg::RunReasonImpossibleNotFinite,
                FigureProblem::Negative => Msg::RunReasonImpossibleNegative,
                FigureProblem::Zero => Msg::RunReasonImpossibleZero,
            },
            &[("field", field)],
        ),
        Reason::RequestsFailed {
            completed,
            failed,
            share,
            max_share,
        } => f(
            Msg::RunReasonRequestsFailed,
            &[
                ("failed", &num(*failed as f64, 0)),
                ("total", &num(completed.saturating_add(*failed) as f64, 0)),
                ("completed", &num(*completed as f64, 0)),
                ("share", &pct(*share)),
                ("max", &pct(*max_share)),
            ],
        ),
        Reason::ThroughputInconsistent {
            field,
            stated,
            computed,
            max_gap,
        } => {
            let gap = if *computed > 0.0 {
                (stated - computed).abs() / computed
            } else {
                0.0
            };
            f(
                Msg::RunReasonThroughputInconsistent,
                &[
                    ("field", field),
                    ("stated", &num(*stated, 1)),
                    ("computed", &num(*computed, 1)),
                    ("gap", &pct(gap)),
                    ("max", &pct(*max_gap)),
                ],
            )
        }
        Reason::NoThroughput => locale.t(Msg::RunReasonNoThroughput).to_owned(),
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
        Reason::GpuFormMismatch { quoted, observed, gpu } => f(
            Msg::RunReasonGpuFormMismatch,
            &[("quoted", quoted.label()), ("observed", observed.label()), ("gpu", gpu)],
        ),
        Reason::UnknownGpuModel { name } => f(Msg::RunReasonUnknownGpuModel, &[("name", name)]),
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
mod tests;
