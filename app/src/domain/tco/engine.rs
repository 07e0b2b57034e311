//! [`estimate`]: the cost model v2, step by step.

use super::arith::{add, div, mul, product, sum};
use super::billing;
use super::billing::SECONDS_PER_HOUR;
use super::costs::Rental;
use super::currency::Currency;
use super::error::{ErrorReason, TcoError};
use super::estimate::{ComponentKind, ComputeBasis, CostComponent, CostPerUnit, Estimate, Pricing, TcoWarning, Unit};
use super::model::{Assumptions, Demand, NodeShape, PriceSheet};
use super::throughput::{self, RunThroughput};
use super::validate;
use rust_decimal::Decimal;

/// Estimates the total cost of running `workload` on `shape` nodes priced by `sheet`.
///
/// Validates every input first; see the module documentation for the formulas.
pub fn estimate(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
) -> Result<Estimate, TcoError> {
    validate::inputs(sheet, shape, workload, assumptions)?;
    let mut warnings = Vec::new();
    let node_hourly = billing::node_hourly(sheet, shape)?;
    let nodes = node_count(shape, workload, assumptions, &mut warnings);
    let nodes_d = Decimal::from(nodes);
    let compute = compute_hours(workload, assumptions, nodes, &mut warnings)?;
    let compute_h = compute.hours;
    let busy_h = busy_hours(assumptions, compute_h)?;
    let billable = billing::billable(sheet.billing_increment, sheet.minimum_billable_hours, busy_h)?;
    if billable.minimum_applied {
        warnings.push(TcoWarning::MinimumBillableApplied {
            minimum_h: sheet.minimum_billable_hours,
        });
    }

    let currency = sheet.currency;
    let stopped_h = assumptions.stopped_h;
    let rental_h = add(busy_h, stopped_h, "estimate.rental_h")?;
    let rental = Rental {
        sheet,
        shape,
        assumptions,
        nodes: nodes_d,
        node_hourly,
        rental_h,
    };
    let node_hours = mul(billable.hours, nodes_d, "estimate.on_demand_compute")?;
    let running_exact = billable.cost(mul(node_hourly, nodes_d, "estimate.on_demand_compute")?)?;
    let running = CostComponent {
        kind: ComponentKind::OnDemandCompute,
        unit: Unit::NodeHour,
        quantity: node_hours,
        unit_price: Some(node_hourly),
        cost: currency.round(running_exact),
    };
    let stopped = rental.stopped_compute()?;
    let on_demand_compute = add(running.cost, stopped.cost, "estimate.on_demand_compute")?;
    let monthly = billing::monthly(sheet, rental_h, nodes_d)?;
    let monthly_compute = monthly.map(|m| currency.round(m.cost));
    let chosen = monthly
        .zip(monthly_compute)
        .filter(|(_, cost)| *cost < on_demand_compute);
    let (pricing_used, compute_lines, unused_commitment_h, idle_cost) = match chosen {
        Some((m, cost)) => {
            let line = CostComponent {
                kind: ComponentKind::MonthlyCommitment,
                unit: Unit::NodeMonth,
                quantity: mul(m.months, nodes_d, "estimate.monthly_compute")?,
                unit_price: Some(m.price),
                cost,
            };
            let idle = rental.idle_cost_monthly(m.price, m.unused_h)?;
            let included = rental.stopped_in_commitment()?;
            (Pricing::Monthly, [line, included], Some(m.unused_h), idle)
        }
        None => {
            let idle = rental.idle_cost(running.cost, busy_h, stopped.cost)?;
            (Pricing::OnDemand, [running, stopped], None, idle)
        }
    };
    let mut components = compute_lines.to_vec();
    components.extend([
        rental.disk()?,
        rental.public_ip()?,
        rental.traffic()?,
        rental.snapshots()?,
    ]);
    components.extend(rental.other_fees());
    let total = sum(components.iter().map(|c| c.cost), "estimate.total")?;

    let cost_per_unit = match &workload.total_work {
        Some(work) => Some(cost_per_unit(total, work.amount, &work.unit, currency)?),
        None => None,
    };
    let gpu_hours = product(
        &[compute_h, shape.gpus_per_node.into(), nodes_d],
        "estimate.effective_gpu_hour_price",
    )?;
    let effective_gpu_hour_price = if gpu_hours.is_zero() {
        None
    } else {
        Some(fine_round(
            div(total, gpu_hours, "estimate.effective_gpu_hour_price")?,
            currency,
        ))
    };

    Ok(Estimate {
        currency,
        nodes,
        node_hourly,
        compute_basis: compute.basis,
        efficiency_used: compute.efficiency,
        n_run: compute.n_run,
        one_node_throughput_per_s: compute.one_node,
        planned_throughput_per_s: compute.planned,
        compute_h,
        busy_h,
        billable_h: billable.hours,
        stopped_h,
        rental_h,
        time_to_finish_h: busy_h,
        components,
        pricing_used,
        on_demand_compute,
        monthly_compute,
        unused_commitment_h,
        break_even: billing::break_even(sheet, node_hourly)?,
        total,
        idle_cost,
        cost_per_unit,
        effective_gpu_hour_price,
        warnings,
    })
}

