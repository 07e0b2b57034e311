//! The vendor's bill: reading it, classifying each line into a cost component, matching lines to
//! the rental, and reconciling what was billed with what the order estimated. Pure: no I/O, no
//! clock.
//!
//! 1. **Reading** ([`open`]): two layouts, detected from the header ([`Layout`]):
//!    - [`Layout::Focus`], a FinOps FOCUS 1.x cost-and-usage export ([`focus`]): columns read by
//!      name (any case, any order), extra columns ignored;
//!    - [`Layout::NodeLedger`], NodeLedger's own simple bill CSV for vendors who send a PDF
//!      ([`simple`], columns in the README and the template download).
//!
//!    The reader is streamed: it yields one [`BillLine`] (or the line's errors, each naming its
//!    line and column) at a time, from any `std::io::Read`, so a 100,000-line file is never
//!    held as a copy of itself. Money and quantities are exact decimals.
//! 2. **Classification** ([`classify`]): each line into a [`Component`], rules in that module.
//!    Credits and corrections ([`ChargeKind`]) may be negative; any other negative quantity or
//!    cost is an error naming its line and column.
//! 3. **Matching** ([`matching`]): a line belongs to the rental when its resource id is one the
//!    rental holds and its charge period overlaps the rental's; other lines are kept, listed as
//!    unmatched with the reason.
//! 4. **Reconciliation** ([`reconcile`]): per component, estimated vs billed, and why.

mod cells;
pub mod classify;
pub mod focus;
pub mod matching;
mod reader;
pub use cells::{MAX_AMOUNT, MAX_DECIMALS};
pub mod reconcile;
pub mod simple;
pub mod timestamp;

pub use reader::{BillReader, open};

/// Most lines one bill may have (header not counted). A month of hourly charges of a rental
/// with ten resources is about 7,500 lines, and `.ci/bench-bills` imports 100,000; held in
/// memory, a line takes ≈ 450 bytes, so a file of tiny lines at the body limit (≈ 830,000 lines
/// in 30 MB) would take ≈ 370 MB per import where this cap keeps it under ≈ 70 MB.
pub const MAX_LINES: u64 = 150_000;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Which layout a bill file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// FinOps FOCUS 1.x cost and usage (the large clouds' export).
    Focus,
    /// NodeLedger's simple bill CSV.
    NodeLedger,
}

impl Layout {
    /// The name stored with the bill.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Layout::Focus => "focus",
            Layout::NodeLedger => "nodeledger",
        }
    }
}

/// What a bill line pays for: the estimate's cost components, as a bill can be compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Component {
    /// The node running (on demand or committed).
    Compute,
    /// Compute billed while the node is stopped but not released.
    StoppedCompute,
    /// System and data disks.
    Disk,
    /// Public IP addresses.
    Ip,
    /// Network traffic (egress, and ingress where billed).
    Traffic,
    /// Snapshot storage.
    Snapshots,
    /// Everything else: support, setup, marketplace, commitment purchases and other fees.
    Fees,
    /// Taxes (FOCUS `ChargeCategory` `Tax`): shown apart, so that the variance can be read with
    /// and without them (an estimate before tax is compared with the bill before tax).
    Tax,
}

impl Component {
    /// Every component, in the order tables and charts show them.
    pub const ALL: [Component; 8] = [
        Component::Compute,
        Component::StoppedCompute,
        Component::Disk,
        Component::Ip,
        Component::Traffic,
        Component::Snapshots,
        Component::Fees,
        Component::Tax,
    ];

    /// The stable code (stored, and the simple layout's `component` values).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Component::Compute => "compute",
            Component::StoppedCompute => "stopped_compute",
            Component::Disk => "disk",
            Component::Ip => "ip",
            Component::Traffic => "traffic",
            Component::Snapshots => "snapshots",
            Component::Fees => "fees",
            Component::Tax => "tax",
        }
    }

    /// The component of a stable code.
    #[must_use]
    pub fn parse(code: &str) -> Option<Component> {
        Component::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// Whether a line charges, or gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChargeKind {
    /// An ordinary charge: quantity and cost may not be negative.
    Usage,
    /// A credit or adjustment (FOCUS `ChargeCategory` `Credit` or `Adjustment`): may be negative.
    Credit,
    /// A correction of a charge of an earlier, already invoiced billing period (FOCUS
    /// `ChargeClass` `Correction`): may be negative. FOCUS writes it in a later bill with the
    /// `ChargePeriodStart`/`End` of the charge it corrects, so its period lies inside an earlier
    /// bill's: it is applied to that period and never counts as an overlap.
    Correction,
}

impl ChargeKind {
    /// The stable code.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ChargeKind::Usage => "usage",
            ChargeKind::Credit => "credit",
            ChargeKind::Correction => "correction",
        }
    }

    /// The kind of a stable code.
    #[must_use]
    pub fn parse(code: &str) -> Option<ChargeKind> {
        [ChargeKind::Usage, ChargeKind::Credit, ChargeKind::Correction]
            .into_iter()
            .find(|k| k.as_str() == code)
    }
}

