//! A measured throughput and the node count it ran on (rule 2), and which runs set the
//! throughput of a quote (rule 5). Pure: the caller picks the valid runs, this module only
//! does the arithmetic.

use super::arith::{add, div, mul, positive};
use super::error::{ErrorReason, TcoError};
use crate::runs::GpuUse;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Where a quote's scaling efficiency comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EfficiencySource {
    /// One task per GPU: throughput scales linearly, efficiency 1.
    TaskPerGpu,
    /// Measured: multi-node runs against the median one-node run.
    Runs,
    /// The scenario's stated assumption (with the quote's override).
    Assumption,
}

/// The scaling efficiency a quote is costed with, the one rule of the cost page, the plan and
/// the order: 1 for work that runs one task per GPU; for one job across GPUs, what its valid
/// runs measured when they ran on one node and on several ([`measured_efficiency`]), else the
/// `assumed` efficiency.
pub fn scaling_efficiency(
    gpu_use: GpuUse,
    runs: &[RunThroughput],
    assumed: Decimal,
) -> Result<(Decimal, EfficiencySource), TcoError> {
    Ok(match gpu_use {
        GpuUse::TaskPerGpu => (Decimal::ONE, EfficiencySource::TaskPerGpu),
        GpuUse::OneJob => match measured_efficiency(runs)? {
            Some(e) => (e, EfficiencySource::Runs),
            None => (assumed, EfficiencySource::Assumption),
        },
    })
}

/// Scaling efficiency measured by the runs: each multi-node run's `T_run ÷ (n_run × T1)`
/// against the median one-node throughput T1, their median (the mean of the two middle ones
/// for an even count), at most 1. `None` without both one-node and multi-node runs.
pub fn measured_efficiency(runs: &[RunThroughput]) -> Result<Option<Decimal>, TcoError> {
    const F: &str = "plan.efficiency";
    let single: Vec<RunThroughput> = runs.iter().copied().filter(|r| r.nodes == 1).collect();
    let Some(one) = from_runs(&single, Decimal::ONE)? else {
        return Ok(None);
    };
    let mut each: Vec<Decimal> = runs
        .iter()
        .filter(|r| r.nodes > 1)
        .map(|r| {
            let ideal = one
                .expected
                .per_s
                .checked_mul(Decimal::from(r.nodes))
                .ok_or_else(|| TcoError::overflow(F))?;
            r.per_s.checked_div(ideal).ok_or_else(|| TcoError::overflow(F))
        })
        .collect::<Result<_, _>>()?;
    if each.is_empty() {
        return Ok(None);
    }
    each.sort();
    let mid = each.len() / 2;
    let median = if each.len() % 2 == 1 {
        each[mid]
    } else {
        add(each[mid - 1], each[mid], F)? / Decimal::TWO
    };
    Ok(Some(median.min(Decimal::ONE)))
}

/// A measured throughput `T_run` (work units per second of the whole run) and the node count
/// `n_run` it ran on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunThroughput {
    /// `T_run`, units per second for all `nodes` together.
    pub per_s: Decimal,
    /// `n_run`, at least 1.
    pub nodes: u32,
}

/// The scaling efficiency in use on `nodes` nodes: 1 for one node, else `efficiency`.
#[must_use]
pub fn efficiency_on(nodes: u32, efficiency: Decimal) -> Decimal {
    if nodes == 1 { Decimal::ONE } else { efficiency }
}

/// A scaling efficiency e(n) by node count: one figure for every count, or one that depends on
/// the count ([`Scaling`]).
pub trait Efficiency {
    /// e(n): 1 for one node.
    fn on(&self, nodes: u32) -> Decimal;
}

impl<T: Efficiency> Efficiency for &T {
    fn on(&self, nodes: u32) -> Decimal {
        (*self).on(nodes)
    }
}

impl Efficiency for Decimal {
    fn on(&self, nodes: u32) -> Decimal {
        efficiency_on(nodes, *self)
    }
}

