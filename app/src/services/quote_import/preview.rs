//! The rows a file would create, as the import preview shows them before anything is saved:
//! one line per row of the file (quotes, rows in error, rows skipped), the key fields of each
//! quote, and every problem placed in the cell it concerns.
//!
//! A cell that could not be read shows the file's own text (`20GB`), not a placeholder, with
//! the reason beside it. A problem whose field is not one of the key fields (an unknown
//! `price.basis`, a row with too many cells) goes to the row's "other problems". Only the first
//! [`PREVIEW_ROWS`] rows are listed; the summary counts all of them.

use super::{CatalogValidity, CheckedFile, ProblemKind, RowProblem};
use crate::domain::quotes::{ImportRow, QuoteDraft, Sharing, SkipReason};
use crate::domain::tco::PriceBasis;
use crate::i18n::{Locale, Msg};

/// How many rows of a file the preview lists (the rest are counted, and their errors listed).
pub const PREVIEW_ROWS: usize = 200;

/// The fields a preview shows for each quote, in column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyField {
    /// The vendor.
    Vendor,
    /// The vendor's reference (a SkyPilot instance type with its region and zone).
    Reference,
    /// GPU model × GPUs per node, with the sharing when not exclusive.
    Gpu,
    /// VRAM per GPU.
    Vram,
    /// On-demand price per hour, currency and basis.
    Price,
    /// The last day the price holds.
    ValidUntil,
    /// Where the node runs.
    Region,
}

impl KeyField {
    /// Every key field, in the order of the preview's columns.
    pub const ALL: [KeyField; 7] = [
        KeyField::Vendor,
        KeyField::Reference,
        KeyField::Gpu,
        KeyField::Vram,
        KeyField::Price,
        KeyField::ValidUntil,
        KeyField::Region,
    ];

    /// A stable name for the column (`vram`, `valid_until`…), used by pages and tests.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            KeyField::Vendor => "vendor",
            KeyField::Reference => "reference",
            KeyField::Gpu => "gpu",
            KeyField::Vram => "vram",
            KeyField::Price => "price",
            KeyField::ValidUntil => "valid_until",
            KeyField::Region => "region",
        }
    }

    /// The key field a draft field (dotted path) is shown in, if any.
    #[must_use]
    pub fn of_field(field: &str) -> Option<KeyField> {
        Some(match field {
            "vendor" => KeyField::Vendor,
            "reference" => KeyField::Reference,
            "spec.gpu_model" | "spec.gpus_per_node" | "spec.sharing" => KeyField::Gpu,
            "spec.vram_gib" | "spec.usable_vram_gib" => KeyField::Vram,
            "currency" | "price.currency" | "price.on_demand_hourly" | "price.basis" => KeyField::Price,
            "valid_until" | "received_on" => KeyField::ValidUntil,
            "spec.region" => KeyField::Region,
            _ => return None,
        })
    }
}

/// What becomes of a row when the file is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// It becomes a quote.
    Ready,
    /// It is in error: the file cannot be saved until it is fixed.
    Invalid,
    /// It is left out (blank, or a CPU-only instance).
    Skipped(SkipReason),
}

/// One cell of the preview: the value shown and the problems placed in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreviewCell {
    /// The value as it will be saved, or the file's text when the cell could not be read.
    pub text: String,
    /// The problems of this cell.
    pub problems: Vec<RowProblem>,
}

/// One row of the file as the preview lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewRow {
    /// The file line the row starts on (header = 1).
    pub line: u64,
    /// What saving does with it.
    pub status: RowStatus,
    /// The key fields, in [`KeyField::ALL`] order (empty texts for a skipped row).
    pub cells: Vec<PreviewCell>,
    /// Problems not in a key field (another column, or the row as a whole).
    pub other: Vec<RowProblem>,
}

impl PreviewRow {
    /// The cell of `key`.
    #[must_use]
    pub fn cell(&self, key: KeyField) -> &PreviewCell {
        &self.cells[index(key)]
    }
}

