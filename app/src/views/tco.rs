//! The cost comparison as pages, charts and exports receive it: already ranked, formatted in the
//! reader's language, with the exact figures kept as decimal strings for exports.

use serde::{Deserialize, Serialize};

/// The assumption fields of the comparison form, in order (each can be set for all quotes, or
/// for one quote as `{field}_{quote id}`).
pub const ASSUMPTION_FIELDS: [&str; 13] = [
    "setup_h",
    "data_prep_h",
    "download_h",
    "export_h",
    "idle_h",
    "stopped_h",
    "rerun_pct",
    "egress_gb",
    "ingress_gb",
    "snapshot_gb",
    "snapshot_months",
    "nodes",
    "efficiency_pct",
];

/// One field of the assumptions form: its name, the value used (or typed), and a problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssumptionField {
    /// Query/form name, e.g. `setup_h`.
    pub name: String,
    /// The value shown in the form.
    pub value: String,
    /// What is wrong with it, in the reader's language.
    pub error: Option<String>,
}

/// A quote that can be put into the comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteChoice {
    /// Quote id.
    pub id: i64,
    /// Vendor · reference · GPUs.
    pub label: String,
    /// In the comparison.
    pub selected: bool,
    /// Validity ended.
    pub expired: bool,
    /// Fails a requirement of the workload (VRAM with headroom, GPUs, exclusivity…).
    pub fails_requirements: bool,
}

/// One cost component line (like Infracost's cost components).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentLine {
    /// Stable code, e.g. `on_demand_compute` or `other_fee`.
    pub code: String,
    /// Name in the reader's language.
    pub name: String,
    /// Unit in the reader's language.
    pub unit: String,
    /// Quantity, exact.
    pub quantity: String,
    /// Unit price, formatted.
    pub price: String,
    /// Cost, formatted.
    pub cost: String,
    /// Cost, exact decimal string in the quote's currency.
    pub cost_exact: String,
    /// A tiered traffic line's bands, each quantity × price = cost (empty otherwise).
    #[serde(default)]
    pub bands: Vec<BandLine>,
}

/// One band of a tiered traffic line, as the breakdown shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandLine {
    /// "Outbound, 1,000–10,000 GB", in the reader's language.
    pub name: String,
    /// GB billed in the band.
    pub quantity: String,
    /// Price per GB, every digit (the band's sentence must add up).
    pub price: String,
    /// Cost.
    pub cost: String,
}

/// One quote's result in the comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostRow {
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
    /// "1 USD = 7.21 CNY on 2026-11-20" when converted.
    pub rate_note: Option<String>,
    /// Cost of [`CostRow::unit_cost_column`]'s units of work in the base currency, formatted
    /// ("¥2.57"): every row of a comparison is at the same scale
    /// ([`crate::domain::tco::unit_scale`]).
    pub cost_per_unit: Option<String>,
    /// The same in the quote's currency, when that is not the base (a tooltip).
    #[serde(default)]
    pub cost_per_unit_title: Option<String>,
    /// The header of the cost-per-unit column, naming its one scale ("Cost per 1,000,000
    /// tokens"); the same on every row of a comparison.
    #[serde(default)]
    pub unit_cost_column: Option<String>,
    /// Effective price per GPU-hour of compute in the base currency, formatted.
    pub gpu_hour: Option<String>,
    /// The same in the quote's currency, when that is not the base (a tooltip).
    #[serde(default)]
    pub gpu_hour_title: Option<String>,
    /// Hours until the work is done, formatted.
    pub time_to_finish: String,
    /// Busy, billable and rental hours per node, and nodes (one line).
    pub hours_note: String,
    /// Nodes rented.
    pub nodes: u32,
    /// "Of which idle", formatted.
    pub idle: String,
    /// The same in the team's base currency at the total's rate; empty when the quote is in the
    /// base currency or the row was signed before it was kept.
    #[serde(default)]
    pub compared_idle: String,
    /// On-demand vs monthly commitment, with the break-even point, in one line.
    pub pricing_note: Option<String>,
    /// Cost components.
    pub components: Vec<ComponentLine>,
    /// Low / expected / high and −/+ throughput totals, formatted, in that order (missing ones
    /// are absent).
    pub what_if: Vec<(String, String)>,
    /// Everything the buyer should know, in the reader's language.
    pub warnings: Vec<String>,
    /// The first run the throughput comes from.
    pub run_id: Option<i64>,
    /// Every valid run the throughput comes from (the median run, or the two middle ones).
    #[serde(default)]
    pub run_ids: Vec<i64>,
    /// The throughput used (one node and planned), formatted with its unit and source.
    pub throughput: Option<String>,
    /// Above the workload's budget (compared in the base currency).
    pub over_budget: bool,
    /// In the "estimated, not measured" group: no throughput measures this quote.
    #[serde(default)]
    pub estimated: bool,
    /// In the "stated, not measured" group: costed with a throughput typed by hand (a vendor's
    /// figure), which no run measured. Left out of a stored row when false, so rows frozen
    /// before the group existed read and hash as they were written.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stated: bool,
    /// What to measure to move the quote into the measured group.
    #[serde(default)]
    pub to_measure: Option<String>,
    /// With a response-time target: the throughput read at the target off the node's runs at
    /// several concurrencies, and between which runs (or that none meets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_note: Option<String>,
    /// With a response-time target and work counted in tokens: what one million input, output
    /// and all tokens cost at the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_costs: Option<String>,
}

