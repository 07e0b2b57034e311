//! Why a run is not plainly valid: every reason the verdict can give, each with its code.

use super::*;

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
