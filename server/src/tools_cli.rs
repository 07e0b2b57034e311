//! `nodeledger bench parse` and `nodeledger tco`: the parsers and the cost engine for scripts,
//! the same code the pages use.

use app::domain::{runs, tco};
use clap::ValueEnum;
use std::{fs::File, io::BufReader, path::Path};

/// Largest input file read whole (telemetry in `nvidia_smi` format is streamed instead).
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// `--format` of `bench parse`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RunFormat {
    /// Detect from the content.
    Auto,
    /// NodeLedger's `nodeledger.run/v1` JSON.
    Canonical,
    /// `vllm bench serve --save-result` JSON.
    Vllm,
    /// Older vLLM `benchmark_serving.py` JSON.
    VllmLegacy,
    /// `llama-bench -o json`.
    LlamaBench,
    /// MLPerf inference `mlperf_log_summary.txt`.
    Mlperf,
    /// `nvidia-smi --query-gpu=… --format=csv` telemetry (read streaming).
    NvidiaSmi,
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {size} bytes is over the {MAX_FILE_BYTES}-byte limit",
            path.display()
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a benchmark result or telemetry file, judges it on its own (duration, warm-up,
/// throttling, MLPerf validity; no quote, the default 20 % headroom) and returns the canonical
/// run as JSON with its `verdict` and `warmup_s` (`null` when the file cannot tell).
pub fn bench_parse(path: &Path, format: RunFormat) -> Result<String, String> {
    let fail = |e: runs::ParseError| format!("{}: {e}", path.display());
    let run = match format {
        RunFormat::NvidiaSmi => {
            let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            runs::parse_nvidia_smi(BufReader::new(file)).map_err(fail)?
        }
        other => {
            let format = match other {
                RunFormat::Canonical => Some(runs::Format::Canonical),
                RunFormat::Vllm => Some(runs::Format::Vllm),
                RunFormat::VllmLegacy => Some(runs::Format::VllmLegacy),
                RunFormat::LlamaBench => Some(runs::Format::LlamaBench),
                RunFormat::Mlperf => Some(runs::Format::Mlperf),
                RunFormat::Auto | RunFormat::NvidiaSmi => None,
            };
            runs::parse(&read(path)?, format).map_err(fail)?
        }
    };
    let run = runs::assess(run, &runs::VerdictContext::default());
    let mut value = serde_json::to_value(&run).map_err(|e| e.to_string())?;
    if let Some(obj) = value.as_object_mut() {
        obj.entry("warmup_s").or_insert(serde_json::Value::Null);
    }
    serde_json::to_string_pretty(&value).map_err(|e| e.to_string())
}

/// Runs a self-contained TCO scenario and returns the ranked breakdown as JSON.
pub fn tco(path: &Path) -> Result<String, String> {
    let bytes = read(path)?;
    let scenario: tco::Scenario = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: line {}, column {}: {e}", path.display(), e.line(), e.column()))?;
    let result = tco::run_scenario(&scenario).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::to_string_pretty(&result).map_err(|e| e.to_string())
}
