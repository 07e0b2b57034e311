//! [`estimate`]: the cost model v2, step by step.

use super::arith::{add, div, mul, product, sub, sum};
use super::billing;
use super::billing::SECONDS_PER_HOUR;
use super::costs::Rental;
use super::currency::Currency;
use super::error::{ErrorReason, TcoError};
use super::estimate::{ComponentKind, ComputeBasis, CostComponent, CostPerUnit, Estimate, Pricing, TcoWarning, Unit};
use super::model::{Assumptions, Demand, NodeShape, PriceSheet, UnstatedPrice};
use super::throughput::{self, Efficiency, RunThroughput, Scaling};
use super::validate;
use crate::runs::GpuUse;
use rust_decimal::Decimal;

/// Estimates the total cost of running `workload` on `shape` nodes priced by `sheet`.
///
/// Validates every input first; see the module documentation for the formulas. The steps, in
/// the order their errors are reported: the hours ([`hours`]), the compute side on demand or
/// under the commitment ([`compute_side`]), the other components and the total, then the
/// derived prices ([`derived_prices`]) and the break-even.
pub fn estimate(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
) -> Result<Estimate, TcoError> {
    let priced = estimate_priced(sheet, shape, workload, assumptions, PricingChoice::Cheaper)?;
    priced.ok_or_else(|| TcoError::overflow("estimate.total"))
}

/// Which compute pricing an estimate may use (rule 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PricingChoice {
    /// The cheaper of on demand and the monthly commitment, a tie on demand: what
    /// [`estimate`] does.
    Cheaper,
    /// On demand, even when the commitment would be cheaper (a planner comparing both).
    OnDemand,
    /// The monthly commitment, even when on demand would be cheaper; no estimate when the
    /// sheet offers no commitment.
    Monthly,
}

/// [`estimate`] with the compute pricing forced by `choice`; `Ok(None)` only for
/// [`PricingChoice::Monthly`] on a sheet without a monthly price. Every other rule is the
/// same: the lines, idle cost and warnings of the side priced.
pub fn estimate_priced(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
    choice: PricingChoice,
) -> Result<Option<Estimate>, TcoError> {
    validate::inputs(sheet, shape, workload, assumptions)?;
    let mut warnings = Vec::new();
    let node_hourly = billing::node_hourly(sheet, shape)?;
    let h = hours(sheet, shape, workload, assumptions, &mut warnings)?;
    let rental = Rental {
        sheet,
        shape,
        assumptions,
        nodes: Decimal::from(h.nodes),
        node_hourly,
        rental_h: h.rental_h,
        busy_h: h.busy_h,
    };
    let Some(side) = compute_side(&rental, &h, choice)? else {
        return Ok(None);
    };
    let mut components = side.lines;
    components.extend([
        rental.disk()?,
        rental.public_ip()?,
        rental.traffic()?,
        rental.snapshots()?,
    ]);
    components.extend(rental.other_fees());
    unstated_prices(sheet, shape, assumptions, &mut warnings);
    let total = sum(components.iter().map(|c| c.cost), "estimate.total")?;
    let (cost_per_unit, effective_gpu_hour_price) = derived_prices(total, workload, shape, &h, sheet.currency)?;
    Ok(Some(Estimate {
        currency: sheet.currency,
        nodes: h.nodes,
        node_hourly,
        compute_basis: h.compute.basis,
        efficiency_used: h.compute.efficiency,
        n_run: h.compute.n_run,
        one_node_throughput_per_s: h.compute.one_node,
        planned_throughput_per_s: h.compute.planned,
        compute_h: h.compute.hours,
        busy_h: h.busy_h,
        billable_h: h.billable.hours,
        stopped_h: assumptions.stopped_h,
        rental_h: h.rental_h,
        time_to_finish_h: h.busy_h,
        components,
        pricing_used: side.pricing,
        on_demand_compute: side.on_demand,
        monthly_compute: side.monthly,
        unused_commitment_h: side.unused_h,
        break_even: billing::break_even(sheet, shape, node_hourly)?,
        total,
        idle_cost: side.idle,
        cost_per_unit,
        effective_gpu_hour_price,
        warnings,
    }))
}

/// The hours of one estimate, per node: nodes, compute, busy, billable and rental.
struct Hours {
    nodes: u32,
    compute: Compute,
    busy_h: Decimal,
    billable: billing::Billable,
    rental_h: Decimal,
}

/// Step 1: nodes, compute hours (rule 2), busy hours, billable hours (rule 1, with the
/// minimum's warning) and rental hours = busy + stopped.
fn hours(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
    warnings: &mut Vec<TcoWarning>,
) -> Result<Hours, TcoError> {
    let nodes = node_count(shape, workload, assumptions, warnings);
    let compute = compute_hours(workload, assumptions, shape, nodes, warnings)?;
    let busy_h = busy_hours(assumptions, compute.hours)?;
    let billable = billing::billable(sheet.billing_increment, sheet.minimum_billable_hours, busy_h)?;
    if billable.minimum_applied {
        warnings.push(TcoWarning::MinimumBillableApplied {
            minimum_h: sheet.minimum_billable_hours,
        });
    }
    let rental_h = add(busy_h, assumptions.stopped_h, "estimate.rental_h")?;
    Ok(Hours {
        nodes,
        compute,
        busy_h,
        billable,
        rental_h,
    })
}