/// The efficiency measured (or stated) at one node count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EfficiencyPoint {
    /// The node count, at least 2.
    pub nodes: u32,
    /// The efficiency there, in (0, 1].
    #[serde(with = "rust_decimal::serde::str")]
    pub efficiency: Decimal,
}

/// An efficiency that depends on the node count: exact at the counts measured (or stated),
/// interpolated in a straight line between them (one node counts as 1), the largest count's
/// figure beyond it (a plan there rests on an estimate, which the plan says), and `flat` with
/// no points at all.
///
/// Measured 0.9 on 2 nodes and 0.8 on 4: e(3) = 0.85, e(8) = 0.8. Measured 0.7 on 4 only:
/// e(2) = 1 − 0.3 × 1/3 = 0.9, e(3) = 0.8.
#[derive(Clone, Copy, Debug)]
pub struct Scaling<'a> {
    /// The efficiency without points.
    pub flat: Decimal,
    /// The points, in any order; a count given twice keeps its last figure.
    pub points: &'a [EfficiencyPoint],
}

impl Efficiency for Scaling<'_> {
    fn on(&self, nodes: u32) -> Decimal {
        if nodes <= 1 {
            return Decimal::ONE;
        }
        let mut known: Vec<EfficiencyPoint> = self.points.iter().rev().copied().collect();
        known.sort_by_key(|p| p.nodes);
        known.dedup_by_key(|p| p.nodes);
        let Some(last) = known.last() else {
            return self.flat;
        };
        if nodes >= last.nodes {
            return last.efficiency;
        }
        let mut below = EfficiencyPoint {
            nodes: 1,
            efficiency: Decimal::ONE,
        };
        for above in known {
            if nodes == above.nodes {
                return above.efficiency;
            }
            if nodes < above.nodes {
                return between(below, above, nodes);
            }
            below = above;
        }
        self.flat
    }
}

/// The straight line from `a` to `b` at `nodes` (a.nodes < nodes < b.nodes): multiplied first,
/// divided last. The figures are fractions in (0, 1] and counts below 2³², so nothing overflows.
fn between(a: EfficiencyPoint, b: EfficiencyPoint, nodes: u32) -> Decimal {
    let rise = (b.efficiency - a.efficiency) * Decimal::from(nodes - a.nodes);
    a.efficiency + rise / Decimal::from(b.nodes - a.nodes)
}

/// The efficiency at each multi-node count the runs ran on: the median over that count's runs
/// of `T_run ÷ (n_run × T1)` against the median one-node throughput T1, at most 1 (the points
/// of a [`Scaling`]). Empty without both one-node and multi-node runs.
pub fn measured_points(runs: &[RunThroughput]) -> Result<Vec<EfficiencyPoint>, TcoError> {
    let mut counts: Vec<u32> = runs.iter().map(|r| r.nodes).filter(|n| *n > 1).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut points = Vec::new();
    for nodes in counts {
        let at: Vec<RunThroughput> = runs
            .iter()
            .copied()
            .filter(|r| r.nodes == 1 || r.nodes == nodes)
            .collect();
        if let Some(efficiency) = measured_efficiency(&at)? {
            points.push(EfficiencyPoint { nodes, efficiency });
        }
    }
    Ok(points)
}

fn check(run: RunThroughput, efficiency: &impl Efficiency, field: &'static str) -> Result<(), TcoError> {
    positive(run.per_s, field)?;
    if run.nodes == 0 {
        return Err(TcoError::new("assumptions.n_run", ErrorReason::NotPositive));
    }
    let efficiency = efficiency.on(run.nodes);
    if efficiency <= Decimal::ZERO || efficiency > Decimal::ONE {
        let reason = ErrorReason::OutOfRange { allowed: "(0, 1]" };
        return Err(TcoError::new("assumptions.efficiency", reason));
    }
    Ok(())
}

/// One-node throughput `T1 = T_run ÷ (n_run × e_run)`, with `e_run` = [`efficiency_on`]`(n_run)`.
///
/// A 2-node run at 1800/s with efficiency 0.9 gives T1 = 1800 ÷ 1.8 = 1000/s.
pub fn one_node(run: RunThroughput, efficiency: impl Efficiency) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.one_node_throughput_per_s";
    check(run, &efficiency, "assumptions.measured_throughput_per_s")?;
    if run.nodes == 1 {
        return Ok(run.per_s);
    }
    let divisor = mul(run.nodes.into(), efficiency.on(run.nodes), F)?;
    div(run.per_s, divisor, F)
}