/// The first `limit` rows of the file in file order (skipped rows among them), with the key
/// fields worded in `locale`.
#[must_use]
pub fn rows(file: &CheckedFile, locale: Locale, limit: usize) -> Vec<PreviewRow> {
    let read = file.preview.rows.iter().map(|r| (r.line, Some(r)));
    let skipped = file.preview.skipped.iter().map(|(line, _)| (*line, None));
    let mut lines: Vec<(u64, Option<&ImportRow>)> = read.chain(skipped).collect();
    lines.sort_by_key(|(line, _)| *line);
    lines.truncate(limit);
    let skip_reason = |line: u64| {
        file.preview
            .skipped
            .iter()
            .find(|(l, _)| *l == line)
            .map_or(SkipReason::Blank, |(_, r)| *r)
    };
    lines
        .into_iter()
        .map(|(line, row)| match row {
            Some(row) => {
                let mut shown = read_row(row, locale);
                if !matches!(file.validity(), CatalogValidity::InFile | CatalogValidity::Given(_)) {
                    // The date is a placeholder until the person importing gives one.
                    shown.cells[index(KeyField::ValidUntil)].text.clear();
                }
                shown
            }
            None => PreviewRow {
                line,
                status: RowStatus::Skipped(skip_reason(line)),
                cells: vec![PreviewCell::default(); KeyField::ALL.len()],
                other: Vec::new(),
            },
        })
        .collect()
}

/// How many rows of the file (read or skipped) the preview leaves out beyond `limit`.
#[must_use]
pub fn rows_not_shown(file: &CheckedFile, limit: usize) -> usize {
    (file.preview.rows.len() + file.preview.skipped.len()).saturating_sub(limit)
}

/// A read row: its quote's key fields, bad cells in the file's words, problems in their cells.
fn read_row(row: &ImportRow, locale: Locale) -> PreviewRow {
    let quote = row.draft.as_ref().or(row.as_read.as_ref());
    let mut cells: Vec<PreviewCell> = KeyField::ALL
        .iter()
        .map(|key| PreviewCell {
            text: quote.map(|q| key_text(q, *key, locale)).unwrap_or_default(),
            problems: Vec::new(),
        })
        .collect();
    let mut other = Vec::new();
    for error in &row.errors {
        let problem = RowProblem {
            line: error.line,
            column: error.column.clone(),
            kind: ProblemKind::Invalid(error.code.clone()),
        };
        match error.field.and_then(KeyField::of_field) {
            Some(key) => cells[index(key)].problems.push(problem),
            None => other.push(problem),
        }
    }
    for (column, text) in &row.bad_cells {
        let field = row
            .errors
            .iter()
            .find(|e| e.column.as_deref() == Some(column.as_str()))
            .and_then(|e| e.field);
        if let Some(key) = field.and_then(KeyField::of_field) {
            cells[index(key)].text.clone_from(text);
        }
    }
    let status = if row.errors.is_empty() && row.draft.is_some() {
        RowStatus::Ready
    } else {
        RowStatus::Invalid
    };
    PreviewRow {
        line: row.line,
        status,
        cells,
        other,
    }
}

fn index(key: KeyField) -> usize {
    KeyField::ALL.iter().position(|k| *k == key).unwrap_or_default()
}

