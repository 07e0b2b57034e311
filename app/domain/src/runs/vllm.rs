//! vLLM serving benchmark results: `vllm bench serve --save-result` and the
//! older `benchmarks/benchmark_serving.py` (key `"request_goodput:"`).

use serde_json::{Map, Value};

use super::canonical::{
    CanonicalRun, Interval, LatencyPercentiles, NamedThroughput, NodeInfo, RunWorkload, Throughput,
};
use super::clock;
use super::error::ParseError;
use super::format::Format;
use super::json::ObjExt;
use super::vocab::ThroughputUnit;

/// Latency metrics reported per request.
const METRICS: [&str; 4] = ["ttft", "tpot", "itl", "e2el"];

/// Per-request arrays: dropped, they can be huge. `vllm/benchmarks/serve.py` removes the first
/// seven unless `--save-detailed`; `latencies` and `queue_times` stay in every result, one entry
/// per request.
const DETAIL_KEYS: [&str; 9] = [
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "generated_texts",
    "errors",
    "start_times",
    "latencies",
    "queue_times",
];

/// Converts a vLLM result object.
pub(crate) fn from_json(value: Value, format: Format) -> Result<CanonicalRun, ParseError> {
    let Value::Object(mut obj) = value else {
        return Err(ParseError::FormatMismatch { expected: format });
    };
    let mut run = CanonicalRun::new(format);
    let throughput = take_f64(&mut obj, "output_throughput");
    run.throughput = throughput.map(|value| Throughput {
        value,
        unit: ThroughputUnit::TokensPerS,
    });
    let secondary = [
        ("requests", "request_throughput", ThroughputUnit::RequestsPerS),
        ("total_tokens", "total_token_throughput", ThroughputUnit::TokensPerS),
        ("goodput", "request_goodput", ThroughputUnit::RequestsPerS),
        ("goodput", "request_goodput:", ThroughputUnit::RequestsPerS),
    ];
    for (name, key, unit) in secondary {
        if let Some(value) = take_f64(&mut obj, key) {
            run.throughputs.push(NamedThroughput {
                name: name.into(),
                value,
                unit,
            });
        }
    }
    run.duration_s = take_f64(&mut obj, "duration");
    place(&mut run, obj.str_at("date"));
    run.node = stated_node(&obj);
    run.vram_reserved = reserves_memory(&obj).then_some(true);
    let model = obj.str_at("model_id").map(str::to_owned);
    let concurrency = obj.u64_at("max_concurrency");
    if model.is_some() || concurrency.is_some() {
        obj.remove("model_id");
        run.workload = Some(RunWorkload {
            model,
            concurrency,
            ..RunWorkload::default()
        });
    }
    take_latencies(&mut obj, &mut run);
    let e2el = |stat: &str| run.latencies.get(&format!("e2el.{stat}")).copied();
    let pct = LatencyPercentiles {
        p50: e2el("median").or_else(|| e2el("p50")),
        p90: e2el("p90"),
        p99: e2el("p99"),
    };
    if pct != LatencyPercentiles::default() {
        run.latency_ms = Some(pct);
    }
    if run.throughput.is_none() && run.throughputs.is_empty() && run.latencies.is_empty() {
        return Err(ParseError::NoData { format });
    }
    if run.throughput.is_some() {
        run.intervals = token_intervals(&obj, run.duration_s);
    }
    let dropped: Vec<Value> = DETAIL_KEYS
        .iter()
        .filter(|k| obj.remove(**k).is_some())
        .map(|k| Value::from(*k))
        .collect();
    if !dropped.is_empty() {
        obj.insert("dropped_detail_keys".into(), Value::Array(dropped));
    }
    run.extra = obj;
    Ok(run)
}

