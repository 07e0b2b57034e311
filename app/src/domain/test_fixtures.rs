//! Test inputs shared by the test modules of more than one domain module.

use crate::domain::quotes::on_demand_sheet;
use crate::domain::tco::{BillingIncrement, Currency, PriceSheet};
use rust_decimal::Decimal;

/// A CNY per-node sheet at `hourly`, billed per started hour, with no extras.
pub(crate) fn sheet(hourly: Decimal) -> PriceSheet {
    on_demand_sheet(Currency::CNY, hourly, BillingIncrement::Hour, false)
}
