//! Steady state and run length: a
//! per-interval throughput excludes its warm-up; a microbenchmark is too short.

use super::super::{
    CanonicalRun, EXTRA_THROUGHPUT_INCL_WARMUP, Format, Interval, Reason, RunStatus, Severity, Throttle,
    ThroughputUnit, VerdictContext, assess, judge, parse,
};

/// A canonical 900 s run reported per 10 s: 60 s ramping at 100 tokens/s,
/// then 1000 tokens/s; telemetry summary present (VRAM peak, throttling).
fn ramped() -> CanonicalRun {
    let mut run = CanonicalRun::new(Format::Canonical);
    run.duration_s = Some(900.0);
    run.vram_peak_mib = Some(30_000.0);
    run.node.vram_total_mib = Some(81_920.0);
    run.throttle = Some(Throttle::default());
    run.intervals = (0..90)
        .map(|i| Interval {
            t: f64::from(i) * 10.0,
            dt: 10.0,
            value: if i < 6 { 100.0 } else { 1000.0 },
        })
        .collect();
    // The tool's whole-run figure: (60 × 100 + 840 × 1000) / 900 = 940.
    run.throughput = Some(super::super::Throughput {
        value: 940.0,
        unit: ThroughputUnit::TokensPerS,
    });
    run
}

#[test]
fn per_interval_throughput_leaves_the_warmup_out() {
    let ctx = VerdictContext::default();
    let v = judge(&ramped(), &ctx);
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
    assert_eq!(
        v.reasons[0].reason,
        Reason::WarmupExcluded {
            warmup_s: 60.0,
            steady_util_mean_pct: None,
            throughput_incl_warmup: Some(940.0)
        }
    );
    let assessed = assess(ramped(), &ctx);
    assert_eq!(assessed.throughput.as_ref().map(|t| t.value), Some(1000.0));
    assert_eq!(assessed.warmup_s, Some(60.0));
    assert_eq!(
        assessed
            .extra
            .get(EXTRA_THROUGHPUT_INCL_WARMUP)
            .and_then(serde_json::Value::as_f64),
        Some(940.0)
    );
    assert_eq!(
        assess(assessed.clone(), &ctx),
        assessed,
        "judging again changes nothing"
    );
}

#[test]
fn steady_intervals_have_no_warmup() {
    let mut run = ramped();
    for i in &mut run.intervals {
        i.value = 1000.0;
    }
    let assessed = assess(run, &VerdictContext::default());
    assert_eq!(assessed.warmup_s, Some(0.0));
    assert_eq!(assessed.throughput.map(|t| t.value), Some(1000.0));
    assert_eq!(assessed.verdict.map(|v| v.reasons), Some(Vec::new()));
}

/// 900 s with a 320 s warm-up leaves 580 s of steady load: too short.
#[test]
fn too_short_counts_after_the_warmup() {
    let mut run = ramped();
    for (i, iv) in run.intervals.iter_mut().enumerate() {
        iv.value = if i < 32 { 100.0 } else { 1000.0 };
    }
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(
        v.reasons.contains(&super::super::VerdictReason {
            severity: Severity::Invalid,
            reason: Reason::ShortRun {
                duration_s: 900.0,
                warmup_s: 320.0,
                min_s: 600.0
            }
        }),
        "{:?}",
        v.reasons
    );
}

/// A 5 s `llama-bench` (5 repetitions of 1 s) is a microbenchmark: invalid.
#[test]
fn a_five_second_llama_bench_is_invalid() {
    let row = serde_json::json!([{
        "gpu_info": "NVIDIA A10",
        "model_filename": "m.gguf",
        "model_type": "llama 8B Q4_0",
        "n_prompt": 0,
        "n_gen": 128,
        "avg_ns": 1_000_000_000u64,
        "avg_ts": 128.0,
        "samples_ns": [1e9, 1e9, 1e9, 1e9, 1e9],
    }]);
    let run = parse(row.to_string().as_bytes(), None).expect("parses");
    assert_eq!(run.duration_s, Some(5.0));
    let v = judge(&run, &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Invalid);
    assert_eq!(
        v.reasons
            .iter()
            .map(|r| (r.severity, r.reason.clone()))
            .collect::<Vec<_>>(),
        [
            (
                Severity::Invalid,
                Reason::ShortRun {
                    duration_s: 5.0,
                    warmup_s: 0.0,
                    min_s: 600.0
                }
            ),
            (Severity::Warn, Reason::TelemetryMissing),
        ]
    );
}

/// `vllm bench serve --save-detailed`: per-request start times, TTFTs and
/// inter-token gaps give the output tokens per 10 s. Request k starts at
/// 10·k s (perf-counter origin 12345.6); the first 6 produce 10 tokens each,
/// the other 64 produce 100: 1 token/s for 60 s, then 10 tokens/s.
#[test]
fn vllm_request_timestamps_give_the_steady_throughput() {
    let n = 70;
    let starts: Vec<f64> = (0..n).map(|k| 12_345.6 + 10.0 * f64::from(k)).collect();
    let itls: Vec<Vec<f64>> = (0..n)
        .map(|k| if k < 6 { vec![0.5; 9] } else { vec![0.09; 99] })
        .collect();
    let whole = f64::from(6 * 10 + 64 * 100) / 700.0;
    let result = serde_json::json!({
        "date": "20250101-120000",
        "duration": 700.0,
        "completed": n,
        "output_throughput": whole,
        "start_times": starts,
        "ttfts": vec![0.5; 70],
        "itls": itls,
        "output_lens": (0..n).map(|k| if k < 6 { 10 } else { 100 }).collect::<Vec<_>>(),
    });
    let run = parse(result.to_string().as_bytes(), None).expect("parses");
    assert_eq!(run.intervals.len(), 70);
    assert_eq!(
        (run.intervals[0].t, run.intervals[0].dt, run.intervals[0].value),
        (0.0, 10.0, 1.0)
    );
    assert_eq!(run.intervals[6].value, 10.0);
    assert!(
        !run.extra.contains_key("start_times"),
        "the detail arrays are still dropped"
    );
    let mut run = run;
    run.throttle = Some(Throttle::default());
    run.vram_peak_mib = Some(20_000.0);
    let ctx = VerdictContext::default();
    let assessed = assess(run, &ctx);
    assert_eq!(assessed.warmup_s, Some(60.0));
    assert_eq!(assessed.throughput.as_ref().map(|t| t.value), Some(10.0));
    let v = assessed.verdict.expect("judged");
    assert_eq!(
        v.reasons[0].reason,
        Reason::WarmupExcluded {
            warmup_s: 60.0,
            steady_util_mean_pct: None,
            throughput_incl_warmup: Some(whole)
        }
    );
    assert_eq!(v.status, RunStatus::Valid, "{:?}", v.reasons);
}
