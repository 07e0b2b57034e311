//! Importing quotes from a CSV file: the one use case behind the import page and
//! `nodeledger quotes import`.
//!
//! 1. [`check`] reads the file with the domain's parsers ([`quotes::import`]: NodeLedger's own
//!    format or a SkyPilot catalog) and refuses a SkyPilot catalog without a vendor, since the
//!    catalog names none. Nothing is written.
//! 2. The [`CheckedFile`] reports every problem by line ([`CheckedFile::problems`]) and counts
//!    the rows ready and the rows in error.
//! 3. Only a file without a row in error yields [`ReadyRows`] ([`CheckedFile::ready_to_save`]),
//!    and only those are saved ([`save`]): in one `BEGIN IMMEDIATE` transaction, vendors matched
//!    by name (created when new) — all or nothing, so a refused row leaves nothing half-written.
//!
//! A SkyPilot catalog carries no validity date: the caller gives one ([`ImportSettings::valid_until`])
//! and none is made up; until then [`CheckedFile::validity`] is [`CatalogValidity::Missing`] and
//! nothing can be saved. [`preview`] lists the rows the file would create, problems in their cells.
//!
//! The callers keep their own wording of the outcome: the page answers in the reader's language,
//! the command line in English on standard error.

use crate::{
    domain::{
        quotes::{
            self, CsvFormat, Date, ErrorCode, ImportDefaults, ImportError, ImportPreview, QuoteDraft, SkipReason,
        },
        tco::Currency,
    },
    i18n::Locale,
    store::{self, quotes::SaveImportError},
    texts::quotes as text,
};

pub mod preview;
pub use preview::{KeyField, PREVIEW_ROWS, PreviewCell, PreviewRow, RowStatus};

/// What the caller chose for reading a file, and what a SkyPilot catalog does not say itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportSettings {
    /// The file's layout; `None` detects it from the header line.
    pub format: Option<CsvFormat>,
    /// The vendor of every quote in a SkyPilot catalog; `None` when the caller named none.
    pub vendor: Option<String>,
    /// The currency a SkyPilot catalog's prices are in.
    pub currency: Currency,
    /// The last day a SkyPilot catalog's prices hold (the catalog does not say); `None` until
    /// the person importing gives it.
    pub valid_until: Option<Date>,
    /// Files larger than this many bytes are refused.
    pub max_bytes: usize,
}

/// Why the whole file was refused before any row was judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The file cannot be read as a quote file (empty, too large, not UTF-8, wrong header…).
    File(ImportError),
    /// A SkyPilot catalog, and no vendor was given for its quotes.
    VendorRequired,
}

/// What is wrong with one row, or why it was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The row is in error: the file cannot be imported until it is fixed.
    Invalid(ErrorCode),
    /// The row was left out on purpose (blank, or a CPU-only instance); not an error.
    Skipped(SkipReason),
}

/// One problem of the file, where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowProblem {
    /// The file line the row starts on (header = 1).
    pub line: u64,
    /// The column as spelled in the file, when the problem is in one cell.
    pub column: Option<String>,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl RowProblem {
    /// True when the problem blocks the import (a skipped row does not).
    #[must_use]
    pub const fn is_error(&self) -> bool {
        matches!(self.kind, ProblemKind::Invalid(_))
    }

    /// The problem as a sentence in `locale` (without line or column).
    #[must_use]
    pub fn message(&self, locale: Locale) -> String {
        match &self.kind {
            ProblemKind::Invalid(code) => text::field_error(locale, code),
            ProblemKind::Skipped(reason) => text::skip_reason(locale, *reason),
        }
    }
}

/// Where the quotes' validity date comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogValidity {
    /// Each row of the file states its own `valid_until` (NodeLedger's format).
    InFile,
    /// A catalog without expiry, and no date was given: it cannot be saved yet.
    Missing,
    /// The date given is before today: prices already expired cannot be imported.
    BeforeToday(Date),
    /// The date given for every quote of the catalog.
    Given(Date),
}

/// A file read and judged row by row; nothing is saved yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedFile {
    preview: ImportPreview,
    validity: CatalogValidity,
}

impl CheckedFile {
    /// The layout the file was read as.
    #[must_use]
    pub const fn format(&self) -> CsvFormat {
        self.preview.format
    }

    /// Where the quotes' validity date comes from; only `InFile` and `Given` can be saved.
    #[must_use]
    pub const fn validity(&self) -> CatalogValidity {
        self.validity
    }

