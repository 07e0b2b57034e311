//! Runs as engineers really make them, judged right.
//!
//! Every file here follows what the real tool writes; the facts and where they come from:
//! - nvidia-smi `--query-gpu=… --format=csv -l N` prints one row per GPU per sample, each with
//!   its own `YYYY/MM/DD HH:MM:SS.mmm` local timestamp, fields separated by `", "`, values with
//!   their units (`"0 %"`, `"81559 MiB"`) (`nvidia-smi --help-query-gpu`: "timestamp … in format
//!   "YYYY/MM/DD HH:MM:SS.msec""; a real capture: `2024/06/01 11:27:05.177, NVIDIA A100-SXM4-40GB,
//!   …, 0 %, 0 %, 40960 MiB, 40333 MiB, 4 MiB`). Without `-i` every GPU of the node is listed;
//!   `-i 0` lists GPU 0 only. An idle card shows a few MiB used (the `4 MiB` above).
//! - An SXM H100 is named `NVIDIA H100 80GB HBM3` and reports `memory.total` 81559 MiB (NVIDIA's
//!   driver README, "Compatible GPUs"; nvidia-smi tables pasted in public issues).
//! - vLLM takes `--gpu-memory-utilization` of every card at start (default 0.92 in
//!   `vllm/config/cache.py`, 0.9 in earlier releases) and holds it for the server's life, so
//!   `memory.used` is flat at ≈ 0.9 × 81559 ≈ 74 GB whatever the model needs, while utilisation
//!   follows the load.
//! - `vllm bench serve --save-result` writes `date` (`"%Y%m%d-%H%M%S"`, local time, when the
//!   benchmark finished), `backend` and `endpoint_type` (default `"openai"`), `duration`, the
//!   throughputs and latency statistics (`vllm/benchmarks/serve.py`).
//! - `llama-bench -o json` writes `test_time` as `strftime("%FT%TZ", gmtime(…))` when each test
//!   starts (`tools/llama-bench/llama-bench.cpp`), and `samples_ns` per repetition.
//! - MLPerf's `mlperf_log_summary.txt` holds no wall-clock time (`loadgen/results.cc`).

use rust_decimal_macros::dec;
use serde_json::json;

use super::super::{
    CanonicalRun, GpuUse, NeedBasis, QuotedNode, Reason, ReserveSource, RunStatus, Severity, Slicing, VerdictContext,
    assess, judge, merge, parse, parse_nvidia_smi,
};
use super::has_reason;

/// One GPU's telemetry: utilisation and memory used at sample `i`.
struct Card {
    index: u32,
    util: fn(usize) -> u32,
    mem_mib: fn(usize) -> u32,
}

/// nvidia-smi CSV as `--query-gpu=timestamp,index,name,utilization.gpu,memory.used,memory.total,
/// driver_version,mig.mode.current,clocks_event_reasons.active --format=csv -l 5` prints it: a
/// header with units, then one row per listed GPU every 5 s from `start` (an `HH:MM:SS` on
/// 2026-12-01) for `samples` samples.
fn smi_csv(name: &str, total_mib: u32, cards: &[Card], start: &str, samples: usize) -> String {
    let mut out = String::from(
        "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], driver_version, \
         mig.mode.current, clocks_event_reasons.active\n",
    );
    let (h, m, s) = (&start[0..2], &start[3..5], &start[6..8]);
    let t0: usize = h.parse::<usize>().unwrap() * 3600 + m.parse::<usize>().unwrap() * 60 + s.parse::<usize>().unwrap();
    for i in 0..samples {
        let t = t0 + i * 5;
        for (n, card) in cards.iter().enumerate() {
            out.push_str(&format!(
                "2026/12/01 {:02}:{:02}:{:02}.{:03}, {}, {name}, {} %, {} MiB, {total_mib} MiB, 550.90.07, Disabled, 0x0000000000000000\n",
                t / 3600,
                t / 60 % 60,
                t % 60,
                100 + n * 4,
                card.index,
                (card.util)(i),
                (card.mem_mib)(i),
            ));
        }
    }
    out
}

