//! The input of the planner: a TCO scenario as `nodeledger tco` reads it, plus the plan's
//! dates, budget, GPU use and what each vendor can deliver.

use crate::rentals::Instant;
use crate::runs::GpuUse;
use crate::tco::Scenario;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A plan file (`nodeledger plan PLAN.json`): the quotes, workload and assumptions of a
/// [`Scenario`], and what the plan adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanScenario {
    /// The quotes to plan with, the workload and the shared assumptions, as `nodeledger tco`
    /// reads them.
    pub scenario: Scenario,
    /// Deadline, budget, GPU use and per-quote capacity and lead time.
    pub plan: PlanRequest,
}

/// What the planner needs beyond the cost comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// The earliest moment work may start (UTC). Absent: times are counted from "start" only,
    /// and no plan gets a date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earliest_start: Option<Instant>,
    /// The deadline in hours from the earliest start. At most one of `deadline_h` and
    /// `deadline_at`; neither: no deadline.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub deadline_h: Option<Decimal>,
    /// The deadline as a moment (UTC); needs `earliest_start`, and must be after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_at: Option<Instant>,
    /// The most the whole plan may cost, in the scenario's comparison currency. Absent: no
    /// budget.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub budget: Option<Decimal>,
    /// How the workload uses GPUs (shared with the run rules): one job across them (scaling
    /// efficiency applies) or one task per GPU (throughput scales linearly). Default one job.
    #[serde(default)]
    pub gpu_use: GpuUse,
    /// The largest node count planned for any quote, 1 to [`super::MAX_NODES`]. Absent:
    /// [`super::DEFAULT_MAX_NODES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u32>,
    /// What each vendor can deliver, by quote id. A quote without an entry has neither its
    /// capacity nor its lead time stated.
    #[serde(default)]
    pub quotes: Vec<QuoteSupply>,
}

/// What one vendor can deliver, and the valid runs measured on its node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteSupply {
    /// The scenario quote's id.
    pub id: String,
    /// Nodes the vendor can provide, per the quote. Absent: not stated (planned up to the
    /// cap, and asked as a vendor question).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_nodes: Option<u32>,
    /// Hours from ordering until the nodes are ready. At most one of `lead_time_h` and
    /// `lead_time_days`; neither: not stated (planned as 0 h, and asked as a vendor question).
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub lead_time_h: Option<Decimal>,
    /// The lead time in days of 24 hours.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub lead_time_days: Option<Decimal>,
    /// The valid runs of this quote's node and workload (the caller judges them). When given,
    /// their median sets the expected throughput and the slowest the pessimistic one, in place
    /// of the quote's `measured_throughput_per_s`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunFigure>,
}

/// One valid run: its throughput `T_run` on `nodes` nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFigure {
    /// Work units per second of the whole run.
    #[serde(with = "rust_decimal::serde::str")]
    pub per_s: Decimal,
    /// Nodes the run used (at least 1).
    pub nodes: u32,
}
