//! What-if profiles, throughput sensitivity, and the cost-versus-hours and
//! cost-versus-nodes series for charts.

use super::arith::{mul, non_negative};
use super::billing;
use super::engine::estimate;
use super::error::{ErrorReason, TcoError};
use super::estimate::Estimate;
use super::model::{Assumptions, Demand, NodeShape, PriceSheet};
use super::throughput::RunThroughput;
use super::validate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The largest node count [`cost_vs_nodes`] accepts.
pub const MAX_NODES_SERIES: u32 = 1024;

/// Multipliers for the what-if profiles. Each multiplies all hours (overheads, idle,
/// stopped, stated run length), traffic and the re-run share; defaults 0.8 / 1.0 / 1.3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhatIfProfiles {
    /// Optimistic multiplier (default 0.8).
    #[serde(with = "rust_decimal::serde::str")]
    pub low: Decimal,
    /// Expected multiplier (default 1.0).
    #[serde(with = "rust_decimal::serde::str")]
    pub expected: Decimal,
    /// Pessimistic multiplier (default 1.3).
    #[serde(with = "rust_decimal::serde::str")]
    pub high: Decimal,
    /// Relative change of measured throughput for the sensitivity, in `[0, 1)` (default 0.2).
    #[serde(with = "rust_decimal::serde::str")]
    pub throughput_sensitivity: Decimal,
}

impl Default for WhatIfProfiles {
    fn default() -> Self {
        WhatIfProfiles {
            low: Decimal::new(8, 1),
            expected: Decimal::ONE,
            high: Decimal::new(13, 1),
            throughput_sensitivity: Decimal::new(2, 1),
        }
    }
}

/// Estimates under the three profiles, plus the throughput sensitivity when a measured
/// throughput drives the compute time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WhatIf {
    /// Everything goes better than expected.
    pub low: Estimate,
    /// As expected.
    pub expected: Estimate,
    /// Everything takes longer.
    pub high: Estimate,
    /// Expected profile with throughput lowered by the sensitivity (e.g. −20 %).
    pub slower_throughput: Option<Estimate>,
    /// Expected profile with throughput raised by the sensitivity (e.g. +20 %).
    pub faster_throughput: Option<Estimate>,
    /// Expected profile with the slowest valid run's throughput (rule 5), when runs set the
    /// throughput.
    pub slowest_run: Option<Estimate>,
}

/// Runs the low / expected / high profiles, the ± throughput sensitivity and, given the
/// slowest valid run's throughput (`slowest`, from [`super::throughput::from_runs`]), the
/// expected profile with that throughput in place of the median one.
pub fn what_if(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
    profiles: &WhatIfProfiles,
    slowest: Option<RunThroughput>,
) -> Result<WhatIf, TcoError> {
    let s = profiles.throughput_sensitivity;
    if s < Decimal::ZERO || s >= Decimal::ONE {
        let reason = ErrorReason::OutOfRange { allowed: "[0, 1)" };
        return Err(TcoError::new("what_if.throughput_sensitivity", reason));
    }
    let run = |multiplier: Decimal, field: &'static str| -> Result<Estimate, TcoError> {
        let (w, a) = scaled(workload, assumptions, multiplier, field)?;
        estimate(sheet, shape, &w, &a)
    };
    let expected = run(profiles.expected, "what_if.expected")?;
    let (low, high) = (run(profiles.low, "what_if.low")?, run(profiles.high, "what_if.high")?);
    let (w, a) = scaled(workload, assumptions, profiles.expected, "what_if.expected")?;
    let sensitivity = |factor: Decimal| -> Result<Option<Estimate>, TcoError> {
        let (Some(_), Some(t)) = (&w.total_work, a.measured_throughput_per_s) else {
            return Ok(None);
        };
        let mut changed = a.clone();
        changed.measured_throughput_per_s = Some(mul(t, factor, "what_if.throughput_sensitivity")?);
        estimate(sheet, shape, &w, &changed).map(Some)
    };
    let slower_throughput = sensitivity(Decimal::ONE - s)?;
    let faster_throughput = sensitivity(Decimal::ONE + s)?;
    let slowest_run = match (&w.total_work, slowest) {
        (Some(_), Some(run)) => {
            let changed = Assumptions {
                measured_throughput_per_s: Some(run.per_s),
                n_run: Some(run.nodes),
                ..a.clone()
            };
            Some(estimate(sheet, shape, &w, &changed)?)
        }
        _ => None,
    };
    Ok(WhatIf {
        low,
        expected,
        high,
        slower_throughput,
        faster_throughput,
        slowest_run,
    })
}

