//! The runs behind a quote's throughput (rule 5): the workload's runs with the node each ran
//! on, and what they give one quote revision.

use crate::{
    domain::{
        quotes::NodeSpec,
        runs::RunStatus,
        tco::{RunThroughput, TcoError, throughput},
    },
    views::RunSummary,
};
use rust_decimal::Decimal;
use std::{collections::HashMap, str::FromStr};

/// Whether a run's throughput unit measures the workload's unit of work ("tokens/s" for
/// "tokens").
fn unit_matches(run_unit: &str, work_unit: &str) -> bool {
    let singular = |s: &str| {
        s.trim()
            .trim_end_matches("/s")
            .trim()
            .trim_end_matches('s')
            .to_ascii_lowercase()
    };
    !work_unit.trim().is_empty() && singular(run_unit) == singular(work_unit)
}

/// Whether two quoted nodes are the same for throughput: GPU model, GPUs per node, VRAM,
/// usable VRAM and sharing (slice) are equal.
#[must_use]
pub fn same_node(a: &NodeSpec, b: &NodeSpec) -> bool {
    a.gpu_model.trim().eq_ignore_ascii_case(b.gpu_model.trim())
        && a.gpus_per_node == b.gpus_per_node
        && a.vram_gib == b.vram_gib
        && a.usable_vram_gib == b.usable_vram_gib
        && a.sharing == b.sharing
}
/// The workload's runs with the node spec of the quote revision each ran under.
#[derive(Clone, Debug, Default)]
pub(super) struct RunPool {
    runs: Vec<(RunSummary, Option<NodeSpec>)>,
}

impl RunPool {
    /// Pairs each run with the spec of its quote revision, from `(quote id, revision, spec)`
    /// of the revisions measured for the workload.
    pub(super) fn new(runs: Vec<RunSummary>, revisions: impl IntoIterator<Item = (i64, i64, NodeSpec)>) -> Self {
        let specs: HashMap<(i64, i64), NodeSpec> = revisions.into_iter().map(|(q, r, s)| ((q, r), s)).collect();
        let runs = runs
            .into_iter()
            .map(|r| {
                let spec = r.quote_id.zip(r.revision).and_then(|k| specs.get(&k).cloned());
                (r, spec)
            })
            .collect();
        Self { runs }
    }
}

/// What the runs give one quote revision (rule 5).
#[derive(Clone, Debug, Default)]
pub(super) struct Measured {
    /// The median throughput and its node count, if any valid run applies.
    pub expected: Option<RunThroughput>,
    /// The runs it comes from.
    pub used: Vec<i64>,
    /// The slowest valid run and its throughput.
    pub slowest: Option<(i64, RunThroughput)>,
    /// Runs of this node and workload left out, with their status.
    pub left_out: Vec<(i64, RunStatus)>,
}

/// A run's throughput as the decimal it prints as (1800.0 → 1800), if finite and positive.
fn run_decimal(value: f64) -> Option<Decimal> {
    (value.is_finite() && value > 0.0)
        .then(|| Decimal::from_str(&value.to_string()).ok())
        .flatten()
        .filter(|d| *d > Decimal::ZERO)
}

