//! Whether the run measured the workload: its model and precision against the workload's.
//!
//! Names are compared as people write them: vLLM's `model_id` is the Hugging Face id
//! (`Qwen/Qwen2.5-7B-Instruct`), llama-bench's `model_filename` a path to a GGUF file
//! (`models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf`), a workload a short name
//! (`Llama-3.1-8B-Instruct`). Each is reduced to lower-case letters and digits of its last path
//! part without the `.gguf`; they match when one contains the other (an instruct or quantised
//! variant of the stated model is the same model; `Qwen2-7B` is not `Qwen2.5-7B`).

use crate::domain::runs::canonical::CanonicalRun;
use crate::domain::runs::verdict::{Reason, Severity, VerdictContext, WorkloadField};

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
    use crate::domain::runs::{Format, RunWorkload};

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
