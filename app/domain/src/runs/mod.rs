//! Benchmark-run ingestion: pure parsers for benchmark results and GPU
//! telemetry into one canonical record (`nodeledger.run/v1`), plus the
//! validity verdict.
//!
//! Everything here is pure: parsers take bytes or a reader, there is no file
//! or network I/O, no clock and no threads, so the module builds for both the
//! server and `wasm32` (e.g. to preview an upload in the browser).
//!
//! # Formats
//! | [`Format`] | input |
//! |---|---|
//! | `canonical` | our JSON, `"schema": "nodeledger.run/v1"` (see `run.schema.json`) |
//! | `vllm` | `vllm bench serve --save-result` JSON (with `--save-detailed`, its per-request timestamps become `intervals`) |
//! | `vllm_legacy` | `benchmark_serving.py` JSON (`"request_goodput:"` key) |
//! | `llama_bench` | `llama-bench -o json` / `-o jsonl` |
//! | `mlperf` | MLPerf inference `mlperf_log_summary.txt`, or `mlperf_log_detail.txt` (placeable in its telemetry) |
//! | `nvidia_smi` | `nvidia-smi --query-gpu=… --format=csv[,nounits]` |
//! | `amd_smi` | `amd-smi metric --csv --watch N`, or `rocm-smi --csv` stamped by the README's loop |
//! | `dcgmi_dmon` | `dcgmi dmon -e …`, each line stamped by the README's loop (`dcgm`) |
//!
//! # Use
//! ```ignore
//! use crate::runs::{assess, merge, parse, parse_nvidia_smi, VerdictContext};
//! let result = parse(&upload, None)?;                    // auto-detect
//! let telemetry = parse_nvidia_smi(std::io::BufReader::new(file))?; // streaming
//! let run = assess(merge(result, telemetry), &VerdictContext::default());
//! ```
//!
//! The verdict's rules, their order and severities are listed in `judge.rs`;
//! node differences have one severity table, [`severity_of`].
//!
//! Errors are [`ParseError`] codes and verdict reasons are [`Reason`] codes,
//! both with structured data and no user-facing prose: the UI translates.
//!
//! # Speed
//! The parsers' speed goal is measured by `.ci/bench-runs`, not timed in tests:
//! [`parse_nvidia_smi`] on a generated 100 MB, 8-GPU CSV must reach at least half the speed of a
//! bare `csv` byte-record loop over the same bytes, with a peak RSS of at most 64 MB.

mod canonical;
mod canonical_json;
mod clock;
mod dcgm;
mod detect;
mod error;
mod format;
mod json;
mod judge;
mod llama_bench;
mod merge;
mod mlperf;
mod nccl;
mod nvidia_smi;
mod quote;
mod response;
mod series;
mod sglang;
mod smi_header;
mod smi_value;
mod text;
mod verdict;
mod vllm;
mod vocab;
mod warmup;

#[cfg(test)]
mod tests;

pub use canonical::BusTest;
pub use canonical::{
    CanonicalRun, Interval, LatencyPercentiles, NamedThroughput, NodeInfo, RunWorkload, SCHEMA_PREFIX, SCHEMA_V1,
    TOP_LEVEL_FIELDS, TelemetrySample, Throttle, Throughput,
};
pub use clock::{later_by, stated_start};
pub use detect::detect;
pub use error::ParseError;
pub use format::Format;
pub use judge::{
    EXTRA_COMMAND_EXIT_CODE, EXTRA_THROTTLE_WHOLE_CAPTURE, EXTRA_THROUGHPUT_INCL_WARMUP, EXTRA_UTIL_ALL_GPUS,
    EXTRA_UTIL_INCL_WARMUP, EXTRA_VRAM_PEAK_WHOLE_CAPTURE, assess, judge,
};
pub use merge::{EXTRA_TELEMETRY_SOURCE, merge};
pub use mlperf::{EXTRA_KEY as EXTRA_MLPERF, MlperfSummary};
pub use nccl::MAX_ROWS as MAX_BUS_TEST_ROWS;
pub use nvidia_smi::{MAX_GPUS, MAX_POINTS_PER_GPU, parse_nvidia_smi};
// The columns `nodeledger probe` samples.
pub use quote::{gpu_name_tokens, names_match, severity_of};
pub use response::{
    AtTarget, CurvePoint, LatencyMetric, MAX_TARGET_MS, Percentile, ResponseTarget, TokenCosts, TokenMix, at_target,
    tokens_at_target,
};
pub use smi_header::{PROBE_QUERY_COLUMNS, SmiColumns};
pub use smi_value::{smi_mask, smi_number};
pub use verdict::{
    Difference, FigureProblem, GpuUse, NeedBasis, QuoteField, QuotedNode, Reason, ReserveSource, RunStatus, Severity,
    Slicing, Thresholds, Verdict, VerdictContext, VerdictReason, WorkloadField,
};
pub use vocab::{ThrottleReason, ThroughputUnit};

/// The version of the validity rules: raise it whenever a rule changes what a stored run's
/// verdict would be, and every stored run is judged again at the next start
/// (`services::runs::rejudge_if_rules_changed`). 1: sanity before verdict; 2: the workload's
/// response-time target.
pub const RULES_VERSION: i64 = 2;

/// The JSON Schema (draft 2020-12) of the canonical run.
pub const RUN_SCHEMA_JSON: &str = include_str!("run.schema.json");

/// Parses a whole input, auto-detecting its format unless `format` is given.
///
/// # Errors
/// Any [`ParseError`]; never panics.
pub fn parse(bytes: &[u8], format: Option<Format>) -> Result<CanonicalRun, ParseError> {
    let text = text::check(bytes)?;
    let trimmed = text.trim_start();
    let is_json = trimmed.starts_with('{') || trimmed.starts_with('[');
    let format = match format {
        Some(f) => f,
        None if is_json => {
            let value = json::load(text.as_bytes())?;
            let f = detect::classify_json(&value).ok_or(detect::unrecognized())?;
            return parse_json(text.as_bytes(), value, f);
        }
        None => detect::detect_text(text)?,
    };
    match format {
        Format::Mlperf => mlperf::parse(text),
        Format::NcclTests => nccl::parse(text),
        Format::NvidiaSmi | Format::AmdSmi | Format::Dcgm => parse_nvidia_smi(text.as_bytes()),
        json_format if is_json => parse_json(text.as_bytes(), json::load(text.as_bytes())?, json_format),
        other => Err(ParseError::FormatMismatch { expected: other }),
    }
}

fn parse_json(bytes: &[u8], value: serde_json::Value, format: Format) -> Result<CanonicalRun, ParseError> {
    match format {
        Format::Canonical => canonical_json::parse(bytes, value),
        Format::Vllm | Format::VllmLegacy => vllm::from_json(value, format),
        Format::Sglang => sglang::from_json(value),
        Format::LlamaBench => llama_bench::from_json(value),
        Format::Mlperf | Format::NvidiaSmi | Format::AmdSmi | Format::Dcgm | Format::NcclTests => {
            Err(ParseError::FormatMismatch { expected: format })
        }
    }
}
