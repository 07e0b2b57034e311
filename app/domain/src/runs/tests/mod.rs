//! Tests for the runs module. Fixtures are compiled in with `include_bytes!`
//! so the tests need no file I/O.

mod detection;
mod errors;
mod formats;
mod line_endings;
mod merge;
mod props;
mod real_uploads;
mod schema;
mod smi;
mod steady;
mod verdict_bus;
mod verdict_edges;
mod verdict_fixtures;
mod verdict_gpu_catalog;
mod verdict_quote;
mod verdict_vram;
mod window;

/// Whether any reason of the verdict `v` is one that `is` picks.
pub(super) fn has_reason(v: &super::Verdict, is: impl Fn(&super::Reason) -> bool) -> bool {
    v.reasons.iter().any(|r| is(&r.reason))
}

/// Every fixture: (file name, bytes, expected format).
pub(super) const FIXTURES: &[(&str, &[u8], super::Format)] = {
    use super::Format::{Canonical, LlamaBench, Mlperf, NcclTests, NvidiaSmi, Vllm, VllmLegacy};
    &[
        ("canonical_full.json", CANONICAL_FULL, Canonical),
        ("canonical_minimal.json", CANONICAL_MINIMAL, Canonical),
        ("vllm_serve.json", VLLM, Vllm),
        ("vllm_legacy.json", VLLM_LEGACY, VllmLegacy),
        ("llama_bench.json", LLAMA, LlamaBench),
        ("mlperf_offline_valid.txt", MLPERF_OFFLINE, Mlperf),
        ("mlperf_server_invalid.txt", MLPERF_SERVER, Mlperf),
        ("mlperf_detail_offline.txt", MLPERF_DETAIL, Mlperf),
        ("smi_units_event.csv", SMI_UNITS, NvidiaSmi),
        ("smi_nounits_throttle.csv", SMI_NOUNITS, NvidiaSmi),
        ("smi_multi_gpu.csv", SMI_MULTI, NvidiaSmi),
        ("smi_reordered.csv", SMI_REORDERED, NvidiaSmi),
        ("nccl_all_reduce_perf.txt", NCCL_NVSWITCH, NcclTests),
        ("nccl_all_reduce_perf_pcie.txt", NCCL_PCIE, NcclTests),
    ]
};

pub(super) const CANONICAL_FULL: &[u8] = include_bytes!("../fixtures/canonical_full.json");
pub(super) const CANONICAL_MINIMAL: &[u8] = include_bytes!("../fixtures/canonical_minimal.json");
pub(super) const VLLM: &[u8] = include_bytes!("../fixtures/vllm_serve.json");
pub(super) const VLLM_LEGACY: &[u8] = include_bytes!("../fixtures/vllm_legacy.json");
pub(super) const LLAMA: &[u8] = include_bytes!("../fixtures/llama_bench.json");
pub(super) const MLPERF_OFFLINE: &[u8] = include_bytes!("../fixtures/mlperf_offline_valid.txt");
pub(super) const MLPERF_SERVER: &[u8] = include_bytes!("../fixtures/mlperf_server_invalid.txt");
pub(super) const MLPERF_DETAIL: &[u8] = include_bytes!("../fixtures/mlperf_detail_offline.txt");
pub(super) const SMI_UNITS: &[u8] = include_bytes!("../fixtures/smi_units_event.csv");
pub(super) const SMI_NOUNITS: &[u8] = include_bytes!("../fixtures/smi_nounits_throttle.csv");
pub(super) const SMI_MULTI: &[u8] = include_bytes!("../fixtures/smi_multi_gpu.csv");
/// nccl-tests `all_reduce_perf -b 8 -e 8G -f 2 -g 8` on an NVSwitch H100 node and on a PCIe
/// L40S node, to NVIDIA/nccl-tests `src/util.cu` (SOURCES.md §8).
pub(super) const NCCL_NVSWITCH: &[u8] = include_bytes!("../fixtures/nccl_all_reduce_perf.txt");
pub(super) const NCCL_PCIE: &[u8] = include_bytes!("../fixtures/nccl_all_reduce_perf_pcie.txt");
pub(super) const SMI_REORDERED: &[u8] = include_bytes!("../fixtures/smi_reordered.csv");

/// Parses a fixture with auto-detection, failing the test on error.
pub(super) fn run_of(bytes: &[u8]) -> super::CanonicalRun {
    match super::parse(bytes, None) {
        Ok(run) => run,
        Err(e) => panic!("fixture failed to parse: {e:?}"),
    }
}

/// Asserts two floats are within `tol`.
#[track_caller]
pub(super) fn close(actual: Option<f64>, expected: f64, tol: f64) {
    match actual {
        Some(a) if (a - expected).abs() <= tol => {}
        other => panic!("expected {expected} ± {tol}, got {other:?}"),
    }
}
mod amd;
mod sanity;
