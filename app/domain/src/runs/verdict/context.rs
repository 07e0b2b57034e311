//! What a run is judged against besides itself: the quoted node, the workload's facts and the
//! thresholds of the validity gate.

use super::*;

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
