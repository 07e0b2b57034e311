//! The input formats a run file can be in; also the canonical `source_format`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A supported input format; also the canonical `source_format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Our own `nodeledger.run/v1` JSON.
    Canonical,
    /// `vllm bench serve --save-result` JSON.
    Vllm,
    /// Older `benchmark_serving.py` JSON (has the `"request_goodput:"` key).
    VllmLegacy,
    /// SGLang `bench_serving --output-file` JSON Lines (has `server_info`).
    Sglang,
    /// `llama-bench -o json` (or `-o jsonl`).
    LlamaBench,
    /// MLPerf inference `mlperf_log_summary.txt` or `mlperf_log_detail.txt`.
    Mlperf,
    /// `nvidia-smi --query-gpu=… --format=csv` telemetry.
    NvidiaSmi,
    /// AMD telemetry: `amd-smi metric --csv --watch N` (its own timestamps) or `rocm-smi --csv`
    /// sampled by the documented loop that stamps each sample; read as nvidia-smi's is.
    AmdSmi,
    /// DCGM `dcgmi dmon` telemetry, each line stamped by the documented loop; read as
    /// nvidia-smi's is.
    Dcgm,
    /// nccl-tests output (`all_reduce_perf` …): the bus bandwidth between the GPUs.
    NcclTests,
}

impl Format {
    /// Every supported format.
    pub const ALL: &'static [Self] = &[
        Self::Canonical,
        Self::Vllm,
        Self::VllmLegacy,
        Self::Sglang,
        Self::LlamaBench,
        Self::Mlperf,
        Self::NvidiaSmi,
        Self::AmdSmi,
        Self::Dcgm,
        Self::NcclTests,
    ];

    /// The snake_case wire name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Canonical => "canonical",
            Self::Vllm => "vllm",
            Self::VllmLegacy => "vllm_legacy",
            Self::Sglang => "sglang",
            Self::LlamaBench => "llama_bench",
            Self::Mlperf => "mlperf",
            Self::NvidiaSmi => "nvidia_smi",
            Self::AmdSmi => "amd_smi",
            Self::Dcgm => "dcgmi_dmon",
            Self::NcclTests => "nccl_tests",
        }
    }
}

impl Format {
    /// The format whose wire name is `name`, if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.as_str() == name)
    }

    /// Whether the format is GPU telemetry (sampled over time) rather than a benchmark result.
    #[must_use]
    pub const fn is_telemetry(self) -> bool {
        matches!(self, Self::NvidiaSmi | Self::AmdSmi | Self::Dcgm)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
