//! Total cost of ownership (TCO) of renting GPU nodes: the cost model v1.
//!
//! Pure logic — no I/O, no clock, no threads, no floating point: every amount is an exact
//! [`rust_decimal::Decimal`] in the quote's currency, and every overflow is an error.
//! Sources: seed 002 “把租用时长换算成总成本” (turn rental time into a total cost) and
//! seed 000 §5.
//!
//! # The model
//!
//! One month is 730 hours. Hours are per node.
//!
//! * `node_hourly` = on-demand price per hour, × GPUs per node when the price is per GPU.
//! * `nodes` = ⌈GPUs needed ÷ GPUs per node⌉, at least 1, unless the user sets a node count.
//! * `compute_h` = W ÷ (T × nodes × e) ÷ 3600 when the workload states its total work W and
//!   a measured steady-state throughput T (units per second per node) is given; e is the
//!   user's scaling efficiency in (0, 1], and 1 for a single node. Otherwise the workload's
//!   stated run length (with the warning [`TcoWarning::ThroughputAssumed`]).
//! * `busy_h` = setup + data preparation + download + export + idle while running
//!   + `compute_h` × (1 + re-run share).
//! * Billable running time per node = max(busy time rounded *up* to the billing increment
//!   (second, minute or hour), the minimum billable duration).
//! * On-demand compute = billable hours × `node_hourly` × nodes.
//! * Monthly commitment (sheet with monthly price and term): max(term, ⌈`busy_h` ÷ 730⌉)
//!   × monthly price × nodes. Both are reported; the strictly cheaper one goes into the total
//!   (on-demand on a tie). Break-even = monthly price ÷ `node_hourly` hours.
//! * `stopped_h` = hours shut down but not released; rental hours = `busy_h` + `stopped_h`.
//! * Stopped compute = `stopped_h` × `node_hourly` × nodes if the sheet says a stopped
//!   instance still bills compute, else 0.
//! * Disk = (system + data GB) × price per GB-month × rental hours ÷ 730 × nodes.
//! * Public IP = price per hour × rental hours × nodes.
//! * Traffic = max(0, egress GB − free egress GB) × egress price + ingress GB × ingress price.
//! * Snapshots = snapshot GB × price per GB-month × months kept.
//! * Other fees = the sheet's fixed fees, one line each.
//!
//! Each component is rounded half away from zero to the currency's minor unit (2 digits for
//! CNY/USD/EUR, 0 for JPY); the total is the sum of the rounded components. “Of which idle”
//! = idle-while-running share of compute (compute × idle ÷ busy hours) + stopped compute +
//! disk and IP during stopped hours, each rounded. Cost per unit of work = total ÷ W, shown
//! per 1, 1,000 or 1,000,000 units so that the figure is at least 0.01; the effective price
//! per GPU-hour = total ÷ (`compute_h` × GPUs per node × nodes). Derived prices keep two
//! digits more than the minor unit.
//!
//! Worked example (seed): 72 h on a one-GPU node at 10.00/h costs 720.00; the same work in
//! 24 h on a four-GPU node at 35.00/h costs 840.00 — more, because 35 > 3 × 10.
//!
//! Invalid input never gets a silently assumed value: [`TcoError`] names the field at fault.
//!
//! # Entry points
//!
//! [`estimate`] for one quote, [`what_if`] for low/expected/high profiles and throughput
//! sensitivity, [`cost_vs_hours`] and [`cost_vs_nodes`] for charts, [`run_scenario`] for a
//! ranked comparison of a [`Scenario`] file, [`ExchangeRate::convert`] for currencies.

mod analysis;
mod arith;
mod billing;
mod costs;
mod currency;
mod engine;
mod error;
mod estimate;
mod model;
mod overrides;
mod scenario;
pub mod throughput;
mod validate;

#[cfg(test)]
mod tests;

pub use analysis::{
    HoursPoint, MAX_NODES_SERIES, WhatIf, WhatIfProfiles, cost_vs_hours, cost_vs_nodes, what_if,
};
pub use billing::{HOURS_PER_MONTH, billable_hours};
pub use currency::{Currency, ExchangeRate, latest_rate};
pub use engine::estimate;
pub use error::{ErrorReason, TcoError};
pub use estimate::{
    BreakEven, ComponentKind, ComputeBasis, CostComponent, CostPerUnit, Estimate, Pricing,
    QuoteGroup, TcoWarning, Unit,
};
pub use model::{
    Assumptions, BillingIncrement, Fee, NodeShape, PriceBasis, PriceSheet, TotalWork, Workload,
};
pub use overrides::AssumptionOverrides;
pub use scenario::{Quote, RankedQuote, Scenario, ScenarioResult, run_scenario};
pub use throughput::{FromRuns, RunThroughput};

/// The JSON Schema (draft 2020-12) of a [`Scenario`] file, the input of
/// `nodeledger tco SCENARIO.json`: required and optional fields, closed objects (unknown fields
/// are rejected), decimals as strings, enums by their wire names, with a description of the
/// meaning and unit of every property.
///
/// Serde reads every document the schema accepts, except counts written with a fraction
/// (`2.0`, an integer to JSON Schema) and decimals beyond 28 significant digits. Serde also
/// tolerates a few spellings the schema leaves out: decimal strings in other notations
/// (`"1e3"`, `"+1"`, `"1_000"`), an empty string for an absent optional decimal, and structs
/// written as arrays. Rules that need
/// the whole scenario (unique quote ids, positive prices, exchange rates for each pair …) are
/// checked by [`run_scenario`], not by the schema.
pub const SCENARIO_SCHEMA_JSON: &str = include_str!("scenario.schema.json");

/// The JSON Schema (draft 2020-12) of a [`ScenarioResult`] as serialised by serde (the output
/// of `nodeledger tco`): every field always present, `null` where a value does not apply,
/// decimals as strings, warnings tagged by `code`.
pub const RESULT_SCHEMA_JSON: &str = include_str!("result.schema.json");