/// A quote that could not be costed, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostProblem {
    /// Quote label.
    pub label: String,
    /// What to fix, in the reader's language.
    pub message: String,
}

/// The whole comparison page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostComparison {
    /// The team's workloads: id and name.
    pub workloads: Vec<(i64, String)>,
    /// The workload compared for.
    pub workload_id: Option<i64>,
    /// Its name.
    pub workload_name: String,
    /// Quotes to choose from.
    pub quotes: Vec<QuoteChoice>,
    /// The assumptions as used (defaults filled in) or as typed (with errors).
    pub assumptions: Vec<AssumptionField>,
    /// The team's base currency.
    pub base_currency: String,
    /// The workload's budget in its own currency, formatted.
    pub budget: Option<String>,
    /// The budget, exact.
    pub budget_exact: Option<String>,
    /// The workload's response-time target ("p95 TPOT ≤ 22 ms"), when it states one: the page
    /// then shows each quote's curve against it.
    #[serde(default)]
    pub response_target: Option<String>,
    /// The budget converted into the base currency (with the rate), or why it cannot be.
    #[serde(default)]
    pub budget_note: Option<String>,
    /// The budget is in another currency and no rate converts it: it is not compared.
    #[serde(default)]
    pub budget_unconverted: bool,
    /// Ranked results: measured cheapest first, then estimated cheapest first.
    pub rows: Vec<CostRow>,
    /// Quotes that could not be costed.
    pub problems: Vec<CostProblem>,
    /// The query that reproduces this comparison (for charts and exports).
    pub query: String,
    /// Whether the caller may set the budget.
    pub can_set_budget: bool,
    /// Ranked rows left out: those a comparison does not keep (it keeps the cheapest thousand,
    /// which the exports list), and on a page also those past [`SHOWN_ROWS`]
    /// ([`CostComparison::page_view`]).
    #[serde(default)]
    pub rows_not_shown: usize,
    /// Quotes the picker leaves out: those the comparison let go, and on a page also those past
    /// [`SHOWN_CHOICES`] ([`CostComparison::page_view`]).
    #[serde(default)]
    pub choices_not_shown: usize,
    /// Ranked rows the exports list (the rows the comparison kept), on a page's view.
    #[serde(default)]
    pub rows_in_exports: usize,
}

/// Ranked rows a page shows: a catalogue of thousands of quotes is compared whole (the ranking
/// and the exports need every one), but nobody reads past the cheapest hundred on a page.
pub const SHOWN_ROWS: usize = 100;

/// Quotes the picker lists at most: the ones shown in the ranking, then the others.
pub const SHOWN_CHOICES: usize = 300;

impl CostComparison {
    /// What a page shows of this comparison: the first [`SHOWN_ROWS`] ranked rows (cheapest
    /// first) and at most [`SHOWN_CHOICES`] quotes to pick from (those ranked on the page, then
    /// the ones not compared, in the picker's order), with how many of each were left out.
    /// When rows were cut, a quote compared but ranked below the page is left out of the picker
    /// too: ticking the quotes shown and comparing again compares those.
    #[must_use]
    pub fn page_view(&self) -> CostComparison {
        let rows: Vec<CostRow> = self.rows.iter().take(SHOWN_ROWS).cloned().collect();
        let ranked: std::collections::HashSet<i64> = rows.iter().map(|r| r.quote_id).collect();
        let (on_page, others): (Vec<&QuoteChoice>, Vec<&QuoteChoice>) =
            self.quotes.iter().partition(|q| ranked.contains(&q.id));
        // Rows cut from the page: a quote picked but not shown is not listed as ticked (it would
        // be compared again without the reader seeing it). Nothing cut: every pick stays ticked,
        // also one that could not be costed.
        let cut = self.rows_not_shown > 0 || self.rows.len() > SHOWN_ROWS;
        let quotes: Vec<QuoteChoice> = on_page
            .into_iter()
            .chain(others.into_iter().filter(|q| !q.selected || !cut))
            .take(SHOWN_CHOICES)
            .cloned()
            .collect();
        CostComparison {
            workloads: self.workloads.clone(),
            workload_id: self.workload_id,
            workload_name: self.workload_name.clone(),
            choices_not_shown: self.choices_not_shown + self.quotes.len() - quotes.len(),
            quotes,
            assumptions: self.assumptions.clone(),
            base_currency: self.base_currency.clone(),
            budget: self.budget.clone(),
            budget_exact: self.budget_exact.clone(),
            response_target: self.response_target.clone(),
            budget_note: self.budget_note.clone(),
            budget_unconverted: self.budget_unconverted,
            rows_not_shown: self.rows_not_shown + self.rows.len() - rows.len(),
            rows_in_exports: self.rows.len(),
            rows,
            problems: self.problems.iter().take(SHOWN_ROWS).cloned().collect(),
            query: self.query.clone(),
            can_set_budget: self.can_set_budget,
        }
    }
}
