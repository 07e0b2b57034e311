//! The rental planner: which vendor, how many nodes, hourly or monthly, so that the work is
//! done by the deadline within budget — and how sure we are.
//!
//! Pure logic — no I/O, no clock, no floating point: times are whole seconds from the earliest
//! start (and, when a start instant is given as data, [`Instant`]s), amounts are exact
//! decimals from the cost engine ([`crate::tco`]), which this module only calls.
//! Source: seed 002 (“72 h on one card or 24 h on four: the same work, a different bill and a
//! different finish date”; do not order on one ideal test).
//!
//! # The rules
//!
//! * **Input.** A [`PlanScenario`]: a TCO [`Scenario`](crate::tco::Scenario) as
//!   `nodeledger tco` reads it, and a [`PlanRequest`]: earliest start, deadline (hours from the
//!   start, or a moment), budget in the comparison currency, GPU use, a node cap, and per quote
//!   the vendor's capacity (nodes), lead time (hours or days) and the valid runs. The caller
//!   passes only the quotes that pass the requirement check (current, enough memory …).
//! * **Plans.** For every quote, every node count n from `n_min` = ⌈GPUs needed ÷ GPUs per
//!   node⌉ (at least 1) to `n_max` = min(capacity, cap), and every pricing the sheet offers
//!   (on demand; monthly commitment when it has a monthly price), one estimate of the cost
//!   engine with the node count set to n and the pricing forced
//!   ([`estimate_priced`](crate::tco::estimate_priced)). The cap is `max_nodes`
//!   ([`DEFAULT_MAX_NODES`] = 16 when absent, at most [`MAX_NODES`] = 64): more nodes than that
//!   are not a plan procurement would place from one quote. A stated `nodes` assumption is
//!   replaced by n.
//! * **Many quotes.** With more than [`MAX_WEIGHED`] = 200 quotes, only the 200 cheapest are
//!   weighed in full, by one estimate each: on the fewest nodes one job needs, the cheaper of on
//!   demand and the monthly commitment, ties by id, quotes that cannot give those nodes last.
//!   The result says how many of how many ([`Weighed`]); a catalogue of 20,000 rows is planned
//!   in well under a second instead of 960,000 estimates.
//! * **Not stated stays not stated.** Without a stated capacity a quote is planned up to the
//!   cap and gets [`VendorQuestion::CapacityNotStated`]; without a lead time it is planned with
//!   0 h and gets [`VendorQuestion::LeadTimeNotStated`].
//! * **Throughput (the cost model's rules 2 and 5).** With valid runs, the median run sets the
//!   expected throughput and the slowest the pessimistic one; without, the quote's (or the
//!   shared) measured throughput. Across nodes: **one task per GPU** ([`GpuUse::TaskPerGpu`])
//!   scales linearly (efficiency 1 — the runs are already per node, as the run rules count a
//!   run on fewer cards); **one job across GPUs** ([`GpuUse::OneJob`]) uses the efficiency
//!   measured by the runs when there are runs on one node and on several: each multi-node run's
//!   `T_run ÷ (n_run × T1)` against the median one-node T1, their median, at most 1; else the
//!   stated assumption. An estimated quote (no throughput, a stated run length `h`) counts as
//!   `h × 3600` seconds of work at one unit per second on `n_min` nodes: exactly `h` there,
//!   and scaled by the same rule on other counts.
//! * **Finish.** `finish_s` = ⌈(lead time + busy hours) × 3600⌉, the hours turned to seconds
//!   rounded half-up to milliseconds first (rule 1), then up to a whole second. Busy hours are
//!   the engine's: setup + data preparation + download + export + idle + compute × (1 +
//!   re-run share); stopped hours come after the results and do not delay them. The
//!   **pessimistic** finish is the same with the slowest valid run (a measured figure without
//!   its runs is its own slowest run); for a stated throughput, the throughput × (1 − 0.2),
//!   the what-if's sensitivity; for an estimated quote, the run length × 1.3, the what-if's
//!   high profile. It is never before the expected finish.
//! * **Feasibility.** The deadline in whole seconds: `deadline_h` × 3600 rounded down, or
//!   `deadline_at` − `earliest_start`. A plan is *late* when `finish_s` > deadline, *at risk*
//!   when its pessimistic finish is, *over budget* when its compared total is over the budget.
//!   No deadline: nothing is late or at risk; no budget: nothing is over.
//! * **Front.** A dominates B when A's compared total ≤ B's and A's finish ≤ B's, one of
//!   them strictly. The front — plans nobody dominates — is listed soonest first; every other
//!   plan cheapest first. Ties: cost, finish, label, id, nodes, on demand before monthly.
//! * **Unknowns are not advantages.** A plan rests on what was not stated when its vendor
//!   states no capacity or no lead time, or (one job across GPUs, measured) when it has more
//!   nodes than any valid run ran on — its efficiency is estimated beyond what was measured
//!   ([`Unstated`]). Such plans are marked, and are candidates only when no plan on stated facts
//!   is: a vendor who states less never wins by it.
//! * **Choice.** Candidates are in time and within budget, those on stated facts first.
//!   **Recommended** = the cheapest candidate that is not at risk; only when every candidate is
//!   at risk, the cheapest candidate (and it is marked at risk). A safe plan is worth more than a cheaper one that
//!   the slowest run would make late — the seed's warning. Also reported: the cheapest plan in
//!   time (budget ignored) and the soonest within budget (deadline ignored). A recommended
//!   plan is never late.
//! * **Reasons.** Every other plan says why it lost ([`LossReason`]): late (by seconds), over
//!   budget (by how much), at risk (when a safe plan was chosen), capacity reached (late on
//!   every node the vendor can provide), dominated (by which plan), or costlier (in time and
//!   within budget, but dearer). The recommendation carries the cheapest plan of all and the
//!   same plan with one node fewer, each with its reasons: the facts behind “1 node would
//!   finish after the deadline”. No text here: pages render the facts in both languages.
//!
//! # Worked example (the buying guide's: 72 h on one card or 24 h on four)
//!
//! 2,592,000 tokens. Quote *a*: a one-GPU node at 10.00/h measured at 10 tokens/s; quote
//! *big*: a four-GPU node at 35.00/h measured at 30 tokens/s; each vendor has one node.
//!
//! | plan      | busy h | finish s | total  | 48 h deadline (172,800 s)   |
//! |-----------|--------|----------|--------|-----------------------------|
//! | a × 1     | 72     | 259,200  | 720.00 | late by 86,400 s; capacity 1|
//! | big × 1   | 24     |  86,400  | 840.00 | in time: **recommended**    |
//!
//! With the 48-hour deadline the planner picks big × 1 (four cards): done in 24 h for 840.00;
//! the cheaper a × 1 would finish 24 h after the deadline and its vendor has no second node.
//! Without a deadline it picks a × 1 for 720.00, and big × 1 is on the front as the sooner,
//! dearer plan ([`LossReason::Costlier`] by 120.00).
//!
//! # Entry point and speed
//!
//! [`plan`] (or [`plan_for`] with the scenario and the request apart) returns a
//! [`PlanResult`]. Goal: 200 quotes × 1–16 nodes × 2 pricings in under
//! 200 ms in release (`.ci/bench-plan`).