/// The runs of this quote revision, or of any quote revision with the same node, for the
/// workload's unit: only valid runs count; the median one-node throughput is expected and the
/// slowest is kept for the what-if.
pub(super) fn measured(
    pool: &RunPool,
    quote_id: i64,
    revision: i64,
    spec: &NodeSpec,
    unit: &str,
    efficiency: Decimal,
) -> Result<Measured, TcoError> {
    let mut valid: Vec<(i64, RunThroughput)> = Vec::new();
    let mut left_out = Vec::new();
    for (r, run_spec) in &pool.runs {
        let this_revision = r.quote_id == Some(quote_id) && r.revision == Some(revision);
        if !this_revision && !run_spec.as_ref().is_some_and(|s| same_node(s, spec)) {
            continue;
        }
        let (Some(value), Some(run_unit)) = (r.throughput_value, r.throughput_unit.as_deref()) else {
            continue;
        };
        let Some(per_s) = run_decimal(value).filter(|_| unit_matches(run_unit, unit)) else {
            continue;
        };
        if r.status == RunStatus::Valid {
            let nodes = u32::try_from(r.nodes.max(1)).unwrap_or(u32::MAX);
            valid.push((r.id, RunThroughput { per_s, nodes }));
        } else {
            left_out.push((r.id, r.status));
        }
    }
    valid.sort_by_key(|(id, _)| *id);
    left_out.sort_by_key(|(id, _)| *id);
    let runs: Vec<RunThroughput> = valid.iter().map(|(_, t)| *t).collect();
    let Some(found) = throughput::from_runs(&runs, efficiency)? else {
        return Ok(Measured {
            left_out,
            ..Measured::default()
        });
    };
    Ok(Measured {
        expected: Some(found.expected),
        used: found.expected_runs.iter().map(|i| valid[*i].0).collect(),
        slowest: Some((valid[found.slowest_run].0, found.slowest)),
        left_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_match_with_or_without_per_second() {
        assert!(unit_matches("tokens/s", "tokens"));
        assert!(unit_matches("samples/s", "sample"));
        assert!(!unit_matches("requests/s", "tokens"));
    }

    fn spec(gpu: &str, gpus: u32, vram: &str) -> NodeSpec {
        serde_json::from_value(serde_json::json!({ "gpu_model": gpu, "gpus_per_node": gpus, "vram_gib": vram, "sharing": { "mode": "exclusive" } })).unwrap()
    }

    /// A run of `quote` revision `revision` at `tps` tokens/s on `nodes` nodes.
    fn run(id: i64, quote: i64, revision: i64, status: &str, tps: f64, nodes: i64) -> RunSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "quote_id": quote, "revision": revision, "quote_label": "q", "node_label": "", "workload_id": 1,
            "workload_name": "w", "nodes": nodes, "status": status, "source_format": "canonical", "gpu_name": null,
            "gpu_count": null, "has_telemetry": true, "throughput_value": tps, "throughput_unit": "tokens/s",
            "created_by": "eve", "created_at": "2026-12-01T00:00:00Z"
        }))
        .unwrap()
    }

    #[test]
    fn only_valid_runs_of_the_revision_or_the_same_node_count_and_their_median_12_wins() {
        let a100 = spec("A100 80GB", 1, "80");
        let pool = RunPool {
            runs: vec![
                (run(1, 7, 2, "valid", 10.0, 1), Some(a100.clone())),
                (run(2, 7, 2, "warn", 99.0, 1), Some(a100.clone())),
                (run(3, 7, 2, "invalid", 98.0, 1), Some(a100.clone())),
                // Another quote with the same node (model spelled in other case): counts.
                (run(4, 8, 1, "valid", 30.0, 2), Some(spec("a100 80gb", 1, "80.0"))),
                // An older revision of the same quote with fewer GPUs: a different node.
                (run(5, 7, 1, "valid", 500.0, 1), Some(spec("A100 80GB", 2, "80"))),
                (run(6, 9, 1, "valid", 12.0, 1), Some(a100.clone())),
            ],
        };
        let m = measured(&pool, 7, 2, &a100, "tokens", Decimal::new(75, 2)).unwrap();
        // T1: run 1 = 10, run 4 = 30 ÷ (2 × 0.75) = 20, run 6 = 12 → median 12 (run 6), slowest 10.
        assert_eq!(
            m.expected,
            Some(RunThroughput {
                per_s: Decimal::from(12),
                nodes: 1
            })
        );
        assert_eq!(m.used, vec![6]);
        assert_eq!(
            m.slowest,
            Some((
                1,
                RunThroughput {
                    per_s: Decimal::from(10),
                    nodes: 1
                }
            ))
        );
        assert_eq!(m.left_out, vec![(2, RunStatus::Warn), (3, RunStatus::Invalid)]);
        // A node nobody ran on: nothing measured, nothing left out.
        let none = measured(&pool, 10, 1, &spec("H100", 8, "80"), "tokens", Decimal::ONE).unwrap();
        assert_eq!((none.expected, none.left_out.len()), (None, 0));
    }
}
