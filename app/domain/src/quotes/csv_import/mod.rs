//! CSV import: our own format ([`CsvFormat::NodeLedger`], see the module docs of `quotes`) and
//! SkyPilot catalog `vms.csv` files ([`CsvFormat::SkyPilot`]).
//!
//! The whole file is checked for size, UTF-8 and delimiter first ([`ImportError`]); then every
//! row is read, validated with [`super::validate`] and reported with its line (1-based, the
//! header is line 1) and column. Work is linear in the file size.

mod cells;
pub(super) mod choices;
mod columns;
pub(super) mod gpu_info;
mod header;
mod native;
mod reader;
mod skypilot;

pub use cells::{is_free_word, parse_duration_hours, parse_hours};
pub use columns::{COLUMNS, Column};
pub use gpu_info::{GpuInfo, GpuInfoEntry, GpuInfoError, parse_gpu_info};

use super::date::Date;
use super::draft::QuoteDraft;
use super::error::ErrorCode;
use crate::tco::{BillingIncrement, Currency};
use reader::RowFormat as _;
use serde::Serialize;
use std::collections::HashMap;

/// The default size limit: 50 MiB.
pub const DEFAULT_MAX_BYTES: usize = 50 * 1024 * 1024;

/// Most rows one file may turn into quotes (skipped rows — blank, CPU-only — not counted). Each
/// row is a quote: one vendor's catalog of GPU offers is a few thousand. A row read takes
/// ≈ 2.2 KB (its draft, the draft as read, its errors), so a 12 MB file of minimal rows
/// (≈ 700,000) would take ≈ 1.5 GB where this cap keeps it near 110 MB.
pub const MAX_ROWS: usize = 50_000;

/// Which CSV layout a file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CsvFormat {
    /// NodeLedger's own format: one row per quote, headers are dotted field paths.
    NodeLedger,
    /// A SkyPilot catalog `vms.csv` (AWS, GCP, Lambda, Vast … layouts).
    SkyPilot,
}

impl CsvFormat {
    /// Every layout, in the order the import form lists them.
    pub const ALL: &'static [Self] = &[Self::NodeLedger, Self::SkyPilot];

    /// The name the import form and `nodeledger quotes import --format` use.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NodeLedger => "csv",
            Self::SkyPilot => "skypilot",
        }
    }

    /// The layout named `name` ([`CsvFormat::as_str`]); `None` for anything else (detect).
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

/// What a SkyPilot catalog does not say, supplied by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportDefaults {
    /// The vendor every imported quote is from (`--vendor`).
    pub vendor: String,
    /// The currency of the catalog's prices.
    pub currency: Currency,
    /// Today: becomes `received_on`.
    pub today: Date,
    /// The date a catalog's prices are valid until, as the person importing it was told:
    /// catalogs carry no expiry, and none is made up. `None` leaves the preview
    /// [`ImportPreview::valid_until_missing`] (the rows then show `today` as a placeholder).
    pub valid_until: Option<Date>,
    /// The billing step to record (catalogs do not say; per hour is the cautious choice).
    pub billing_increment: BillingIncrement,
    /// Whether a stopped instance bills compute (catalogs do not say; `true` is cautious).
    pub stopped_bills_compute: bool,
    /// Files larger than this many bytes are refused.
    pub max_bytes: usize,
}

impl ImportDefaults {
    /// USD, hourly billing, stopped instances billed, 50 MiB limit.
    pub fn new(vendor: &str, today: Date, valid_until: Option<Date>) -> Self {
        ImportDefaults {
            vendor: vendor.to_owned(),
            currency: Currency::USD,
            today,
            valid_until,
            billing_increment: BillingIncrement::HOUR,
            stopped_bills_compute: true,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// A problem with the whole file; nothing is imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ImportError {
    /// The file has no content.
    #[error("empty_file")]
    Empty,
    /// The file is larger than `limit_bytes`.
    #[error("too_large")]
    TooLarge {
        /// The limit that was exceeded, bytes.
        limit_bytes: usize,
    },
    /// The file is not UTF-8 (e.g. saved as GBK); `byte_offset` is the first bad byte.
    #[error("bad_utf8")]
    BadUtf8 {
        /// Offset of the first invalid byte.
        byte_offset: usize,
    },
    /// The header is separated by `found` (`;` or a tab) instead of commas.
    #[error("wrong_delimiter")]
    WrongDelimiter {
        /// The delimiter the header uses.
        found: char,
    },
    /// Required columns are absent.
    #[error("missing_columns")]
    MissingColumns {
        /// Their names.
        columns: Vec<&'static str>,
    },
    /// A column name appears twice in the header.
    #[error("duplicate_column")]
    DuplicateColumn {
        /// The repeated name.
        column: String,
    },
    /// The header matches no known format.
    #[error("unknown_format")]
    UnknownFormat,
    /// More than `limit` rows ([`MAX_ROWS`]); reading stopped there.
    #[error("too_many_rows")]
    TooManyRows {
        /// The most rows a file may have.
        limit: usize,
    },
}

/// A problem with one row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RowError {
    /// The file line the row starts on (header = 1).
    pub line: u64,
    /// The column, as spelled in the file, when the problem is in one cell.
    pub column: Option<String>,
    /// The draft field (dotted path) at fault, when known.
    pub field: Option<&'static str>,
    /// What is wrong.
    #[serde(flatten)]
    pub code: ErrorCode,
}

/// Why a row was skipped (not an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// A CPU-only instance: no accelerator.
    NoAccelerator,
    /// The catalog states no on-demand price for the instance (blank `Price`): it is not
    /// offered on demand there, which is not the same as free.
    NotOfferedOnDemand,
    /// Every cell is empty.
    Blank,
}

