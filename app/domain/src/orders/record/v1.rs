//! Version 1 of the order record, frozen as it was written: the cost rows are the cost page's
//! rows of the time, formatted in the submitter's language. Read only, never written again; do
//! not change these shapes (a record of this version must keep reading as it was signed).

use super::{Acknowledgement, Frozen, OrderRecord, SignedRows};
use crate::checklist::ItemAnswer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A version 1 record, key for key.
#[derive(Deserialize)]
pub(super) struct RecordV1 {
    workload_id: i64,
    quote_id: Option<i64>,
    quote_revision_id: Option<i64>,
    considered: Vec<i64>,
    runs: Vec<i64>,
    waiver: String,
    answers: BTreeMap<String, ItemAnswer>,
    tco: Option<Vec<SignedCostRowV1>>,
    #[serde(default)]
    comparison: Option<String>,
    #[serde(default)]
    frozen: Option<Frozen>,
    #[serde(default)]
    problems_acknowledged: Option<Acknowledgement>,
}

impl From<RecordV1> for OrderRecord {
    fn from(r: RecordV1) -> Self {
        OrderRecord {
            workload_id: r.workload_id,
            quote_id: r.quote_id,
            quote_revision_id: r.quote_revision_id,
            considered: r.considered,
            runs: r.runs,
            waiver: r.waiver,
            answers: r.answers,
            tco: r.tco.map(SignedRows::V1),
            comparison: r.comparison,
            frozen: r.frozen,
            problems_acknowledged: r.problems_acknowledged,
            plan: None,
        }
    }
}

/// One cost component line of a version 1 row, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedComponentLineV1 {
    /// Stable code, e.g. `on_demand_compute` or `other_fee`.
    pub code: String,
    /// Name in the submitter's language.
    pub name: String,
    /// Unit in the submitter's language.
    pub unit: String,
    /// Quantity, formatted.
    pub quantity: String,
    /// Unit price, formatted.
    pub price: String,
    /// Cost, formatted.
    pub cost: String,
    /// Cost, exact decimal string in the quote's currency.
    pub cost_exact: String,
}

/// One quote's row of a version 1 record, as the submitter's page showed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedCostRowV1 {
    /// 1 for the cheapest.
    pub rank: u32,
    /// Quote id.
    pub quote_id: i64,
    /// Revision number used.
    pub revision: i64,
    /// Label.
    pub label: String,
    /// The quote's currency.
    pub currency: String,
    /// Total in the quote's currency, formatted.
    pub total: String,
    /// Total in the quote's currency, exact.
    pub total_exact: String,
    /// Total in the team's base currency, formatted.
    pub compared_total: String,
    /// Total in the base currency, exact.
    pub compared_exact: String,
    /// The rate note, when converted.
    pub rate_note: Option<String>,
    /// Cost per unit of work in the base currency, formatted.
    pub cost_per_unit: Option<String>,
    /// The same in the quote's currency.
    #[serde(default)]
    pub cost_per_unit_title: Option<String>,
    /// The header of the cost-per-unit column.
    #[serde(default)]
    pub unit_cost_column: Option<String>,
    /// Effective price per GPU-hour in the base currency, formatted.
    pub gpu_hour: Option<String>,
    /// The same in the quote's currency.
    #[serde(default)]
    pub gpu_hour_title: Option<String>,
    /// Hours until the work is done, formatted.
    pub time_to_finish: String,
    /// Busy, billable and rental hours per node, and nodes.
    pub hours_note: String,
    /// Nodes rented.
    pub nodes: u32,
    /// "Of which idle", formatted.
    pub idle: String,
    /// On-demand vs monthly commitment, in one line.
    pub pricing_note: Option<String>,
    /// Cost components.
    pub components: Vec<SignedComponentLineV1>,
    /// What-if totals, formatted.
    pub what_if: Vec<(String, String)>,
    /// Warnings, in the submitter's language.
    pub warnings: Vec<String>,
    /// The first run the throughput comes from.
    pub run_id: Option<i64>,
    /// Every valid run the throughput comes from.
    #[serde(default)]
    pub run_ids: Vec<i64>,
    /// The throughput used, formatted.
    pub throughput: Option<String>,
    /// Above the workload's budget.
    pub over_budget: bool,
    /// In the "estimated, not measured" group.
    #[serde(default)]
    pub estimated: bool,
    /// In the "stated, not measured" group (absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stated: bool,
    /// What to measure to move the quote into the measured group.
    #[serde(default)]
    pub to_measure: Option<String>,
}
