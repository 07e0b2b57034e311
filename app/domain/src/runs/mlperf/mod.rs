//! MLPerf inference `mlperf_log_summary.txt` and `mlperf_log_detail.txt`.
//!
//! Throughput, latencies (ns → ms) and the result validity are mapped to
//! canonical fields; scenario, mode and the constraint checks are kept as an
//! [`MlperfSummary`] under `extra.mlperf`.
//!
//! The summary holds no wall-clock time (`loadgen/results.cc`), so a run read from it cannot
//! be placed in its telemetry. The detail log can: LoadGen writes one `:::MLLOG {json}` line
//! per event (`loadgen/logging.h`, `AsyncLog::LogDetail`) with `time_ms` since logging started,
//! and the event `test_datetime` whose value is the *local* time in `%FT%TZ` form with a literal
//! `Z` (`loadgen/utils.cc`, `CurrentDateTimeISO8601`: `utc=false`) — the clock nvidia-smi
//! writes too. The run starts at `test_datetime` and ends at the last event. Its results are the
//! `result_*` events (`result_validity`, `result_min_duration_met`, …, `loadgen/results.cc`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::canonical::{CanonicalRun, LatencyPercentiles, NamedThroughput, Throughput};
use super::error::ParseError;
use super::format::Format;
use super::vllm::pct_label;
use super::vocab::ThroughputUnit;

mod detail;

pub(crate) use detail::DETAIL_PREFIX;

/// Key of the [`MlperfSummary`] inside `CanonicalRun::extra`.
pub const EXTRA_KEY: &str = "mlperf";

/// MLPerf facts without a canonical field.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MlperfSummary {
    /// `SUT name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sut_name: Option<String>,
    /// `Scenario` (`Offline`, `Server`, `SingleStream`, `MultiStream`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// `Mode` (e.g. `PerformanceOnly`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// `Result is : VALID` → true, `INVALID` → false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_valid: Option<bool>,
    /// `Min duration satisfied`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_satisfied: Option<bool>,
    /// `Min queries satisfied`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_queries_satisfied: Option<bool>,
    /// `Early stopping satisfied`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_stopping_satisfied: Option<bool>,
    /// `Performance constraints satisfied` (Server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance_constraints_satisfied: Option<bool>,
    /// `min_duration (ms)` test parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_ms: Option<f64>,
    /// Other `key : value` lines (test parameters, extra stats), verbatim.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub params: Map<String, Value>,
}

impl MlperfSummary {
    /// Reads the summary back from a run's `extra`, if present.
    #[must_use]
    pub fn from_run(run: &CanonicalRun) -> Option<Self> {
        serde_json::from_value(run.extra.get(EXTRA_KEY)?.clone()).ok()
    }
}

/// Parses a summary or, when the text is LoadGen's detail log, the detail log.
pub(crate) fn parse(text: &str) -> Result<CanonicalRun, ParseError> {
    if text.trim_start().starts_with(DETAIL_PREFIX) {
        return detail::parse(text);
    }
    let mut run = CanonicalRun::new(Format::Mlperf);
    let mut s = MlperfSummary::default();
    let mut pct = LatencyPercentiles::default();
    let mut recognised = false;
    // LF, CRLF and a lone CR alike: the summary may come from Windows.
    for (_, line) in crate::line_endings::numbered_lines(text) {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            continue;
        }
        recognised |= apply(key, value, &mut run, &mut s, &mut pct);
    }
    if !recognised {
        return Err(ParseError::NoData { format: Format::Mlperf });
    }
    if pct != LatencyPercentiles::default() {
        run.latency_ms = Some(pct);
    }
    if let Ok(v) = serde_json::to_value(&s) {
        run.extra.insert(EXTRA_KEY.into(), v);
    }
    Ok(run)
}