    /// Data rows read (skipped rows not counted).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.preview.rows.len()
    }

    /// Rows without any error, each with its quote.
    #[must_use]
    pub fn ready(&self) -> usize {
        self.ready_rows().len()
    }

    /// Rows with at least one error (a row whose cells could not be read always has one).
    #[must_use]
    pub fn bad_rows(&self) -> usize {
        self.preview
            .rows
            .iter()
            .filter(|r| !r.errors.is_empty() || r.draft.is_none())
            .count()
    }

    /// Rows left out on purpose.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.preview.skipped.len()
    }

    /// Every error, in file order, then every skipped row, in file order.
    #[must_use]
    pub fn problems(&self) -> Vec<RowProblem> {
        let errors = self.preview.rows.iter().flat_map(|r| &r.errors).map(|e| RowProblem {
            line: e.line,
            column: e.column.clone(),
            kind: ProblemKind::Invalid(e.code.clone()),
        });
        let skipped = self.preview.skipped.iter().map(|(line, reason)| RowProblem {
            line: *line,
            column: None,
            kind: ProblemKind::Skipped(*reason),
        });
        errors.chain(skipped).collect()
    }

    /// How many errors the file has (a row may have several).
    #[must_use]
    pub fn error_count(&self) -> usize {
        self.preview.rows.iter().map(|r| r.errors.len()).sum()
    }

    /// The rows to save, only when no row is in error and the validity date is known: the
    /// import is all or nothing.
    #[must_use]
    pub fn ready_to_save(&self) -> Option<ReadyRows<'_>> {
        let dated = matches!(self.validity, CatalogValidity::InFile | CatalogValidity::Given(_));
        (dated && self.bad_rows() == 0).then(|| ReadyRows(self.ready_rows()))
    }

    fn ready_rows(&self) -> Vec<(u64, &QuoteDraft)> {
        self.preview
            .rows
            .iter()
            .filter(|r| r.errors.is_empty())
            .filter_map(|r| r.draft.as_ref().map(|d| (r.line, d)))
            .collect()
    }
}

/// The quotes of a file without errors, with their lines; made only by
/// [`CheckedFile::ready_to_save`], so a file with a bad row cannot reach [`save`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadyRows<'a>(Vec<(u64, &'a QuoteDraft)>);

impl ReadyRows<'_> {
    /// How many quotes would be saved.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the file holds no quote to save.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Reads `bytes` as a quote file; `today` becomes a SkyPilot catalog's `received_on`, and a
/// catalog's `valid_until` is the one given in `settings` (on or after `today`), never a guess.
///
/// # Errors
/// [`Refusal`] when the file as a whole cannot be imported.
pub fn check(bytes: &[u8], settings: &ImportSettings, today: Date) -> Result<CheckedFile, Refusal> {
    let usable = settings.valid_until.filter(|d| *d >= today);
    let mut defaults = ImportDefaults::new(settings.vendor.as_deref().unwrap_or(""), today, usable);
    defaults.currency = settings.currency;
    defaults.max_bytes = settings.max_bytes;
    let preview = quotes::import(bytes, settings.format, &defaults).map_err(Refusal::File)?;
    if preview.format == CsvFormat::SkyPilot && settings.vendor.is_none() {
        return Err(Refusal::VendorRequired);
    }
    let validity = match (preview.format, settings.valid_until) {
        (CsvFormat::NodeLedger, _) => CatalogValidity::InFile,
        (CsvFormat::SkyPilot, None) => CatalogValidity::Missing,
        (CsvFormat::SkyPilot, Some(d)) if d < today => CatalogValidity::BeforeToday(d),
        (CsvFormat::SkyPilot, Some(d)) => CatalogValidity::Given(d),
    };
    Ok(CheckedFile { preview, validity })
}