/// A serving benchmark's load: utilisation moving between 35 % and 97 %.
fn serving_util(i: usize) -> u32 {
    [62, 97, 35, 88, 71, 94, 48][i % 7]
}

/// vLLM's reservation on an 80 GB H100: flat at ≈ 0.9 of 81559 MiB.
fn vllm_reserved(i: usize) -> u32 {
    74_213 + u32::try_from(i % 3).unwrap()
}

fn idle(_: usize) -> u32 {
    0
}

fn idle_mem(_: usize) -> u32 {
    4
}

const H100: &str = "NVIDIA H100 80GB HBM3";

/// The 8 GPUs of an H100 node: GPU 0 serves with vLLM, 1–7 sit idle.
fn one_card_busy() -> Vec<Card> {
    let mut cards = vec![Card {
        index: 0,
        util: serving_util,
        mem_mib: vllm_reserved,
    }];
    cards.extend((1..8).map(|index| Card {
        index,
        util: idle,
        mem_mib: idle_mem,
    }));
    cards
}

/// A default `vllm bench serve --save-result` file of a 20-minute run of a 7B model that
/// finished at 10:20:05 (its `date`), started 1205 s before.
fn vllm_result() -> CanonicalRun {
    let file = json!({
        "date": "20261201-102005", "endpoint_type": "openai", "backend": "openai", "label": null,
        "model_id": "Qwen/Qwen2.5-7B-Instruct", "tokenizer_id": "Qwen/Qwen2.5-7B-Instruct", "num_prompts": 4000,
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 32, "duration": 1205.0, "completed": 4000,
        "failed": 0, "total_input_tokens": 4096000, "total_output_tokens": 1024000,
        "request_throughput": 3.319, "request_goodput": null, "output_throughput": 849.8,
        "total_token_throughput": 4248.9, "max_output_tokens_per_s": 1408.0, "max_concurrent_requests": 32,
        "latencies": [4.1, 4.3, 3.9], "queue_times": [0.0, 0.0, 0.01],
        "mean_ttft_ms": 180.2, "median_ttft_ms": 171.0, "std_ttft_ms": 61.5, "p99_ttft_ms": 402.1,
        "mean_tpot_ms": 37.9, "median_tpot_ms": 37.4, "std_tpot_ms": 3.2, "p99_tpot_ms": 47.0,
        "mean_itl_ms": 37.6, "median_itl_ms": 33.7, "std_itl_ms": 18.9, "p99_itl_ms": 98.5
    });
    parse(file.to_string().as_bytes(), None).unwrap()
}

/// Telemetry from 09:59:00 to 10:21:00 (265 samples), covering the run.
fn telemetry(cards: &[Card]) -> CanonicalRun {
    parse_nvidia_smi(smi_csv(H100, 81_559, cards, "09:59:00", 265).as_bytes()).unwrap()
}

/// An 8 × H100 SXM quote.
fn h100_node() -> QuotedNode {
    QuotedNode {
        gpu_name: Some("NVIDIA H100 80GB HBM3".into()),
        gpu_count: Some(8),
        vram_per_gpu_mib: Some(dec!(81920)),
        driver: None,
        slicing: Some(Slicing::Whole),
        form_factor: None,
        nvlink: None,
        network_gbps: None,
    }
}

/// A workload that runs `gpu_use`, one job on `job_gpus` GPUs, with a stated 20 GiB peak.
fn workload_ctx(gpu_use: GpuUse, job_gpus: u32) -> VerdictContext {
    VerdictContext {
        quote: Some(h100_node()),
        gpu_use,
        job_gpus: Some(job_gpus),
        workload_peak_mib: Some(dec!(20480)),
        ..VerdictContext::default()
    }
}

fn reasons(run: &CanonicalRun, ctx: &VerdictContext) -> Vec<(Severity, Reason)> {
    judge(run, ctx)
        .reasons
        .into_iter()
        .map(|r| (r.severity, r.reason))
        .collect()
}

