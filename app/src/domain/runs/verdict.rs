//! Verdict types: status, reasons (codes with structured data) and the
//! context the validity gate is judged against. The rules live in `judge`.

use serde::{Deserialize, Serialize};

use super::vocab::ThrottleReason;

/// Overall validity of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
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
    pub const fn status(self) -> Status {
        match self {
            Self::Info => Status::Valid,
            Self::Warn => Status::Warn,
            Self::Invalid => Status::Invalid,
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
}

/// Why a run is not plainly valid. Serialized with a `code` tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Reason {
    /// A warm-up stretch was detected in telemetry and excluded.
    WarmupExcluded {
        /// Excluded leading seconds.
        warmup_s: f64,
        /// Mean utilisation after the warm-up, percent.
        steady_util_mean_pct: Option<f64>,
    },
    /// The run's duration is unknown, so its length cannot be checked.
    DurationUnknown,
    /// The run is shorter than the minimum.
    ShortRun {
        /// Run length, seconds.
        duration_s: f64,
        /// Required minimum, seconds.
        min_s: f64,
    },
    /// No telemetry: utilisation, throttling and VRAM could not be checked.
    TelemetryMissing,
    /// A thermal or power slowdown was active.
    ThermalOrPowerSlowdown {
        /// Seconds affected on the worst GPU.
        active_s: f64,
        /// `active_s` over the run length (`None` when the length is unknown).
        share: Option<f64>,
        /// Share above which the run is invalid.
        max_share: f64,
        /// The slowdown reasons seen.
        reasons: Vec<ThrottleReason>,
    },
    /// VRAM peak leaves less headroom than the workload requires.
    VramHeadroomLow {
        /// Peak used on one GPU, MiB.
        peak_mib: f64,
        /// Total of one GPU, MiB.
        total_mib: f64,
        /// Required free share.
        headroom_share: f64,
        /// Highest acceptable peak, MiB.
        limit_mib: f64,
    },
    /// Mean utilisation is low: the bottleneck may be CPU, disk or network.
    LowUtilization {
        /// Steady-state mean, percent.
        mean_pct: f64,
        /// Threshold, percent.
        threshold_pct: f64,
    },
    /// MLPerf loadgen reported the result INVALID.
    MlperfInvalid {
        /// `Min duration satisfied`.
        min_duration_satisfied: Option<bool>,
        /// `Min queries satisfied`.
        min_queries_satisfied: Option<bool>,
        /// `Early stopping satisfied`.
        early_stopping_satisfied: Option<bool>,
    },
    /// Observed GPU model differs from the quote.
    GpuNameMismatch {
        /// Quoted name.
        quoted: String,
        /// Observed name.
        observed: String,
    },
    /// Observed GPU count differs from the quote (invalid when fewer).
    GpuCountMismatch {
        /// Quoted count.
        quoted: u32,
        /// Observed count.
        observed: u32,
    },
    /// Observed VRAM per GPU is short of the quote by more than the tolerance.
    VramShortfall {
        /// Quoted MiB per GPU.
        quoted_mib: f64,
        /// Observed MiB per GPU.
        observed_mib: f64,
        /// `1 − observed / quoted`.
        shortfall_share: f64,
    },
    /// Observed driver differs from the quote.
    DriverMismatch {
        /// Quoted driver.
        quoted: String,
        /// Observed driver.
        observed: String,
    },
    /// MIG / slicing mode differs from the quote.
    MigMismatch {
        /// Quoted as sliced.
        quoted: bool,
        /// Observed MIG enabled.
        observed: bool,
    },
    /// A quoted field could not be checked: nothing was observed.
    QuoteUnverifiable {
        /// The field.
        field: QuoteField,
    },
}

impl Reason {
    /// Stable snake_case code, identical to the serialized `code` tag.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::WarmupExcluded { .. } => "warmup_excluded",
            Self::DurationUnknown => "duration_unknown",
            Self::ShortRun { .. } => "short_run",
            Self::TelemetryMissing => "telemetry_missing",
            Self::ThermalOrPowerSlowdown { .. } => "thermal_or_power_slowdown",
            Self::VramHeadroomLow { .. } => "vram_headroom_low",
            Self::LowUtilization { .. } => "low_utilization",
            Self::MlperfInvalid { .. } => "mlperf_invalid",
            Self::GpuNameMismatch { .. } => "gpu_name_mismatch",
            Self::GpuCountMismatch { .. } => "gpu_count_mismatch",
            Self::VramShortfall { .. } => "vram_shortfall",
            Self::DriverMismatch { .. } => "driver_mismatch",
            Self::MigMismatch { .. } => "mig_mismatch",
            Self::QuoteUnverifiable { .. } => "quote_unverifiable",
        }
    }
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Worst severity of the reasons (`valid` when none).
    pub status: Status,
    /// Findings, in rule order.
    #[serde(default)]
    pub reasons: Vec<VerdictReason>,
}

impl Verdict {
    /// Builds a verdict whose status is the worst of `reasons`.
    #[must_use]
    pub fn from_reasons(reasons: Vec<VerdictReason>) -> Self {
        let status = reasons
            .iter()
            .map(|r| r.severity.status())
            .max()
            .unwrap_or(Status::Valid);
        Self { status, reasons }
    }
}

/// The node as quoted by the provider; `None` fields are not checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QuotedNode {
    /// GPU model name.
    pub gpu_name: Option<String>,
    /// Number of GPUs.
    pub gpu_count: Option<u32>,
    /// Memory per GPU, MiB.
    pub vram_per_gpu_mib: Option<f64>,
    /// Driver version (a prefix such as `"550"` matches `"550.54.15"`).
    pub driver: Option<String>,
    /// Quoted as MIG / sliced.
    pub mig: Option<bool>,
}

/// Thresholds of the validity gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Thresholds {
    /// Minimum run length, seconds (600 = the low end of "10–30 minutes").
    pub min_duration_s: f64,
    /// Throttled share of the run above which a warning becomes invalid.
    pub max_throttle_share: f64,
    /// Mean utilisation below which the run is flagged, percent.
    pub low_util_pct: f64,
    /// Warm-up ends when a rolling mean is within this many points of the
    /// steady median, percent points.
    pub warmup_tolerance_pct: f64,
    /// Rolling window for warm-up detection, seconds.
    pub warmup_window_s: f64,
    /// Observed VRAM may fall short of the quote by this share.
    pub vram_tolerance_share: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            min_duration_s: 600.0,
            max_throttle_share: 0.10,
            low_util_pct: 50.0,
            warmup_tolerance_pct: 10.0,
            warmup_window_s: 30.0,
            vram_tolerance_share: 0.05,
        }
    }
}

/// Everything [`judge`](super::judge) needs besides the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictContext {
    /// Share of VRAM the workload must leave free (e.g. 0.20).
    pub headroom_share: f64,
    /// Gate thresholds.
    #[serde(default)]
    pub thresholds: Thresholds,
    /// The quoted node, when judging a purchase.
    #[serde(default)]
    pub quote: Option<QuotedNode>,
}

impl Default for VerdictContext {
    fn default() -> Self {
        Self {
            headroom_share: 0.20,
            thresholds: Thresholds::default(),
            quote: None,
        }
    }
}
