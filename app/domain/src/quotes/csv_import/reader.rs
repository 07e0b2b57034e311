//! File checks and the row loop shared by both formats.

use super::cells::Cells;
use super::header::{Header, is_blank, reader};
use super::{CsvFormat, ImportError, ImportPreview, ImportRow, MAX_ROWS, RowError, SkipReason};
use crate::line_endings::record_line;
use crate::quotes::draft::QuoteDraft;
use crate::quotes::error::ErrorCode;
use crate::quotes::validate::validate;
use csv::StringRecord;
use std::collections::HashMap;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks size, encoding and content; returns the text without a UTF-8 byte-order mark.
pub(super) fn decode(bytes: &[u8], max_bytes: usize) -> Result<&str, ImportError> {
    if bytes.len() > max_bytes {
        return Err(ImportError::TooLarge { limit_bytes: max_bytes });
    }
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let text = std::str::from_utf8(&bytes[skip..]).map_err(|e| ImportError::BadUtf8 {
        byte_offset: skip + e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    Ok(text)
}

/// One CSV layout.
pub(super) trait RowFormat {
    /// The format read.
    fn format(&self) -> CsvFormat;
    /// Required columns absent from `header`, by their documented names.
    fn missing(&self, header: &Header) -> Vec<&'static str>;
    /// True for a (lower-case) column name the format reads.
    fn known(&self, lower: &str) -> bool;
    /// The lower-case column a draft field comes from, if any.
    fn column_for(&self, field: &str) -> Option<&'static str>;
    /// The draft field a lower-case column fills, if any.
    fn field_for(&self, column: &str) -> Option<&'static str>;
    /// The lower-case column that names the quote (for duplicate errors).
    fn key_column(&self) -> &'static str;
    /// Builds a draft from the row (placeholders where cells failed), or skips the row.
    fn row(&mut self, cells: &mut Cells<'_>) -> Result<QuoteDraft, SkipReason>;
}

/// Reads every data row of `text` with `fmt`.
pub(super) fn run(text: &str, header: Header, fmt: &mut impl RowFormat) -> Result<ImportPreview, ImportError> {
    let missing = fmt.missing(&header);
    if !missing.is_empty() {
        return Err(ImportError::MissingColumns { columns: missing });
    }
    let ignored_columns = header
        .names
        .iter()
        .filter(|n| !n.is_empty() && !fmt.known(&n.to_ascii_lowercase()))
        .cloned()
        .collect();
    let mut preview = ImportPreview {
        format: fmt.format(),
        rows: Vec::new(),
        skipped: Vec::new(),
        ignored_columns,
        valid_until_missing: false,
    };
    let mut seen: HashMap<(String, String), u64> = HashMap::new();
    let mut header_done = false;
    let mut rdr = reader(text);
    let mut rec = StringRecord::new();
    loop {
        match rdr.read_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, csv::Position::line);
                let error = row_error(line, None, None, ErrorCode::MalformedRow);
                push_row(&mut preview, ImportRow::unread(line, vec![error]))?;
                continue;
            }
        }
        let line = record_line(rdr.position(), rec.as_byte_record().as_slice());
        if is_blank(&rec) {
            if header_done {
                preview.skipped.push((line, SkipReason::Blank));
            }
            continue;
        }
        if !header_done {
            header_done = true;
            continue;
        }
        if rec.len() != header.names.len() {
            let code = ErrorCode::FieldCount {
                expected: header.names.len(),
                found: rec.len(),
            };
            push_row(
                &mut preview,
                ImportRow::unread(line, vec![row_error(line, None, None, code)]),
            )?;
            continue;
        }
        match read_row(line, &rec, &header, fmt, &mut seen) {
            Err(reason) => preview.skipped.push((line, reason)),
            Ok(row) => push_row(&mut preview, row)?,
        }
    }
    Ok(preview)
}

