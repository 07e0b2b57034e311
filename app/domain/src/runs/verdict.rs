//! Verdict types: status, reasons (codes with structured data) and the
//! context the validity gate is judged against. The rules live in `judge`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::response::ResponseTarget;
use super::vocab::ThrottleReason;
use crate::gpus::GpuMount;

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
    /// (or slice) offers ([`crate::vram::assess`]).
    VramHeadroomLow {
        /// Peak judged on one GPU, MiB: the observed peak, or beneath a reservation the
        /// workload's need (see `basis`).
        peak_mib: f64,
        /// Where `peak_mib` comes from when the observed memory was a reservation; `None`: the
        /// observed peak.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        basis: Option<NeedBasis>,
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
    /// The memory the run shows is a serving engine's up-front reservation, not the workload's
    /// need: the headroom is judged on the need (`basis`), or not at all when none is known.
    VramReserved {
        /// Memory held on one GPU, MiB.
        reserved_mib: f64,
        /// Its share of one GPU's memory (of the slice's, on a MIG instance or a fractional
        /// share), when that size is known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        share: Option<f64>,
        /// The run is on a slice of a card: `share` is of the slice's memory.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        slice: bool,
        /// Who says it is a reservation.
        source: ReserveSource,
        /// The need the headroom was judged on, MiB; `None`: not judged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        need_mib: Option<f64>,
        /// Where `need_mib` comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        basis: Option<NeedBasis>,
    },
    /// The run measured another model or precision than the workload's: its throughput is not
    /// the workload's (warn: left out of the workload's costs), unless the engineer says it
    /// stands for the workload (info).
    WorkloadDiffers {
        /// What differs.
        what: WorkloadField,
        /// As the run names it.
        run: String,
        /// As the workload names it.
        workload: String,
        /// The engineer says the run stands for the workload.
        #[serde(default)]
        stands_for: bool,
    },
    /// The run meets the workload's response-time target (info).
    ResponseTimeMet {
        /// The target.
        target: ResponseTarget,
        /// What the run measured, milliseconds.
        measured_ms: f64,
        /// The concurrency the run ran at, when it says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        concurrency: Option<u64>,
    },
    /// The run misses the workload's response-time target (warn: kept and shown, a point on
    /// its node's curve, but not the workload's evidence).
    MissesResponseTarget {
        /// The target.
        target: ResponseTarget,
        /// What the run measured, milliseconds.
        measured_ms: f64,
        /// The concurrency the run ran at, when it says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        concurrency: Option<u64>,
    },
    /// The run reports latencies but not the one the target is stated in, so it cannot show
    /// that it meets it (warn).
    ResponseTimeUnreported {
        /// The target.
        target: ResponseTarget,
    },
    /// Which of the node's GPUs the run used: the named ones, or those that worked. Idle cards
    /// are listed, not averaged into utilisation, memory or slowdown.
    GpusUsed {
        /// Telemetry indices of the GPUs the run used.
        used: Vec<u32>,
        /// Telemetry indices of the GPUs seen idle (or not named).
        idle: Vec<u32>,
        /// Whether the engineer or the probe named the GPUs.
        named: bool,
    },
    /// The run used fewer GPUs than the node has. For a workload that runs one task per GPU the
    /// node's throughput is the run's per GPU × the node's GPUs (info); for one job across GPUs a
    /// run on fewer GPUs than the job spreads over does not measure the job (warn).
    PartOfNode {
        /// GPUs the run used.
        used: u32,
        /// GPUs in the quoted node.
        node_gpus: u32,
        /// GPUs one job spreads over (the workload's), when the workload runs one job.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        job_gpus: Option<u32>,
        /// How the workload uses the node.
        gpu_use: GpuUse,
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
    /// The observed GPU is mounted otherwise than quoted (an SXM module quoted, a PCIe card
    /// observed): another variant of the model, with other clocks, power and links.
    GpuFormMismatch {
        /// The quote's form factor.
        quoted: GpuMount,
        /// The observed variant's, from the GPU catalogue.
        observed: GpuMount,
        /// The observed GPU name.
        gpu: String,
    },
    /// A GPU name the catalogue does not know: it was compared with the other name word by
    /// word (every quoted word in the observed name).
    UnknownGpuModel { name: String },
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
    /// MIG mode differs from the quote: MIG on for a whole-GPU offer, or off for a MIG offer.
    MigMismatch {
        /// Quoted as a MIG slice.
        quoted: bool,
        /// Observed MIG enabled.
        observed: bool,
    },
    /// A quoted field could not be checked: nothing was observed.
    QuoteUnverifiable { field: QuoteField },
    /// The measured command exited non-zero (`nodeledger probe
    /// --keep-failed` uploaded it anyway, [`EXTRA_COMMAND_EXIT_CODE`](super::EXTRA_COMMAND_EXIT_CODE)):
    /// the run is a failure on record, never a measurement.
    CommandFailed {
        /// The command's exit code.
        exit_code: i64,
    },
    /// A figure of the result that no measurement can give: not a number or infinite (Python's
    /// `json.dump` writes `NaN` and `Infinity`), negative, or zero where a run must have some.
    /// The run is invalid: a broken figure is never evidence.
    ImpossibleFigure {
        /// The figure as the result names it (`output_throughput`, `duration`…).
        field: String,
        /// What is wrong with it.
        problem: FigureProblem,
    },
    /// Requests of a serving benchmark failed: none completed, or more than the allowed share
    /// failed (a server answering errors looks busy in the telemetry).
    RequestsFailed {
        /// Requests completed.
        completed: u64,
        /// Requests failed.
        failed: u64,
        /// `failed ÷ (completed + failed)`.
        share: f64,
        /// Share above which the run is invalid.
        max_share: f64,
    },
    /// The stated throughput disagrees with the tokens the result counts over its duration.
    ThroughputInconsistent {
        /// The stated figure's name.
        field: String,
        /// As stated, per second.
        stated: f64,
        /// `tokens ÷ duration`, per second.
        computed: f64,
        /// Gap above which the run is invalid, as a share of `computed`.
        max_gap: f64,
    },
    /// The result states no headline throughput: nothing to cost, so never valid.
    NoThroughput,
    /// An nccl-tests run: the bus bandwidth at the largest sizes, against what the quoted link
    /// should give ([`crate::gpus::links`]).
    BusBandwidth {
        /// Bus bandwidth at the largest sizes, GB/s.
        bus_gbps: f64,
        /// The largest message size tested, bytes.
        largest_bytes: u64,
        /// Ranks (GPUs) that took part.
        ranks: u32,
        /// What the quoted link should give, when the quote and the catalogue say.
        #[serde(default)]
        expected: Option<crate::gpus::links::LinkFigure>,
    },
    /// An nccl-tests run counted wrong values: the GPUs or the link returned wrong data.
    BusTestWrong {
        /// Wrong elements (and out-of-bounds values) over every row.
        wrong: u64,
    },
    /// An nccl-tests run stopped before the message sizes that reach the bus bandwidth.
    BusTestSmall {
        /// The largest size tested, bytes.
        largest_bytes: u64,
        /// The least largest size that counts, bytes.
        least_bytes: u64,
    },
    /// An nccl-tests run did not check its results (`-c 0`).
    BusTestUnchecked,
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
            Self::VramReserved { .. } => "vram_reserved",
            Self::GpusUsed { .. } => "gpus_used",
            Self::WorkloadDiffers { .. } => "workload_differs",
            Self::ResponseTimeMet { .. } => "response_time_met",
            Self::MissesResponseTarget { .. } => "misses_response_target",
            Self::ResponseTimeUnreported { .. } => "response_time_unreported",
            Self::PartOfNode { .. } => "part_of_node",
            Self::LowUtilization { .. } => "low_utilization",
            Self::MlperfInvalid { .. } => "mlperf_invalid",
            Self::FilesDisagree { .. } => "files_disagree",
            Self::GpuNameMismatch { .. } => "gpu_name_mismatch",
            Self::GpuFormMismatch { .. } => "gpu_form_mismatch",
            Self::UnknownGpuModel { .. } => "unknown_gpu_model",
            Self::GpuCountMismatch { .. } => "gpu_count_mismatch",
            Self::VramShortfall { .. } => "vram_shortfall",
            Self::VramExceeds { .. } => "vram_exceeds",
            Self::DriverMismatch { .. } => "driver_mismatch",
            Self::MigMismatch { .. } => "mig_mismatch",
            Self::QuoteUnverifiable { .. } => "quote_unverifiable",
            Self::CommandFailed { .. } => "command_failed",
            Self::ImpossibleFigure { .. } => "impossible_figure",
            Self::RequestsFailed { .. } => "requests_failed",
            Self::ThroughputInconsistent { .. } => "throughput_inconsistent",
            Self::NoThroughput => "no_throughput",
            Self::BusBandwidth { .. } => "bus_bandwidth",
            Self::BusTestWrong { .. } => "bus_test_wrong",
            Self::BusTestSmall { .. } => "bus_test_small",
            Self::BusTestUnchecked => "bus_test_unchecked",
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
    /// How the GPUs are shared; `None`: not stated.
    pub slicing: Option<Slicing>,
    /// The quoted form factor (PCIe or SXM), when stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_factor: Option<GpuMount>,
    /// The quoted link between the GPUs is NVLink or NVSwitch (`Some(false)`: PCIe or none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlink: Option<bool>,
    /// The quoted network between nodes, Gbit/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_gbps: Option<Decimal>,
}

/// How a quoted GPU is shared, as the verdict checks it: only a MIG slice expects MIG mode on,
/// and only a whole GPU or a vGPU reports its own memory (a MIG instance and a fractional share
/// see the parent card's `memory.total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slicing {
    /// Whole GPUs: MIG off.
    Whole,
    /// A MIG instance: MIG on; memory is the profile's.
    Mig,
    /// A virtual GPU (hypervisor time-slicing, e.g. NVIDIA vGPU): the guest's nvidia-smi shows
    /// the profile's framebuffer as `memory.total` and MIG as off or not supported.
    Vgpu,
    /// A fractional or time-sliced share of one card (container-level): the card's own
    /// `memory.total` is seen, the share is not.
    Fractional,
}

