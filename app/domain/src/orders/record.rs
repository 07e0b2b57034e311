//! What an order revision records — the content a manager signs (pure: no I/O, no clock).
//!
//! The record is stored as canonical JSON ([`crate::audit::canonical_json`]); at
//! approval the SHA-256 of that stored text is pinned in the approval event, and verification
//! hashes the stored text again. So a record, once written, is never rewritten: it must read
//! back, in every later version of the app, as what the manager saw. That is why it holds only
//! plain values of its own format (ids, exact decimals, currency codes, labels as data), never a
//! page's row type: how a page formats a cost may change, the record may not.
//!
//! # Versions
//! | version | how to tell | cost rows (`tco`) |
//! |---|---|---|
//! | 1 | no `version` key | [`SignedCostRowV1`]: the cost page's rows as shown, formatted in the submitter's language, exact totals as decimal strings |
//! | 2 | `"version":2` | [`SignedCostRow`]: plain values; the page's row is built from them for the reader |
//! | 3 | `"version":3` | as version 2, and `plan` ([`SignedPlan`]): the rental plan the order was chosen from, with the deadline and budget it was planned against (`null` when none) |
//! | 4 | `"version":4` | as version 3; a component may carry `bands` ([`SignedBand`]): a tiered traffic line's free allowance and tiers, each GB × price = cost; the price sheet v3 codes `early_release_refund` (component) and its `frozen` scenario's optional fields (packages, increments, stopped billing, tiers, `efficiency_by_nodes`) |
//! | 5 | `"version":5` | as version 4; a row's `throughput` may carry `at_target` ([`SignedAtTarget`]): the workload's response-time target it was read at, and what one million input, output and all tokens cost there |
//!
//! Every other key is the same in all: `workload_id`, `quote_id`, `quote_revision_id`,
//! `considered`, `runs`, `waiver`, `answers`, `comparison`, `frozen` (the scenario and its result:
//! reruns with `nodeledger tco` to the same cent), and `problems_acknowledged` (absent when
//! none). [`decode`] reads every version ever written; [`OrderRecord::canonical`] writes the
//! newest. A change of this format is a new version: add it to the table and to [`decode`], and
//! keep the old shape frozen beside it (as `v1.rs` keeps version 1).
//!
//! Codes in version 2: a component's `code` is `on_demand_compute`, `monthly_commitment`,
//! `stopped_compute`, `disk`, `public_ip`, `traffic`, `snapshots` or `other_fee` (its name in
//! `fee`); its `unit` is `node_hour`, `node_month`, `gb_month`, `gb`, `ip_hour` or `item`; a
//! warning's `code` and a what-if's `case` are listed on [`SignedWarning`] and [`SignedWhatIf`].

#[cfg(test)]
mod tests;
mod v1;

pub use v1::{SignedComponentLineV1, SignedCostRowV1};

use crate::{
    audit::{CanonicalError, canonical_json},
    checklist::ItemAnswer,
    tco::{self, Currency, RankedQuote, Scenario, ScenarioResult},
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version [`OrderRecord::canonical`] writes.
pub const VERSION: u32 = 5;

/// Version 4: as 5, without a throughput's `at_target`.
const VERSION_4: u32 = 4;

/// Version 3: as 4, without traffic bands.
const VERSION_3: u32 = 3;

/// Version 2: as 3, without `plan`.
const VERSION_2: u32 = 2;

/// The whole record of one order revision (see the module documentation for its format).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderRecord {
    /// The workload the order rents for (fixed when the order is created).
    pub workload_id: i64,
    /// The quote procurement chose to rent (read it with [`OrderRecord::chosen_quote`]).
    pub quote_id: Option<i64>,
    /// The revision row of that quote pinned when it was chosen: later edits of the quote do
    /// not change what the order cites.
    pub quote_revision_id: Option<i64>,
    /// The alternatives weighed, the chosen quote among them; the default comparison costs these.
    pub considered: Vec<i64>,
    /// Benchmark runs attached to back the choice.
    pub runs: Vec<i64>,
    /// Why the order may go ahead without a valid run of the chosen quote (empty: no waiver).
    pub waiver: String,
    /// The checklist answers, keyed by item id.
    pub answers: BTreeMap<String, ItemAnswer>,
    /// The cost comparison frozen at submission, in the format of the version it was written in.
    pub tco: Option<SignedRows>,
    /// The comparison procurement chose for this order: the cost page's query (workload,
    /// picked quotes, shared assumptions, per-quote overrides `{field}_{quote}`, typed
    /// throughputs `tp_{quote}`). `None`: the quotes considered under the default assumptions.
    pub comparison: Option<String>,
    /// What the rows were computed from, frozen at submission: reruns with `nodeledger tco` to
    /// the same cent.
    pub frozen: Option<Frozen>,
    /// The problems found that procurement acknowledged when submitting (absent when none were
    /// open): part of what the manager signs.
    pub problems_acknowledged: Option<Acknowledgement>,
    /// The rental plan the order was chosen from on the plan page (`None`: chosen otherwise).
    pub plan: Option<SignedPlan>,
}

