//! Verdict types: status, reasons (codes with structured data) and the
//! context the validity gate is judged against. The rules live in `judge`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::vocab::ThrottleReason;

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

/// Why a run is not plainly valid. Serialized with a `code` tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Reason {
    /// A warm-up was detected and left out of the steady-state figures
    /// (utilisation; the throughput too when the run has `intervals`).
    WarmupExcluded {
        /// Excluded leading seconds.
        warmup_s: f64,
        /// Mean utilisation after the warm-up, percent.
        steady_util_mean_pct: Option<f64>,
        /// The whole-run throughput, when the steady one replaced it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        throughput_incl_warmup: Option<f64>,
    },
    /// The tool gives only a whole-run throughput: it includes the warm-up.
    WarmupIncluded {
        /// Warm-up seconds (detected in the telemetry).
        warmup_s: f64,
        /// Run length, seconds.
        duration_s: f64,
        /// `warmup_s / duration_s`.
        share: f64,
        /// Share above which the run is invalid.
        max_share: f64,
    },
    /// The run's duration is unknown, so its length cannot be checked.
    DurationUnknown,
    /// The duration is MLPerf loadgen's `min_duration`, reported satisfied.
    DurationFromMlperf {
        /// `min_duration`, seconds.
        min_duration_s: f64,
    },
    /// The run is shorter than the minimum once the warm-up is left out.
    ShortRun {
        /// Run length, seconds.
        duration_s: f64,
        /// Warm-up left out, seconds.
        #[serde(default)]
        warmup_s: f64,
        /// Required minimum after the warm-up, seconds.
        min_s: f64,
    },
    /// No telemetry of VRAM and throttling: the run cannot be valid (an order
    /// may rest on it only through a written waiver).
    TelemetryMissing,
    /// The result's own time window inside the telemetry, which the warm-up,
    /// slowdown and VRAM peak are judged in.
    RunWindow {
        /// Window start, telemetry seconds.
        start_s: f64,
        /// Window end, telemetry seconds.
        end_s: f64,
        /// Share of the window the telemetry covers.
        covered_share: f64,
    },
    /// The result could not be placed inside the telemetry (no times on one
    /// side): everything is judged on the whole telemetry.
    RunWindowUnknown,
    /// A thermal, power-brake or hardware slowdown was active.
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
    /// The GPU ran at its configured power limit (`sw_power_cap`) for a
    /// while: reported, not a slowdown.
    PowerCapped {
        /// Seconds at the cap on the worst GPU.
        active_s: f64,
        /// `active_s` over the run length, when known.
        share: Option<f64>,
    },
    /// The VRAM peak with the workload's headroom needs more than one GPU
    /// (or slice) offers ([`crate::domain::vram::assess`]).
    VramHeadroomLow {
        /// Peak used on one GPU, MiB.
        peak_mib: f64,
        /// Usable VRAM of one GPU or slice, MiB.
        usable_mib: f64,
        /// The workload's headroom, percent.
        headroom_pct: Decimal,
        /// peak × (1 + headroom ÷ 100), MiB.
        required_mib: Decimal,
        /// (usable − peak) ÷ peak, whole percent.
        actual_pct: Option<i64>,
    },
    /// The headroom could not be checked: the run observed MIG (whose
    /// reported memory is the parent GPU's) and no quote states the slice.
    VramUsableUnknown,
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
    /// The result file and the telemetry do not describe the same node.
    FilesDisagree {
        /// What differs.
        difference: Difference,
        /// As the result file names it.
        result: String,
        /// As the telemetry observed it.
        telemetry: String,
    },
    /// Observed GPU model differs from the quote.
    GpuNameMismatch { quoted: String, observed: String },
    /// Observed GPU count differs from the quote (invalid when fewer).
    GpuCountMismatch { quoted: u32, observed: u32 },
    /// Observed VRAM per GPU is short of the quote by more than the tolerance.
    VramShortfall {
        /// Quoted MiB per GPU.
        quoted_mib: f64,
        /// Observed MiB per GPU.
        observed_mib: f64,
        /// `1 − observed / quoted`.
        shortfall_share: f64,
    },
    /// Observed VRAM per GPU exceeds the quote by more than the tolerance:
    /// the run was not on the quoted card.
    VramExceeds {
        /// Quoted MiB per GPU.
        quoted_mib: f64,
        /// Observed MiB per GPU.
        observed_mib: f64,
    },
    /// Observed driver differs from the quote.
    DriverMismatch { quoted: String, observed: String },
    /// MIG / slicing mode differs from the quote.
    MigMismatch {
        /// Quoted as sliced.
        quoted: bool,
        /// Observed MIG enabled.
        observed: bool,
    },
    /// A quoted field could not be checked: nothing was observed.
    QuoteUnverifiable { field: QuoteField },
    /// Issue 16: the measured command exited non-zero (`nodeledger probe
    /// --keep-failed` uploaded it anyway, [`EXTRA_COMMAND_EXIT_CODE`](super::EXTRA_COMMAND_EXIT_CODE)):
    /// the run is a failure on record, never a measurement.
    CommandFailed {
        /// The command's exit code.
        exit_code: i64,
    },
    /// A finding of an earlier version of the rules that this version no
    /// longer reads (stored runs keep it until they are judged again).
    Retired {
        /// Its code.
        was: String,
    },
}

