//! The canonical run record (`nodeledger.run/v1`): our own storage format and
//! the output of every parser.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::format::Format;
use super::verdict::Verdict;
use super::vocab::{ThrottleReason, ThroughputUnit};

/// The `schema` value of the current canonical version.
pub const SCHEMA_V1: &str = "nodeledger.run/v1";

/// Prefix shared by every canonical schema version.
pub const SCHEMA_PREFIX: &str = "nodeledger.run/";

/// Top-level JSON property names of [`CanonicalRun`], in declaration order.
pub const TOP_LEVEL_FIELDS: [&str; 27] = [
    "schema",
    "source_format",
    "node",
    "result_node",
    "started_at",
    "ended_at",
    "telemetry_origin",
    "workload",
    "throughput",
    "throughputs",
    "latency_ms",
    "latencies",
    "vram_peak_mib",
    "vram_reserved",
    "vram_needed_mib",
    "gpu_util_mean_pct",
    "duration_s",
    "warmup_s",
    "throttle",
    "gpus_named",
    "gpus_used",
    "stands_for_workload",
    "telemetry",
    "intervals",
    "bus_test",
    "verdict",
    "extra",
];

/// One benchmark run in canonical form.
///
/// Per-GPU figures (`vram_peak_mib`, `node.vram_total_mib`) are per device:
/// the peak is the highest single-GPU memory use, the total is one GPU's size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanonicalRun {
    /// Always [`SCHEMA_V1`] for this version.
    pub schema: String,
    /// The format the figures were parsed from.
    pub source_format: Format,
    /// Observed node (hardware/software) facts.
    #[serde(default)]
    pub node: NodeInfo,
    /// The node as the benchmark result itself named it, kept by
    /// [`merge`](super::merge) when the telemetry supplied `node`, so the
    /// verdict can tell when the two files are not from the same node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_node: Option<NodeInfo>,
    /// When the benchmark started: wall-clock time as written by the tool,
    /// `YYYY-MM-DDTHH:MM:SS[.fff]`, no time zone (see `clock`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// When the benchmark ended, same form as `started_at` (vLLM's `date`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// Wall-clock time of telemetry `t = 0`, same form as `started_at`; with
    /// `started_at`/`ended_at` it places the run inside its telemetry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub telemetry_origin: Option<String>,
    /// What was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<RunWorkload>,
    /// The one primary throughput figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<Throughput>,
    /// Other throughput figures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub throughputs: Vec<NamedThroughput>,
    /// End-to-end latency percentiles in milliseconds, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<LatencyPercentiles>,
    /// Further latency statistics in milliseconds, keyed `"<metric>.<stat>"`:
    /// metric ∈ {`ttft`, `tpot`, `itl`, `e2el`, `latency`}, stat ∈ {`mean`,
    /// `median`, `std`, `min`, `max`, `p<N>`} (e.g. `"ttft.p99"`, `"latency.p99.9"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub latencies: BTreeMap<String, f64>,
    /// Highest memory used on any single GPU, MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vram_peak_mib: Option<f64>,
    /// Whether `vram_peak_mib` is a reservation rather than the workload's need: serving
    /// engines take a fixed share of every card at start (vLLM `--gpu-memory-utilization`,
    /// default 0.9; SGLang `--mem-fraction-static`; TGI; TensorRT-LLM's KV-cache fraction) and
    /// fill it with KV cache, so memory used shows the share, not what the model needs.
    /// `Some(true)` when the result format, the engineer or the probe says so; the verdict also
    /// recognises a reservation in the telemetry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vram_reserved: Option<bool>,
    /// The workload's own peak memory on one GPU, MiB, when the tool measures it beneath a
    /// reservation (e.g. `torch.cuda.max_memory_allocated`); the headroom rule judges this
    /// figure instead of the reservation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vram_needed_mib: Option<f64>,
    /// Mean GPU utilisation, percent (steady state once assessed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_util_mean_pct: Option<f64>,
    /// Benchmark wall-clock duration, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// Leading warm-up excluded from steady-state figures, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup_s: Option<f64>,
    /// Thermal/power slowdown summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttle: Option<Throttle>,
    /// The GPUs (telemetry indices) the engineer or the probe names as the run's, e.g. from
    /// `CUDA_VISIBLE_DEVICES`; empty when not named (the verdict then takes the cards that
    /// worked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gpus_named: Vec<u32>,
    /// The GPUs the run used, as judged (set by [`assess`](super::assess)): the named ones, else
    /// those that worked in the telemetry; empty without per-GPU telemetry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gpus_used: Vec<u32>,
    /// The engineer says the run stands for the workload although its model or precision
    /// differs (e.g. a smaller model of the same family measured on the same node).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stands_for_workload: bool,
    /// Downsampled telemetry series, grouped by GPU, time-ordered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub telemetry: Vec<TelemetrySample>,
    /// The primary throughput per interval, time-ordered: with it the
    /// assessed `throughput` is the steady state (warm-up left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intervals: Vec<Interval>,
    /// What an nccl-tests output measured of the link between the GPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bus_test: Option<BusTest>,
    /// Validity verdict, once judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Source keys without a canonical home, kept verbatim.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

