//! The planner's output: every plan with its facts, the Pareto front, the recommendation and
//! why the others lost. Plain data, no text: pages render it in both languages.

use crate::rentals::Instant;
use crate::runs::GpuUse;
use crate::tco::{Currency, Pricing, QuoteGroup};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Which plan: a quote, a node count and a pricing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanKey {
    /// The quote's id.
    pub quote_id: String,
    /// Nodes rented.
    pub nodes: u32,
    /// On demand or the monthly commitment.
    pub pricing: Pricing,
}

/// One way to do the work: a quote, a node count and a pricing, with its cost and finish.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The quote's id.
    pub quote_id: String,
    /// The quote's label.
    pub label: String,
    /// Measured, stated or estimated throughput (rule 6 of the cost model).
    pub group: QuoteGroup,
    /// Nodes rented.
    pub nodes: u32,
    /// On demand or the monthly commitment (forced, not the cheaper of the two).
    pub pricing: Pricing,
    /// The total in the quote's currency (the cost engine's, to the cent).
    pub total: Decimal,
    /// The quote's currency.
    pub currency: Currency,
    /// The total in the comparison currency.
    pub compared_total: Decimal,
    /// The date of the exchange rate used, when converted.
    pub rate_date: Option<String>,
    /// Scaling efficiency on these nodes (1 for one node or one task per GPU).
    pub efficiency: Decimal,
    /// Lead time planned, hours (0 when not stated).
    pub lead_time_h: Decimal,
    /// Busy hours per node: overheads + compute × (1 + re-run share), from the cost engine.
    pub busy_h: Decimal,
    /// Seconds from the earliest start until the results are out: ⌈(lead + busy) × 3600⌉.
    pub finish_s: u64,
    /// The same as a moment, when the earliest start is given.
    pub finish_at: Option<Instant>,
    /// The pessimistic finish: the slowest valid run, or the low what-if.
    pub pessimistic_finish_s: u64,
    /// The same as a moment, when the earliest start is given.
    pub pessimistic_finish_at: Option<Instant>,
    /// The expected finish is after the deadline.
    pub late: bool,
    /// The pessimistic finish is after the deadline.
    pub at_risk: bool,
    /// The compared total is over the budget.
    pub over_budget: bool,
    /// No other plan is both no dearer and no later, one of them strictly.
    pub on_front: bool,
    /// Why this plan is not the recommendation; empty for the recommended plan.
    pub reasons: Vec<LossReason>,
    /// What the plan rests on that the vendor has not stated or the runs have not measured:
    /// such a plan is marked, and recommended only when no plan on stated facts meets the goal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rests_on: Vec<Unstated>,
}

/// A fact a plan rests on that nobody stated or measured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Unstated {
    /// The vendor has not said how many nodes it can provide.
    Capacity,
    /// The vendor has not said how soon the nodes are ready (planned as ready at once).
    LeadTime,
    /// More nodes than any valid run ran on, where the runs measured the scaling efficiency of
    /// one job across GPUs: the efficiency there is estimated beyond what was measured.
    BeyondMeasured {
        /// The most nodes a valid run ran on.
        measured_nodes: u32,
    },
}

impl Plan {
    /// The plan's key.
    #[must_use]
    pub fn key(&self) -> PlanKey {
        PlanKey {
            quote_id: self.quote_id.clone(),
            nodes: self.nodes,
            pricing: self.pricing,
        }
    }
}

/// Why a plan lost, as facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LossReason {
    /// The expected finish is after the deadline.
    Late {
        /// Seconds after the deadline.
        by_s: u64,
    },
    /// The compared total is over the budget.
    OverBudget {
        /// How much over, in the comparison currency.
        by: Decimal,
    },
    /// The pessimistic finish is after the deadline, and a plan that is not at risk was chosen.
    AtRisk {
        /// Seconds the pessimistic finish is after the deadline.
        by_s: u64,
    },
    /// Late on every node the vendor can provide: more nodes would need more capacity.
    CapacityReached {
        /// Nodes the vendor can provide.
        capacity: u32,
    },
    /// Another plan is no dearer and no later, one of them strictly.
    Dominated {
        /// The plan that is at least as good on both.
        by: PlanKey,
    },
    /// In time and within budget, but resting on what was not stated or measured, where a plan
    /// on stated facts meets the goal.
    RestsOnUnstated {
        /// What it rests on.
        what: Vec<Unstated>,
    },
    /// In time and within budget, but dearer than the recommendation (by 0: an exact tie,
    /// broken by finish, then label, id, nodes and pricing).
    Costlier {
        /// How much dearer, in the comparison currency.
        by: Decimal,
    },
}

pub use crate::tco::EfficiencySource;

