//! Whether the run measured the workload: its model and precision against the workload's.
//!
//! Names are compared as people write them: vLLM's `model_id` is the Hugging Face id
//! (`Qwen/Qwen2.5-7B-Instruct`), llama-bench's `model_filename` a path to a GGUF file
//! (`models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf`), a workload a short name
//! (`Llama-3.1-8B-Instruct`). Each is reduced to lower-case letters and digits of its last path
//! part without the `.gguf`; they match when one contains the other (an instruct or quantised
//! variant of the stated model is the same model; `Qwen2-7B` is not `Qwen2.5-7B`).

use crate::runs::canonical::CanonicalRun;
use crate::runs::verdict::{Reason, Severity, VerdictContext, WorkloadField, meets};

/// `Reason::WorkloadDiffers` for each of model and precision that both sides state and that
/// differ; warn, or info when the engineer says the run stands for the workload.
pub(super) fn differences(run: &CanonicalRun, ctx: &VerdictContext) -> Vec<(Severity, Reason)> {
    let Some(ran) = &run.workload else {
        return Vec::new();
    };
    let pairs = [
        (
            WorkloadField::Model,
            ran.model.as_deref(),
            ctx.workload_model.as_deref(),
        ),
        (
            WorkloadField::Precision,
            ran.precision.as_deref(),
            ctx.workload_precision.as_deref(),
        ),
    ];
    let severity = if run.stands_for_workload {
        Severity::Info
    } else {
        Severity::Warn
    };
    pairs
        .into_iter()
        .filter_map(|(what, ran, stated)| {
            let (ran, stated) = (ran?.trim(), stated?.trim());
            let (a, b) = (key(ran), key(stated));
            let same = a.is_empty() || b.is_empty() || a.contains(&b) || b.contains(&a);
            (!same).then(|| {
                let reason = Reason::WorkloadDiffers {
                    what,
                    run: ran.to_owned(),
                    workload: stated.to_owned(),
                    stands_for: run.stands_for_workload,
                };
                (severity, reason)
            })
        })
        .collect()
}

/// The run against the workload's response-time target: met (info), missed (warn: not the
/// workload's evidence, still a point on its node's curve), or not reported by a run that
/// reports latencies (warn: say which percentile to ask the tool for). A run that times no
/// request (training, llama-bench) is not judged on it.
pub(super) fn response_time(run: &CanonicalRun, ctx: &VerdictContext) -> Option<(Severity, Reason)> {
    let target = ctx.response_target?;
    if run.latencies.is_empty() {
        return None;
    }
    let concurrency = run.workload.as_ref().and_then(|w| w.concurrency);
    Some(match target.measured(&run.latencies) {
        None => (Severity::Warn, Reason::ResponseTimeUnreported { target }),
        Some(measured_ms) if meets(&target, measured_ms) => (
            Severity::Info,
            Reason::ResponseTimeMet {
                target,
                measured_ms,
                concurrency,
            },
        ),
        Some(measured_ms) => (
            Severity::Warn,
            Reason::MissesResponseTarget {
                target,
                measured_ms,
                concurrency,
            },
        ),
    })
}

