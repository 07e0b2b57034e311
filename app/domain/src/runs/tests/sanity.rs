//! Sanity before verdict, on results written as the tools write them. The fixtures follow
//! `vllm/benchmarks/serve.py` (vllm-project/vllm @009e6d4a; see `fixtures/SOURCES.md`): a run
//! against a server that answered 500s writes `completed` 0, `failed` 4200 and every figure 0
//! (its means are guarded with `or 0`); `json.dump` writes non-finite floats as bare `NaN` and
//! `Infinity`.

use super::super::judge::sanity::findings;
use super::super::{FigureProblem, Reason, RunStatus, Severity, Thresholds, VerdictContext, judge};
use super::run_of;

const ALL_FAILED: &[u8] = include_bytes!("../fixtures/vllm_all_failed.json");
const NON_FINITE: &[u8] = include_bytes!("../fixtures/vllm_non_finite.json");
const CONCURRENCY_8: &[u8] = include_bytes!("../fixtures/vllm_tp2_concurrency_8.json");
const SGLANG: &[u8] = include_bytes!("../fixtures/sglang_bench_serving.jsonl");

fn reasons(bytes: &[u8]) -> Vec<Reason> {
    findings(&run_of(bytes), &Thresholds::default())
        .into_iter()
        .map(|r| {
            assert_eq!(r.severity, Severity::Invalid, "every sanity finding is invalid");
            r.reason
        })
        .collect()
}

#[test]
fn a_run_where_every_request_failed_is_invalid_whatever_the_telemetry_says() {
    let found = reasons(ALL_FAILED);
    assert!(
        found.contains(&Reason::RequestsFailed {
            completed: 0,
            failed: 4200,
            share: 1.0,
            max_share: 0.01
        }),
        "{found:?}"
    );
    assert!(found.contains(&Reason::ImpossibleFigure {
        field: "throughput".into(),
        problem: FigureProblem::Zero
    }));
    let v = judge(&run_of(ALL_FAILED), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
}

#[test]
fn non_finite_and_negative_figures_are_named_and_never_a_throughput() {
    let run = run_of(NON_FINITE);
    assert_eq!(run.throughput.as_ref().map(|t| t.value), Some(-1702.4));
    let found = reasons(NON_FINITE);
    let named = |field: &str, problem| {
        found.contains(&Reason::ImpossibleFigure {
            field: field.into(),
            problem,
        })
    };
    assert!(named("throughput", FigureProblem::Negative), "{found:?}");
    for field in [
        "request_goodput",
        "total_token_throughput",
        "mean_ttft_ms",
        "p99_tpot_ms",
        "p95_e2el_ms",
    ] {
        assert!(named(field, FigureProblem::NotFinite), "{field}: {found:?}");
    }
    assert!(
        found
            .iter()
            .any(|r| matches!(r, Reason::ThroughputInconsistent { stated, .. } if *stated == -1702.4)),
        "{found:?}"
    );
}

/// A clean result: 81,920 tokens in 148.4 s = 551.96 tokens/s as stated, 80 of 80 completed.
#[test]
fn a_clean_serving_result_passes_every_sanity_rule() {
    assert_eq!(reasons(CONCURRENCY_8), []);
}

/// SGLang writes `"request_rate": Infinity` for "all requests at once" (benchmark/serving.py,
/// sgl-project/sglang @00f9ec47): a setting, not a broken figure.
#[test]
fn an_infinite_request_rate_is_a_setting_not_a_broken_figure() {
    let first = SGLANG.split(|b| *b == b'\n').next().expect("a line");
    let found = reasons(first);
    assert!(
        !found
            .iter()
            .any(|r| matches!(r, Reason::ImpossibleFigure { field, .. } if field == "request_rate")),
        "{found:?}"
    );
}

#[test]
fn more_than_one_percent_failed_or_a_throughput_off_its_tokens_is_invalid() {
    let edits = |pairs: &[(&str, &str)]| {
        let mut text = std::str::from_utf8(CONCURRENCY_8).unwrap().to_owned();
        for (from, to) in pairs {
            text = text.replacen(from, to, 1);
        }
        reasons(text.as_bytes())
    };
    let edit = |from: &str, to: &str| edits(&[(from, to)]);
    let one_in_100 = edits(&[
        ("\"failed\": 0", "\"failed\": 1"),
        ("\"completed\": 80", "\"completed\": 99"),
    ]);
    assert_eq!(one_in_100, [], "1 of 100 failed is 1 %, the most allowed");
    let one_in_81 = edit("\"failed\": 0", "\"failed\": 1");
    assert!(
        matches!(
            one_in_81[..],
            [Reason::RequestsFailed {
                failed: 1,
                completed: 80,
                ..
            }]
        ),
        "1.2 %: {one_in_81:?}"
    );
    let doubled = edit(
        "\"output_throughput\": 551.955746925168",
        "\"output_throughput\": 1103.9",
    );
    assert!(
        matches!(doubled[..], [Reason::ThroughputInconsistent { .. }]),
        "{doubled:?}"
    );
    let zero = edit("\"duration\": 148.41769554236816", "\"duration\": 0");
    assert!(
        zero.contains(&Reason::ImpossibleFigure {
            field: "duration".into(),
            problem: FigureProblem::Zero
        }),
        "{zero:?}"
    );
}

/// SGLang is its own format: the last of the appended runs is read, its model comes from
/// `server_info.model_path`, its end-to-end latency and total throughput read as vLLM's.
#[test]
fn an_sglang_file_reads_as_sglang_with_its_model() {
    let run = run_of(SGLANG);
    assert_eq!(run.source_format, super::super::Format::Sglang);
    let workload = run.workload.as_ref().expect("model and concurrency");
    assert_eq!(workload.model.as_deref(), Some("Qwen/Qwen2.5-32B-Instruct"));
    assert_eq!(workload.concurrency, Some(64), "the second, last appended run");
    assert_eq!(run.extra.get("results_in_file"), Some(&serde_json::json!(2)));
    assert_eq!(run.extra.get("server_tp_size"), Some(&serde_json::json!(2)));
    assert!(run.latencies.contains_key("e2el.p95") && run.latencies.contains_key("tpot.p95"));
    assert!(
        !run.extra.contains_key("server_info"),
        "the server's whole configuration is not kept"
    );
    assert_eq!(findings(&run, &Thresholds::default()), []);
}
