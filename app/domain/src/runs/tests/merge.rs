use serde_json::json;

use super::super::{EXTRA_TELEMETRY_SOURCE, Format, RunStatus, VerdictContext, judge, merge};
use super::{SMI_MULTI, VLLM, run_of};

#[test]
fn result_plus_telemetry() {
    let result = run_of(VLLM);
    let telemetry = run_of(SMI_MULTI);
    let merged = merge(result.clone(), telemetry.clone());
    assert_eq!(merged.source_format, Format::Vllm);
    assert_eq!(merged.throughput, result.throughput);
    assert_eq!(merged.latency_ms, result.latency_ms);
    assert_eq!(merged.duration_s, result.duration_s, "benchmark duration wins");
    assert_eq!(merged.node.gpu_count, Some(4));
    assert_eq!(merged.node.gpu_name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
    assert_eq!(merged.telemetry, telemetry.telemetry);
    assert_eq!(merged.throttle, telemetry.throttle);
    assert_eq!(merged.vram_peak_mib, telemetry.vram_peak_mib);
    assert_eq!(merged.gpu_util_mean_pct, telemetry.gpu_util_mean_pct);
    assert_eq!(merged.extra.get("completed"), Some(&json!(998)));
    assert!(merged.extra.contains_key("nvidia_smi"));
    assert_eq!(merged.extra.get(EXTRA_TELEMETRY_SOURCE), Some(&json!("nvidia_smi")));
    assert_eq!(merged.verdict, None);
    // 100 s throttled over a 700 s capture: the longer telemetry span is the base.
    assert_eq!(judge(&merged, &VerdictContext::default()).status, RunStatus::Invalid);
}

#[test]
fn telemetry_fills_missing_duration() {
    let mut result = run_of(VLLM);
    result.duration_s = None;
    let merged = merge(result, run_of(SMI_MULTI));
    assert!(merged.duration_s.is_some_and(|d| (d - 700.012).abs() < 1e-6));
}