/// One data row: the draft read from it (if its cells could be read) and its problems.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImportRow {
    /// The file line the row starts on.
    pub line: u64,
    /// The draft; `None` when a cell could not be read.
    pub draft: Option<QuoteDraft>,
    /// Every problem found (cell and validation errors).
    pub errors: Vec<RowError>,
    /// For a row whose cells could not all be read: the draft as far as it was read, with
    /// placeholders in the cells of [`ImportRow::bad_cells`]. Shown in a preview, never saved.
    pub as_read: Option<QuoteDraft>,
    /// The cells that could not be read: the column as spelled in the file and its text.
    pub bad_cells: Vec<(String, String)>,
}

/// The result of reading a file, to show before anything is saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImportPreview {
    /// The format read.
    pub format: CsvFormat,
    /// The data rows, in file order.
    pub rows: Vec<ImportRow>,
    /// Rows skipped, with the reason.
    pub skipped: Vec<(u64, SkipReason)>,
    /// Header columns the format does not use (shown so that a typo is noticed).
    pub ignored_columns: Vec<String>,
    /// A SkyPilot catalog read without [`ImportDefaults::valid_until`]: its prices have no
    /// validity date yet, so nothing may be saved (every row's `valid_until` is a placeholder).
    pub valid_until_missing: bool,
}

impl ImportPreview {
    /// True when every row produced a draft without any error and the validity date is known.
    pub fn is_clean(&self) -> bool {
        !self.valid_until_missing && self.rows.iter().all(|r| r.draft.is_some() && r.errors.is_empty())
    }

    /// The drafts of the rows without errors.
    pub fn valid_drafts(&self) -> impl Iterator<Item = &QuoteDraft> {
        self.rows
            .iter()
            .filter(|r| r.errors.is_empty())
            .filter_map(|r| r.draft.as_ref())
    }
}

/// Recognises the format from the header line (after the file-level checks except size).
pub fn detect_format(bytes: &[u8]) -> Result<CsvFormat, ImportError> {
    let text = reader::decode(bytes, usize::MAX)?;
    let header = header::Header::read(text)?;
    header.format()
}

/// Reads one quote given as named cells (a form's fields, an API call's) with the parser and
/// checks of a NodeLedger CSV row, without writing CSV text: the draft and every problem.
pub(crate) fn read_input(names: Vec<String>, values: Vec<&str>) -> Result<ImportRow, ImportError> {
    let header = header::Header::from_names(names);
    let mut format = native::Native;
    let missing = format.missing(&header);
    if !missing.is_empty() {
        return Err(ImportError::MissingColumns { columns: missing });
    }
    let record = csv::StringRecord::from(values);
    // The native format skips no row; a skip would mean nothing was given.
    reader::read_row(1, &record, &header, &mut format, &mut HashMap::new()).map_err(|_| ImportError::Empty)
}

/// Reads a whole file. `format: None` detects it from the header.
pub fn import(
    bytes: &[u8],
    format: Option<CsvFormat>,
    defaults: &ImportDefaults,
) -> Result<ImportPreview, ImportError> {
    let text = reader::decode(bytes, defaults.max_bytes)?;
    let header = header::Header::read(text)?;
    let format = match format {
        Some(f) => f,
        None => header.format()?,
    };
    match format {
        CsvFormat::NodeLedger => reader::run(text, header, &mut native::Native),
        CsvFormat::SkyPilot => {
            let mut preview = reader::run(text, header, &mut skypilot::SkyPilot::new(defaults))?;
            preview.valid_until_missing = defaults.valid_until.is_none();
            Ok(preview)
        }
    }
}
