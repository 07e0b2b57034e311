//! What the order page shows of the vendor's bills: the reconciliation, the chart,
//! the bills imported, the unmatched lines; and the import preview. Every text is in the
//! reader's language, every amount formatted; exact figures are in the export.

use serde::{Deserialize, Serialize};

/// One component of the reconciliation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconRow {
    /// Stable code (`compute`, `disk`…).
    pub component: String,
    /// Its name.
    pub name: String,
    /// Estimated, formatted.
    pub estimated: String,
    /// Billed, formatted.
    pub billed: String,
    /// Billed − estimated, formatted with its sign.
    pub difference: String,
    /// Why, one sentence each, with its effect (quantities to two decimals).
    pub reasons: Vec<String>,
    /// The same sentences with every digit of their quantities (each reason's `title`).
    #[serde(default)]
    pub reasons_exact: Vec<String>,
}

/// The order's reconciliation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconView {
    /// The estimate's currency (every amount is in it).
    pub currency: String,
    /// "1 USD = 7.20 CNY on 2026-11-20" when the bill was converted.
    pub rate_note: Option<String>,
    /// One row per component estimated or billed.
    pub rows: Vec<ReconRow>,
    /// Totals.
    pub estimated: String,
    /// Totals.
    pub billed: String,
    /// Totals.
    pub difference: String,
    /// "+8.2 %", or empty when nothing was estimated.
    pub variance: String,
    /// The variance is above the team's threshold.
    pub flagged: bool,
    /// The sentence saying so, or that it is within it.
    pub verdict: String,
    /// The chart, estimate vs billed by component: an SVG as a `data:` URL for an `<img>` (the
    /// page's CSP allows `data:` images, and the preview's chart exists nowhere else).
    pub chart_src: String,
    /// The chart's text alternative.
    pub chart_alt: String,
}

/// One bill line, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    /// File line.
    pub line: u64,
    /// The vendor's resource id.
    pub resource_id: String,
    /// "2026-12-01 08:00 – 2026-12-02 08:00 UTC".
    pub period: String,
    /// Component name.
    pub component: String,
    /// "credit", "correction" or empty for a charge.
    pub kind: String,
    /// The vendor's description.
    pub description: String,
    /// Cost, formatted in the bill's currency.
    pub cost: String,
    /// Why it is not the rental's; empty when matched.
    pub unmatched: String,
}

/// One bill imported onto the order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillSummary {
    /// The bill.
    pub id: i64,
    /// "orders-dec.csv · FOCUS · 2026-12-01 – 2026-12-03".
    pub title: String,
    /// "120 lines, 118 matched · 4,500.00 USD · imported by … on …".
    pub detail: String,
    /// "Matched to the rental ¥966.67 + not matched ¥4.20 = bill total ¥970.87"; empty when a
    /// sum is out of range.
    pub tie: String,
}

/// One problem of a bill file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillProblem {
    /// Line (header = 1).
    pub line: u64,
    /// Column as spelled in the file; empty for the whole line.
    pub column: String,
    /// What is wrong.
    pub message: String,
}

/// The bill section of the order page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillSection {
    /// The order.
    pub order_id: i64,
    /// Why no bill can be imported yet (no rental, no frozen estimate); `None` when one can.
    pub blocked: Option<String>,
    /// The caller may import bills.
    pub can_import: bool,
    /// The caller may set the team's threshold (a manager).
    pub can_set_threshold: bool,
    /// The team's threshold, percent.
    pub threshold_pct: String,
    /// The reconciliation over every bill imported; `None` before the first.
    pub reconciliation: Option<ReconView>,
    /// The bills imported, oldest first.
    pub bills: Vec<BillSummary>,
    /// The first unmatched lines.
    pub unmatched: Vec<LineView>,
    /// How many unmatched lines there are in all.
    pub unmatched_count: i64,
}

/// What checking (or importing) a bill found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillPreview {
    /// Why the whole file was refused, naming line and column where there is one.
    pub file_error: Option<String>,
    /// "FOCUS bill, 120 lines: 118 matched to the rental, 2 unmatched; 0 errors."
    pub summary: String,
    /// Line errors (at most 500 listed).
    pub problems: Vec<BillProblem>,
    /// The first lines: credits and corrections, then the lines not matched, then the matched
    /// charges (each group in file order).
    pub lines: Vec<LineView>,
    /// Lines beyond those listed.
    pub more_lines: usize,
    /// The lines beyond those listed, in the same order (folded on the page); fewer than
    /// `more_lines` only for a bill too long to send whole.
    #[serde(default)]
    pub other_lines: Vec<LineView>,
    /// Lines matched to the rental.
    pub matched: usize,
    /// Lines not matched.
    pub unmatched: usize,
    /// "Matched ¥966.67 + not matched ¥4.20 = bill total ¥970.87" (empty when it cannot be
    /// summed).
    #[serde(default)]
    pub tie: String,
    /// The order's reconciliation with this bill added.
    pub reconciliation: Option<ReconView>,
    /// The bill can be saved (no error, not refused).
    pub ready: bool,
    /// The bill saved.
    pub saved: Option<i64>,
}
