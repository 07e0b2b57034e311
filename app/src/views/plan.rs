//! The rental plan of a workload as its page receives it: the recommendation in one sentence,
//! the plans on the front and why the others lost, formatted in the reader's language, with the
//! exact figures beside them (what a script or a test compares with `nodeledger plan`).

use serde::{Deserialize, Serialize};

/// The plan page of one comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanView {
    /// The team's workloads: id and name.
    pub workloads: Vec<(i64, String)>,
    /// The workload planned for.
    pub workload_id: Option<i64>,
    /// Its name.
    pub workload_name: String,
    /// The comparison's query (the chart, the cost page and the order action use it).
    pub query: String,
    /// What the plan is measured against: start, deadline, budget, GPU use, in words.
    pub basis: Vec<String>,
    /// The recommendation in one sentence, when a plan is in time and within budget.
    pub sentence: Option<String>,
    /// The recommended plan is at risk: every plan in time would be late at the slowest run.
    pub recommended_at_risk: bool,
    /// Why nothing is recommended, or why nothing could be planned.
    pub no_plan: Option<String>,
    /// The plans on the front (no plan both cheaper and sooner), soonest first.
    pub front: Vec<PlanRow>,
    /// For each quote, its best plan that is not on the front, with why it lost (cheapest
    /// first).
    pub others: Vec<PlanRow>,
    /// How many plans were weighed in all.
    pub plans_weighed: usize,
    /// What to ask the vendors: the quote's label and the question.
    pub questions: Vec<(String, String)>,
}

/// One plan as a row of the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanRow {
    /// The quote.
    pub quote_id: i64,
    /// Its label.
    pub label: String,
    /// Nodes rented.
    pub nodes: u32,
    /// `on_demand` or `monthly`.
    pub pricing: String,
    /// The pricing in words.
    pub pricing_text: String,
    /// Measured, stated or estimated, in words.
    pub group_text: String,
    /// The total in the comparison currency, formatted.
    pub total: String,
    /// The same, exact.
    pub total_exact: String,
    /// Seconds from the start until the results are out.
    pub finish_s: u64,
    /// The finish in words: hours and, with a start, the moment.
    pub finish: String,
    /// Seconds until the results are out at the slowest run.
    pub pessimistic_finish_s: u64,
    /// The same in words.
    pub pessimistic_finish: String,
    /// The planner's recommendation.
    pub recommended: bool,
    /// Late at the slowest run.
    pub at_risk: bool,
    /// Late.
    pub late: bool,
    /// Over budget.
    pub over_budget: bool,
    /// Rests on something not known: no run measured the quote, or a price it leaves unstated.
    #[serde(default)]
    pub unknowns: bool,
    /// Why it lost, in words (empty for the recommendation).
    pub reasons: String,
}