#[test]
fn vllm_results_say_their_server_reserves_memory() {
    let run = vllm_result();
    assert_eq!(run.vram_reserved, Some(true), "backend openai of vLLM's own benchmark");
    assert!(!run.extra.contains_key("latencies"), "per-request arrays are not kept");
    let mut file = json!({"date": "20261201-102005", "backend": "tgi", "duration": 600.0, "output_throughput": 10.0});
    assert_eq!(
        parse(file.to_string().as_bytes(), None).unwrap().vram_reserved,
        None,
        "TGI caps, not reserves"
    );
    file["gpu_memory_utilization"] = json!("0.85");
    assert_eq!(
        parse(file.to_string().as_bytes(), None).unwrap().vram_reserved,
        Some(true),
        "--metadata"
    );
}

#[test]
fn a_default_vllm_run_on_one_card_of_an_8_gpu_node_is_valid_and_judged_on_the_workloads_need() {
    let run = merge(vllm_result(), telemetry(&one_card_busy()));
    let ctx = workload_ctx(GpuUse::TaskPerGpu, 1);
    let judged = assess(run, &ctx);
    let verdict = judged.verdict.clone().unwrap();
    assert_eq!(verdict.status, RunStatus::Valid, "{:#?}", verdict.reasons);
    assert_eq!(judged.gpus_used, [0]);
    let found = reasons(&judged, &ctx);
    assert!(found.contains(&(
        Severity::Info,
        Reason::GpusUsed {
            used: vec![0],
            idle: (1..8).collect(),
            named: false
        }
    )));
    assert!(found.contains(&(
        Severity::Info,
        Reason::PartOfNode {
            used: 1,
            node_gpus: 8,
            job_gpus: None,
            gpu_use: GpuUse::TaskPerGpu
        }
    )));
    let reserved = found.iter().find_map(|(_, r)| match r {
        Reason::VramReserved {
            source,
            need_mib,
            basis,
            share,
            ..
        } => Some((*source, *need_mib, *basis, share.map(|s| (s * 100.0).round()))),
        _ => None,
    });
    assert_eq!(
        reserved,
        Some((
            ReserveSource::Stated,
            Some(20_480.0),
            Some(NeedBasis::WorkloadStated),
            Some(91.0)
        ))
    );
    assert!(
        judged.gpu_util_mean_pct.is_some_and(|u| u > 60.0),
        "idle cards are not averaged in: {:?}",
        judged.gpu_util_mean_pct
    );
    assert!(!has_reason(&verdict, |r| matches!(r, Reason::VramHeadroomLow { .. })));
}

#[test]
fn before_the_reservation_rule_the_same_upload_warned_and_the_idle_cards_dragged_utilisation_down() {
    // What the gate said of this upload before (kept as a figure for the record): the whole
    // node's mean utilisation is (≈ 70.7 % on one card + 0 on seven) ÷ 8 ≈ 9 %.
    let tel = telemetry(&one_card_busy());
    assert!(
        tel.gpu_util_mean_pct.is_some_and(|u| u < 10.0),
        "{:?}",
        tel.gpu_util_mean_pct
    );
    // And a peak that really lacks headroom still warns, on the need, not on the reservation.
    let run = merge(vllm_result(), telemetry(&one_card_busy()));
    let mut ctx = workload_ctx(GpuUse::TaskPerGpu, 1);
    ctx.workload_peak_mib = Some(dec!(70000));
    let found = reasons(&run, &ctx);
    assert!(found.iter().any(|(s, r)| *s == Severity::Warn
        && matches!(
            r,
            Reason::VramHeadroomLow {
                basis: Some(NeedBasis::WorkloadStated),
                ..
            }
        )));
}