/// The workload and assumptions with hours, traffic and re-run share × `m`.
fn scaled(
    workload: &Demand,
    a: &Assumptions,
    m: Decimal,
    field: &'static str,
) -> Result<(Demand, Assumptions), TcoError> {
    non_negative(m, field)?;
    let x = |v: Decimal| mul(v, m, field);
    let rerun_share = x(a.rerun_share)?;
    if rerun_share >= Decimal::ONE {
        let reason = ErrorReason::OutOfRange {
            allowed: "re-run share × multiplier below 1",
        };
        return Err(TcoError::new(field, reason));
    }
    let run_hours = workload.run_hours.map(x).transpose()?;
    let w = Demand {
        run_hours,
        ..workload.clone()
    };
    let a = Assumptions {
        setup_h: x(a.setup_h)?,
        data_prep_h: x(a.data_prep_h)?,
        download_h: x(a.download_h)?,
        export_h: x(a.export_h)?,
        idle_h: x(a.idle_h)?,
        stopped_h: x(a.stopped_h)?,
        rerun_share,
        egress_gb: x(a.egress_gb)?,
        ingress_gb: x(a.ingress_gb)?,
        ..a.clone()
    };
    Ok((w, a))
}

/// One point of the on-demand versus monthly chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HoursPoint {
    /// Busy hours per node.
    pub busy_h: Decimal,
    /// Compute cost on demand (increment and minimum applied), rounded; `None` when the sheet
    /// offers no on-demand price.
    pub on_demand: Option<Decimal>,
    /// Compute cost under the monthly commitment, rounded, if offered.
    pub monthly: Option<Decimal>,
}

/// Compute cost on demand and under the monthly commitment for each busy time in `hours`
/// (no stopped time: the rental is the busy time). The two lines cross at the break-even
/// point of the estimate when it lies within the term.
pub fn cost_vs_hours(
    sheet: &PriceSheet,
    shape: &NodeShape,
    nodes: u32,
    hours: &[Decimal],
) -> Result<Vec<HoursPoint>, TcoError> {
    validate::price_sheet(sheet)?;
    validate::node_shape(shape)?;
    if nodes == 0 {
        return Err(TcoError::new("nodes", ErrorReason::NotPositive));
    }
    let nodes = Decimal::from(nodes);
    let hourly = billing::node_hourly(sheet, shape)?
        .map(|h| mul(h, nodes, "estimate.on_demand_compute"))
        .transpose()?;
    let round = |x| sheet.currency.round(x);
    hours
        .iter()
        .map(|&busy_h| {
            non_negative(busy_h, "hours")?;
            let billable = billing::billable(sheet.billing_increment, sheet.minimum_billable_hours, busy_h)?;
            let monthly = billing::monthly(sheet, shape, busy_h, nodes)?.map(|m| round(m.cost));
            Ok(HoursPoint {
                busy_h,
                on_demand: hourly.map(|h| billable.cost(h).map(round)).transpose()?,
                monthly,
            })
        })
        .collect()
}

/// Estimates with 1, 2, … `max_nodes` nodes (cost and time to finish versus node count).
pub fn cost_vs_nodes(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
    max_nodes: u32,
) -> Result<Vec<Estimate>, TcoError> {
    if max_nodes == 0 || max_nodes > MAX_NODES_SERIES {
        let reason = ErrorReason::OutOfRange { allowed: "[1, 1024]" };
        return Err(TcoError::new("max_nodes", reason));
    }
    (1..=max_nodes)
        .map(|n| {
            let a = Assumptions {
                nodes: Some(n),
                ..assumptions.clone()
            };
            estimate(sheet, shape, workload, &a)
        })
        .collect()
}
