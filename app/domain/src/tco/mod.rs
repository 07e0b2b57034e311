//! Total cost of ownership (TCO) of renting GPU nodes: the cost model v2.
//!
//! Pure logic — no I/O, no clock, no threads, no floating point: every amount is an exact
//! [`rust_decimal::Decimal`] in the quote's currency, and every overflow is an error.
//! The rule: turn rental time into a total cost (“把租用时长换算成总成本”), counting how each sheet
//! bills and the idle risk of a plan you pay for and do not use.
//!
//! # The model
//!
//! One month is 730 hours. Hours are per node.
//!
//! * `node_hourly` = on-demand price per hour, × GPUs per node when the price is per GPU.
//! * `node_monthly` = monthly price, × GPUs per node when the monthly price is per GPU
//!   (`monthly_basis`; absent = per node, as every sheet written before the field read it).
//!   *Example:* 1,200 per GPU-month on an 8-GPU node = 9,600 per node-month.
//! * `nodes` = ⌈GPUs needed ÷ GPUs per node⌉, at least 1, unless the user sets a node count n.
//! * **Throughput and node count (rule 2).** A measured throughput `T_run` is for the node
//!   count it ran on, `n_run` (default 1). With `e(k)` = 1 for one node, else the user's scaling
//!   efficiency in (0, 1]: one-node `T1 = T_run ÷ (n_run × e(n_run))`; planned on n nodes
//!   `T = T_run × n × e(n) ÷ (n_run × e(n_run))` (multiplied first, divided last), and exactly
//!   `T_run` when n = n_run, so efficiency is never applied twice ([`throughput`]).
//!   *Example:* a 2-node run at 1800/s, e = 0.9: T1 = 1800 ÷ 1.8 = 1000/s; planned on 2 nodes
//!   1800/s whatever e is; on 1 node 1000/s; on 4 nodes 1800 × 4 × 0.9 ÷ 1.8 = 3600/s.
//! * **Node scaling by GPU use** (the one rule of the cost page, the plan, the order and both
//!   CLIs; the workload's `gpu_use`). *One task per GPU*: e = 1 (each card runs its own task,
//!   so nodes add throughput linearly), and a stated run length `h` on the GPUs needed G is
//!   `h × G ÷ (GPUs per node × n)` on n nodes. *One job across GPUs*: e is what runs on one node
//!   and on several measured, else the assumption ([`throughput::scaling_efficiency`]), and `h`
//!   is exactly `h` on the nodes the job needs, `n_min` = ⌈G ÷ GPUs per node⌉, and
//!   `h × n_min × e(n_min) ÷ (n × e(n))` on n. *Not stated* (scenario files written before the
//!   field): `h` on any node, as they always read.
//!   *Example:* 111 h of one task on 1 GPU is 13.875 h on an eight-GPU node, 6.9375 h on two;
//!   24 h of one job on 8 GPUs is 24 h on two four-GPU nodes, 12 h on four at e = 0.9.
//! * `compute_h` = W ÷ T ÷ 3600 when the workload states its total work W and a throughput is
//!   given. Otherwise the workload's stated run length, scaled as above (with
//!   [`TcoWarning::ThroughputAssumed`]).
//! * **Which runs set T (rule 5).** The caller passes the *valid* runs (T_run, n_run) of the
//!   quote's node and workload; [`throughput::from_runs`] takes the median of their T1 (odd
//!   count: the middle run itself; even: the mean of the two middle T1, on one node — or the mean
//!   of their T_run when both ran on the same node count, the same value exactly), and the
//!   slowest run by T1 for the what-if line “slowest valid run”.
//!   *Example:* runs at 2000, 900 and 1000/s on one node → 1000/s expected, 900/s slowest;
//!   900, 1000, 1200 and 2000/s → (1000 + 1200) ÷ 2 = 1100/s.
//! * `busy_h` = setup + data preparation + download + export + idle while running +
//!   `compute_h` × (1 + re-run share). `stopped_h` = hours shut down but not released;
//!   `rental_h` = `busy_h` + `stopped_h`.
//! * **Billing rounding (rule 1).** Busy time per node is converted to seconds and rounded
//!   half-up to whole milliseconds, *then* rounded up to the billing increment (second, minute
//!   or hour); billable running time = max(that, the minimum billable duration).
//!   *Example:* 2/3 h of work is 0.6666666666666666666666666667 h = 2400.000 s after rounding
//!   to milliseconds: it bills 2400 s, 40 minutes or 1 hour — not 2401 s, 41 minutes, or (for
//!   3 × 2/3 h = 2.0000000000000000000000000001 h) 3 hours.
//! * On-demand running = billable hours × `node_hourly` × nodes. Stopped compute =
//!   `stopped_h` × `node_hourly` × nodes if the sheet says a stopped instance still bills
//!   compute, else 0. The on-demand compute side = on-demand running + stopped compute, each
//!   rounded.
//! * **Monthly commitment covers the rental (rule 3)** (sheet with monthly price and term):
//!   months = max(term, ⌈`rental_h` ÷ 730⌉) (rental in whole milliseconds), cost = months ×
//!   `node_monthly` × nodes; under it stopped compute costs nothing extra (the stopped line is
//!   kept at price 0). The compute side costs min(on-demand side, monthly); a tie stays on
//!   demand. Under the commitment, paid but unused hours = months × 730 − `rental_h` per node.
//!   *Example:* 10.00/h or 5000/month (1-month term), stopped compute billed, 400 h busy +
//!   200 h stopped: on demand 4000 + 2000 = 6000, monthly 5000 → 5000; 130 h unused.
//!   With 700 h busy + 100 h stopped the rental is 800 h → 2 months = 10000 > 7000 + 1000:
//!   on demand, 8000.
//! * **Break-even (rule 4)** = term × `node_monthly` ÷ `node_hourly`, in busy hours per node,
//!   when that is at most term × 730; otherwise [`BreakEven::NeverWithinTerm`] (also for a free
//!   hourly price). *Example:* a 3-month term at 5000/month and 10.00/h → 1500 h (v1 showed
//!   500 h); 5000/month at 5.00/h on a 1-month term → 1000 h > 730 h: never within the term;
//!   1,200 per GPU-month and 2.00 per GPU-hour on an 8-GPU node → 9,600 ÷ 16.00 = 600 h.
//! * Disk = (system + data GB) × price per GB-month × rental hours ÷ 730 × nodes.
//! * Public IP = price per hour × rental hours × nodes.
//! * Traffic = max(0, egress GB − free egress GB) × egress price + ingress GB × ingress price.
//! * Snapshots = snapshot GB × price per GB-month × months kept.
//! * Other fees = the sheet's fixed fees, one line each.
//!
//! Each component is rounded half away from zero to the currency's minor unit (2 digits for
//! CNY/USD/EUR, 0 for JPY); the total is the sum of the rounded components. “Of which idle”,
//! each part rounded, then summed: on demand, the idle-while-running share of compute
//! (running compute × idle ÷ busy hours) + stopped compute + disk and IP during stopped hours;
//! under the commitment, (idle + stopped + unused hours) × nodes × `node_monthly` ÷ 730 + disk
//! and IP during stopped hours (the idle risk of a plan you pay for and do not use). *Example:* the
//! 400 h + 200 h case above: (0 + 200 + 130) × 5000 ÷ 730 = 2260.27.
//! Cost per unit of work = total ÷ W, shown per 1, 1,000 or 1,000,000 units so that the
//! figure is at least 0.01; the effective price per GPU-hour = total ÷ (`compute_h` × GPUs per
//! node × nodes). Derived prices keep two digits more than the minor unit.
//!
//! **Ranking (rule 6).** [`run_scenario`] puts quotes whose compute time comes from a
//! measured throughput in the [`QuoteGroup::Measured`] group, those from a throughput typed by
//! hand (a quote's `throughput_stated`, e.g. a vendor's brochure figure) in
//! [`QuoteGroup::Stated`] (“stated, not measured”) and those from a stated run length in
//! [`QuoteGroup::Estimated`] (“estimated, not measured”); measured ones first, then stated,
//! then estimated, each group cheapest first (ties by label, then id), ranks 1..n over all.
//! *Example:* a measured quote at 720.00 ranks 1 above a stated one at 500.00, which ranks 2
//! above an estimated one at 72.00.
//!
//! **Currencies (rule 7).** Totals are converted into the comparison currency with
//! [`latest_rate`]: the latest rate of the pair, stated in either direction (on one date the
//! direct rate wins); budgets and unit prices shown beside the totals use the same rate, and a
//! missing rate is an error or a flag, never a silent 1:1. *Example:* USD→CNY 7.10 on
//! 2026-11-01 and CNY→USD 0.14 on 2026-11-20: 100.00 USD = 100 ÷ 0.14 = 714.29 CNY.
//!
//! Worked example (seed): 72 h on a one-GPU node at 10.00/h costs 720.00; the same work in
//! 24 h on a four-GPU node at 35.00/h costs 840.00 — more, because 35 > 3 × 10.
//!
//! Invalid input never gets a silently assumed value: [`TcoError`] names the field at fault.
//!
//! # Entry points
//!
//! [`estimate`] for one quote ([`estimate_priced`] with the pricing forced: on demand or the
//! commitment, for the rental planner), [`what_if`] for low/expected/high profiles, throughput
//! sensitivity and the slowest valid run, [`throughput`] for run throughputs,
//! [`cost_vs_hours`] and [`cost_vs_nodes`] for charts, [`run_scenario`] for a ranked
//! comparison of a [`Scenario`] file, [`ExchangeRate::convert`] for currencies.

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
mod period;
mod scenario;
pub mod throughput;
pub mod traffic;
pub mod unit_scale;
mod validate;