impl Reason {
    /// Stable snake_case code, identical to the serialized `code` tag.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::WarmupExcluded { .. } => "warmup_excluded",
            Self::WarmupIncluded { .. } => "warmup_included",
            Self::DurationUnknown => "duration_unknown",
            Self::DurationFromMlperf { .. } => "duration_from_mlperf",
            Self::ShortRun { .. } => "short_run",
            Self::TelemetryMissing => "telemetry_missing",
            Self::RunWindow { .. } => "run_window",
            Self::RunWindowUnknown => "run_window_unknown",
            Self::ThermalOrPowerSlowdown { .. } => "thermal_or_power_slowdown",
            Self::PowerCapped { .. } => "power_capped",
            Self::VramHeadroomLow { .. } => "vram_headroom_low",
            Self::VramUsableUnknown => "vram_usable_unknown",
            Self::LowUtilization { .. } => "low_utilization",
            Self::MlperfInvalid { .. } => "mlperf_invalid",
            Self::FilesDisagree { .. } => "files_disagree",
            Self::GpuNameMismatch { .. } => "gpu_name_mismatch",
            Self::GpuCountMismatch { .. } => "gpu_count_mismatch",
            Self::VramShortfall { .. } => "vram_shortfall",
            Self::VramExceeds { .. } => "vram_exceeds",
            Self::DriverMismatch { .. } => "driver_mismatch",
            Self::MigMismatch { .. } => "mig_mismatch",
            Self::QuoteUnverifiable { .. } => "quote_unverifiable",
            Self::CommandFailed { .. } => "command_failed",
            Self::Retired { .. } => "retired",
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

/// The node as quoted by the provider; `None` fields are not checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QuotedNode {
    /// GPU model name.
    pub gpu_name: Option<String>,
    /// Number of GPUs.
    pub gpu_count: Option<u32>,
    /// Usable memory of one GPU, or of one slice for MIG/vGPU, MiB.
    pub vram_per_gpu_mib: Option<Decimal>,
    /// Driver version (a prefix such as `"550"` matches `"550.54.15"`).
    pub driver: Option<String>,
    /// Quoted as MIG / sliced.
    pub mig: Option<bool>,
}

/// Thresholds of the validity gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Thresholds {
    /// Minimum run length after the warm-up, seconds (600 = the low end of
    /// "10–30 minutes"); shorter is invalid.
    pub min_duration_s: f64,
    /// Throttled share of the run above which a warning becomes invalid.
    pub max_throttle_share: f64,
    /// Warm-up share of a whole-run figure above which the run is invalid.
    pub max_warmup_share: f64,
    /// Share of the result's window the telemetry must cover; less warns.
    pub min_window_coverage: f64,
    /// Mean utilisation below which the run is flagged, percent.
    pub low_util_pct: f64,
    /// Warm-up ends when a rolling mean is within this many points of the
    /// steady median, percent points.
    pub warmup_tolerance_pct: f64,
    /// Rolling window for warm-up detection, seconds.
    pub warmup_window_s: f64,
    /// Observed VRAM may differ from the quote by this share (7 %: GDDR6
    /// cards with ECC on report 1/16 less, e.g. an A10's 23028 MiB of 24 GiB).
    pub vram_tolerance_share: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            min_duration_s: 600.0,
            max_throttle_share: 0.10,
            max_warmup_share: 0.10,
            min_window_coverage: 0.95,
            low_util_pct: 50.0,
            warmup_tolerance_pct: 10.0,
            warmup_window_s: 30.0,
            vram_tolerance_share: 0.07,
        }
    }
}

/// Everything [`judge`](super::judge) needs besides the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictContext {
    /// VRAM headroom the workload asks for on top of its peak, percent
    /// (15–25, [`crate::domain::vram`]).
    pub headroom_pct: Decimal,
    #[serde(default)]
    pub thresholds: Thresholds,
    /// The quoted node, when judging a purchase.
    #[serde(default)]
    pub quote: Option<QuotedNode>,
}

impl Default for VerdictContext {
    fn default() -> Self {
        Self {
            headroom_pct: Decimal::from(20),
            thresholds: Thresholds::default(),
            quote: None,
        }
    }
}