/// The compute side of an estimate as priced: its lines, the idle share, and both prices.
struct ComputeSide {
    pricing: Pricing,
    lines: Vec<CostComponent>,
    unused_h: Option<Decimal>,
    idle: Decimal,
    on_demand: Option<Decimal>,
    monthly: Option<Decimal>,
}

/// The on-demand side: running + stopped compute, each rounded; `None` when the sheet offers no
/// on-demand price.
fn on_demand_side(rental: &Rental<'_>, h: &Hours) -> Result<Option<[CostComponent; 2]>, TcoError> {
    const F: &str = "estimate.on_demand_compute";
    let Some(node_hourly) = rental.node_hourly else {
        return Ok(None);
    };
    let node_hours = mul(h.billable.hours, rental.nodes, F)?;
    let running_exact = h.billable.cost(mul(node_hourly, rental.nodes, F)?)?;
    let running = CostComponent {
        kind: ComponentKind::OnDemandCompute,
        unit: Unit::NodeHour,
        quantity: node_hours,
        unit_price: Some(node_hourly),
        cost: rental.sheet.currency.round(running_exact),
        bands: Vec::new(),
    };
    Ok(Some([running, rental.stopped_compute()?]))
}

/// Step 2: on-demand running + stopped compute, and the package commitment when it is cheaper
/// (rule 3; a tie stays on demand), the only price offered, or forced by `choice`, with the idle
/// cost of the side chosen; `None` when `choice` forces a side the sheet does not offer.
fn compute_side(rental: &Rental<'_>, h: &Hours, choice: PricingChoice) -> Result<Option<ComputeSide>, TcoError> {
    let currency = rental.sheet.currency;
    let on_demand_lines = on_demand_side(rental, h)?;
    let on_demand = match &on_demand_lines {
        Some([running, stopped]) => Some(add(running.cost, stopped.cost, "estimate.on_demand_compute")?),
        None => None,
    };
    let monthly = billing::monthly(rental.sheet, rental.shape, h.rental_h, rental.nodes)?;
    let monthly_compute = monthly.map(|m| currency.round(m.cost));
    let offered = monthly.zip(monthly_compute);
    let chosen = match (choice, on_demand) {
        (PricingChoice::Cheaper, Some(od)) => offered.filter(|(_, cost)| *cost < od),
        (PricingChoice::Cheaper, None) => offered,
        (PricingChoice::OnDemand, _) => None,
        (PricingChoice::Monthly, _) if offered.is_none() => return Ok(None),
        (PricingChoice::Monthly, _) => offered,
    };
    let (pricing, lines, unused_h, idle) = match (chosen, on_demand_lines) {
        (Some((m, cost)), _) => package_lines(rental, &m, cost)?,
        (None, Some([running, stopped])) => {
            let idle = rental.idle_cost(running.cost, h.busy_h, stopped.cost)?;
            (Pricing::OnDemand, vec![running, stopped], None, idle)
        }
        (None, None) => return Ok(None),
    };
    Ok(Some(ComputeSide {
        pricing,
        lines,
        unused_h,
        idle,
        on_demand,
        monthly: monthly_compute,
    }))
}

/// The lines under a package: the periods paid (their gross cost), stopped time included at
/// price 0, and the early-release refund when there is one; the idle cost of what is paid and
/// not used.
fn package_lines(
    rental: &Rental<'_>,
    m: &billing::Monthly,
    cost: Decimal,
) -> Result<(Pricing, Vec<CostComponent>, Option<Decimal>, Decimal), TcoError> {
    const F: &str = "estimate.monthly_compute";
    let currency = rental.sheet.currency;
    let mut lines = Vec::with_capacity(3);
    let refund = if m.refund.is_zero() {
        None
    } else {
        Some(rental.refund(m.refunded_h, m.price, m.period_h, m.refund)?)
    };
    // With a refund, the package line shows the periods paid in full and the refund line what
    // comes back, so quantity × price adds up on both; their sum is the rounded net cost.
    let gross = match &refund {
        Some(r) => sub(cost, r.cost, F)?,
        None => cost,
    };
    lines.push(CostComponent {
        kind: ComponentKind::MonthlyCommitment,
        unit: Unit::NodeMonth,
        quantity: mul(m.months, rental.nodes, F)?,
        unit_price: Some(m.price),
        cost: currency.round(gross),
        bands: Vec::new(),
    });
    lines.push(rental.stopped_in_commitment()?);
    lines.extend(refund);
    let idle = rental.idle_cost_monthly(m.price, m.unused_h, m.period_h)?;
    Ok((Pricing::Monthly, lines, Some(m.unused_h), idle))
}

