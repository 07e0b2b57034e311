//! Combining a benchmark result with a telemetry capture of the same run.

use serde_json::Value;

use super::canonical::{CanonicalRun, NodeInfo};

/// Key in `extra` naming the telemetry's source format after [`merge`].
pub const EXTRA_TELEMETRY_SOURCE: &str = "telemetry_source_format";

/// Merges `telemetry` (e.g. nvidia-smi) into `result` (e.g. vLLM).
///
/// The result keeps its source format, workload, throughputs, latencies,
/// duration (the benchmark's own; the telemetry duration fills a gap) and
/// its own time window (`started_at`/`ended_at`; never the telemetry's, so
/// an unplaced result stays unplaced). The telemetry's `telemetry_origin`
/// comes along, so the verdict can place the result inside the telemetry.
/// Node facts prefer the telemetry (it observes the hardware directly),
/// field by field; the node the result named is kept as `result_node`. Utilisation, throttle and the series come from the
/// telemetry when it has them; the VRAM peak is the larger of both. Any
/// verdict is dropped (judge the merged run again). `extra` keys of the
/// result win over the telemetry's.
#[must_use]
pub fn merge(result: CanonicalRun, telemetry: CanonicalRun) -> CanonicalRun {
    let mut run = result;
    let tel = telemetry;
    if !run.node.is_empty() && !tel.node.is_empty() {
        run.result_node = Some(run.node.clone());
    }
    run.node = merge_node(run.node, tel.node);
    if !tel.telemetry.is_empty() {
        run.telemetry_origin = tel.telemetry_origin;
    }
    run.vram_peak_mib = match (run.vram_peak_mib, tel.vram_peak_mib) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    run.gpu_util_mean_pct = tel.gpu_util_mean_pct.or(run.gpu_util_mean_pct);
    run.duration_s = run.duration_s.or(tel.duration_s);
    run.warmup_s = tel.warmup_s.or(run.warmup_s);
    run.throttle = tel.throttle.or(run.throttle);
    if !tel.telemetry.is_empty() {
        run.telemetry = tel.telemetry;
    }
    run.workload = run.workload.or(tel.workload);
    if run.throughput.is_none() {
        run.throughput = tel.throughput;
    }
    run.throughputs.extend(tel.throughputs);
    for (k, v) in tel.latencies {
        run.latencies.entry(k).or_insert(v);
    }
    run.latency_ms = run.latency_ms.or(tel.latency_ms);
    run.verdict = None;
    for (k, v) in tel.extra {
        run.extra.entry(k).or_insert(v);
    }
    run.extra
        .insert(EXTRA_TELEMETRY_SOURCE.into(), Value::from(tel.source_format.as_str()));
    run
}

fn merge_node(result: NodeInfo, tel: NodeInfo) -> NodeInfo {
    NodeInfo {
        gpu_name: tel.gpu_name.or(result.gpu_name),
        gpu_count: tel.gpu_count.or(result.gpu_count),
        vram_total_mib: tel.vram_total_mib.or(result.vram_total_mib),
        driver_version: tel.driver_version.or(result.driver_version),
        cuda_version: tel.cuda_version.or(result.cuda_version),
        mig: tel.mig.or(result.mig),
    }
}