#[test]
fn a_one_card_capture_with_nvidia_smi_i_0_is_part_of_the_node_not_a_short_node() {
    let only_gpu0 = &one_card_busy()[..1];
    let run = merge(vllm_result(), telemetry(only_gpu0));
    let per_gpu = workload_ctx(GpuUse::TaskPerGpu, 1);
    assert_eq!(
        judge(&run, &per_gpu).status,
        RunStatus::Valid,
        "{:#?}",
        judge(&run, &per_gpu).reasons
    );
    // A job that spreads over 8 GPUs is not measured by one.
    let one_job = workload_ctx(GpuUse::OneJob, 8);
    assert!(reasons(&run, &one_job).contains(&(
        Severity::Warn,
        Reason::PartOfNode {
            used: 1,
            node_gpus: 8,
            job_gpus: Some(8),
            gpu_use: GpuUse::OneJob
        }
    )));
    // A one-GPU job on an 8-GPU node, one job at a time: the run measured the job.
    let small_job = workload_ctx(GpuUse::OneJob, 1);
    assert_eq!(judge(&run, &small_job).status, RunStatus::Valid);
}

#[test]
fn a_node_that_shows_fewer_cards_than_quoted_with_some_idle_is_short() {
    // nvidia-smi without -i lists the node's 4 GPUs, one working: the node has 4, not 8.
    let four = &one_card_busy()[..4];
    let run = merge(vllm_result(), telemetry(four));
    let found = reasons(&run, &workload_ctx(GpuUse::TaskPerGpu, 1));
    assert!(found.contains(&(Severity::Invalid, Reason::GpuCountMismatch { quoted: 8, observed: 4 })));
}

#[test]
fn named_gpus_are_the_runs_even_when_others_work() {
    let mut cards = one_card_busy();
    cards[1].util = serving_util; // another tenant's job on GPU 1
    let mut run = merge(vllm_result(), telemetry(&cards));
    run.gpus_named = vec![0];
    let judged = assess(run, &workload_ctx(GpuUse::TaskPerGpu, 1));
    assert_eq!(judged.gpus_used, [0]);
    assert!(has_reason(judged.verdict.as_ref().unwrap(), |r| matches!(
        r,
        Reason::GpusUsed { named: true, idle, .. } if idle.len() == 7
    )));
}

#[test]
fn a_reservation_is_seen_in_the_telemetry_when_nobody_said_so() {
    // A result that does not say which server ran (a script's canonical JSON).
    let mut result = CanonicalRun::new(super::super::Format::Canonical);
    result.started_at = Some("2026-12-01T10:00:00".into());
    result.duration_s = Some(1205.0);
    result.throughput = vllm_result().throughput;
    let run = merge(result, telemetry(&one_card_busy()));
    let ctx = workload_ctx(GpuUse::TaskPerGpu, 1);
    assert!(reasons(&run, &ctx).iter().any(|(s, r)| *s == Severity::Info
        && matches!(
            r,
            Reason::VramReserved {
                source: ReserveSource::Telemetry,
                ..
            }
        )));
    assert_eq!(judge(&run, &ctx).status, RunStatus::Valid);
}

#[test]
fn a_training_job_at_a_steady_high_memory_is_not_a_reservation() {
    // Training: memory flat near the card's size *and* utilisation flat at 99 %: that is the
    // job's own need, and it lacks headroom.
    fn busy(_: usize) -> u32 {
        99
    }
    fn near_full(i: usize) -> u32 {
        78_000 + u32::try_from(i % 2).unwrap()
    }
    let cards = [Card {
        index: 0,
        util: busy,
        mem_mib: near_full,
    }];
    let mut result = CanonicalRun::new(super::super::Format::Canonical);
    result.started_at = Some("2026-12-01T10:00:00".into());
    result.duration_s = Some(1205.0);
    let run = merge(result, telemetry(&cards));
    let found = reasons(&run, &VerdictContext::default());
    assert!(
        !found.iter().any(|(_, r)| matches!(r, Reason::VramReserved { .. })),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|(s, r)| *s == Severity::Warn && matches!(r, Reason::VramHeadroomLow { basis: None, .. }))
    );
}