impl CanonicalRun {
    /// An empty run of the given source format.
    #[must_use]
    pub fn new(source_format: Format) -> Self {
        Self {
            schema: SCHEMA_V1.to_owned(),
            source_format,
            node: NodeInfo::default(),
            result_node: None,
            started_at: None,
            ended_at: None,
            telemetry_origin: None,
            workload: None,
            throughput: None,
            throughputs: Vec::new(),
            latency_ms: None,
            latencies: BTreeMap::new(),
            vram_peak_mib: None,
            vram_reserved: None,
            vram_needed_mib: None,
            gpu_util_mean_pct: None,
            duration_s: None,
            warmup_s: None,
            throttle: None,
            gpus_named: Vec::new(),
            gpus_used: Vec::new(),
            stands_for_workload: false,
            telemetry: Vec::new(),
            intervals: Vec::new(),
            bus_test: None,
            verdict: None,
            extra: Map::new(),
        }
    }
}

/// Observed node facts; every field optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NodeInfo {
    /// GPU model name as reported (e.g. `"NVIDIA A100-SXM4-80GB"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_name: Option<String>,
    /// Number of GPUs seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_count: Option<u32>,
    /// Memory of one GPU, MiB (smallest if GPUs differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vram_total_mib: Option<f64>,
    /// NVIDIA driver version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_version: Option<String>,
    /// MIG mode enabled on any GPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mig: Option<bool>,
}

impl NodeInfo {
    /// True when no fact is known.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// What was run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunWorkload {
    /// Model identifier or file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Numeric precision / quantisation (e.g. `"fp16"`, `"Q4_K_M"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_size: Option<u64>,
    /// Input size (e.g. prompt tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_size: Option<u64>,
    /// Concurrent requests / streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
}

/// The primary throughput figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Value in `unit`.
    pub value: f64,
    /// Unit of `value`.
    pub unit: ThroughputUnit,
}

/// A secondary throughput figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedThroughput {
    /// Short machine name (e.g. `"requests"`, `"pp512"`, `"tg128"`).
    pub name: String,
    /// Value in `unit`.
    pub value: f64,
    /// Unit of `value`.
    pub unit: ThroughputUnit,
}

/// Latency percentiles in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyPercentiles {
    /// Median, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50: Option<f64>,
    /// 90th percentile, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p90: Option<f64>,
    /// 99th percentile, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p99: Option<f64>,
}

/// Thermal/power slowdown summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Throttle {
    /// Seconds during which a slowdown was active on the most affected GPU.
    pub active_s: f64,
    /// Slowdown reasons seen at least once, in NVML bit order.
    #[serde(default)]
    pub reasons: Vec<ThrottleReason>,
    /// Seconds at the configured power limit (`sw_power_cap`) on the most
    /// affected GPU: reported, not counted as a slowdown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_cap_s: Option<f64>,
}

/// The primary throughput over one interval of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Start of the interval, seconds since the run started (`started_at`).
    pub t: f64,
    /// Length of the interval, seconds.
    pub dt: f64,
    /// Throughput over the interval, in the unit of `throughput`.
    pub value: f64,
}

/// One (possibly bucket-aggregated) telemetry sample.
///
/// A bucket reports its first timestamp, mean utilisation/clock/power and
/// maximum memory/temperature, and the union of throttle reasons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TelemetrySample {
    /// Seconds since `telemetry_origin` (the first sample; for a canonical
    /// run without `telemetry_origin`, since the run started).
    pub t: f64,
    /// Index of the GPU in the node (nvidia-smi `index`).
    pub gpu: u32,
    /// GPU utilisation, percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub util_pct: Option<f64>,
    /// Memory used, MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_used_mib: Option<f64>,
    /// SM clock, MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sm_clock_mhz: Option<f64>,
    /// GPU temperature, °C.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// Power draw, W.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
    /// Active clock event reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub throttle_reasons: Vec<ThrottleReason>,
}

/// What an nccl-tests output says of the link between the GPUs (read in `nccl.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BusTest {
    /// The test, as `Collective test starting:` names it (`all_reduce_perf`), when printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Ranks (GPUs) that took part.
    pub ranks: u32,
    /// Distinct hosts the ranks ran on (1 inside one node); 0 when no rank line was printed.
    pub hosts: u32,
    /// The largest message size tested, bytes.
    pub largest_bytes: u64,
    /// Bus bandwidth at the largest sizes, GB/s (10⁹ bytes per second).
    pub bus_gbps: f64,
    /// The tool's own `Avg bus bandwidth` over every size, GB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avg_bus_gbps: Option<f64>,
    /// Wrong elements over every row, when the results were checked (`None` with `-c 0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrong: Option<u64>,
    /// `Out of bounds values`, when printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_bounds: Option<u64>,
}