/// Throughput planned on `nodes` nodes: `T_run` unchanged when `nodes = n_run`, else
/// `T_run × n × e(n) ÷ (n_run × e_run)` (multiplied first, divided last), so that
/// efficiency is never applied twice.
///
/// The 2-node run at 1800/s with efficiency 0.9: 1800/s on 2 nodes, 1000/s on 1 node,
/// 1800 × 4 × 0.9 ÷ 1.8 = 3600/s on 4 nodes.
pub fn planned(run: RunThroughput, nodes: u32, efficiency: impl Efficiency) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.planned_throughput_per_s";
    check(run, &efficiency, "assumptions.measured_throughput_per_s")?;
    let e = efficiency.on(nodes);
    if e <= Decimal::ZERO || e > Decimal::ONE {
        let reason = ErrorReason::OutOfRange { allowed: "(0, 1]" };
        return Err(TcoError::new("assumptions.efficiency", reason));
    }
    if nodes == 0 {
        return Err(TcoError::new("assumptions.nodes", ErrorReason::NotPositive));
    }
    if nodes == run.nodes {
        return Ok(run.per_s);
    }
    let up = mul(mul(run.per_s, nodes.into(), F)?, e, F)?;
    let down = mul(run.nodes.into(), efficiency.on(run.nodes), F)?;
    div(up, down, F)
}

/// The throughput a set of valid runs gives a quote (rule 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromRuns {
    /// The expected throughput: the median run's own `(T_run, n_run)` for an odd count; for an
    /// even count the mean of the two middle runs' T1 on one node (or the mean of their
    /// `T_run` on their node count when both ran on the same count — the same value, exact).
    pub expected: RunThroughput,
    /// Indices (into the given runs) of the runs `expected` comes from.
    pub expected_runs: Vec<usize>,
    /// The slowest run by T1 (for the what-if "slowest valid run").
    pub slowest: RunThroughput,
    /// Its index.
    pub slowest_run: usize,
}

/// The median and the slowest of `runs` by one-node throughput T1 under `efficiency`; `None`
/// for no runs. Ties keep the given order.
///
/// Runs at 900, 1000 and 2000/s on one node: expected 1000/s (the middle run), slowest 900/s.
/// Runs at 900, 1000, 1200 and 2000/s: expected (1000 + 1200) ÷ 2 = 1100/s.
pub fn from_runs(runs: &[RunThroughput], efficiency: impl Efficiency) -> Result<Option<FromRuns>, TcoError> {
    if runs.is_empty() {
        return Ok(None);
    }
    let t1: Vec<Decimal> = runs
        .iter()
        .map(|r| one_node(*r, &efficiency))
        .collect::<Result<_, _>>()?;
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|a, b| match t1[*a].cmp(&t1[*b]) {
        Ordering::Equal => a.cmp(b),
        other => other,
    });
    let slowest_run = order[0];
    let mid = order.len() / 2;
    let (expected, expected_runs) = if order.len() % 2 == 1 {
        (runs[order[mid]], vec![order[mid]])
    } else {
        const F: &str = "estimate.median_throughput_per_s";
        let (a, b) = (order[mid - 1], order[mid]);
        let two = Decimal::TWO;
        let expected = if runs[a].nodes == runs[b].nodes {
            RunThroughput {
                per_s: div(add(runs[a].per_s, runs[b].per_s, F)?, two, F)?,
                nodes: runs[a].nodes,
            }
        } else {
            RunThroughput {
                per_s: div(add(t1[a], t1[b], F)?, two, F)?,
                nodes: 1,
            }
        };
        (expected, vec![a, b])
    };
    Ok(Some(FromRuns {
        expected,
        expected_runs,
        slowest: runs[slowest_run],
        slowest_run,
    }))
}