/// Saves the quotes of a clean file into the team, all or nothing, in one `BEGIN IMMEDIATE`
/// transaction; vendors are matched by name (case-insensitive) and created when new.
///
/// # Errors
/// [`SaveImportError`] with the line of the row the database refused (a reference already
/// stored, a price out of range); nothing is then saved.
pub async fn save(
    db: &store::Db,
    team_id: i64,
    rows: &ReadyRows<'_>,
    created_by: Option<i64>,
) -> Result<usize, SaveImportError> {
    store::quotes::save_import(db, team_id, &rows.0, created_by).await
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: &[u8] = include_bytes!("../../domain/src/quotes/fixtures/nodeledger_quotes.csv");
    const ONE_BAD_ROW: &[u8] = include_bytes!("../../domain/src/quotes/fixtures/nodeledger_one_bad_row.csv");
    const LAMBDA: &[u8] = include_bytes!("../../domain/src/quotes/fixtures/lambda_vms.csv");

    fn settings(vendor: Option<&str>) -> ImportSettings {
        ImportSettings {
            format: None,
            vendor: vendor.map(str::to_owned),
            currency: Currency::USD,
            valid_until: None,
            max_bytes: 1 << 20,
        }
    }

    fn today() -> Date {
        Date::new(2026, 11, 29).expect("a real date")
    }

    #[test]
    fn a_clean_file_is_ready_to_save_whole() {
        let file = check(CLEAN, &settings(None), today()).expect("readable");
        assert_eq!(file.format(), CsvFormat::NodeLedger);
        assert_eq!(
            (file.rows(), file.ready(), file.bad_rows(), file.error_count()),
            (3, 3, 0, 0)
        );
        assert_eq!(file.ready_to_save().map(|r| r.len()), Some(3));
    }

    #[test]
    fn one_bad_row_blocks_the_whole_file_and_is_reported_by_line_and_column() {
        let file = check(ONE_BAD_ROW, &settings(None), today()).expect("readable");
        assert_eq!(
            (file.rows(), file.ready(), file.bad_rows(), file.error_count()),
            (3, 2, 1, 1)
        );
        assert_eq!(file.ready_to_save(), None);
        let problems = file.problems();
        assert_eq!(
            problems,
            vec![RowProblem {
                line: 3,
                column: Some("spec.vram_gib".into()),
                kind: ProblemKind::Invalid(ErrorCode::InvalidNumber),
            }]
        );
        assert!(problems[0].is_error());
        assert!(!problems[0].message(Locale::En).is_empty());
        assert_ne!(problems[0].message(Locale::En), problems[0].message(Locale::ZhCn));
    }

    #[test]
    fn a_skypilot_catalog_needs_a_vendor_and_skips_cpu_rows_without_error() {
        assert_eq!(check(LAMBDA, &settings(None), today()), Err(Refusal::VendorRequired));
        let file = check(LAMBDA, &dated(Some("2027-01-31")), today()).expect("readable");
        assert_eq!(file.format(), CsvFormat::SkyPilot);
        assert_eq!(file.error_count(), 0);
        let ready = file.ready_to_save().expect("no errors");
        assert_eq!(ready.len(), file.rows());
        assert!(file.problems().iter().all(|p| !p.is_error()));
        assert_eq!(file.problems().len(), file.skipped());
    }

    fn dated(valid_until: Option<&str>) -> ImportSettings {
        ImportSettings {
            valid_until: valid_until.map(|d| Date::parse(d).expect("a real date")),
            ..settings(Some("Lambda"))
        }
    }

    #[test]
    fn a_catalog_is_saved_only_with_the_validity_date_given_never_a_made_up_one() {
        let file = check(LAMBDA, &dated(None), today()).expect("readable");
        assert_eq!(file.validity(), CatalogValidity::Missing);
        assert_eq!(
            (file.error_count(), file.ready_to_save()),
            (0, None),
            "no date, nothing to save"
        );

        let past = check(LAMBDA, &dated(Some("2026-11-28")), today()).expect("readable");
        assert_eq!(
            past.validity(),
            CatalogValidity::BeforeToday(Date::new(2026, 11, 28).expect("date"))
        );
        assert_eq!(past.ready_to_save(), None, "expired prices are not imported");

        let given = Date::new(2027, 1, 31).expect("date");
        let file = check(LAMBDA, &dated(Some("2027-01-31")), today()).expect("readable");
        assert_eq!(file.validity(), CatalogValidity::Given(given));
        let rows = file.ready_to_save().expect("dated and clean");
        assert!(
            rows.0
                .iter()
                .all(|(_, q)| q.valid_until == given && q.received_on == today())
        );
        // The same day as today is a valid last day.
        let today_only = check(LAMBDA, &dated(Some("2026-11-29")), today()).expect("readable");
        assert!(today_only.ready_to_save().is_some());
        // Our own format states its dates row by row: a date given is not used.
        let own = check(CLEAN, &dated(Some("2027-01-31")), today()).expect("readable");
        assert_eq!(own.validity(), CatalogValidity::InFile);
        assert!(
            own.ready_to_save()
                .expect("clean")
                .0
                .iter()
                .all(|(_, q)| q.valid_until != given)
        );
    }

    #[test]
    fn an_unreadable_file_is_refused_whole() {
        assert_eq!(
            check(b"", &settings(None), today()),
            Err(Refusal::File(ImportError::Empty))
        );
        let small = ImportSettings {
            max_bytes: 10,
            ..settings(None)
        };
        assert_eq!(
            check(CLEAN, &small, today()),
            Err(Refusal::File(ImportError::TooLarge { limit_bytes: 10 }))
        );
    }
}
