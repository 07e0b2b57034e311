use serde_json::json;

use super::super::{CanonicalRun, Format, MlperfSummary, ThroughputUnit, parse};
use super::{LLAMA, MLPERF_OFFLINE, MLPERF_SERVER, VLLM, VLLM_LEGACY, close, run_of};

fn named(run: &CanonicalRun, name: &str) -> Option<f64> {
    run.throughputs.iter().find(|t| t.name == name).map(|t| t.value)
}

/// The run's primary throughput is `value` (within `tol`) in `unit`.
fn primary_is(run: &CanonicalRun, unit: ThroughputUnit, value: f64, tol: f64) {
    let primary = run.throughput.clone().expect("primary");
    assert_eq!(primary.unit, unit);
    close(Some(primary.value), value, tol);
}

/// The run's p50, p90 and p99 latencies are `[p50, p90, p99]` ms (within `tol`).
fn percentiles_are(run: &CanonicalRun, [p50, p90, p99]: [f64; 3], tol: f64) {
    let lat = run.latency_ms.clone().expect("latency percentiles");
    close(lat.p50, p50, tol);
    close(lat.p90, p90, tol);
    close(lat.p99, p99, tol);
}

#[test]
fn vllm_serve_maps_throughputs_latencies_and_keeps_extras() {
    let run = run_of(VLLM);
    primary_is(&run, ThroughputUnit::TokensPerS, 208.579_639_446_634_85, 1e-12);
    close(named(&run, "requests"), 1.629_528_433_176_834_7, 1e-12);
    close(named(&run, "total_tokens"), 1_878.809_431_649_870_2, 1e-9);
    assert_eq!(named(&run, "goodput"), None, "null goodput is dropped");
    close(run.duration_s, 612.447_184_324_264_5, 1e-9);
    percentiles_are(
        &run,
        [4_921.551_227_569_58, 5_522.403_097_152_71, 6_188.014_268_875_122],
        1e-9,
    );
    close(run.latencies.get("ttft.p90").copied(), 256.339_120_864_868_2, 1e-9);
    close(run.latencies.get("itl.std").copied(), 18.904_012_473_062_52, 1e-9);
    close(run.latencies.get("e2el.p99.9").copied(), 6_480.5, 1e-9);
    assert_eq!(run.latencies.len(), 4 * 5 + 1);
    let w = run.workload.clone().expect("workload");
    assert_eq!(w.model.as_deref(), Some("meta-llama/Llama-3.1-8B-Instruct"));
    assert_eq!(w.concurrency, Some(64));
    assert_eq!(run.extra.get("completed"), Some(&json!(998)));
    assert_eq!(run.extra.get("failed"), Some(&json!(2)));
    assert_eq!(run.extra.get("request_rate"), Some(&json!("inf")));
    for mapped in [
        "output_throughput",
        "mean_ttft_ms",
        "duration",
        "model_id",
        "request_goodput",
    ] {
        assert!(!run.extra.contains_key(mapped), "{mapped} should be mapped, not extra");
    }
}

#[test]
fn vllm_legacy_handles_colon_key_python_infinity_and_detail_arrays() {
    let run = run_of(VLLM_LEGACY);
    assert_eq!(run.source_format, Format::VllmLegacy);
    close(run.throughput.as_ref().map(|t| t.value), 1_041.732_591_728_1, 1e-9);
    close(named(&run, "requests"), 5.301_541_040_089_468, 1e-12);
    assert_eq!(named(&run, "goodput"), None);
    assert!(!run.extra.contains_key("request_goodput:"));
    assert_eq!(run.latency_ms, None, "no e2el keys in the old script");
    close(run.latencies.get("ttft.p99").copied(), 4_237.770_119_970_664, 1e-9);
    assert_eq!(
        run.extra.get("request_rate"),
        Some(&json!("Infinity")),
        "Infinity is kept as text: a setting (all requests at once), never a number"
    );
    assert!(!run.extra.contains_key("ttfts"));
    let dropped = run.extra.get("dropped_detail_keys").expect("listed");
    assert!(
        dropped
            .as_array()
            .is_some_and(|a| a.contains(&json!("generated_texts")))
    );
    assert_eq!(run.workload.and_then(|w| w.concurrency), None);
}

#[test]
fn vllm_percentile_pairs_are_read() {
    let doc = br#"{"output_throughput": 10.0, "percentiles_ttft_ms": [[50, 1.5], [99.9, 9.25]]}"#;
    let run = parse(doc, None).expect("parses");
    close(run.latencies.get("ttft.p50").copied(), 1.5, 0.0);
    close(run.latencies.get("ttft.p99.9").copied(), 9.25, 0.0);
}