/// The rental plan an order was chosen from: the plan's facts as the planner gave them
/// ([`crate::plan::Plan`]) and what it was planned against. Plain values: times are
/// whole seconds (moments as Unix seconds, UTC), amounts exact decimals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedPlan {
    /// The quote planned.
    pub quote_id: i64,
    /// Nodes rented.
    pub nodes: u32,
    /// On demand or the monthly commitment.
    pub pricing: tco::Pricing,
    /// The plan's total in the compare currency.
    pub compared_total: Decimal,
    /// The compare currency (the team's base currency).
    pub compare_currency: Currency,
    /// When the plan starts (the workload's earliest start, or when it was planned).
    pub earliest_start: i64,
    /// Seconds from the start until the results are out (lead time + busy hours).
    pub finish_s: u64,
    /// The same with the slowest valid run (or the low what-if).
    pub pessimistic_finish_s: u64,
    /// The deadline planned against, seconds from the start (`None`: no deadline).
    pub deadline_s: Option<u64>,
    /// The same as a moment, Unix seconds.
    pub deadline_at: Option<i64>,
    /// The budget planned against, in the compare currency (`None`: no budget).
    pub budget: Option<Decimal>,
    /// The pessimistic finish is after the deadline.
    pub at_risk: bool,
    /// The planner recommended this plan (else procurement picked another plan on the front).
    pub recommended: bool,
}

/// The frozen cost rows, as the version they were written in holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignedRows {
    /// Version 1: the rows as the submitter's page showed them (read, never written again).
    V1(Vec<SignedCostRowV1>),
    /// Version 2: plain values.
    V2(Vec<SignedCostRow>),
}

/// The quote an order chose, at the revision it pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChosenQuote {
    /// The quote.
    pub quote_id: i64,
    /// The quote revision row pinned when it was chosen (`None`: the quote is gone).
    pub revision_id: Option<i64>,
}

/// Procurement's acknowledgement, at submission, of the problems found on the checklist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acknowledgement {
    /// User id of who acknowledged them (the submitter).
    pub by: i64,
    /// When, as events store it (UTC, seconds).
    pub at: String,
    /// Each problem as it was acknowledged, in checklist order.
    pub problems: Vec<AcknowledgedProblem>,
}

/// One problem found, as acknowledged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcknowledgedProblem {
    /// The checklist item.
    pub item_id: String,
    /// The explanation given with it.
    pub note: String,
}

/// One quote revision as it was costed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedQuote {
    /// The quote costed.
    pub quote_id: i64,
    /// The revision number it was costed at.
    pub revision: i64,
}

/// The comparison behind an order's frozen rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frozen {
    /// The comparison's query (see [`OrderRecord::comparison`]).
    pub query: String,
    /// The quote revisions costed.
    pub quotes: Vec<PinnedQuote>,
    /// The scenario file (`nodeledger tco FILE` reads it): workload, shared assumptions,
    /// every quote with its price sheet, node, throughput and overrides, the rates with
    /// their dates.
    pub scenario: Scenario,
    /// What the scenario gives; every total equals the frozen rows'.
    pub result: ScenarioResult,
}

