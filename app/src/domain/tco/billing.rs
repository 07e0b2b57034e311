//! Billing rules for running time: increments, minimum duration and monthly commitment.

use super::arith::{div, mul, product};
use super::error::TcoError;
use super::model::{BillingIncrement, NodeShape, PriceBasis, PriceSheet};
use rust_decimal::Decimal;

/// Hours in one billing month.
pub const HOURS_PER_MONTH: Decimal = Decimal::from_parts(730, 0, 0, false, 0);

/// Billable running time per node, kept as a count of increments so costs stay exact.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Billable {
    /// Billable hours per node.
    pub hours: Decimal,
    /// Billed increments (or minimum hours when the minimum applies).
    count: Decimal,
    /// Increments per hour for `count`.
    per_hour: Decimal,
    /// True when the minimum billable duration replaced the rounded busy time.
    pub minimum_applied: bool,
}

impl Billable {
    /// The cost of this time at `hourly` per hour (multiplies first, divides last).
    pub fn cost(&self, hourly: Decimal) -> Result<Decimal, TcoError> {
        div(
            mul(self.count, hourly, "estimate.on_demand_compute")?,
            self.per_hour,
            "estimate.on_demand_compute",
        )
    }
}

/// Busy time rounded up to `increment`, or `minimum_h` if that is longer.
pub(crate) fn billable(
    increment: BillingIncrement,
    minimum_h: Decimal,
    busy_h: Decimal,
) -> Result<Billable, TcoError> {
    let per_hour = increment.per_hour();
    let count = mul(busy_h, per_hour, "estimate.billable_h")?.ceil();
    let minimum_count = mul(minimum_h, per_hour, "estimate.billable_h")?;
    if minimum_count > count {
        return Ok(Billable {
            hours: minimum_h,
            count: minimum_h,
            per_hour: Decimal::ONE,
            minimum_applied: true,
        });
    }
    let hours = div(count, per_hour, "estimate.billable_h")?;
    Ok(Billable {
        hours,
        count,
        per_hour,
        minimum_applied: false,
    })
}

/// Billable hours per node for `busy_h`: rounded up to `increment`, at least `minimum_h`.
///
/// Errors name `estimate.billable_h` if the figure overflows.
pub fn billable_hours(
    increment: BillingIncrement,
    minimum_h: Decimal,
    busy_h: Decimal,
) -> Result<Decimal, TcoError> {
    billable(increment, minimum_h, busy_h).map(|b| b.hours)
}

/// A monthly commitment: months billed per node and the exact cost for all nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Monthly {
    /// Months billed per node: max(term, ⌈busy ÷ 730⌉).
    pub months: Decimal,
    /// The monthly price per node.
    pub price: Decimal,
    /// months × price × nodes, unrounded.
    pub cost: Decimal,
}

/// The monthly commitment for `busy_h` on `nodes` nodes, if the sheet offers one.
pub(crate) fn monthly(
    sheet: &PriceSheet,
    busy_h: Decimal,
    nodes: Decimal,
) -> Result<Option<Monthly>, TcoError> {
    let (Some(price), Some(term)) = (sheet.monthly_price, sheet.commitment_months) else {
        return Ok(None);
    };
    let used = div(busy_h, HOURS_PER_MONTH, "estimate.monthly_compute")?.ceil();
    let months = used.max(Decimal::from(term));
    let cost = product(&[months, price, nodes], "estimate.monthly_compute")?;
    Ok(Some(Monthly {
        months,
        price,
        cost,
    }))
}

/// Hours per month at which on-demand costs as much as the monthly price (`None` if either
/// price is missing or the hourly price is zero).
pub(crate) fn break_even_hours(
    sheet: &PriceSheet,
    node_hourly: Decimal,
) -> Result<Option<Decimal>, TcoError> {
    match (sheet.monthly_price, sheet.commitment_months) {
        (Some(price), Some(_)) if !node_hourly.is_zero() => {
            div(price, node_hourly, "estimate.break_even_hours").map(Some)
        }
        _ => Ok(None),
    }
}

/// The on-demand price of one node per hour (× GPUs per node on a per-GPU basis).
pub(crate) fn node_hourly(sheet: &PriceSheet, shape: &NodeShape) -> Result<Decimal, TcoError> {
    match sheet.basis {
        PriceBasis::PerNode => Ok(sheet.on_demand_hourly),
        PriceBasis::PerGpu => mul(
            sheet.on_demand_hourly,
            shape.gpus_per_node.into(),
            "estimate.node_hourly",
        ),
    }
}