#[test]
fn llama_bench_keeps_pp_and_tg_rows_and_unknown_keys() {
    let run = run_of(LLAMA);
    let names: Vec<&str> = run.throughputs.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["pp512", "tg128"]);
    close(named(&run, "pp512"), 6_951.462_177, 1e-9);
    primary_is(&run, ThroughputUnit::TokensPerS, 141.555_922, 1e-9);
    assert_eq!(run.node.gpu_name.as_deref(), Some("NVIDIA A100-SXM4-80GB"));
    assert_eq!(run.node.gpu_count, Some(1));
    let w = run.workload.clone().expect("workload");
    assert_eq!(w.precision.as_deref(), Some("Q4_K - Medium"));
    assert_eq!(w.batch_size, Some(2048));
    assert_eq!(w.input_size, Some(512));
    close(run.duration_s, (73_655_020.0 * 5.0 + 904_231_110.0 * 5.0) / 1e9, 1e-9);
    let rows = run
        .extra
        .get("llama_bench_rows")
        .and_then(|r| r.as_array())
        .expect("rows kept");
    assert_eq!(rows[1].get("kv_unified_experimental"), Some(&json!(false)));
}

#[test]
fn llama_bench_tolerates_missing_keys_and_depth() {
    let doc = br#"[{"n_prompt": 0, "n_gen": 32, "n_depth": 4096, "avg_ts": 50.5,
                   "gpu_info": "NVIDIA RTX A6000, NVIDIA RTX A6000"}]"#;
    let run = parse(doc, None).expect("parses");
    assert_eq!(run.throughputs[0].name, "tg32@d4096");
    assert_eq!(run.node.gpu_count, Some(2));
    assert_eq!(run.duration_s, None);
    assert_eq!(run.workload.and_then(|w| w.model), None);
}

#[test]
fn llama_bench_without_generation_falls_back_to_first_row() {
    let doc = br#"[{"n_prompt": 512, "n_gen": 0, "avg_ts": 900.0}]"#;
    close(
        parse(doc, None).expect("parses").throughput.map(|t| t.value),
        900.0,
        0.0,
    );
}

#[test]
fn mlperf_offline_valid() {
    let run = run_of(MLPERF_OFFLINE);
    primary_is(&run, ThroughputUnit::SamplesPerS, 2_954.39, 1e-9);
    percentiles_are(&run, [306_418.874_12, 549_506.021_447, 604_224.901_334], 1e-6);
    close(run.latencies.get("latency.p99.9").copied(), 609_757.226_211, 1e-6);
    close(run.latencies.get("latency.min").copied(), 17.384_123, 1e-9);
    let s = MlperfSummary::from_run(&run).expect("summary");
    assert_eq!(s.scenario.as_deref(), Some("Offline"));
    assert_eq!(s.mode.as_deref(), Some("PerformanceOnly"));
    assert_eq!(s.result_valid, Some(true));
    assert_eq!(s.min_duration_satisfied, Some(true));
    assert_eq!(s.early_stopping_satisfied, Some(true));
    assert_eq!(s.min_duration_ms, Some(600_000.0));
    assert_eq!(s.params.get("target_qps"), Some(&json!(2732.0)));
    assert_eq!(run.duration_s, None);
}

#[test]
fn mlperf_server_invalid() {
    let run = run_of(MLPERF_SERVER);
    close(run.throughput.as_ref().map(|t| t.value), 41.87, 1e-9);
    close(named(&run, "completed_tokens"), 12_234.5, 1e-9);
    close(named(&run, "scheduled_samples"), 42.01, 1e-9);
    close(run.latencies.get("ttft.p99").copied(), 5_610.023_311, 1e-6);
    close(run.latencies.get("tpot.p50").copied(), 58.003_221, 1e-6);
    let s = MlperfSummary::from_run(&run).expect("summary");
    assert_eq!(s.scenario.as_deref(), Some("Server"));
    assert_eq!(s.result_valid, Some(false));
    assert_eq!(s.min_duration_satisfied, Some(true));
    assert_eq!(s.early_stopping_satisfied, Some(false));
    assert_eq!(s.performance_constraints_satisfied, Some(false));
}

#[test]
fn canonical_unknown_top_level_keys_go_to_extra() {
    let run = run_of(super::CANONICAL_FULL);
    assert_eq!(run.extra.get("operator_note_id"), Some(&json!(42)));
    assert_eq!(run.extra.get("backend"), Some(&json!("vllm")));
    assert_eq!(run.source_format, Format::Vllm);
    assert_eq!(run.telemetry.len(), 3);
}

#[test]
fn every_parsed_fixture_round_trips_through_canonical_json() {
    for (name, bytes, _) in super::FIXTURES {
        let run = run_of(bytes);
        let json = serde_json::to_vec(&run).expect("serializes");
        let back = parse(&json, None).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let (a, b) = (serde_json::to_value(&run), serde_json::to_value(&back));
        assert!(approx_eq(&a.expect("a"), &b.expect("b")), "{name}");
    }
}

/// Value equality with floats compared to 1e-14 relative: serde_json without
/// its `float_roundtrip` feature may read a float back one ulp off.
fn approx_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-14 * x.abs().max(y.abs()),
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| approx_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| approx_eq(v, w)))
        }
        _ => a == b,
    }
}