#[cfg(test)]
pub(crate) mod test_fixtures;
#[cfg(test)]
mod tests;

pub use analysis::{HoursPoint, MAX_NODES_SERIES, WhatIf, WhatIfProfiles, cost_vs_hours, cost_vs_nodes, what_if};
pub use billing::BreakEven;
pub(crate) use billing::seconds_ms;
pub use billing::{HOURS_PER_MONTH, billable_hours};
pub use currency::{
    Currency, ExchangeRate, PAIR_TOLERANCE_PCT, RateWarning, STALE_RATE_DAYS, latest_rate, rate_on, rate_warnings,
};
pub use engine::{PricingChoice, estimate, estimate_priced};
pub use error::{ErrorReason, TcoError};
pub use estimate::{
    ComponentKind, ComputeBasis, CostComponent, CostPerUnit, Estimate, Pricing, QuoteGroup, TcoWarning, Unit,
};
pub use model::{
    Assumptions, BillingIncrement, Demand, EarlyReleaseRefund, Fee, NodeShape, PriceBasis, PriceSheet, StoppedCompute,
    TotalWork, TrafficPeriod, TrafficTier, UnstatedPrice, on_demand_sheet,
};
pub use overrides::AssumptionOverrides;
pub use period::MAX_INCREMENT_SECONDS;
pub use scenario::{Quote, RankedQuote, Scenario, ScenarioResult, ranking_order, run_scenario};
pub(crate) use scenario::{check_scenario, compared_total, quote_assumptions, quote_group};
pub use throughput::{EfficiencySource, FromRuns, RunThroughput};

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