impl Slicing {
    /// Whether nvidia-smi's `memory.total` is this offer's own memory per GPU.
    #[must_use]
    pub const fn reports_own_memory(self) -> bool {
        matches!(self, Self::Whole | Self::Vgpu)
    }
}

/// How a workload uses a node's GPUs: a task per card, or one job across them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuUse {
    /// One job spread over the GPUs it needs (tensor/pipeline parallel, data-parallel training).
    #[default]
    OneJob,
    /// One independent task per GPU: the node's throughput is one GPU's × its GPUs.
    TaskPerGpu,
}

/// A fact of what ran that the workload also states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadField {
    /// The model.
    Model,
    /// The numeric precision or quantisation.
    Precision,
}

/// Who says a run's memory is a reservation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReserveSource {
    /// The result file, the engineer or the probe.
    Stated,
    /// The telemetry: memory flat at a high share of the card while utilisation varies.
    Telemetry,
}

/// What is wrong with an [`Reason::ImpossibleFigure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureProblem {
    /// `NaN`, `Infinity` or `-Infinity`.
    NotFinite,
    /// Below zero.
    Negative,
    /// Zero where a run must have some (its duration, its throughput).
    Zero,
}

/// What the headroom is judged on beneath a reservation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeedBasis {
    /// The workload's own peak as the run measured it (`vram_needed_mib`).
    Measured,
    /// The workload's stated peak.
    WorkloadStated,
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
    /// Observed VRAM may differ from the quote by this share
    /// ([`crate::vram::VRAM_TOLERANCE_PCT`], shared with the checklist).
    pub vram_tolerance_share: f64,
    /// A GPU whose mean utilisation in the run stays below this is idle, percent: not one of
    /// the run's GPUs unless named.
    pub idle_gpu_util_pct: f64,
    /// Memory held at or above this share of the card from its first high sample to the end
    /// is a reservation (vLLM's default is 0.9), when utilisation varies meanwhile.
    pub reserve_min_share: f64,
    /// … by at least this many percent points (a serving benchmark's load changes; a training
    /// step's does not).
    pub reserve_util_range_pct: f64,
    /// Share of a serving benchmark's requests that may fail; more is invalid.
    pub max_failed_share: f64,
    /// Gap between a stated throughput and tokens ÷ duration above which the run is invalid,
    /// as a share of tokens ÷ duration.
    pub max_throughput_gap: f64,
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
            vram_tolerance_share: crate::vram::VRAM_TOLERANCE_PCT as f64 / 100.0,
            idle_gpu_util_pct: 5.0,
            reserve_min_share: 0.8,
            reserve_util_range_pct: 20.0,
            max_failed_share: 0.01,
            max_throughput_gap: 0.05,
        }
    }
}