/// Reads one data row with `fmt`: the draft and every problem of its cells (`seen` finds a
/// quote given twice), or why the row is skipped. A file's rows and a form's fields
/// ([`crate::quotes::QuoteInput`]) are read by this one function.
pub(super) fn read_row(
    line: u64,
    rec: &StringRecord,
    header: &Header,
    fmt: &mut impl RowFormat,
    seen: &mut HashMap<(String, String), u64>,
) -> Result<ImportRow, SkipReason> {
    let mut cells = Cells::new(rec, header);
    let draft = fmt.row(&mut cells)?;
    let failed = cells.into_failures();
    let mut row = finish(line, draft, &failed, header, fmt, seen);
    row.bad_cells = failed
        .iter()
        .filter_map(|(col, _)| Some((header.spelling(col)?, cell_text(rec, header, col))))
        .collect();
    Ok(row)
}

/// Adds a row read, or refuses the file once it has more than [`MAX_ROWS`]: what a file holds
/// in memory stays bounded whatever its size.
fn push_row(preview: &mut ImportPreview, row: ImportRow) -> Result<(), ImportError> {
    if preview.rows.len() >= MAX_ROWS {
        return Err(ImportError::TooManyRows { limit: MAX_ROWS });
    }
    preview.rows.push(row);
    Ok(())
}

fn row_error(line: u64, column: Option<String>, field: Option<&'static str>, code: ErrorCode) -> RowError {
    RowError {
        line,
        column,
        field,
        code,
    }
}

/// Turns cell failures and validation errors into the row's errors; checks duplicates.
fn finish(
    line: u64,
    draft: QuoteDraft,
    failed: &[(&'static str, ErrorCode)],
    header: &Header,
    fmt: &impl RowFormat,
    seen: &mut HashMap<(String, String), u64>,
) -> ImportRow {
    let mut errors: Vec<RowError> = failed
        .iter()
        .map(|(col, code)| row_error(line, header.spelling(col), fmt.field_for(col), code.clone()))
        .collect();
    if let Err(invalid) = validate(&draft) {
        for fe in invalid {
            let col = fmt.column_for(fe.field);
            let cell_failed = |field: &str| {
                fmt.column_for(field)
                    .is_some_and(|c| failed.iter().any(|(f, _)| *f == c))
            };
            if depends_on(fe.field, &fe.code).iter().any(|f| cell_failed(f)) {
                continue;
            }
            let column = col.and_then(|c| header.spelling(c));
            errors.push(row_error(line, column, Some(fe.field), fe.code));
        }
    }
    if !failed.is_empty() {
        return ImportRow {
            as_read: Some(draft),
            ..ImportRow::unread(line, errors)
        };
    }
    let key = (draft.vendor.clone(), draft.reference.clone());
    match seen.get(&key) {
        Some(&first_line) => {
            let col = fmt.key_column();
            let code = ErrorCode::Duplicate { first_line };
            errors.push(row_error(line, header.spelling(col), fmt.field_for(col), code));
        }
        None => {
            seen.insert(key, line);
        }
    }
    ImportRow {
        draft: Some(draft),
        ..ImportRow::unread(line, errors)
    }
}

/// The trimmed text of `col` in `rec`; `""` when the column is absent.
fn cell_text(rec: &StringRecord, header: &Header, col: &str) -> String {
    header
        .position(col)
        .and_then(|i| rec.get(i))
        .map_or_else(String::new, |t| t.trim().to_owned())
}

impl ImportRow {
    /// A row without a draft: only its errors are known.
    fn unread(line: u64, errors: Vec<RowError>) -> Self {
        ImportRow {
            line,
            draft: None,
            errors,
            as_read: None,
            bad_cells: Vec::new(),
        }
    }
}

/// The fields a validation error was derived from: itself, plus the other side of a
/// cross-field rule. The error is dropped when one of them could not be read (its value is
/// then a placeholder).
fn depends_on(field: &'static str, code: &ErrorCode) -> Vec<&'static str> {
    let other = match code {
        ErrorCode::ExceedsVram => Some("spec.vram_gib"),
        ErrorCode::EndBeforeStart => Some("received_on"),
        ErrorCode::IncompleteCommitment if field == "price.monthly_price" => Some("price.commitment_months"),
        ErrorCode::IncompleteCommitment => Some("price.monthly_price"),
        _ => None,
    };
    std::iter::once(field).chain(other).collect()
}