/// One quote's result in the frozen comparison, as plain values (version 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedCostRow {
    /// 1 for the cheapest (measured first, then stated, then estimated).
    pub rank: u32,
    /// The quote.
    pub quote_id: i64,
    /// The revision number costed.
    pub revision: i64,
    /// The quote's label when costed (vendor · reference · GPUs).
    pub label: String,
    /// The quote's currency.
    pub currency: Currency,
    /// Total in the quote's currency.
    pub total: Decimal,
    /// The currency totals are compared in (the team's base currency).
    pub compare_currency: Currency,
    /// Total in that currency.
    pub compared_total: Decimal,
    /// The rate the total was converted with (absent when not converted).
    pub rate: Option<SignedRate>,
    /// The cost of units of work (absent when the workload states no unit of work).
    pub unit_cost: Option<SignedUnitCost>,
    /// Effective price of one GPU-hour of compute in the compare currency.
    pub gpu_hour: Option<Decimal>,
    /// The same in the quote's currency.
    pub gpu_hour_own: Option<Decimal>,
    /// Hours until the work is done.
    pub time_to_finish_h: Decimal,
    /// Busy hours per node.
    pub busy_h: Decimal,
    /// Billable hours per node.
    pub billable_h: Decimal,
    /// Rental hours per node.
    pub rental_h: Decimal,
    /// Nodes rented.
    pub nodes: u32,
    /// Of the total, what idle time costs, in the quote's currency.
    pub idle: Decimal,
    /// On demand against a monthly commitment, when the sheet offers one.
    pub pricing: Option<SignedPricing>,
    /// The cost components, in the quote's currency.
    pub components: Vec<SignedComponent>,
    /// Totals under other assumptions, in the quote's currency.
    pub what_if: Vec<SignedWhatIf>,
    /// Everything the buyer was told, in order.
    pub warnings: Vec<SignedWarning>,
    /// Every valid run the throughput comes from (empty: typed, or none).
    pub run_ids: Vec<i64>,
    /// The throughput used, when one was.
    pub throughput: Option<SignedThroughput>,
    /// Above the workload's budget (compared in the compare currency).
    pub over_budget: bool,
    /// In the "estimated, not measured" group: no throughput measures this quote.
    pub estimated: bool,
    /// In the "stated, not measured" group: costed with a throughput typed by hand.
    pub stated: bool,
    /// What to measure to move the quote into the measured group.
    pub to_measure: Option<ToMeasure>,
}

/// An exchange rate as used: 1 `from` = `rate` `to`, as of `date`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedRate {
    /// The currency converted.
    pub from: Currency,
    /// The currency converted into.
    pub to: Currency,
    /// How many `to` one `from` is.
    pub rate: Decimal,
    /// The rate's date, as entered (YYYY-MM-DD).
    pub date: String,
}

/// The cost of `scale` units of work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedUnitCost {
    /// How many units (one scale for the whole comparison).
    pub scale: u32,
    /// The unit of work, as the workload names it (e.g. `tokens`).
    pub unit: String,
    /// In the compare currency.
    pub compared: Option<Decimal>,
    /// In the quote's currency.
    pub own: Option<Decimal>,
}

/// Compute priced on demand against a monthly commitment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedPricing {
    /// The monthly commitment is in the total (else on demand is).
    pub monthly_used: bool,
    /// Compute under the monthly commitment.
    pub monthly: Decimal,
    /// Compute on demand.
    pub on_demand: Decimal,
    /// Hours from which the commitment is cheaper (`None`: never within its term).
    pub break_even_h: Option<Decimal>,
}

/// One cost component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedComponent {
    /// What is paid for (codes in the module documentation).
    pub code: String,
    /// The fee's name as the quote states it, for `other_fee`.
    pub fee: Option<String>,
    /// The unit of `quantity` (codes in the module documentation).
    pub unit: String,
    /// How many units are billed.
    pub quantity: Decimal,
    /// Price per unit (`None` when the line mixes prices).
    pub unit_price: Option<Decimal>,
    /// The cost.
    pub cost: Decimal,
    /// The traffic line's bands, each quantity × price (version 4; absent for every other
    /// line, a flat traffic price and records written before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<SignedBand>,
}

/// One band of a tiered traffic line: its GB × its price per GB = its cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedBand {
    /// `egress` (out of the vendor's network) or `ingress`.
    pub direction: String,
    /// The free allowance (price 0).
    pub free: bool,
    /// GB billed before the band, in the whole rental.
    pub from_gb: Decimal,
    /// Where the band ends; `None` for the open band.
    pub up_to_gb: Option<Decimal>,
    /// GB billed in the band.
    pub quantity_gb: Decimal,
    /// Price per GB.
    pub price_gb: Decimal,
    /// quantity × price, rounded to the minor unit.
    pub cost: Decimal,
}

/// A total under other assumptions, in the quote's currency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "case", rename_all = "snake_case", deny_unknown_fields)]
pub enum SignedWhatIf {
    /// The low profile.
    Low {
        /// Total.
        total: Decimal,
    },
    /// The expected profile.
    Expected {
        /// Total.
        total: Decimal,
    },
    /// The high profile.
    High {
        /// Total.
        total: Decimal,
    },
    /// Throughput `pct` % lower.
    Slower {
        /// Percent.
        pct: u32,
        /// Total.
        total: Decimal,
    },
    /// Throughput `pct` % higher.
    Faster {
        /// Percent.
        pct: u32,
        /// Total.
        total: Decimal,
    },
    /// At the slowest valid run's throughput.
    SlowestRun {
        /// The run.
        run_id: i64,
        /// Total.
        total: Decimal,
    },
}

