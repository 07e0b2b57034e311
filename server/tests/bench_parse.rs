//! `nodeledger bench parse FILE` run as a user would: the canonical run with `warmup_s` and a
//! `verdict` judged from the file alone (duration, warm-up, throttling, MLPerf validity).

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use serde_json::Value;
use std::process::Command;

/// The binary under test; `NODELEDGER_BIN` overrides it (a copy, when several worktrees share
/// one target directory and another build may replace `target/debug/nodeledger`).
fn bin() -> String {
    std::env::var("NODELEDGER_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_nodeledger").to_string())
}
const RUN_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/domain/src/runs/fixtures");

fn parse(path: &str) -> Value {
    let out = Command::new(bin())
        .args(["bench", "parse", path])
        .env("NODELEDGER_LOG", "error")
        .output()
        .expect("run nodeledger");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on standard output")
}

fn codes(run: &Value) -> Vec<(String, String)> {
    run["verdict"]["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .map(|r| {
            (
                r["severity"].as_str().unwrap().to_string(),
                r["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(severity: &str, code: &str) -> (String, String) {
    (severity.to_string(), code.to_string())
}

#[test]
fn a_result_alone_warns_for_missing_telemetry_and_cannot_tell_its_warmup() {
    let run = parse(&format!("{RUN_FIXTURES}/vllm_serve.json"));
    assert_eq!(run["warmup_s"], Value::Null, "printed, unknown without telemetry");
    assert_eq!(run["verdict"]["status"], "warn");
    assert_eq!(codes(&run), [pair("warn", "telemetry_missing")]);
    assert_eq!(run["ended_at"], "2025-06-11T14:22:33");
}

#[test]
fn telemetry_alone_prints_its_warmup_and_slowdown() {
    let run = parse(&format!("{RUN_FIXTURES}/smi_units_event.csv"));
    let warmup = run["warmup_s"].as_f64().expect("a number");
    assert!(warmup > 0.0 && warmup <= 60.0, "{warmup}");
    // Telemetry measures no throughput: never valid evidence on its own.
    assert_eq!(run["verdict"]["status"], "invalid");
    let reasons = &run["verdict"]["reasons"];
    assert_eq!(reasons[0]["code"], "no_throughput");
    assert_eq!(reasons[1]["code"], "warmup_excluded");
    assert_eq!(reasons[1]["warmup_s"].as_f64(), Some(warmup));
    assert_eq!(reasons[2]["code"], "thermal_or_power_slowdown");
    assert_eq!(reasons[2]["active_s"], 30.0);
}

#[test]
fn mlperf_validity_and_min_duration_come_from_the_log() {
    let invalid = parse(&format!("{RUN_FIXTURES}/mlperf_server_invalid.txt"));
    assert_eq!(invalid["verdict"]["status"], "invalid");
    assert!(
        codes(&invalid).contains(&pair("invalid", "mlperf_invalid")),
        "{invalid}"
    );
    let valid = parse(&format!("{RUN_FIXTURES}/mlperf_offline_valid.txt"));
    assert_eq!(
        codes(&valid),
        [pair("info", "duration_from_mlperf"), pair("warn", "telemetry_missing")]
    );
    assert_eq!(valid["verdict"]["reasons"][0]["min_duration_s"], 600.0);
}

#[test]
fn a_five_second_llama_bench_is_invalid() {
    let dir = std::env::temp_dir().join(format!("nl-bench-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("llama.json");
    let row = r#"[{"gpu_info": "NVIDIA A10", "model_filename": "m.gguf", "model_type": "llama 8B Q4_0", "n_prompt": 0, "n_gen": 128, "avg_ns": 1000000000, "avg_ts": 128.0, "samples_ns": [1e9, 1e9, 1e9, 1e9, 1e9]}]"#;
    std::fs::write(&file, row).unwrap();
    let run = parse(file.to_str().unwrap());
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(run["duration_s"], 5.0);
    assert_eq!(run["verdict"]["status"], "invalid");
    assert_eq!(
        codes(&run),
        [pair("invalid", "short_run"), pair("warn", "telemetry_missing")]
    );
    assert_eq!(run["verdict"]["reasons"][0]["duration_s"], 5.0);
    assert_eq!(run["verdict"]["reasons"][0]["min_s"], 600.0);
}

#[test]
fn runs_rejudge_reports_what_it_did_and_never_creates_a_database() {
    let dir = std::env::temp_dir().join(format!("nl-rejudge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("r.db");
    let run = |args: &[&str]| {
        Command::new(bin())
            .arg("--db")
            .arg(&db)
            .args(args)
            .env("NODELEDGER_LOG", "error")
            .output()
            .unwrap()
    };
    let missing = run(&["runs", "rejudge"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no database at"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    assert!(!db.exists());
    assert!(run(&["migrate"]).status.success());
    let ok = run(&["runs", "rejudge"]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert_eq!(
        String::from_utf8_lossy(&ok.stdout),
        "re-judged 0 runs; 0 changed status\n"
    );
}

/// A default `vllm bench serve` result with nvidia-smi telemetry of its whole 8-GPU node, GPU 0
/// serving (the same files as the router test `real_uploads`): the summary on standard error
/// names the GPUs used, the reservation and the verdict.
#[test]
fn with_its_telemetry_it_says_the_gpus_used_and_that_memory_is_reserved() {
    let dir = std::env::temp_dir().join(format!("nl-bench-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let result = dir.join("vllm.json");
    std::fs::write(&result, crate::common::vllm_result(1205.0)).unwrap();
    let smi = dir.join("smi.csv");
    std::fs::write(&smi, crate::common::h100_node_telemetry(8)).unwrap();
    let out = Command::new(bin())
        .args(["bench", "parse"])
        .arg(&result)
        .arg("--telemetry")
        .arg(&smi)
        .env("NODELEDGER_LOG", "error")
        .output()
        .expect("run nodeledger");
    let _ = std::fs::remove_dir_all(&dir);
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{summary}");
    assert!(summary.starts_with("verdict: valid\n"), "{summary}");
    assert!(
        summary.contains("GPUs used: 0 (idle, left out: 1, 2, 3, 4, 5, 6, 7)"),
        "{summary}"
    );
    assert!(summary.contains("memory: reserved by the server (stated)"), "{summary}");
    let run: Value = serde_json::from_slice(&out.stdout).expect("JSON on standard output");
    assert_eq!(run["gpus_used"], serde_json::json!([0]));
    assert_eq!(run["vram_reserved"], true);
    assert_eq!(run["verdict"]["status"], "valid");
}

/// An SGLang result states no time of its own (sgl-project/sglang benchmark/serving.py writes
/// no date): `--started-at` places it in its telemetry as the upload's `started_at` does, so the
/// server's start-up before it is not taken for the run's warm-up; an unreadable time is refused
/// with the form to write.
#[test]
fn bench_parse_places_a_result_without_a_clock_with_started_at() {
    let sglang = format!("{RUN_FIXTURES}/sglang_bench_serving.jsonl");
    let smi = format!("{RUN_FIXTURES}/smi_units_event.csv");
    let run_with = |extra: &[&str]| {
        let mut args = vec!["bench", "parse", sglang.as_str(), "--telemetry", smi.as_str()];
        args.extend_from_slice(extra);
        Command::new(bin())
            .args(&args)
            .env("NODELEDGER_LOG", "error")
            .output()
            .expect("run nodeledger")
    };
    let unplaced: Value = serde_json::from_slice(&run_with(&[]).stdout).unwrap();
    assert_eq!(unplaced["source_format"], "sglang");
    assert_eq!(unplaced["workload"]["model"], "Qwen/Qwen2.5-32B-Instruct");
    assert!(
        codes(&unplaced).contains(&pair("info", "run_window_unknown")),
        "{unplaced}"
    );
    let out = run_with(&["--started-at", "2024-05-01 12:05:00"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let placed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(placed["started_at"], "2024-05-01T12:05:00");
    let placed_codes = codes(&placed);
    assert!(placed_codes.iter().any(|(_, c)| c == "run_window"), "{placed}");
    assert!(!placed_codes.iter().any(|(_, c)| c == "run_window_unknown"), "{placed}");
    let bad = run_with(&["--started-at", "noon"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--started-at noon: not a time; write YYYY-MM-DD HH:MM[:SS]"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

/// nccl-tests output (NVIDIA/nccl-tests `src/util.cu`; SOURCES.md §8) reads as a link test: its
/// bus bandwidth at the largest sizes, judged on the link alone (no quote here to compare with).
#[test]
fn an_nccl_tests_output_prints_its_bus_bandwidth_at_the_largest_sizes() {
    let run = parse(&format!("{RUN_FIXTURES}/nccl_all_reduce_perf.txt"));
    assert_eq!(run["source_format"], "nccl_tests");
    assert_eq!(run["bus_test"]["bus_gbps"], 480.885);
    assert_eq!(run["bus_test"]["avg_bus_gbps"], 156.464, "kept, never judged");
    assert_eq!(run["verdict"]["status"], "valid");
    assert_eq!(codes(&run), [pair("info", "bus_bandwidth")]);
}
