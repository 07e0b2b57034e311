//! Test inputs shared by the tests of the cost engine and of the modules above it (quotes).

use crate::tco::{BillingIncrement, Currency, PriceSheet, on_demand_sheet};
use rust_decimal::Decimal;

/// A CNY per-node sheet at `hourly`, billed per started hour, with no extras.
pub(crate) fn sheet(hourly: Decimal) -> PriceSheet {
    on_demand_sheet(Currency::CNY, hourly, BillingIncrement::HOUR, false)
}