/// Everything [`judge`](super::judge) needs besides the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictContext {
    /// VRAM headroom the workload asks for on top of its peak, percent
    /// (15–25, [`crate::vram`]).
    pub headroom_pct: Decimal,
    #[serde(default)]
    pub thresholds: Thresholds,
    /// The quoted node, when judging a purchase.
    #[serde(default)]
    pub quote: Option<QuotedNode>,
    /// How the workload uses a node's GPUs.
    #[serde(default)]
    pub gpu_use: GpuUse,
    /// GPUs one job of the workload spreads over, when known.
    #[serde(default)]
    pub job_gpus: Option<u32>,
    /// The workload's stated peak VRAM per GPU, MiB: what the headroom is judged on beneath a
    /// reservation when the run does not measure the need itself.
    #[serde(default)]
    pub workload_peak_mib: Option<Decimal>,
    /// The workload's model, when stated.
    #[serde(default)]
    pub workload_model: Option<String>,
    /// The workload's precision, when stated.
    #[serde(default)]
    pub workload_precision: Option<String>,
    /// How fast the workload must answer each user, when stated.
    #[serde(default)]
    pub response_target: Option<ResponseTarget>,
}

/// Whether `measured_ms` meets `target` (a figure that is no decimal never does).
#[must_use]
pub fn meets(target: &ResponseTarget, measured_ms: f64) -> bool {
    Decimal::try_from(measured_ms).is_ok_and(|ms| target.met_by(ms))
}

impl Default for VerdictContext {
    fn default() -> Self {
        Self {
            headroom_pct: Decimal::from(20),
            thresholds: Thresholds::default(),
            quote: None,
            gpu_use: GpuUse::default(),
            job_gpus: None,
            workload_peak_mib: None,
            workload_model: None,
            workload_precision: None,
            response_target: None,
        }
    }
}