/// Step 3: cost per unit of work (when the workload states its work) and the effective
/// price per GPU-hour = total ÷ (compute hours × GPUs per node × nodes), none for zero hours.
fn derived_prices(
    total: Decimal,
    workload: &Demand,
    shape: &NodeShape,
    h: &Hours,
    currency: Currency,
) -> Result<(Option<CostPerUnit>, Option<Decimal>), TcoError> {
    let cost_per_unit = match &workload.total_work {
        Some(work) => Some(cost_per_unit(total, work.amount, &work.unit, currency)?),
        None => None,
    };
    let gpu_hours = product(
        &[h.compute.hours, shape.gpus_per_node.into(), Decimal::from(h.nodes)],
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
    Ok((cost_per_unit, effective_gpu_hour_price))
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
    shape: &NodeShape,
    nodes: u32,
    warnings: &mut Vec<TcoWarning>,
) -> Result<Compute, TcoError> {
    const F: &str = "estimate.compute_h";
    let efficiency = efficiency_for(workload, a);
    if let (Some(work), Some(per_s)) = (&workload.total_work, a.measured_throughput_per_s) {
        if let Some(run_hours) = workload.run_hours {
            warnings.push(TcoWarning::StatedRunLengthIgnored { run_hours });
        }
        let run = RunThroughput {
            per_s,
            nodes: a.run_nodes(),
        };
        let planned = throughput::planned(run, nodes, efficiency)?;
        let one_node = throughput::one_node(run, efficiency)?;
        let hours = div(div(work.amount, planned, F)?, SECONDS_PER_HOUR, F)?;
        return Ok(Compute {
            basis: ComputeBasis::MeasuredThroughput,
            hours,
            efficiency: Some(efficiency.on(nodes)),
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
        hours: stated_hours_on(workload, run_hours, shape.gpus_per_node, nodes, efficiency)?,
        efficiency: None,
        n_run: None,
        one_node: None,
        planned: None,
    })
}

/// The scaling efficiency across nodes: 1 for work that runs one task per GPU (each card runs its
/// own task, so nodes add throughput linearly), else the assumed (or measured) efficiency.
fn efficiency_for<'a>(workload: &Demand, a: &'a Assumptions) -> Scaling<'a> {
    match workload.gpu_use {
        Some(GpuUse::TaskPerGpu) => Scaling {
            flat: Decimal::ONE,
            points: &[],
        },
        Some(GpuUse::OneJob) | None => a.scaling(),
    }
}

/// The stated run length on `nodes` nodes of `gpus_per_node` GPUs (the node-scaling rule in the
/// module docs): one task per GPU, `run_h × GPUs needed ÷ (GPUs per node × nodes)`; one job
/// across GPUs, exactly `run_h` on the nodes it needs and scaled by the efficiency elsewhere;
/// without a stated GPU use, `run_h` on any node (as scenarios written before it read).
fn stated_hours_on(
    workload: &Demand,
    run_h: Decimal,
    gpus_per_node: u32,
    nodes: u32,
    efficiency: Scaling<'_>,
) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.compute_h";
    let (gpus, nodes) = (gpus_per_node.max(1), nodes.max(1));
    match workload.gpu_use {
        None => Ok(run_h),
        Some(GpuUse::TaskPerGpu) => {
            let gpus_on = mul(Decimal::from(gpus), Decimal::from(nodes), F)?;
            div(mul(run_h, Decimal::from(workload.gpus_needed.max(1)), F)?, gpus_on, F)
        }
        Some(GpuUse::OneJob) => {
            let needed = workload.gpus_needed.div_ceil(gpus).max(1);
            if nodes == needed {
                return Ok(run_h);
            }
            let at_needed = mul(Decimal::from(needed), efficiency.on(needed), F)?;
            let at_nodes = mul(Decimal::from(nodes), efficiency.on(nodes), F)?;
            div(mul(run_h, at_needed, F)?, at_nodes, F)
        }
    }
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

/// The prices the vendor did not state that this rental needs, each as a warning: disks of
/// some size, snapshots kept, egress beyond the free allowance, any ingress, stopped hours when
/// the sheet does not say whether a stopped node bills compute. The cost is then priced at 0
/// and the total is a lower bound.
fn unstated_prices(sheet: &PriceSheet, shape: &NodeShape, a: &Assumptions, warnings: &mut Vec<TcoWarning>) {
    for &price in &sheet.not_stated {
        let used = match price {
            UnstatedPrice::Disk => shape.system_disk_gb + shape.data_disk_gb > Decimal::ZERO,
            UnstatedPrice::Snapshot => a.snapshot_gb > Decimal::ZERO && a.snapshot_months > Decimal::ZERO,
            UnstatedPrice::Egress => a.egress_gb > sheet.free_egress_gb,
            UnstatedPrice::Ingress => a.ingress_gb > Decimal::ZERO,
            UnstatedPrice::StoppedCompute => a.stopped_h > Decimal::ZERO,
        };
        let warning = TcoWarning::PriceNotStated { price };
        if used && !warnings.contains(&warning) {
            warnings.push(warning);
        }
    }
}