/// What the pessimistic finish is computed from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pessimism {
    /// The slowest valid run (by one-node throughput).
    SlowestRun {
        /// Its throughput, units per second of the whole run.
        per_s: Decimal,
        /// Nodes it ran on.
        nodes: u32,
    },
    /// A stated throughput lowered by the what-if sensitivity (× (1 − share)).
    SlowerThroughput {
        /// The share, e.g. 0.2.
        share: Decimal,
    },
    /// A stated run length × the what-if's high multiplier.
    LongerRun {
        /// The multiplier, e.g. 1.3.
        multiplier: Decimal,
    },
}

/// Something to ask the vendor: the plan had to assume it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VendorQuestion {
    /// How many nodes can you provide? (Planned up to the cap.)
    CapacityNotStated,
    /// How long until the nodes are ready? (Planned as 0 h.)
    LeadTimeNotStated,
}

/// How one quote was planned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotePlanning {
    /// The quote's id.
    pub id: String,
    /// The quote's label.
    pub label: String,
    /// Nodes the vendor can provide, when stated.
    pub capacity_nodes: Option<u32>,
    /// The stated lead time in hours (days × 24), when stated.
    pub lead_time_h: Option<Decimal>,
    /// The fewest nodes planned: enough for the GPUs one job needs.
    pub min_nodes: u32,
    /// The most nodes planned: min(capacity, cap); below `min_nodes` when none fits.
    pub max_nodes: u32,
    /// The scaling efficiency used for more than one node.
    pub efficiency: Decimal,
    /// Where it comes from.
    pub efficiency_source: EfficiencySource,
    /// What the pessimistic finish is computed from.
    pub pessimism: Pessimism,
    /// Plans under the monthly commitment were priced: the sheet offers one and some node
    /// count fits (else only on demand, or nothing).
    pub monthly_offered: bool,
    /// The vendor cannot provide the nodes one job needs (`min_nodes` > capacity or cap).
    pub too_few_nodes: bool,
    /// What to ask the vendor.
    pub questions: Vec<VendorQuestion>,
}

/// The recommendation as facts: the plan, and why the cheaper ones lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The plan: cheapest in time and within budget, not at risk when such a plan exists.
    pub plan: Plan,
    /// The cheapest plan of all when it is not the recommended one, with its reasons.
    pub cheapest: Option<Plan>,
    /// The same quote and pricing with one node fewer, with its reasons ("3 nodes would finish
    /// after the deadline"), when the plan has more than the fewest nodes.
    pub fewer_nodes: Option<Plan>,
}

/// Why nothing is recommended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoPlan {
    /// No quote can provide the nodes one job needs.
    NoQuotePlanned,
    /// Every plan finishes after the deadline.
    NoneInTime,
    /// Every plan is over budget.
    NoneWithinBudget,
    /// Some plans are in time and some within budget, but none both.
    NoneInTimeAndBudget,
}

/// The planner's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanResult {
    /// The scenario's title.
    pub title: Option<String>,
    /// The currency of every compared total and of the budget.
    pub compare_currency: Currency,
    /// The earliest start, when given.
    pub earliest_start: Option<Instant>,
    /// The deadline in whole seconds from the earliest start, when there is one.
    pub deadline_s: Option<u64>,
    /// The deadline as a moment, when the earliest start is given.
    pub deadline_at: Option<Instant>,
    /// The budget, when there is one.
    pub budget: Option<Decimal>,
    /// How the workload uses GPUs.
    pub gpu_use: GpuUse,
    /// The node-count cap used.
    pub max_nodes: u32,
    /// How each quote was planned, in the scenario's order.
    pub quotes: Vec<QuotePlanning>,
    /// The recommendation, if any plan is in time and within budget.
    pub recommended: Option<Recommendation>,
    /// Why nothing is recommended.
    pub no_plan: Option<NoPlan>,
    /// The cheapest plan that finishes in time (budget ignored); with no deadline, the
    /// cheapest plan.
    pub cheapest_in_time: Option<PlanKey>,
    /// The soonest plan within budget (deadline ignored); with no budget, the soonest plan.
    pub fastest_within_budget: Option<PlanKey>,
    /// The Pareto front: no plan is both cheaper and sooner; soonest first.
    pub front: Vec<Plan>,
    /// Every other plan, cheapest first.
    pub others: Vec<Plan>,
    /// With more than [`super::MAX_WEIGHED`] quotes: how many were weighed in full, of how many
    /// (`null` when all were).
    #[serde(default)]
    pub weighed: Option<Weighed>,
}

/// How many quotes were weighed in full, of how many offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weighed {
    /// Weighed in full: the cheapest by one estimate each.
    pub weighed: u32,
    /// Offered to the planner.
    pub of: u32,
}