/// Applies one `key : value` line; true if it was an MLPerf summary key.
fn apply(key: &str, value: &str, run: &mut CanonicalRun, s: &mut MlperfSummary, pct: &mut LatencyPercentiles) -> bool {
    let yes = || Some(value.eq_ignore_ascii_case("yes"));
    match key {
        "SUT name" => s.sut_name = Some(value.to_owned()),
        "Scenario" => s.scenario = Some(value.to_owned()),
        "Mode" => s.mode = Some(value.to_owned()),
        "Result is" => s.result_valid = Some(value.eq_ignore_ascii_case("VALID")),
        "Min duration satisfied" => s.min_duration_satisfied = yes(),
        "Min queries satisfied" => s.min_queries_satisfied = yes(),
        "Early stopping satisfied" => s.early_stopping_satisfied = yes(),
        "Performance constraints satisfied" => s.performance_constraints_satisfied = yes(),
        "min_duration (ms)" => s.min_duration_ms = value.parse().ok(),
        _ => {
            if let Some(v) = value.parse::<f64>().ok().filter(|v| v.is_finite()) {
                if throughput(key, v, run) || latency(key, v, run, pct) {
                    return true;
                }
                s.params.insert(key.to_owned(), serde_json::json!(v));
            } else {
                s.params.insert(key.to_owned(), Value::from(value));
            }
            return false;
        }
    }
    true
}

/// Throughput lines; the first primary-looking one becomes `throughput`.
pub(super) fn throughput(key: &str, v: f64, run: &mut CanonicalRun) -> bool {
    let (name, unit, primary) = match key {
        "Samples per second" => ("samples", ThroughputUnit::SamplesPerS, true),
        "Tokens per second" => ("tokens", ThroughputUnit::TokensPerS, true),
        "Completed samples per second" => ("completed_samples", ThroughputUnit::SamplesPerS, true),
        "Completed tokens per second" => ("completed_tokens", ThroughputUnit::TokensPerS, true),
        "Scheduled samples per second" => ("scheduled_samples", ThroughputUnit::SamplesPerS, false),
        "QPS w/o loadgen overhead" => ("qps_without_loadgen", ThroughputUnit::QueriesPerS, true),
        "QPS w/ loadgen overhead" => ("qps_with_loadgen", ThroughputUnit::QueriesPerS, false),
        "Samples per query" => (
            "samples_per_query",
            ThroughputUnit::Other("samples/query".into()),
            false,
        ),
        _ => return false,
    };
    if primary && run.throughput.is_none() {
        run.throughput = Some(Throughput { value: v, unit });
    } else {
        run.throughputs.push(NamedThroughput {
            name: name.into(),
            value: v,
            unit,
        });
    }
    true
}

/// `… latency (ns)` lines → `latencies` (ms) and p50/p90/p99.
fn latency(key: &str, ns: f64, run: &mut CanonicalRun, pct: &mut LatencyPercentiles) -> bool {
    let Some(body) = key.strip_suffix("(ns)").map(str::trim) else {
        return false;
    };
    let lower = body.to_ascii_lowercase();
    let metric = if lower.contains("first token") {
        "ttft"
    } else if lower.contains("time to output token") {
        "tpot"
    } else if lower.ends_with("latency") {
        "latency"
    } else {
        return false;
    };
    let first = lower.split_whitespace().next().unwrap_or("");
    let stat = match first {
        "min" | "max" | "mean" => first.to_owned(),
        p => match p.trim_end_matches("th").parse::<f64>() {
            Ok(p) if (0.0..=100.0).contains(&p) && lower.contains("percentile") => pct_label(p),
            _ => return false,
        },
    };
    let ms = ns / 1e6;
    if metric == "latency" {
        match stat.as_str() {
            "p50" => pct.p50 = Some(ms),
            "p90" => pct.p90 = Some(ms),
            "p99" => pct.p99 = Some(ms),
            _ => {}
        }
    }
    run.latencies.insert(format!("{metric}.{stat}"), ms);
    true
}