/// The value of one key field of `q`, as the preview shows it.
fn key_text(q: &QuoteDraft, key: KeyField, locale: Locale) -> String {
    match key {
        KeyField::Vendor => q.vendor.clone(),
        KeyField::Reference => q.reference.clone(),
        KeyField::Gpu => {
            let shared = match &q.spec.sharing {
                Sharing::Exclusive => String::new(),
                Sharing::Mig { profile } => format!(" · MIG {profile}"),
                Sharing::Vgpu => " · vGPU".to_owned(),
                Sharing::Fractional { share } => format!(" · {share}"),
            };
            format!("{} × {}{shared}", q.spec.gpus_per_node, q.spec.gpu_model)
        }
        KeyField::Vram => format!("{} GiB", q.spec.vram_gib.normalize()),
        KeyField::Price => {
            let basis = locale.t(match q.price.basis {
                PriceBasis::PerNode => Msg::QcPerNode,
                PriceBasis::PerGpu => Msg::QcPerGpu,
            });
            match q.price.on_demand_hourly {
                // A price of 0 is a free offer: the word says it, never a bare 0.
                Some(hourly) if hourly.is_zero() => format!("{} {basis}", locale.t(Msg::QuotesFree)),
                Some(hourly) => format!("{hourly} {}/h {basis}", q.price.currency.code()),
                None => match q.price.monthly_price {
                    Some(package) => format!(
                        "{package} {} / {} {basis}",
                        q.price.currency.code(),
                        q.price.package_period().describe().trim_start_matches("per ")
                    ),
                    None => String::new(),
                },
            }
        }
        KeyField::ValidUntil => q.valid_until.to_string(),
        KeyField::Region => q.spec.region.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{
        quotes::{Date, ErrorCode},
        tco::Currency,
    };
    use crate::services::quote_import::{ImportSettings, check};

    const ONE_BAD_ROW: &[u8] = include_bytes!("../../../domain/src/quotes/fixtures/nodeledger_one_bad_row.csv");
    const LAMBDA: &[u8] = include_bytes!("../../../domain/src/quotes/fixtures/lambda_vms.csv");

    fn file(bytes: &[u8], vendor: Option<&str>, valid_until: Option<&str>) -> CheckedFile {
        let settings = ImportSettings {
            format: None,
            vendor: vendor.map(str::to_owned),
            currency: Currency::USD,
            valid_until: valid_until.map(|d| Date::parse(d).expect("date")),
            max_bytes: 1 << 20,
        };
        check(bytes, &settings, Date::new(2026, 11, 29).expect("date")).expect("readable")
    }

    #[test]
    fn every_row_is_listed_with_its_key_fields_and_the_error_sits_in_its_cell() {
        let rows = rows(&file(ONE_BAD_ROW, None, None), Locale::En, PREVIEW_ROWS);
        assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);
        let first = &rows[0];
        assert_eq!(first.status, RowStatus::Ready);
        let texts: Vec<&str> = first.cells.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "算力港",
                "SLG-A10-1X",
                "1 × A10 24GB",
                "24 GiB",
                "4.20 CNY/h per node",
                "2025-03-31",
                ""
            ]
        );
        let bad = &rows[1];
        assert_eq!(bad.status, RowStatus::Invalid);
        // The bad cell shows what the file says, with the reason; the rest of the row as read.
        let vram = bad.cell(KeyField::Vram);
        assert_eq!(vram.text, "20GB");
        assert_eq!(vram.problems.len(), 1);
        assert_eq!(vram.problems[0].kind, ProblemKind::Invalid(ErrorCode::InvalidNumber));
        assert_eq!(vram.problems[0].column.as_deref(), Some("spec.vram_gib"));
        assert_eq!(bad.cell(KeyField::Gpu).text, "1 × A100 40GB · MIG 2g.20gb");
        assert_eq!(bad.cell(KeyField::Price).text, "1.10 CNY/h per GPU");
        assert!(bad.other.is_empty());
        assert!(
            rows.iter()
                .filter(|r| r.line != 3)
                .all(|r| r.cells.iter().all(|c| c.problems.is_empty()))
        );
    }

    #[test]
    fn skipped_rows_are_listed_in_place_and_a_large_file_shows_its_first_rows() {
        let lambda = file(LAMBDA, Some("Lambda"), Some("2027-01-31"));
        let all = rows(&lambda, Locale::En, PREVIEW_ROWS);
        assert_eq!(all.len(), 10, "8 quotes and 2 CPU-only rows");
        assert_eq!(all[4].line, 6);
        assert_eq!(all[4].status, RowStatus::Skipped(SkipReason::NoAccelerator));
        assert_eq!(all[0].cell(KeyField::ValidUntil).text, "2027-01-31");
        assert_eq!(all[0].cell(KeyField::Region).text, "us-east-1");
        assert_eq!(rows_not_shown(&lambda, PREVIEW_ROWS), 0);
        let first = rows(&lambda, Locale::En, 3);
        assert_eq!(first.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);
        assert_eq!(rows_not_shown(&lambda, 3), 7);
    }

    #[test]
    fn a_catalog_without_a_date_shows_no_validity_rather_than_a_placeholder() {
        let rows = rows(&file(LAMBDA, Some("Lambda"), None), Locale::En, PREVIEW_ROWS);
        assert!(rows.iter().all(|r| r.cell(KeyField::ValidUntil).text.is_empty()));
        assert!(rows.iter().any(|r| r.status == RowStatus::Ready));
    }

    #[test]
    fn a_field_outside_the_key_columns_goes_to_other_problems() {
        let fixture = std::str::from_utf8(ONE_BAD_ROW).expect("UTF-8");
        let mut lines = fixture.lines();
        let csv = format!(
            "{}\n{},extra\n",
            lines.next().expect("header"),
            lines.next().expect("row")
        );
        let rows = rows(&file(csv.as_bytes(), None, None), Locale::En, PREVIEW_ROWS);
        assert_eq!(rows[0].status, RowStatus::Invalid);
        assert_eq!(rows[0].other.len(), 1, "{rows:?}");
        assert!(rows[0].cells.iter().all(|c| c.text.is_empty()));
    }
}
