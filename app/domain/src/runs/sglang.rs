//! SGLang serving benchmark results: `python -m sglang.bench_serving … --output-file` (now
//! `sglang.benchmark.serving`; sgl-project/sglang `python/sglang/benchmark/serving.py`). Each run
//! appends one JSON line; the file may hold several. The keys are vLLM's with other names
//! (`*_e2e_latency_ms` for `*_e2el_ms`, `total_throughput` for `total_token_throughput`), no
//! `failed` and no date, and the server's whole configuration in `server_info` (the model in
//! `model_path`, tensor parallelism in `tp_size`).

use serde_json::{Map, Value};

use super::canonical::CanonicalRun;
use super::error::ParseError;
use super::format::Format;

/// Keys renamed to vLLM's, so one reader reads both.
const RENAMED: [(&str, &str); 7] = [
    ("mean_e2e_latency_ms", "mean_e2el_ms"),
    ("median_e2e_latency_ms", "median_e2el_ms"),
    ("std_e2e_latency_ms", "std_e2el_ms"),
    ("p90_e2e_latency_ms", "p90_e2el_ms"),
    ("p95_e2e_latency_ms", "p95_e2el_ms"),
    ("p99_e2e_latency_ms", "p99_e2el_ms"),
    ("total_throughput", "total_token_throughput"),
];

/// Whether a JSON object is an SGLang result: it carries the server's configuration, or SGLang's
/// own names for the end-to-end latency.
pub(crate) fn is_sglang(map: &Map<String, Value>) -> bool {
    map.contains_key("server_info") || map.contains_key("mean_e2e_latency_ms")
}

/// Converts an SGLang result: one object, or the lines of an appended file (the last run is
/// read; `results_in_file` says how many there were).
pub(crate) fn from_json(value: Value) -> Result<CanonicalRun, ParseError> {
    let mismatch = ParseError::FormatMismatch {
        expected: Format::Sglang,
    };
    let (mut obj, lines) = match value {
        Value::Object(obj) => (obj, 1),
        Value::Array(rows) => {
            let lines = rows.len();
            match rows.into_iter().last() {
                Some(Value::Object(obj)) => (obj, lines),
                _ => return Err(mismatch),
            }
        }
        _ => return Err(mismatch),
    };
    for (from, to) in RENAMED {
        if let Some(v) = obj.remove(from) {
            obj.insert(to.to_owned(), v);
        }
    }
    if let Some(Value::Object(server)) = obj.remove("server_info") {
        if let Some(model) = server
            .get("served_model_name")
            .filter(|v| v.is_string())
            .or_else(|| server.get("model_path"))
        {
            obj.insert("model_id".to_owned(), model.clone());
        }
        for key in ["tp_size", "dp_size", "mem_fraction_static", "version"] {
            if let Some(v) = server.get(key) {
                obj.insert(format!("server_{key}"), v.clone());
            }
        }
    }
    if lines > 1 {
        obj.insert("results_in_file".to_owned(), Value::from(lines));
    }
    super::vllm::from_json(Value::Object(obj), Format::Sglang)
}