/// `--backend` values (vLLM's `vllm bench serve`, SGLang's `bench_serving`) whose servers take
/// a fixed share of every card at start: vLLM (`--gpu-memory-utilization`, default 0.92 in
/// `vllm/config/cache.py`, 0.9 before), SGLang (`--mem-fraction-static`, derived from the card's
/// memory in `server_args.py`), TensorRT-LLM (`free_gpu_memory_fraction`, default 0.9 of what
/// is free after loading), LMDeploy (`cache_max_entry_count`). `openai`/`openai-chat` are the
/// defaults of `vllm bench serve` (`vllm/benchmarks/serve.py`) and name the API, not the server;
/// a result written by vLLM's own benchmark against the OpenAI API is read as a vLLM server's.
/// TGI is left out: `--cuda-memory-fraction` (default 1.0, `launcher/src/main.rs`) caps what it
/// may use rather than reserving it; its telemetry tells.
const RESERVING_BACKENDS: [&str; 8] = [
    "vllm",
    "openai",
    "openai-chat",
    "sglang",
    "sglang-oai",
    "sglang-native",
    "tensorrt-llm",
    "lmdeploy",
];

/// `--metadata` keys that carry the server's reserved share (`vllm bench serve --metadata
/// gpu_memory_utilization=0.9` writes the pair at the top level of the result).
const RESERVE_KEYS: [&str; 2] = ["gpu_memory_utilization", "mem_fraction_static"];

/// Whether the result says its server reserved memory: a reserving backend, or a reserved share
/// passed as metadata.
fn reserves_memory(obj: &Map<String, Value>) -> bool {
    // `endpoint_type` is the same value, kept "for backward compatibility" (`serve.py`).
    let backend = obj
        .str_at("backend")
        .or_else(|| obj.str_at("endpoint_type"))
        .map(|b| b.trim().to_ascii_lowercase());
    backend.is_some_and(|b| RESERVING_BACKENDS.contains(&b.as_str()))
        || RESERVE_KEYS.iter().any(|k| obj.contains_key(*k))
}

/// Keys under which a result names its hardware (`--metadata gpu=1xNVIDIA_L40S`
/// puts it at the top level; some wrappers nest it under `metadata`).
const GPU_KEYS: [&str; 5] = ["gpu", "gpu_type", "gpu_name", "hardware", "accelerator"];

/// The end is vLLM's `date` (written when the benchmark finished); the start
/// is the end minus the duration.
fn place(run: &mut CanonicalRun, date: Option<&str>) {
    let Some(end) = date.and_then(clock::from_vllm_date) else {
        return;
    };
    if let (Some(d), Some(e)) = (run.duration_s, clock::seconds(&end)) {
        run.started_at = clock::format(e - d);
    }
    run.ended_at = Some(end);
}

/// The node the result names: `"1xNVIDIA_L40S"` → 1 × `"NVIDIA L40S"`.
fn stated_node(obj: &Map<String, Value>) -> NodeInfo {
    let nested = obj.get("metadata").and_then(Value::as_object);
    let stated = GPU_KEYS
        .iter()
        .find_map(|k| obj.str_at(k).or_else(|| nested.and_then(|m| m.str_at(k))));
    let Some(stated) = stated.map(str::trim).filter(|s| !s.is_empty()) else {
        return NodeInfo::default();
    };
    let (count, name) = match stated.split_once(['x', 'X']) {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (n.parse().ok(), rest),
        _ => (None, stated),
    };
    let name = name.replace('_', " ").trim().to_owned();
    NodeInfo {
        gpu_name: Some(name).filter(|n| !n.is_empty()),
        gpu_count: count.filter(|n| *n > 0),
        ..NodeInfo::default()
    }
}

/// Most intervals built from per-request timestamps.
const MAX_INTERVALS: f64 = 1_000.0;