/// Something the buyer was told about a quote's cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case", deny_unknown_fields)]
pub enum SignedWarning {
    /// The quote's validity had ended.
    Expired,
    /// The node fails a requirement of the workload (`requirement`: e.g. `vram`, `gpu_count`).
    Requirement {
        /// The requirement's code.
        requirement: String,
    },
    /// No measured throughput: compute time is the workload's stated run length.
    ThroughputAssumed,
    /// A measured throughput was used; the stated run length was ignored.
    RunLengthIgnored {
        /// The run length ignored.
        hours: Decimal,
    },
    /// Fewer nodes than the workload's GPUs need.
    NodesBelowRequirement {
        /// Nodes needed.
        needed: u32,
        /// Nodes chosen.
        chosen: u32,
    },
    /// The minimum billable duration was billed.
    MinimumBillable {
        /// The minimum, hours per node.
        hours: Decimal,
    },
    /// A price the vendor did not state, costed at 0 (`disk`, `snapshot`, `egress`, `ingress`,
    /// `stopped_compute`).
    PriceNotStated {
        /// The price's code.
        price: String,
    },
    /// A run on part of the node was scaled per GPU to the node.
    RunScaledPerGpu {
        /// The run.
        run_id: i64,
        /// GPUs it used.
        used: u32,
        /// GPUs of the node.
        node: u32,
    },
    /// A run of this node left out of the throughput.
    RunNotUsed {
        /// The run.
        run_id: i64,
        /// It was invalid (else: it had warnings or was not judged).
        invalid: bool,
    },
    /// Above the budget, in the compare currency.
    OverBudget {
        /// The budget.
        budget: Decimal,
    },
    /// Hours of the monthly commitment left unused.
    UnusedCommitment {
        /// Hours.
        hours: Decimal,
    },
}

/// The throughput a quote was costed with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedThroughput {
    /// One node, units per second.
    pub one_node_per_s: Decimal,
    /// On the nodes planned, units per second.
    pub planned_per_s: Decimal,
    /// The unit of work.
    pub unit: String,
    /// Nodes the measured (or typed) throughput ran on.
    pub n_run: u32,
    /// Read at the workload's response-time target off runs at several concurrencies, not the
    /// median of the valid runs (version 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_target: Option<SignedAtTarget>,
}

/// A throughput read at the workload's response-time target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedAtTarget {
    /// The target.
    pub target: crate::runs::ResponseTarget,
    /// What one million tokens of each kind cost at the target, in the compared currency, when
    /// the runs say their input and output tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_million: Option<crate::runs::TokenCosts>,
}

/// What would move a quote into the measured group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToMeasure {
    /// A run measuring the throughput the vendor stated.
    Stated,
    /// A run of the workload on this node.
    Run,
    /// First the workload's total work, then a run.
    WorkSize,
}

/// Why stored text is not a record.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON, or not the shape of its version.
    #[error("order record does not read: {0}")]
    Shape(#[from] serde_json::Error),
    /// A version no release wrote.
    #[error("order record has unknown version {0}")]
    UnknownVersion(serde_json::Value),
}

