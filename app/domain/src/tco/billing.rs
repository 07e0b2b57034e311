//! Billing rules for running time: millisecond rounding, increments, minimum duration, the
//! monthly commitment over the rental and its break-even point.

use super::arith::{div, mul, product, sub};
use super::error::TcoError;
use super::model::{BillingIncrement, EarlyReleaseRefund, NodeShape, PriceBasis, PriceSheet};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// Hours in one billing month.
pub const HOURS_PER_MONTH: Decimal = Decimal::from_parts(730, 0, 0, false, 0);

/// Billable running time per node, kept as whole seconds (or the minimum's hours) so costs
/// stay exact.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Billable {
    /// Billable hours per node.
    pub hours: Decimal,
    /// Billed time: seconds (whole increments), or hours when the minimum applies.
    count: Decimal,
    /// Units of `count` per hour: 3600 for seconds, 1 for the minimum's hours.
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

/// Busy time in whole milliseconds, rounded up to `increment` (any whole number of seconds:
/// 10 s, 10 or 15 minutes, a day), or `minimum_h` if that is longer (compared in whole
/// milliseconds too, so a minimum of 10 minutes written as 0.1666… h is exactly 600 s).
pub(crate) fn billable(increment: BillingIncrement, minimum_h: Decimal, busy_h: Decimal) -> Result<Billable, TcoError> {
    const F: &str = "estimate.billable_h";
    let step = Decimal::from(increment.seconds());
    let seconds = mul(div(seconds_ms(busy_h, F)?, step, F)?.ceil(), step, F)?;
    if seconds_ms(minimum_h, F)? > seconds {
        return Ok(Billable {
            hours: minimum_h,
            count: minimum_h,
            per_hour: Decimal::ONE,
            minimum_applied: true,
        });
    }
    Ok(Billable {
        hours: div(seconds, SECONDS_PER_HOUR, F)?,
        count: seconds,
        per_hour: SECONDS_PER_HOUR,
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

/// A package commitment (a month unless the sheet names another period): periods billed per
/// node and the exact cost for all nodes, less what an early release gives back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Monthly {
    /// Periods billed per node: max(term, ⌈rental ÷ period⌉).
    pub months: Decimal,
    /// The package price per period and node.
    pub price: Decimal,
    /// periods × price × nodes − refund, unrounded.
    pub cost: Decimal,
    /// Paid but unrented hours per node: periods × period hours − rental hours (at least 0),
    /// less the hours refunded.
    pub unused_h: Decimal,
    /// Hours per node given back by an early-release refund (0 without one).
    pub refunded_h: Decimal,
    /// The exact amount given back for all nodes: refunded hours × price ÷ period hours × nodes.
    pub refund: Decimal,
    /// Hours in one period (730 for a month).
    pub period_h: Decimal,
}

/// The package commitment covering `rental_h` (busy + stopped hours per node) on `nodes`
/// nodes, if the sheet offers one (rule 3, with the period of the sheet and its refund rule).
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
    let period = sheet.package_period();
    let period_s = Decimal::from(period.seconds());
    let period_h = period.hours();
    let used = div(seconds_ms(rental_h, F)?, period_s, F)?.ceil();
    let term = Decimal::from(term);
    let months = used.max(term);
    let gross = product(&[months, price, nodes], F)?;
    let paid_h = mul(months, period_h, F)?;
    let unused_h = sub(paid_h, rental_h, F)?.max(Decimal::ZERO);
    let refunded_h = refundable_hours(sheet.early_release_refund, paid_h, mul(term, period_h, F)?, rental_h)?;
    let refund = div(product(&[refunded_h, price, nodes], F)?, period_h, F)?;
    Ok(Some(Monthly {
        months,
        price,
        cost: sub(gross, refund, F)?,
        unused_h: sub(unused_h, refunded_h, F)?,
        refunded_h,
        refund,
        period_h,
    }))
}

/// Hours per node an early release gives back: the paid hours beyond both the rental and the
/// minimum term, in whole days or whole hours as the refund rule says (rounded down: a started
/// day or hour is not given back).
///
/// *Example:* a 30-day package (720 h) with no term beyond one period, released after 250 h,
/// prorated by day: 720 − 250 = 470 h unused = 19 whole days = 456 h given back.
fn refundable_hours(
    rule: Option<EarlyReleaseRefund>,
    paid_h: Decimal,
    term_h: Decimal,
    rental_h: Decimal,
) -> Result<Decimal, TcoError> {
    const F: &str = "estimate.refund";
    let step = match rule {
        None | Some(EarlyReleaseRefund::None) => return Ok(Decimal::ZERO),
        Some(EarlyReleaseRefund::ProratedDay) => Decimal::from(24),
        Some(EarlyReleaseRefund::ProratedHour) => Decimal::ONE,
    };
    let kept_h = rental_h.max(term_h);
    let spare = sub(paid_h, kept_h, F)?.max(Decimal::ZERO);
    // The rental's hours in whole milliseconds first (rule 1), so 2/3 h is not a hair short.
    let spare = div(seconds_ms(spare, F)?, SECONDS_PER_HOUR, F)?;
    mul(div(spare, step, F)?.floor(), step, F)
}

/// Busy hours per node within the term at which on demand costs as much as the commitment:
/// term × node package price ÷ node hourly price, when that is at most the term's hours; else
/// never (also for a free hourly price). `None` if the sheet offers no package or no on-demand
/// price to compare with.
pub(crate) fn break_even(
    sheet: &PriceSheet,
    shape: &NodeShape,
    node_hourly: Option<Decimal>,
) -> Result<Option<BreakEven>, TcoError> {
    const F: &str = "estimate.break_even";
    let (Some(price), Some(term), Some(node_hourly)) =
        (node_monthly(sheet, shape)?, sheet.commitment_months, node_hourly)
    else {
        return Ok(None);
    };
    if node_hourly.is_zero() {
        return Ok(Some(BreakEven::NeverWithinTerm));
    }
    let term = Decimal::from(term);
    let hours = div(mul(term, price, F)?, node_hourly, F)?;
    if hours > mul(term, sheet.package_period().hours(), F)? {
        return Ok(Some(BreakEven::NeverWithinTerm));
    }
    Ok(Some(BreakEven::WithinTerm { hours }))
}

/// The on-demand price of one node per hour (× GPUs per node on a per-GPU basis); `None` when
/// the sheet offers no on-demand price.
pub(crate) fn node_hourly(sheet: &PriceSheet, shape: &NodeShape) -> Result<Option<Decimal>, TcoError> {
    let Some(hourly) = sheet.on_demand_hourly else {
        return Ok(None);
    };
    match sheet.basis {
        PriceBasis::PerNode => Ok(Some(hourly)),
        PriceBasis::PerGpu => mul(hourly, shape.gpus_per_node.into(), "estimate.node_hourly").map(Some),
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

/// When a monthly commitment starts to beat on demand within its term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BreakEven {
    /// From this many busy hours per node within the term (term × monthly price ÷ node hourly
    /// price, at most term × 730).
    WithinTerm {
        /// Busy hours per node.
        #[serde(with = "rust_decimal::serde::str")]
        hours: Decimal,
    },
    /// On demand stays cheaper even when the node runs every hour of the term.
    NeverWithinTerm,
}