/// Output tokens per interval from `--save-detailed` per-request timestamps:
/// request *i*'s first token at `start_times[i] + ttfts[i]`, each further
/// token one `itls[i][k]` later (all in seconds; `start_times` are
/// `perf_counter()` readings, so only their differences count and the
/// earliest start is the run's t = 0). Intervals are 10 s (longer for runs
/// over 10 000 s, at most 1000). Empty without those arrays.
fn token_intervals(obj: &Map<String, Value>, duration: Option<f64>) -> Vec<Interval> {
    let arr = |k: &str| obj.get(k).and_then(Value::as_array);
    let (Some(starts), Some(ttfts), Some(itls)) = (arr("start_times"), arr("ttfts"), arr("itls")) else {
        return Vec::new();
    };
    if starts.len() != ttfts.len() || starts.len() != itls.len() || starts.is_empty() {
        return Vec::new();
    }
    let num = |v: &Value| v.as_f64().filter(|x| x.is_finite());
    let Some(t0) = starts.iter().filter_map(num).reduce(f64::min) else {
        return Vec::new();
    };
    let mut tokens: Vec<f64> = Vec::new();
    for ((start, ttft), gaps) in starts.iter().zip(ttfts).zip(itls) {
        let (Some(start), Some(ttft)) = (num(start), num(ttft)) else {
            continue;
        };
        if ttft <= 0.0 {
            continue; // a failed request
        }
        let mut at = start - t0 + ttft;
        tokens.push(at);
        for gap in gaps.as_array().into_iter().flatten().filter_map(num) {
            at += gap.max(0.0);
            tokens.push(at);
        }
    }
    let end = duration
        .filter(|d| d.is_finite() && *d > 0.0)
        .or_else(|| tokens.iter().copied().reduce(f64::max))
        .unwrap_or(0.0);
    if tokens.is_empty() || end <= 0.0 {
        return Vec::new();
    }
    let dt = (end / MAX_INTERVALS).ceil().max(10.0);
    let n = (end / dt).ceil().max(1.0) as usize;
    let mut counts = vec![0u64; n];
    for t in tokens {
        let i = ((t / dt).floor().max(0.0) as usize).min(n - 1);
        counts[i] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let (t, c) = (i as f64 * dt, c as f64);
            let len = (end - t).min(dt).max(f64::MIN_POSITIVE);
            Interval {
                t,
                dt: len,
                value: c / len,
            }
        })
        .collect()
}

/// Removes a numeric key; a `null` or non-finite value is removed too.
fn take_f64(obj: &mut Map<String, Value>, key: &str) -> Option<f64> {
    let v = obj.f64_at(key);
    if v.is_some() || obj.get(key).is_some_and(Value::is_null) {
        obj.remove(key);
    }
    v
}

/// Moves `{mean,median,std,pN}_{metric}_ms` and `percentiles_{metric}_ms`
/// keys into `run.latencies` as `"{metric}.{stat}"`.
fn take_latencies(obj: &mut Map<String, Value>, run: &mut CanonicalRun) {
    let keys: Vec<String> = obj.keys().filter(|k| k.ends_with("_ms")).cloned().collect();
    for key in keys {
        let Some((stat, metric)) = split_latency_key(&key) else {
            continue;
        };
        if stat == "percentiles" {
            if let Some(pairs) = obj.get(&key).and_then(Value::as_array) {
                for (p, v) in pairs.iter().filter_map(percentile_pair) {
                    run.latencies.insert(format!("{metric}.{}", pct_label(p)), v);
                }
                obj.remove(&key);
            }
        } else if let Some(v) = obj.f64_at(&key) {
            run.latencies.insert(format!("{metric}.{stat}"), v);
            obj.remove(&key);
        }
    }
}

/// `"p99.9_ttft_ms"` → `("p99.9", "ttft")`; `"mean_itl_ms"` → `("mean", "itl")`.
fn split_latency_key(key: &str) -> Option<(String, &'static str)> {
    let body = key.strip_suffix("_ms")?;
    let (stat, metric) = body.rsplit_once('_')?;
    let metric = METRICS.into_iter().find(|m| *m == metric)?;
    let stat = match stat {
        "mean" | "median" | "std" | "percentiles" => stat.to_owned(),
        p => pct_label(
            p.strip_prefix('p')?
                .parse::<f64>()
                .ok()
                .filter(|v| (0.0..=100.0).contains(v))?,
        ),
    };
    Some((stat, metric))
}

/// A `[percentile, value]` pair.
fn percentile_pair(v: &Value) -> Option<(f64, f64)> {
    let pair = v.as_array()?;
    let p = pair.first()?.as_f64()?;
    let val = pair.get(1)?.as_f64()?;
    ((0.0..=100.0).contains(&p) && val.is_finite()).then_some((p, val))
}

/// `99.0` → `"p99"`, `99.9` → `"p99.9"`.
pub(crate) fn pct_label(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("p{}", p as u32)
    } else {
        let s = format!("{p:.4}");
        format!("p{}", s.trim_end_matches('0'))
    }
}
