//! Each verdict reason in the reader's language, by area: run length, telemetry, memory, GPUs,
//! files, sanity of the figures and the quoted node.

use super::*;

/// Run length and warm-up.
pub(super) fn length_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn telemetry_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn vram_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn gpus_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn file_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn sanity_text(locale: Locale, reason: &Reason) -> Option<String> {
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
pub(super) fn quote_text(locale: Locale, reason: &Reason) -> Option<String> {
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
