//! Verdict types: status, reasons (codes with structured data) and the
//! context the validity gate is judged against. The rules live in `judge`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::response::ResponseTarget;
use super::vocab::ThrottleReason;
use crate::gpus::GpuMount;

mod reason;
pub use reason::Reason;
mod context;
pub use context::{
    FigureProblem, GpuUse, NeedBasis, QuotedNode, ReserveSource, Slicing, Thresholds, VerdictContext, WorkloadField,
    meets,
};

/// Overall validity of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Nothing to flag.
    Valid,
    /// Usable with caveats.
    Warn,
    /// Must not be used for comparison or acceptance.
    Invalid,
}

/// Severity of one reason; the status is the worst severity (`info` → valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Informational; does not change the status.
    Info,
    /// Turns the status into `warn`.
    Warn,
    /// Turns the status into `invalid`.
    Invalid,
}

impl Severity {
    /// The status this severity implies on its own.
    #[must_use]
    pub const fn status(self) -> RunStatus {
        match self {
            Self::Info => RunStatus::Valid,
            Self::Warn => RunStatus::Warn,
            Self::Invalid => RunStatus::Invalid,
        }
    }
}

/// A quoted-node field that could not be checked against observations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuoteField {
    /// GPU model name.
    GpuName,
    /// Number of GPUs.
    GpuCount,
    /// Memory per GPU.
    Vram,
    /// Driver version.
    Driver,
    /// MIG / slicing mode.
    Mig,
    /// CUDA version.
    Cuda,
}

/// A way the observed node can differ from the quote, or the telemetry's
/// node from the one the result file names. Each has one severity, in one
/// table: [`severity_of`](super::severity_of).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difference {
    /// Another GPU model.
    GpuModel,
    /// Fewer GPUs.
    FewerGpus,
    /// More GPUs.
    MoreGpus,
    /// Less VRAM per GPU (beyond the tolerance).
    LessVram,
    /// More VRAM per GPU (beyond the tolerance): another card than quoted.
    MoreVram,
    /// Sliced (MIG/vGPU) against whole, or the other way round.
    Slicing,
    /// Another driver version.
    Driver,
    /// Another CUDA version.
    Cuda,
}

/// One reason with its severity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictReason {
    /// How much it counts.
    pub severity: Severity,
    /// What was found.
    #[serde(flatten)]
    pub reason: Reason,
}

/// The validity verdict of a run.
///
/// Reads leniently: a stored reason this version cannot read (an earlier
/// version's shape) becomes [`Reason::Retired`] with its severity, so a
/// stored run always opens; the status is kept as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Worst severity of the reasons (`valid` when none).
    pub status: RunStatus,
    /// Findings, in rule order.
    #[serde(default, deserialize_with = "lenient_reasons")]
    pub reasons: Vec<VerdictReason>,
}

fn lenient_reasons<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<VerdictReason>, D::Error> {
    let raw = Vec::<serde_json::Value>::deserialize(d)?;
    Ok(raw
        .into_iter()
        .map(|v| {
            serde_json::from_value::<VerdictReason>(v.clone()).unwrap_or_else(|_| {
                let severity = v
                    .get("severity")
                    .and_then(|s| serde_json::from_value(s.clone()).ok())
                    .unwrap_or(Severity::Info);
                let was = v
                    .get("code")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("")
                    .chars()
                    .take(64)
                    .collect();
                VerdictReason {
                    severity,
                    reason: Reason::Retired { was },
                }
            })
        })
        .collect())
}

impl Verdict {
    /// Builds a verdict whose status is the worst of `reasons`.
    #[must_use]
    pub fn from_reasons(reasons: Vec<VerdictReason>) -> Self {
        let status = reasons
            .iter()
            .map(|r| r.severity.status())
            .max()
            .unwrap_or(RunStatus::Valid);
        Self { status, reasons }
    }
}