/// The user's node count, else ⌈GPUs needed ÷ GPUs per node⌉, at least 1.
fn node_count(shape: &NodeShape, workload: &Demand, a: &Assumptions, warnings: &mut Vec<TcoWarning>) -> u32 {
    let needed = workload.gpus_needed.div_ceil(shape.gpus_per_node).max(1);
    match a.nodes {
        Some(chosen) => {
            if chosen < needed {
                warnings.push(TcoWarning::NodesBelowRequirement { needed, chosen });
            }
            chosen
        }
        None => needed,
    }
}

/// Where the compute hours came from, with the throughput figures behind them.
struct Compute {
    basis: ComputeBasis,
    hours: Decimal,
    efficiency: Option<Decimal>,
    n_run: Option<u32>,
    one_node: Option<Decimal>,
    planned: Option<Decimal>,
}

/// W ÷ planned throughput ÷ 3600 with a measured throughput (rule 2), else the stated run
/// length.
fn compute_hours(
    workload: &Demand,
    a: &Assumptions,
    nodes: u32,
    warnings: &mut Vec<TcoWarning>,
) -> Result<Compute, TcoError> {
    const F: &str = "estimate.compute_h";
    if let (Some(work), Some(per_s)) = (&workload.total_work, a.measured_throughput_per_s) {
        if let Some(run_hours) = workload.run_hours {
            warnings.push(TcoWarning::StatedRunLengthIgnored { run_hours });
        }
        let run = RunThroughput {
            per_s,
            nodes: a.run_nodes(),
        };
        let planned = throughput::planned(run, nodes, a.efficiency)?;
        let one_node = throughput::one_node(run, a.efficiency)?;
        let hours = div(div(work.amount, planned, F)?, SECONDS_PER_HOUR, F)?;
        return Ok(Compute {
            basis: ComputeBasis::MeasuredThroughput,
            hours,
            efficiency: Some(throughput::efficiency_on(nodes, a.efficiency)),
            n_run: Some(run.nodes),
            one_node: Some(one_node),
            planned: Some(planned),
        });
    }
    let Some(run_hours) = workload.run_hours else {
        return Err(TcoError::new("workload.run_hours", ErrorReason::NoWorkSize));
    };
    warnings.push(TcoWarning::ThroughputAssumed);
    Ok(Compute {
        basis: ComputeBasis::StatedRunLength,
        hours: run_hours,
        efficiency: None,
        n_run: None,
        one_node: None,
        planned: None,
    })
}

/// Setup + data preparation + download + export + idle + compute × (1 + re-run share).
fn busy_hours(a: &Assumptions, compute_h: Decimal) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.busy_h";
    let reruns = mul(compute_h, add(Decimal::ONE, a.rerun_share, F)?, F)?;
    sum(
        [a.setup_h, a.data_prep_h, a.download_h, a.export_h, a.idle_h, reruns],
        F,
    )
}

/// Rounds a derived price to two digits more than the currency's minor unit.
fn fine_round(amount: Decimal, currency: Currency) -> Decimal {
    amount.round_dp_with_strategy(
        currency.minor_units() + 2,
        rust_decimal::RoundingStrategy::MidpointAwayFromZero,
    )
}

/// Total ÷ work, per 1, 1,000 or 1,000,000 units: the smallest scale giving at least 0.01.
fn cost_per_unit(total: Decimal, work: Decimal, unit: &str, currency: Currency) -> Result<CostPerUnit, TcoError> {
    const F: &str = "estimate.cost_per_unit";
    let each = div(total, work, F)?;
    let cent = Decimal::new(1, 2);
    let (mut per, mut amount) = (1u32, each);
    if !total.is_zero() {
        for scale in [1u32, 1_000, 1_000_000] {
            (per, amount) = (scale, mul(each, scale.into(), F)?);
            if amount >= cent {
                break;
            }
        }
    }
    Ok(CostPerUnit {
        per,
        amount: fine_round(amount, currency),
        unit: unit.to_owned(),
    })
}
