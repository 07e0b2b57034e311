//! llama.cpp `llama-bench -o json` (array of rows) or `-o jsonl` results.
//!
//! Prompt-processing rows (`n_gen == 0`) become throughput `pp<N>`,
//! generation rows (`n_prompt == 0`) `tg<N>`, mixed rows `pp<N>+tg<M>`; a
//! non-zero `n_depth` appends `@d<D>`. Every row is also kept verbatim in
//! `extra.llama_bench_rows` (so unknown, version-specific keys survive).
//!
//! Each row's `test_time` is written when that test starts, before its warm-up and timed
//! repetitions (`tools/llama-bench/llama-bench.cpp`, the `test` constructor:
//! `strftime(buf, sizeof(buf), "%FT%TZ", gmtime(&t))`, UTC to the second). The run starts at the
//! first row's `test_time` and ends at the last row's plus its repetitions (`samples_ns`), so it
//! can be placed in nvidia-smi telemetry taken on a node whose clock runs on UTC.

use serde_json::{Map, Value};

use super::canonical::{CanonicalRun, NamedThroughput, NodeInfo, RunWorkload, Throughput};
use super::clock;
use super::error::ParseError;
use super::format::Format;
use super::json::ObjExt;
use super::vocab::ThroughputUnit;

/// Converts llama-bench output (array of rows or a single row object).
pub(crate) fn from_json(value: Value) -> Result<CanonicalRun, ParseError> {
    let rows = match value {
        Value::Array(rows) => rows,
        row @ Value::Object(_) if super::detect::classify_json(&row) == Some(Format::LlamaBench) => {
            vec![row]
        }
        _ => {
            return Err(ParseError::FormatMismatch {
                expected: Format::LlamaBench,
            });
        }
    };
    let objs: Vec<&Map<String, Value>> = rows.iter().filter_map(Value::as_object).collect();
    if objs.len() != rows.len() {
        return Err(ParseError::FormatMismatch {
            expected: Format::LlamaBench,
        });
    }
    let mut run = CanonicalRun::new(Format::LlamaBench);
    let mut generation: Option<f64> = None;
    let mut total_ns = 0.0;
    for row in &objs {
        let Some(value) = row.f64_at("avg_ts") else {
            continue;
        };
        let (pp, tg) = (row.u64_at("n_prompt").unwrap_or(0), row.u64_at("n_gen").unwrap_or(0));
        if tg > 0 && pp == 0 && generation.is_none() {
            generation = Some(value);
        }
        run.throughputs.push(NamedThroughput {
            name: test_name(row, pp, tg),
            value,
            unit: ThroughputUnit::TokensPerS,
        });
        if let Some(ns) = row.f64_at("avg_ns") {
            let reps = row.get("samples_ns").and_then(Value::as_array).map_or(1, Vec::len);
            total_ns += ns * reps as f64;
        }
    }
    let primary = generation.or_else(|| run.throughputs.first().map(|t| t.value));
    let Some(primary) = primary else {
        return Err(ParseError::NoData {
            format: Format::LlamaBench,
        });
    };
    run.throughput = Some(Throughput {
        value: primary,
        unit: ThroughputUnit::TokensPerS,
    });
    run.duration_s = (total_ns > 0.0).then_some(total_ns / 1e9);
    place(&mut run, &objs);
    if let Some(first) = objs.first() {
        run.node = node_info(first);
        run.workload = Some(workload(first, &objs));
    }
    run.extra.insert("llama_bench_rows".into(), Value::Array(rows));
    Ok(run)
}

/// `started_at` from the earliest `test_time`, `ended_at` from the latest one plus its
/// repetitions; nothing when no row has a readable `test_time`.
fn place(run: &mut CanonicalRun, rows: &[&Map<String, Value>]) {
    let mut span: Option<(f64, f64)> = None;
    for row in rows {
        let Some(start) = row.str_at("test_time").and_then(test_time_seconds) else {
            continue;
        };
        let reps_ns: f64 = row.get("samples_ns").and_then(Value::as_array).map_or(0.0, |s| {
            s.iter()
                .filter_map(Value::as_f64)
                .filter(|n| n.is_finite() && *n > 0.0)
                .sum()
        });
        let end = start + reps_ns / 1e9;
        span = Some(span.map_or((start, end), |(lo, hi)| (lo.min(start), hi.max(end))));
    }
    if let Some((start, end)) = span {
        run.started_at = clock::format(start);
        run.ended_at = clock::format(end);
    }
}

/// `"2025-05-14T09:12:44Z"` (RFC 3339, UTC) as seconds on the naive clock.
fn test_time_seconds(at: &str) -> Option<f64> {
    let naive = at.trim().strip_suffix('Z').unwrap_or(at.trim());
    clock::seconds(naive)
}

fn test_name(row: &Map<String, Value>, pp: u64, tg: u64) -> String {
    let mut name = match (pp, tg) {
        (p, 0) => format!("pp{p}"),
        (0, g) => format!("tg{g}"),
        (p, g) => format!("pp{p}+tg{g}"),
    };
    if let Some(d) = row.u64_at("n_depth").filter(|d| *d > 0) {
        name.push_str(&format!("@d{d}"));
    }
    name
}

fn node_info(row: &Map<String, Value>) -> NodeInfo {
    let gpus: Vec<&str> = row
        .str_at("gpu_info")
        .map(|s| s.split(',').map(str::trim).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    NodeInfo {
        gpu_name: gpus.first().map(|s| (*s).to_owned()),
        gpu_count: u32::try_from(gpus.len()).ok().filter(|n| *n > 0),
        ..NodeInfo::default()
    }
}

fn workload(first: &Map<String, Value>, rows: &[&Map<String, Value>]) -> RunWorkload {
    RunWorkload {
        model: first.str_at("model_filename").map(str::to_owned),
        precision: first.str_at("model_type").and_then(precision_of),
        batch_size: first.u64_at("n_batch"),
        input_size: rows.iter().find_map(|r| r.u64_at("n_prompt").filter(|p| *p > 0)),
        concurrency: None,
    }
}

/// `"llama 7B Q4_0"` → `"Q4_0"`; `"qwen2 1.5B Q4_K - Medium"` → `"Q4_K - Medium"`.
fn precision_of(model_type: &str) -> Option<String> {
    let mut parts = model_type.splitn(3, ' ');
    let (_arch, _size) = (parts.next(), parts.next());
    parts.next().map(|p| p.trim().to_owned()).filter(|p| !p.is_empty())
}