/// Why a record cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// Version 1 rows are read, never written again: a record that holds them is one already
    /// written (and hashed) as it was.
    #[error("version 1 cost rows are never written again")]
    OldRows,
    /// Not canonical JSON (cannot happen: the record holds no floating-point number).
    #[error("order record is not canonical: {0}")]
    Canonical(#[from] CanonicalError),
    /// Not serialisable (cannot happen).
    #[error("order record does not serialise: {0}")]
    Json(#[from] serde_json::Error),
}

/// Reads a stored record of any version.
///
/// # Errors
/// [`DecodeError`] when the text is not a record of a known version.
pub fn decode(text: &str) -> Result<OrderRecord, DecodeError> {
    let value: serde_json::Value = serde_json::from_str(text)?;
    match value.get("version") {
        None => Ok(serde_json::from_value::<v1::RecordV1>(value)?.into()),
        Some(v) if v.as_u64() == Some(u64::from(VERSION_2)) => Ok(serde_json::from_value::<RecordV2>(value)?.into()),
        // Versions 3 to 5 share a shape: version 4 adds the optional `bands` of a component,
        // version 5 the optional `at_target` of a throughput.
        Some(v)
            if [VERSION_3, VERSION_4, VERSION]
                .iter()
                .any(|n| v.as_u64() == Some(u64::from(*n))) =>
        {
            Ok(serde_json::from_value::<RecordV3>(value)?.into())
        }
        Some(v) => Err(DecodeError::UnknownVersion(v.clone())),
    }
}

impl OrderRecord {
    /// The canonical JSON text of the record, as the newest version: what is stored and hashed.
    ///
    /// # Errors
    /// [`EncodeError::OldRows`] when the record holds version 1 rows (they are never written
    /// again; clear them to start a new revision).
    pub fn canonical(&self) -> Result<String, EncodeError> {
        let tco = match &self.tco {
            None => None,
            Some(SignedRows::V2(rows)) => Some(rows.clone()),
            Some(SignedRows::V1(_)) => return Err(EncodeError::OldRows),
        };
        let wire = RecordV3 {
            version: VERSION,
            workload_id: self.workload_id,
            quote_id: self.quote_id,
            quote_revision_id: self.quote_revision_id,
            considered: self.considered.clone(),
            runs: self.runs.clone(),
            waiver: self.waiver.clone(),
            answers: self.answers.clone(),
            tco,
            comparison: self.comparison.clone(),
            frozen: self.frozen.clone(),
            problems_acknowledged: self.problems_acknowledged.clone(),
            plan: self.plan.clone(),
        };
        Ok(canonical_json(&serde_json::to_value(wire)?)?)
    }

    /// The quote the order chose and the revision it pinned (`None`: none chosen yet). Rentals,
    /// bills and the order page read the choice through this.
    #[must_use]
    pub fn chosen_quote(&self) -> Option<ChosenQuote> {
        self.quote_id.map(|quote_id| ChosenQuote {
            quote_id,
            revision_id: self.quote_revision_id,
        })
    }

    /// The chosen quote as the frozen comparison costed it: its result and its scenario entry
    /// (`None`: nothing frozen, or the chosen quote is not in it).
    #[must_use]
    pub fn chosen_costing(&self) -> Option<(&RankedQuote, &tco::Quote)> {
        let frozen = self.frozen.as_ref()?;
        let id = self.chosen_quote()?.quote_id.to_string();
        let ranked = frozen.result.quotes.iter().find(|q| q.id == id)?;
        let quote = frozen.scenario.quotes.iter().find(|q| q.id == id)?;
        Some((ranked, quote))
    }
}

/// Version 2 as written (read, never written again): every key always present but
/// `problems_acknowledged`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordV2 {
    version: u32,
    workload_id: i64,
    quote_id: Option<i64>,
    quote_revision_id: Option<i64>,
    considered: Vec<i64>,
    runs: Vec<i64>,
    waiver: String,
    answers: BTreeMap<String, ItemAnswer>,
    tco: Option<Vec<SignedCostRow>>,
    comparison: Option<String>,
    frozen: Option<Frozen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    problems_acknowledged: Option<Acknowledgement>,
}

impl From<RecordV2> for OrderRecord {
    fn from(r: RecordV2) -> Self {
        OrderRecord {
            workload_id: r.workload_id,
            quote_id: r.quote_id,
            quote_revision_id: r.quote_revision_id,
            considered: r.considered,
            runs: r.runs,
            waiver: r.waiver,
            answers: r.answers,
            tco: r.tco.map(SignedRows::V2),
            comparison: r.comparison,
            frozen: r.frozen,
            problems_acknowledged: r.problems_acknowledged,
            plan: None,
        }
    }
}

/// Version 3 as written: every key always present but `problems_acknowledged`, so a record's
/// text is the one canonical form of its values.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordV3 {
    version: u32,
    workload_id: i64,
    quote_id: Option<i64>,
    quote_revision_id: Option<i64>,
    considered: Vec<i64>,
    runs: Vec<i64>,
    waiver: String,
    answers: BTreeMap<String, ItemAnswer>,
    tco: Option<Vec<SignedCostRow>>,
    comparison: Option<String>,
    frozen: Option<Frozen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    problems_acknowledged: Option<Acknowledgement>,
    plan: Option<SignedPlan>,
}

impl From<RecordV3> for OrderRecord {
    fn from(r: RecordV3) -> Self {
        OrderRecord {
            workload_id: r.workload_id,
            quote_id: r.quote_id,
            quote_revision_id: r.quote_revision_id,
            considered: r.considered,
            runs: r.runs,
            waiver: r.waiver,
            answers: r.answers,
            tco: r.tco.map(SignedRows::V2),
            comparison: r.comparison,
            frozen: r.frozen,
            problems_acknowledged: r.problems_acknowledged,
            plan: r.plan,
        }
    }
}