#[test]
fn llama_bench_is_placed_in_its_telemetry_by_test_time() {
    fn work(_: usize) -> u32 {
        95
    }
    fn mem(_: usize) -> u32 {
        6_100
    }
    let llama = run_of_llama();
    assert_eq!(llama.started_at.as_deref(), Some("2025-05-14T09:12:44"));
    assert!(llama.ended_at.is_some());
    // Telemetry taken on a node whose clock runs on UTC, around the test.
    let cards = [Card {
        index: 0,
        util: work,
        mem_mib: mem,
    }];
    let csv = smi_csv("NVIDIA A100-SXM4-80GB", 81_920, &cards, "09:12:30", 20).replace("2026/12/01", "2025/05/14");
    let run = merge(llama, parse_nvidia_smi(csv.as_bytes()).unwrap());
    let found = reasons(&run, &VerdictContext::default());
    assert!(
        found.iter().any(|(_, r)| matches!(r, Reason::RunWindow { .. })),
        "{found:?}"
    );
    assert!(!found.iter().any(|(_, r)| matches!(r, Reason::RunWindowUnknown)));
}

fn run_of_llama() -> CanonicalRun {
    super::run_of(super::LLAMA)
}

#[test]
fn a_result_without_a_clock_is_judged_on_its_telemetry_and_said_so_not_warned() {
    let summary = super::run_of(super::MLPERF_OFFLINE);
    assert!(summary.started_at.is_none() && summary.ended_at.is_none());
    let run = merge(summary, telemetry(&one_card_busy()[..1]));
    let found = reasons(&run, &VerdictContext::default());
    assert!(found.contains(&(Severity::Info, Reason::RunWindowUnknown)), "{found:?}");
}

#[test]
fn only_a_mig_offer_expects_mig_mode_on() {
    let run = merge(vllm_result(), telemetry(&one_card_busy()[..1]));
    let mig_quote = |slicing, vram: Option<rust_decimal::Decimal>| VerdictContext {
        quote: Some(QuotedNode {
            gpu_count: Some(1),
            vram_per_gpu_mib: vram,
            slicing: Some(slicing),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    // The telemetry says `mig.mode.current` Disabled.
    let mig = reasons(&run, &mig_quote(Slicing::Mig, Some(dec!(10240))));
    assert!(mig.contains(&(
        Severity::Invalid,
        Reason::MigMismatch {
            quoted: true,
            observed: false
        }
    )));
    for kind in [Slicing::Vgpu, Slicing::Fractional] {
        let found = reasons(&run, &mig_quote(kind, None));
        assert!(
            !found.iter().any(|(_, r)| matches!(r, Reason::MigMismatch { .. })),
            "{kind:?}: {found:?}"
        );
    }
    // A half share of the card sees the whole card's 81559 MiB: not "more VRAM than quoted".
    let half = reasons(&run, &mig_quote(Slicing::Fractional, Some(dec!(40960))));
    assert!(
        !half.iter().any(|(_, r)| matches!(r, Reason::VramExceeds { .. })),
        "{half:?}"
    );
}

/// LoadGen's detail log, as `loadgen/logging.h` writes it (`:::MLLOG {json}` per event, `time_ms`
/// since logging began, `test_datetime` the local time with a literal `Z`): the run is placed
/// in its telemetry, unlike the summary.
#[test]
fn an_mlperf_detail_log_places_the_run_in_its_telemetry() {
    let detail = parse(include_bytes!("../fixtures/mlperf_detail_offline.txt"), None).unwrap();
    assert_eq!(detail.source_format, super::super::Format::Mlperf);
    assert_eq!(detail.started_at.as_deref(), Some("2026-12-01T10:00:00"));
    assert_eq!(detail.ended_at.as_deref(), Some("2026-12-01T10:10:12.043"));
    assert!(
        detail
            .throughput
            .as_ref()
            .is_some_and(|t| (t.value - 2912.45).abs() < 1e-9)
    );
    let summary = super::super::MlperfSummary::from_run(&detail).unwrap();
    assert_eq!(
        (
            summary.result_valid,
            summary.min_duration_satisfied,
            summary.min_duration_ms
        ),
        (Some(true), Some(true), Some(600_000.0))
    );
    let run = merge(detail, telemetry(&one_card_busy()[..1]));
    let found = reasons(&run, &VerdictContext::default());
    assert!(
        found.iter().any(|(s, r)| *s == Severity::Info
            && matches!(r, Reason::RunWindow { covered_share, .. } if (*covered_share - 1.0).abs() < 1e-9)),
        "{found:?}"
    );
}