mod basis;
mod choose;
mod front;
mod input;
mod planner;
mod result;

#[cfg(test)]
mod tests;

pub use front::dominates;
pub use input::{PlanRequest, PlanScenario, QuoteSupply, RunFigure};
pub use planner::{plan, plan_for};
pub use result::{
    EfficiencySource, LossReason, NoPlan, Pessimism, Plan, PlanKey, PlanResult, QuotePlanning, Recommendation,
    Unstated, VendorQuestion, Weighed,
};

#[cfg(doc)]
use crate::{rentals::Instant, runs::GpuUse};

/// The node-count cap when the plan does not set `max_nodes`.
pub const DEFAULT_MAX_NODES: u32 = 16;

/// Most quotes weighed in full (every node count and pricing): beyond it, the cheapest by one
/// estimate each on the fewest nodes one job needs, and the result says how many of how many.
/// A catalogue import of 20,000 rows would otherwise mean 20,000 × 16 × 3 estimates.
pub const MAX_WEIGHED: usize = 200;

/// The largest `max_nodes` accepted.
pub const MAX_NODES: u32 = 64;

/// The JSON Schema (draft 2020-12) of a [`PlanScenario`] file, the input of
/// `nodeledger plan PLAN.json`. Its `scenario` is `scenario.schema.json` of the cost model
/// ([`crate::tco::SCENARIO_SCHEMA_JSON`]), referenced by its relative name.
pub const PLAN_SCHEMA_JSON: &str = include_str!("plan.schema.json");

/// The JSON Schema (draft 2020-12) of a [`PlanResult`] as serialised by serde (the output of
/// `nodeledger plan`).
pub const PLAN_RESULT_SCHEMA_JSON: &str = include_str!("plan-result.schema.json");