/// One line of a bill, read and classified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillLine {
    /// The file line (header = 1).
    pub line: u64,
    /// The vendor's id of what is charged (empty when the vendor names none, e.g. a tax line).
    pub resource_id: String,
    /// Start of the charge period, Unix seconds UTC (inclusive).
    pub period_start: i64,
    /// End of the charge period, Unix seconds UTC (exclusive).
    pub period_end: i64,
    /// What the line pays for.
    pub component: Component,
    /// Charge, credit or correction.
    pub kind: ChargeKind,
    /// The vendor's description (or FOCUS `ChargeDescription`).
    pub description: String,
    /// The vendor's SKU (FOCUS `SkuId`, else `SkuPriceId`), empty when none.
    pub sku: String,
    /// How much was used, in `unit` (FOCUS `ConsumedQuantity`, else `PricingQuantity`).
    pub quantity: Decimal,
    /// The unit of `quantity` as the vendor writes it ("Hours", "GB-Mo"…).
    pub unit: String,
    /// The price per unit charged (FOCUS `ContractedUnitPrice`, else `ListUnitPrice`).
    pub unit_price: Option<Decimal>,
    /// What the line invoices, in `currency` (FOCUS `BilledCost`).
    pub cost: Decimal,
    /// What the line's usage cost once commitments and prepaid purchases are spread over it
    /// (FOCUS `EffectiveCost`: usage covered by a commitment is billed 0 but effectively costs
    /// its share; the commitment's purchase line is effectively 0). Equal to `cost` where the file
    /// has no such column.
    pub effective_cost: Decimal,
    /// ISO 4217 code of `cost` (FOCUS `BillingCurrency`).
    pub currency: String,
}

impl BillLine {
    /// A digest of what the line charges (resource, period, component, kind, quantity, unit,
    /// price, cost, currency, SKU, description — not its line number): the same charge imported
    /// twice has the same key, whatever file it came in.
    #[must_use]
    pub fn key(&self) -> String {
        use sha2::{Digest, Sha256};
        let text = format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}{}",
            self.resource_id,
            self.period_start,
            self.period_end,
            self.component.as_str(),
            self.kind.as_str(),
            self.quantity.normalize(),
            self.unit,
            self.unit_price.map(|p| p.normalize().to_string()).unwrap_or_default(),
            self.cost.normalize(),
            self.currency,
            self.sku,
            self.description,
            // Lines written before the effective cost was read keep their key: it only enters
            // when it differs from the billed cost.
            if self.effective_cost == self.cost {
                String::new()
            } else {
                format!("\u{1f}{}", self.effective_cost.normalize())
            },
        );
        hex::encode(Sha256::digest(text.as_bytes()))
    }
}

/// What is wrong with one cell or line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LineErrorCode {
    /// A required cell is empty.
    Required,
    /// Not a decimal number.
    NotANumber {
        /// The cell as written.
        value: String,
    },
    /// Not a timestamp (forms in [`timestamp`]).
    NotATime {
        /// The cell as written.
        value: String,
    },
    /// The charge period ends before it starts.
    EndBeforeStart,
    /// A negative quantity or cost on a line that is neither a credit nor a correction.
    Negative {
        /// The cell as written.
        value: String,
    },
    /// A `component` the simple layout does not know.
    UnknownComponent {
        /// The cell as written.
        value: String,
    },
    /// A `kind` the simple layout does not know.
    UnknownKind {
        /// The cell as written.
        value: String,
    },
    /// The line's currency differs from the bill's (one bill, one currency).
    OtherCurrency {
        /// The line's currency.
        value: String,
        /// The bill's currency (of its first line).
        bill: String,
    },
    /// The line has another number of cells than the header.
    FieldCount {
        /// Cells in the header.
        expected: usize,
        /// Cells in the line.
        found: usize,
    },
    /// The line cannot be read as CSV (an unclosed quote, bytes that are not UTF-8).
    Unreadable,
    /// A number larger than any bill holds, or with more decimals ([`MAX_AMOUNT`],
    /// [`MAX_DECIMALS`]).
    OutOfRange {
        /// The cell as written.
        value: String,
    },
    /// The line charges exactly what an earlier line of the file charges.
    Repeated {
        /// The earlier line.
        first_line: u64,
    },
}

/// One problem of a line, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineError {
    /// The file line (header = 1).
    pub line: u64,
    /// The column as spelled in the file; empty when the problem is the whole line.
    pub column: String,
    /// What is wrong.
    pub code: LineErrorCode,
}

/// Why the whole file was refused before any line was read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum FileError {
    /// The file has no header.
    #[error("empty_file")]
    Empty,
    /// The header matches neither layout: the required columns each one misses.
    #[error("unknown_layout")]
    UnknownLayout {
        /// The FOCUS columns missing.
        focus_missing: Vec<&'static str>,
        /// The simple layout's columns missing.
        simple_missing: Vec<&'static str>,
    },
    /// The header is of `layout` but lacks required columns.
    #[error("missing_columns")]
    MissingColumns {
        /// The layout the header is closest to.
        layout: Layout,
        /// Their documented names.
        columns: Vec<&'static str>,
    },
    /// A column appears twice.
    #[error("duplicate_column")]
    DuplicateColumn {
        /// Its name.
        column: String,
    },
    /// The header cannot be read (not UTF-8, not CSV).
    #[error("unreadable_header")]
    Unreadable,
}
