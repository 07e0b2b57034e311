//! Billing rules for running time: millisecond rounding, increments, minimum duration, the
//! monthly commitment over the rental and its break-even point.

use super::arith::{div, mul, product, sub};
use super::error::TcoError;
use super::estimate::BreakEven;
use super::model::{BillingIncrement, NodeShape, PriceBasis, PriceSheet};
use rust_decimal::{Decimal, RoundingStrategy};

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

/// Seconds in one hour.
pub(crate) const SECONDS_PER_HOUR: Decimal = Decimal::from_parts(3600, 0, 0, false, 0);

/// `hours` in seconds, rounded half-up to whole milliseconds (rule 1): 2/3 h written as
/// 0.6666666666666666666666666667 h is 2400.000 s, not 2400.0000000000000000000000001 s.
pub(crate) fn seconds_ms(hours: Decimal, field: &'static str) -> Result<Decimal, TcoError> {
    Ok(mul(hours, SECONDS_PER_HOUR, field)?.round_dp_with_strategy(3, RoundingStrategy::MidpointAwayFromZero))
}

/// Busy time in whole milliseconds, rounded up to `increment`, or `minimum_h` if that is
/// longer.
pub(crate) fn billable(increment: BillingIncrement, minimum_h: Decimal, busy_h: Decimal) -> Result<Billable, TcoError> {
    const F: &str = "estimate.billable_h";
    let per_hour = increment.per_hour();
    let seconds = seconds_ms(busy_h, F)?;
    let count = div(seconds, div(SECONDS_PER_HOUR, per_hour, F)?, F)?.ceil();
    let minimum_count = mul(minimum_h, per_hour, F)?;
    if minimum_count > count {
        return Ok(Billable {
            hours: minimum_h,
            count: minimum_h,
            per_hour: Decimal::ONE,
            minimum_applied: true,
        });
    }
    let hours = div(count, per_hour, F)?;
    Ok(Billable {
        hours,
        count,
        per_hour,
        minimum_applied: false,
    })
}

/// Billable hours per node for `busy_h`: in whole milliseconds, rounded up to `increment`, at
/// least `minimum_h`.
///
/// Errors name `estimate.billable_h` if the figure overflows.
pub fn billable_hours(increment: BillingIncrement, minimum_h: Decimal, busy_h: Decimal) -> Result<Decimal, TcoError> {
    billable(increment, minimum_h, busy_h).map(|b| b.hours)
}

/// A monthly commitment: months billed per node and the exact cost for all nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Monthly {
    /// Months billed per node: max(term, ⌈rental ÷ 730⌉).
    pub months: Decimal,
    /// The monthly price per node.
    pub price: Decimal,
    /// months × price × nodes, unrounded.
    pub cost: Decimal,
    /// Paid but unrented hours per node: months × 730 − rental hours (at least 0).
    pub unused_h: Decimal,
}

/// The monthly commitment covering `rental_h` (busy + stopped hours per node) on `nodes`
/// nodes, if the sheet offers one.
pub(crate) fn monthly(
    sheet: &PriceSheet,
    shape: &NodeShape,
    rental_h: Decimal,
    nodes: Decimal,
) -> Result<Option<Monthly>, TcoError> {
    const F: &str = "estimate.monthly_compute";
    let (Some(price), Some(term)) = (node_monthly(sheet, shape)?, sheet.commitment_months) else {
        return Ok(None);
    };
    let month_s = mul(HOURS_PER_MONTH, SECONDS_PER_HOUR, F)?;
    let used = div(seconds_ms(rental_h, F)?, month_s, F)?.ceil();
    let months = used.max(Decimal::from(term));
    let cost = product(&[months, price, nodes], F)?;
    let paid_h = mul(months, HOURS_PER_MONTH, F)?;
    let unused_h = sub(paid_h, rental_h, F)?.max(Decimal::ZERO);
    Ok(Some(Monthly {
        months,
        price,
        cost,
        unused_h,
    }))
}

/// Busy hours per node within the term at which on demand costs as much as the commitment:
/// term × node monthly price ÷ node hourly price, when that is at most term × 730 hours; else
/// never (also for a free hourly price). `None` if the sheet offers no monthly price.
pub(crate) fn break_even(
    sheet: &PriceSheet,
    shape: &NodeShape,
    node_hourly: Decimal,
) -> Result<Option<BreakEven>, TcoError> {
    const F: &str = "estimate.break_even";
    let (Some(price), Some(term)) = (node_monthly(sheet, shape)?, sheet.commitment_months) else {
        return Ok(None);
    };
    if node_hourly.is_zero() {
        return Ok(Some(BreakEven::NeverWithinTerm));
    }
    let term = Decimal::from(term);
    let hours = div(mul(term, price, F)?, node_hourly, F)?;
    if hours > mul(term, HOURS_PER_MONTH, F)? {
        return Ok(Some(BreakEven::NeverWithinTerm));
    }
    Ok(Some(BreakEven::WithinTerm { hours }))
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

/// The monthly price of one node, if the sheet offers one: × GPUs per node when the monthly
/// price is per GPU ([`PriceSheet::monthly_basis`]; absent = per node).
pub(crate) fn node_monthly(sheet: &PriceSheet, shape: &NodeShape) -> Result<Option<Decimal>, TcoError> {
    let Some(price) = sheet.monthly_price else {
        return Ok(None);
    };
    match sheet.monthly_price_basis() {
        PriceBasis::PerNode => Ok(Some(price)),
        PriceBasis::PerGpu => mul(price, shape.gpus_per_node.into(), "estimate.monthly_compute").map(Some),
    }
}
