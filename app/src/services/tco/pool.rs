//! The runs behind a quote's throughput (rule 5): the workload's runs with the node each ran
//! on, and what they give one quote revision.

use crate::{
    domain::{
        gpus::{self, GpuMount},
        quotes::{FormFactor, NodeSpec},
        runs::{AtTarget, CurvePoint, GpuUse, ResponseTarget, RunStatus, at_target},
        tco::{
            RunThroughput, TcoError,
            throughput::{self, Efficiency},
        },
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

/// Whether two quoted nodes are the same for throughput, so a run of one measures the other:
/// the same GPU catalogue model (or, for a name the catalogue does not know, the same words),
/// the same form factor, GPUs per node, VRAM, usable VRAM, sharing (slice) and GPU-to-GPU
/// interconnect. A PCIe card is not an SXM module, nor NVLink PCIe: their throughput differs.
#[must_use]
pub fn same_node(a: &NodeSpec, b: &NodeSpec) -> bool {
    gpus::model_key(&a.gpu_model) == gpus::model_key(&b.gpu_model)
        && mount(a) == mount(b)
        && a.gpus_per_node == b.gpus_per_node
        && a.vram_gib == b.vram_gib
        && a.usable_vram_gib == b.usable_vram_gib
        && a.sharing == b.sharing
        && a.interconnect == b.interconnect
}

/// The node's GPU form factor: the quote's field where it names PCIe or SXM (an NVL card
/// stays NVL under a PCIe field, as NVL cards are PCIe cards), else what the model name states
/// (`A100 SXM4 80GB`, `H100 PCIe`); `None` when neither says.
fn mount(spec: &NodeSpec) -> Option<GpuMount> {
    let stated = gpus::stated_mount(&spec.gpu_model);
    match spec.form_factor {
        Some(FormFactor::Sxm) => Some(GpuMount::Sxm),
        Some(FormFactor::Pcie) => Some(stated.filter(|m| *m == GpuMount::Nvl).unwrap_or(GpuMount::Pcie)),
        Some(FormFactor::Other) | None => stated,
    }
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
    /// Every valid run's throughput per node, by run id: what a rental plan weighs.
    pub valid: Vec<RunThroughput>,
    /// Runs of this node and workload left out, with their status.
    pub left_out: Vec<(i64, RunStatus)>,
    /// Valid runs on part of the node for a workload that runs one task per GPU: run id, GPUs
    /// it used, the node's GPUs (their throughput was scaled by the node's GPUs ÷ the run's).
    pub scaled: Vec<(i64, u32, u32)>,
    /// With a response-time target: the throughput at the target read off the node's runs at
    /// several concurrencies ([`at_target`]), which is then what `expected` is.
    pub at_target: Option<AtTarget>,
    /// With a response-time target: the node's runs it was read off.
    pub curve: Vec<CurvePoint>,
}

/// A valid run's throughput per node of `spec`: as measured, or, for a workload that runs one
/// task per GPU, per GPU × the node's GPUs when the run used fewer of them (each card runs its
/// own task, 每张卡执行一个任务, so a one-card run measures one eighth of an eight-card node).
/// Returns the GPUs used when it scaled.
fn per_node(per_s: Decimal, run: &RunSummary, spec: &NodeSpec, gpu_use: GpuUse) -> (Decimal, Option<u32>) {
    let node_gpus = spec.gpus_per_node;
    let used = run
        .gpus_used
        .or(run.gpu_count)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n > 0);
    match (gpu_use, used) {
        (GpuUse::TaskPerGpu, Some(k)) if k < node_gpus => {
            let scaled = per_s
                .checked_mul(Decimal::from(node_gpus))
                .and_then(|x| x.checked_div(Decimal::from(k)));
            scaled.map_or((per_s, None), |x| (x, Some(k)))
        }
        _ => (per_s, None),
    }
}

/// A run's throughput as the decimal it prints as (1800.0 → 1800), if finite and positive.
fn run_decimal(value: f64) -> Option<Decimal> {
    (value.is_finite() && value > 0.0)
        .then(|| Decimal::from_str(&value.to_string()).ok())
        .flatten()
        .filter(|d| *d > Decimal::ZERO)
}

/// The runs of this quote revision, or of any quote revision with the same node, for the
/// workload's unit: only valid runs count, each per node ([`per_node`]); the median one-node
/// throughput is expected and the slowest is kept for the what-if.
pub(super) fn measured(
    pool: &RunPool,
    quote: (i64, i64),
    spec: &NodeSpec,
    unit: &str,
    efficiency: impl Efficiency,
    workload: (GpuUse, Option<&ResponseTarget>),
) -> Result<Measured, TcoError> {
    let (gpu_use, target) = workload;
    let found = measured_median(pool, quote, spec, unit, efficiency, gpu_use)?;
    let Some(target) = target else {
        return Ok(found);
    };
    let points = curve(pool, quote, spec, unit, gpu_use, target);
    let Some(at) = at_target(&points, target) else {
        return Ok(found);
    };
    // The throughput at the target is the workload's, on one node: the runs that give it are
    // the ones used; with no run meeting the target there is no measured figure.
    let (expected, used) = match at {
        AtTarget::Measured { throughput, run_id } => (Some(throughput), vec![run_id]),
        AtTarget::Between {
            throughput,
            meets,
            misses,
        } => (Some(throughput), vec![meets, misses]),
        AtTarget::NoneMeets { .. } => (None, Vec::new()),
    };
    let expected = expected.map(|per_s| RunThroughput { per_s, nodes: 1 });
    // A run that only misses the target is a point of the curve, not a run left out.
    let on_curve = |id: &i64| points.iter().any(|p| p.run_id == *id);
    let left_out = found.left_out.iter().copied().filter(|(id, _)| !on_curve(id)).collect();
    Ok(Measured {
        left_out,
        expected,
        used,
        valid: expected.into_iter().collect(),
        at_target: Some(at),
        curve: points,
        ..found
    })
}

/// The runs of quote revision `quote`, or of any quote revision with the same node as `spec`.
fn of_the_node<'a>(pool: &'a RunPool, quote: (i64, i64), spec: &'a NodeSpec) -> impl Iterator<Item = &'a RunSummary> {
    pool.runs
        .iter()
        .filter(move |(r, run_spec)| {
            let this_revision = r.quote_id == Some(quote.0) && r.revision == Some(quote.1);
            this_revision || run_spec.as_ref().is_some_and(|s| same_node(s, spec))
        })
        .map(|(r, _)| r)
}

/// A run's throughput in the workload's `unit`, when it states one that is finite and positive.
fn in_unit(r: &RunSummary, unit: &str) -> Option<Decimal> {
    run_decimal(r.throughput_value?).filter(|_| unit_matches(r.throughput_unit.as_deref().unwrap_or(""), unit))
}

/// The node's one-node runs that time requests and are sound apart from the target, each as
/// (latency at the target's percentile, throughput per node): the curve [`at_target`] reads.
fn curve(
    pool: &RunPool,
    quote: (i64, i64),
    spec: &NodeSpec,
    unit: &str,
    gpu_use: GpuUse,
    target: &ResponseTarget,
) -> Vec<CurvePoint> {
    of_the_node(pool, quote, spec)
        .filter(|r| r.on_curve && r.nodes <= 1)
        .filter_map(|r| {
            let per_s = in_unit(r, unit)?;
            // A latency of 0 ms is a figure too (run_decimal keeps only positive ones).
            let latency_ms = Decimal::from_str(&target.measured(&r.latencies)?.to_string()).ok()?;
            let total_tokens = r
                .total_tokens_per_s
                .and_then(run_decimal)
                .map(|t| per_node(t, r, spec, gpu_use).0);
            Some(CurvePoint {
                run_id: r.id,
                concurrency: r.concurrency,
                latency_ms,
                throughput: per_node(per_s, r, spec, gpu_use).0,
                total_tokens,
            })
        })
        .collect()
}

/// [`measured`] without a response-time target: the median of the valid runs.
fn measured_median(
    pool: &RunPool,
    quote: (i64, i64),
    spec: &NodeSpec,
    unit: &str,
    efficiency: impl Efficiency,
    gpu_use: GpuUse,
) -> Result<Measured, TcoError> {
    let mut valid: Vec<(i64, RunThroughput)> = Vec::new();
    let mut left_out = Vec::new();
    let mut scaled = Vec::new();
    for r in of_the_node(pool, quote, spec) {
        let Some(per_s) = in_unit(r, unit) else {
            continue;
        };
        if r.status == RunStatus::Valid {
            let nodes = u32::try_from(r.nodes.max(1)).unwrap_or(u32::MAX);
            let (per_s, scaled_from) = per_node(per_s, r, spec, gpu_use);
            if let Some(k) = scaled_from {
                scaled.push((r.id, k, spec.gpus_per_node));
            }
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
    scaled.sort_unstable();
    Ok(Measured {
        expected: Some(found.expected),
        used: found.expected_runs.iter().map(|i| valid[*i].0).collect(),
        slowest: Some((valid[found.slowest_run].0, found.slowest)),
        valid: valid.iter().map(|(_, t)| *t).collect(),
        left_out,
        scaled,
        at_target: None,
        curve: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::quotes::Interconnect;

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
        let m = measured(
            &pool,
            (7, 2),
            &a100,
            "tokens",
            Decimal::new(75, 2),
            (GpuUse::OneJob, None),
        )
        .unwrap();
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
        let none = measured(
            &pool,
            (10, 1),
            &spec("H100", 8, "80"),
            "tokens",
            Decimal::ONE,
            (GpuUse::OneJob, None),
        )
        .unwrap();
        assert_eq!((none.expected, none.left_out.len()), (None, 0));
    }

    fn with(mut s: NodeSpec, form: Option<FormFactor>, link: Option<Interconnect>) -> NodeSpec {
        s.form_factor = form;
        s.interconnect = link;
        s
    }

    /// Valid runs 1 (quote 8) and 2 (quote 9) on the given nodes, measured for quote 7's `spec`.
    fn pooled(spec: &NodeSpec, eight: NodeSpec, nine: NodeSpec) -> Vec<i64> {
        let pool = RunPool {
            runs: vec![
                (run(1, 8, 1, "valid", 10.0, 1), Some(eight)),
                (run(2, 9, 1, "valid", 30.0, 1), Some(nine)),
            ],
        };
        let m = measured(&pool, (7, 1), spec, "tokens", Decimal::ONE, (GpuUse::OneJob, None)).unwrap();
        let mut used = m.used;
        used.extend(m.slowest.map(|(id, _)| id));
        used.sort_unstable();
        used.dedup();
        used
    }

    #[test]
    fn a_pcie_quote_does_not_take_an_sxm_quotes_runs() {
        use FormFactor::{Pcie, Sxm};
        let a100 = spec("A100 80GB", 8, "80");
        let pcie = with(a100.clone(), Some(Pcie), None);
        // By the form-factor field, or by the name when the field is empty.
        let sxm = with(a100.clone(), Some(Sxm), None);
        let named_sxm = spec("NVIDIA A100-SXM4-80GB", 8, "80");
        assert_eq!(pooled(&pcie, sxm.clone(), named_sxm.clone()), Vec::<i64>::new());
        assert_eq!(
            pooled(&spec("A100 PCIe 80GB", 8, "80"), sxm.clone(), named_sxm),
            Vec::<i64>::new()
        );
        // Another PCIe quote's run counts.
        assert_eq!(pooled(&pcie, sxm, spec("A100 PCIe 80GB", 8, "80")), vec![2]);
        assert!(!same_node(&spec("H100 PCIe", 8, "80"), &spec("H100 SXM5", 8, "80")));
        assert!(same_node(
            &with(spec("H100 NVL", 2, "94"), Some(Pcie), None),
            &spec("NVIDIA H100 NVL", 2, "94")
        ));
    }

    #[test]
    fn nvlink_and_pcie_interconnects_are_not_pooled() {
        use Interconnect::{Nvlink, Nvswitch, Pcie};
        let base = spec("A100 SXM4 80GB", 8, "80");
        let nvlink = with(base.clone(), None, Some(Nvlink));
        let bus = with(base.clone(), None, Some(Pcie));
        assert_eq!(
            pooled(&nvlink, bus.clone(), with(base.clone(), None, Some(Nvswitch))),
            Vec::<i64>::new()
        );
        assert_eq!(pooled(&nvlink, bus, with(base, None, Some(Nvlink))), vec![2]);
    }

    #[test]
    fn the_same_node_under_another_vendors_name_is_pooled() {
        // One vendor writes the marketing name and the form-factor field, another pastes
        // nvidia-smi's name: the same A100 SXM4 80GB node, so its runs count for both.
        let ours = with(
            spec("A100 SXM 80GB", 8, "80"),
            Some(FormFactor::Sxm),
            Some(Interconnect::Nvswitch),
        );
        let smi = with(
            spec("NVIDIA A100-SXM4-80GB", 8, "80"),
            None,
            Some(Interconnect::Nvswitch),
        );
        let other_case = with(spec("a100 sxm4 80gb", 8, "80.0"), None, Some(Interconnect::Nvswitch));
        assert_eq!(pooled(&ours, smi.clone(), other_case), vec![1, 2]);
        assert!(same_node(
            &spec("RTX 4090D", 8, "24"),
            &spec("NVIDIA GeForce RTX 4090 D", 8, "24")
        ));
        assert!(!same_node(&spec("RTX 4090", 8, "24"), &spec("RTX 4090 D", 8, "24")));
        // Names the catalogue does not know pool by their words, as before.
        assert!(same_node(&spec("Ascend 910B", 8, "64"), &spec("ascend-910b", 8, "64")));
        assert!(!same_node(&spec("Ascend 910B", 8, "64"), &spec("Ascend 910C", 8, "64")));
        // Other GPU counts stay apart.
        let four = with(
            spec("NVIDIA A100-SXM4-80GB", 4, "80"),
            None,
            Some(Interconnect::Nvswitch),
        );
        assert!(!same_node(&ours, &four));
    }
}
