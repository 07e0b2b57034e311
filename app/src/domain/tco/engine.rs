//! [`estimate`]: the cost model v1, step by step.

use super::arith::{add, div, mul, product, sum};
use super::billing;
use super::costs::Rental;
use super::currency::Currency;
use super::error::{ErrorReason, TcoError};
use super::estimate::{
    ComponentKind, ComputeBasis, CostComponent, CostPerUnit, Estimate, Pricing, TcoWarning, Unit,
};
use super::model::{Assumptions, NodeShape, PriceSheet, Workload};
use super::validate;
use rust_decimal::Decimal;

const SECONDS_PER_HOUR: Decimal = Decimal::from_parts(3600, 0, 0, false, 0);

/// Estimates the total cost of running `workload` on `shape` nodes priced by `sheet`.
///
/// Validates every input first; see the module documentation for the formulas.
pub fn estimate(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Workload,
    assumptions: &Assumptions,
) -> Result<Estimate, TcoError> {
    validate::inputs(sheet, shape, workload, assumptions)?;
    let mut warnings = Vec::new();
    let node_hourly = billing::node_hourly(sheet, shape)?;
    let nodes = node_count(shape, workload, assumptions, &mut warnings);
    let nodes_d = Decimal::from(nodes);
    let (compute_basis, efficiency_used, compute_h) =
        compute_hours(workload, assumptions, nodes, &mut warnings)?;
    let busy_h = busy_hours(assumptions, compute_h)?;
    let billable = billing::billable(
        sheet.billing_increment,
        sheet.minimum_billable_hours,
        busy_h,
    )?;
    if billable.minimum_applied {
        warnings.push(TcoWarning::MinimumBillableApplied {
            minimum_h: sheet.minimum_billable_hours,
        });
    }

    let currency = sheet.currency;
    let node_hours = mul(billable.hours, nodes_d, "estimate.on_demand_compute")?;
    let on_demand_exact =
        billable.cost(mul(node_hourly, nodes_d, "estimate.on_demand_compute")?)?;
    let on_demand = CostComponent {
        kind: ComponentKind::OnDemandCompute,
        unit: Unit::NodeHour,
        quantity: node_hours,
        unit_price: Some(node_hourly),
        cost: currency.round(on_demand_exact),
    };
    let monthly = match billing::monthly(sheet, busy_h, nodes_d)? {
        Some(m) => Some(CostComponent {
            kind: ComponentKind::MonthlyCommitment,
            unit: Unit::NodeMonth,
            quantity: mul(m.months, nodes_d, "estimate.monthly_compute")?,
            unit_price: Some(m.price),
            cost: currency.round(m.cost),
        }),
        None => None,
    };
    let on_demand_compute = on_demand.cost;
    let monthly_compute = monthly.as_ref().map(|m| m.cost);
    let (pricing_used, compute) = match monthly {
        Some(m) if m.cost < on_demand.cost => (Pricing::Monthly, m),
        _ => (Pricing::OnDemand, on_demand),
    };

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
    let compute_cost = compute.cost;
    let stopped = rental.stopped_compute()?;
    let idle_cost = rental.idle_cost(compute_cost, busy_h, stopped.cost)?;
    let mut components = vec![
        compute,
        stopped,
        rental.disk()?,
        rental.public_ip()?,
        rental.traffic()?,
    ];
    components.push(rental.snapshots()?);
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
        compute_basis,
        efficiency_used,
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
        break_even_hours: billing::break_even_hours(sheet, node_hourly)?,
        total,
        idle_cost,
        cost_per_unit,
        effective_gpu_hour_price,
        warnings,
    })
}

/// The user's node count, else ⌈GPUs needed ÷ GPUs per node⌉, at least 1.
fn node_count(
    shape: &NodeShape,
    workload: &Workload,
    a: &Assumptions,
    warnings: &mut Vec<TcoWarning>,
) -> u32 {
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

/// W ÷ (T × nodes × e) ÷ 3600 with a measured throughput, else the stated run length.
fn compute_hours(
    workload: &Workload,
    a: &Assumptions,
    nodes: u32,
    warnings: &mut Vec<TcoWarning>,
) -> Result<(ComputeBasis, Option<Decimal>, Decimal), TcoError> {
    const F: &str = "estimate.compute_h";
    if let (Some(work), Some(throughput)) = (&workload.total_work, a.measured_throughput_per_s) {
        if let Some(run_hours) = workload.run_hours {
            warnings.push(TcoWarning::StatedRunLengthIgnored { run_hours });
        }
        let efficiency = if nodes == 1 {
            Decimal::ONE
        } else {
            a.efficiency
        };
        let per_second = product(&[throughput, nodes.into(), efficiency], F)?;
        let hours = div(div(work.amount, per_second, F)?, SECONDS_PER_HOUR, F)?;
        return Ok((ComputeBasis::MeasuredThroughput, Some(efficiency), hours));
    }
    let Some(run_hours) = workload.run_hours else {
        return Err(TcoError::new("workload.run_hours", ErrorReason::NoWorkSize));
    };
    warnings.push(TcoWarning::ThroughputAssumed);
    Ok((ComputeBasis::StatedRunLength, None, run_hours))
}

/// Setup + data preparation + download + export + idle + compute × (1 + re-run share).
fn busy_hours(a: &Assumptions, compute_h: Decimal) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.busy_h";
    let reruns = mul(compute_h, add(Decimal::ONE, a.rerun_share, F)?, F)?;
    sum(
        [
            a.setup_h,
            a.data_prep_h,
            a.download_h,
            a.export_h,
            a.idle_h,
            reruns,
        ],
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
fn cost_per_unit(
    total: Decimal,
    work: Decimal,
    unit: &str,
    currency: Currency,
) -> Result<CostPerUnit, TcoError> {
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
