//! Sanity before verdict: figures no measurement can give make a run invalid, whatever its
//! format, before anything else is judged on them.
//!
//! | rule | reason |
//! |---|---|
//! | a figure is `NaN` or infinite (Python's `json.dump` writes them bare; they are read as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`) | `impossible_figure` (not finite) |
//! | a throughput, the duration, a latency or a token or request count is negative | `impossible_figure` (negative) |
//! | the duration or the headline throughput is zero | `impossible_figure` (zero) |
//! | a serving benchmark completed no request, or more than 1 % failed (`completed`, `failed` as `vllm bench serve` writes them) | `requests_failed` |
//! | `output_throughput` differs from `total_output_tokens ÷ duration` by more than 5 % | `throughput_inconsistent` |
//! | no headline throughput | `no_throughput` |
//!
//! `request_rate` and `burstiness` are settings, not measurements: `Infinity` there is how
//! SGLang's `bench_serving` writes "all requests at once" (vLLM writes the string `"inf"`).

use serde_json::Value;

use super::super::canonical::CanonicalRun;
use super::super::verdict::{FigureProblem, Reason, Severity, Thresholds, VerdictReason};
use super::super::vocab::ThroughputUnit;
use super::EXTRA_THROUGHPUT_INCL_WARMUP;

/// The strings a non-finite number is read as.
pub const NON_FINITE: [&str; 3] = ["NaN", "Infinity", "-Infinity"];

/// Settings a benchmark writes as infinite on purpose.
const SETTINGS: [&str; 2] = ["request_rate", "burstiness"];

/// Counts that can never be negative, as the serving benchmarks name them.
const COUNTS: [&str; 4] = ["completed", "failed", "total_input_tokens", "total_output_tokens"];

/// Every sanity finding of `run`, each invalid, in the order of the module table.
#[must_use]
pub fn findings(run: &CanonicalRun, th: &Thresholds) -> Vec<VerdictReason> {
    let mut out = Vec::new();
    let mut impossible = |field: &str, problem| {
        out.push(Reason::ImpossibleFigure {
            field: field.to_owned(),
            problem,
        });
    };
    for (key, value) in &run.extra {
        if !SETTINGS.contains(&key.as_str()) && value.as_str().is_some_and(|s| NON_FINITE.contains(&s)) {
            impossible(key, FigureProblem::NotFinite);
        }
    }
    for (field, value) in figures(run) {
        if let Some(problem) = problem_of(value) {
            impossible(&field, problem);
        }
    }
    for key in COUNTS {
        if run.extra.get(key).and_then(Value::as_f64).is_some_and(|v| v < 0.0) {
            impossible(key, FigureProblem::Negative);
        }
    }
    if run.duration_s == Some(0.0) {
        impossible("duration", FigureProblem::Zero);
    }
    if run.throughput.as_ref().is_some_and(|t| t.value == 0.0) {
        impossible("throughput", FigureProblem::Zero);
    }
    out.extend(requests_failed(run, th));
    out.extend(inconsistent(run, th));
    if run.throughput.is_none() {
        out.push(Reason::NoThroughput);
    }
    out.into_iter()
        .map(|reason| VerdictReason {
            severity: Severity::Invalid,
            reason,
        })
        .collect()
}

/// The measured figures of the run itself, by the name a reader finds them under.
fn figures(run: &CanonicalRun) -> Vec<(String, f64)> {
    let mut all = Vec::new();
    if let Some(t) = &run.throughput {
        all.push(("throughput".to_owned(), t.value));
    }
    for t in &run.throughputs {
        all.push((format!("throughputs.{}", t.name), t.value));
    }
    if let Some(d) = run.duration_s {
        all.push(("duration".to_owned(), d));
    }
    for (name, v) in &run.latencies {
        all.push((format!("latencies.{name}"), *v));
    }
    all
}

fn problem_of(value: f64) -> Option<FigureProblem> {
    if !value.is_finite() {
        Some(FigureProblem::NotFinite)
    } else if value < 0.0 {
        Some(FigureProblem::Negative)
    } else {
        None
    }
}

/// A whole count at `key` of `extra`, if any.
fn count(run: &CanonicalRun, key: &str) -> Option<u64> {
    run.extra.get(key).and_then(Value::as_u64)
}

fn requests_failed(run: &CanonicalRun, th: &Thresholds) -> Option<Reason> {
    let completed = count(run, "completed")?;
    let failed = count(run, "failed").unwrap_or(0);
    let total = completed.saturating_add(failed);
    #[expect(clippy::cast_precision_loss, reason = "a share of request counts, shown in percent")]
    let share = if total == 0 { 1.0 } else { failed as f64 / total as f64 };
    (completed == 0 || share > th.max_failed_share).then_some(Reason::RequestsFailed {
        completed,
        failed,
        share,
        max_share: th.max_failed_share,
    })
}

/// `output_throughput` against `total_output_tokens ÷ duration` (the whole-run figure: a
/// steady-state one replaced it only after this check held).
fn inconsistent(run: &CanonicalRun, th: &Thresholds) -> Option<Reason> {
    let tokens = run.extra.get("total_output_tokens").and_then(Value::as_f64)?;
    let duration = run.duration_s.filter(|d| d.is_finite() && *d > 0.0)?;
    let t = run.throughput.as_ref()?;
    if t.unit != ThroughputUnit::TokensPerS || tokens <= 0.0 {
        return None;
    }
    let stated = run
        .extra
        .get(EXTRA_THROUGHPUT_INCL_WARMUP)
        .and_then(Value::as_f64)
        .unwrap_or(t.value);
    let computed = tokens / duration;
    ((stated - computed).abs() > th.max_throughput_gap * computed).then(|| Reason::ThroughputInconsistent {
        field: "output_throughput".to_owned(),
        stated,
        computed,
        max_gap: th.max_throughput_gap,
    })
}
