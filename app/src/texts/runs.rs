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

mod reasons;
use reasons::{file_text, gpus_text, length_text, quote_text, sanity_text, telemetry_text, vram_text};

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

#[cfg(test)]
mod tests;