/// Lower-case letters and digits of the last path part, without a `.gguf` ending.
fn key(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let lower = last.to_lowercase();
    let stem = lower.strip_suffix(".gguf").unwrap_or(&lower);
    stem.chars().filter(char::is_ascii_alphanumeric).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::{Format, RunWorkload};

    fn run(model: &str, precision: Option<&str>) -> CanonicalRun {
        let mut run = CanonicalRun::new(Format::Vllm);
        run.workload = Some(RunWorkload {
            model: Some(model.into()),
            precision: precision.map(Into::into),
            ..RunWorkload::default()
        });
        run
    }

    fn ctx(model: &str, precision: &str) -> VerdictContext {
        VerdictContext {
            workload_model: Some(model.into()),
            workload_precision: Some(precision.into()),
            ..VerdictContext::default()
        }
    }

    /// The three vLLM fixtures at 8, 32 and 64 concurrent requests (p95 TPOT 14.63, 19.36 and
    /// 26.16 ms) against a p95 TPOT target of 22 ms: two meet it, 64 misses it and warns.
    #[test]
    fn a_run_is_judged_at_the_workloads_response_time_target() {
        use crate::runs::{LatencyMetric, Percentile, ResponseTarget, parse};
        use rust_decimal_macros::dec;
        let target = ResponseTarget {
            metric: LatencyMetric::Tpot,
            percentile: Percentile::P95,
            max_ms: dec!(22),
        };
        let ctx = VerdictContext {
            response_target: Some(target),
            ..VerdictContext::default()
        };
        let judged = |bytes: &[u8]| response_time(&parse(bytes, None).expect("parse"), &ctx);
        let c8 = judged(include_bytes!("../fixtures/vllm_tp2_concurrency_8.json"));
        assert!(
            matches!(
                c8,
                Some((
                    Severity::Info,
                    Reason::ResponseTimeMet {
                        concurrency: Some(8),
                        ..
                    }
                ))
            ),
            "{c8:?}"
        );
        let c64 = judged(include_bytes!("../fixtures/vllm_tp2_concurrency_64.json"));
        let Some((
            Severity::Warn,
            Reason::MissesResponseTarget {
                measured_ms,
                concurrency: Some(64),
                ..
            },
        )) = c64
        else {
            panic!("{c64:?}");
        };
        assert!((measured_ms - 26.16).abs() < 0.01, "{measured_ms}");
        // A percentile the tool was not asked for cannot be shown to be met.
        let mut run = parse(include_bytes!("../fixtures/vllm_tp2_concurrency_8.json"), None).unwrap();
        run.latencies.retain(|k, _| !k.starts_with("tpot.p95"));
        assert!(matches!(
            response_time(&run, &ctx),
            Some((Severity::Warn, Reason::ResponseTimeUnreported { .. }))
        ));
        // A run that times no request, or a workload with no target, is not judged on it.
        run.latencies.clear();
        assert_eq!(response_time(&run, &ctx), None);
        let c8_run = parse(include_bytes!("../fixtures/vllm_tp2_concurrency_8.json"), None).unwrap();
        assert_eq!(response_time(&c8_run, &VerdictContext::default()), None);
    }

    #[test]
    fn names_as_the_tools_write_them_match_the_workloads() {
        for (ran, stated) in [
            ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B-Instruct"),
            ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5 7b"),
            ("models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "Llama-3.1-8B-Instruct"),
        ] {
            assert!(
                differences(&run(ran, None), &ctx(stated, "")).is_empty(),
                "{ran} ~ {stated}"
            );
        }
    }

    #[test]
    fn another_model_or_precision_warns_unless_the_engineer_says_it_stands_for_the_workload() {
        let mut r = run("meta-llama/Llama-3.1-8B-Instruct", Some("Q4_K - Medium"));
        let found = differences(&r, &ctx("Qwen2.5-7B-Instruct", "bf16"));
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|(s, _)| *s == Severity::Warn));
        assert!(matches!(
            &found[0].1,
            Reason::WorkloadDiffers { what: WorkloadField::Model, workload, .. } if workload == "Qwen2.5-7B-Instruct"
        ));
        for (ran, stated) in [("Qwen/Qwen2.5-7B", "Qwen2-7B"), ("Llama-3.1-70B", "Llama-3.1-8B")] {
            assert_eq!(
                differences(&run(ran, None), &ctx(stated, "")).len(),
                1,
                "{ran} vs {stated}"
            );
        }
        r.stands_for_workload = true;
        let found = differences(&r, &ctx("Qwen2.5-7B-Instruct", "bf16"));
        assert!(found.iter().all(|(s, _)| *s == Severity::Info));
        // Quantisations written two ways are the same.
        assert!(differences(&run("m", Some("Q4_K - Medium")), &ctx("", "Q4_K_M")).is_empty());
    }
}
