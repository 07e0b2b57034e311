//! The header, layout detection and the streamed line loop shared by both layouts.

use super::{BillLine, FileError, Layout, LineError, LineErrorCode, focus, simple, timestamp};
use crate::domain::line_endings::{Lf, record_line};
use csv::{ReaderBuilder, StringRecord};
use rust_decimal::Decimal;
use std::{collections::HashMap, io::Read, str::FromStr};

/// The header row: names as spelled, and their positions by lower-case name.
pub(super) struct Header {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Header {
    fn of(rec: &StringRecord) -> Result<Header, FileError> {
        let names: Vec<String> = rec
            .iter()
            .map(|n| n.trim_start_matches('\u{feff}').trim().to_owned())
            .collect();
        let mut index = HashMap::with_capacity(names.len());
        for (i, name) in names.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
            if index.insert(name.to_ascii_lowercase(), i).is_some() {
                return Err(FileError::DuplicateColumn { column: name.clone() });
            }
        }
        Ok(Header { names, index })
    }

    /// The position of the column documented as `name` (any case).
    pub(super) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(&name.to_ascii_lowercase()).copied()
    }

    /// The names in `required` the header lacks.
    pub(super) fn missing(&self, required: &[&'static str]) -> Vec<&'static str> {
        required
            .iter()
            .copied()
            .filter(|n| self.position(n).is_none())
            .collect()
    }

    /// The column at `i` as spelled in the file.
    pub(super) fn spelling(&self, i: usize) -> &str {
        self.names.get(i).map_or("", String::as_str)
    }
}

/// The columns of the layout the header is in.
enum Columns {
    Focus(focus::Columns),
    Simple(simple::Columns),
}

/// Picks the layout: the one whose required columns are all present; else the one with more of
/// them present (its missing columns are named); else neither (both lists are named).
fn detect(header: &Header) -> Result<Columns, FileError> {
    let focus_missing = header.missing(focus::REQUIRED);
    let simple_missing = header.missing(simple::REQUIRED);
    if focus_missing.is_empty() {
        return focus::Columns::resolve(header).map(Columns::Focus);
    }
    if simple_missing.is_empty() {
        return simple::Columns::resolve(header).map(Columns::Simple);
    }
    let focus_found = focus::REQUIRED.len() - focus_missing.len();
    let simple_found = simple::REQUIRED.len() - simple_missing.len();
    match (focus_found, simple_found) {
        (0, 0) => Err(FileError::UnknownLayout {
            focus_missing,
            simple_missing,
        }),
        (f, s) if f >= s => Err(FileError::MissingColumns {
            layout: Layout::Focus,
            columns: focus_missing,
        }),
        _ => Err(FileError::MissingColumns {
            layout: Layout::NodeLedger,
            columns: simple_missing,
        }),
    }
}

/// A bill being read, one line at a time (see [`open`]).
pub struct BillReader<R: Read> {
    csv: csv::Reader<Lf<R>>,
    header: Header,
    columns: Columns,
    record: StringRecord,
    /// The bill's currency: the first line's.
    currency: Option<String>,
}

/// Reads the header of a bill from `source` and detects its layout; the lines are then read by
/// iterating the [`BillReader`], each as a [`BillLine`] or the errors found in it. LF, CRLF,
/// a byte-order mark and a last line without a line break read alike
/// ([`crate::domain::line_endings`]): line numbers are the file's.
///
/// # Errors
/// [`FileError`] when the header is missing, unreadable, or of no known layout.
pub fn open<R: Read>(source: R) -> Result<BillReader<R>, FileError> {
    let mut csv = ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(Lf::new(source));
    let mut record = StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(false) => return Err(FileError::Empty),
            Ok(true) if record.iter().all(|c| c.trim().is_empty()) => {}
            Ok(true) => break,
            Err(_) => return Err(FileError::Unreadable),
        }
    }
    let header = Header::of(&record)?;
    let columns = detect(&header)?;
    Ok(BillReader {
        csv,
        header,
        columns,
        record,
        currency: None,
    })
}

impl<R: Read> BillReader<R> {
    /// The layout the header is in.
    pub const fn layout(&self) -> Layout {
        match self.columns {
            Columns::Focus(_) => Layout::Focus,
            Columns::Simple(_) => Layout::NodeLedger,
        }
    }

    fn line(&mut self, line: u64) -> Result<BillLine, Vec<LineError>> {
        if self.record.len() != self.header.names.len() {
            let code = LineErrorCode::FieldCount {
                expected: self.header.names.len(),
                found: self.record.len(),
            };
            return Err(vec![whole_line(line, code)]);
        }
        let mut cells = Cells {
            rec: &self.record,
            header: &self.header,
            line,
            errors: Vec::new(),
        };
        let read = match &self.columns {
            Columns::Focus(c) => c.line(&mut cells),
            Columns::Simple(c) => c.line(&mut cells),
        };
        let mut errors = cells.errors;
        if let Some((bill_line, currency_column)) = read.as_ref() {
            match &self.currency {
                None => self.currency = Some(bill_line.currency.clone()),
                Some(bill) if *bill != bill_line.currency => errors.push(LineError {
                    line,
                    column: self.header.spelling(*currency_column).to_owned(),
                    code: LineErrorCode::OtherCurrency {
                        value: bill_line.currency.clone(),
                        bill: bill.clone(),
                    },
                }),
                Some(_) => {}
            }
        }
        match read {
            Some((bill_line, _)) if errors.is_empty() => Ok(bill_line),
            _ => Err(errors),
        }
    }
}

fn whole_line(line: u64, code: LineErrorCode) -> LineError {
    LineError {
        line,
        column: String::new(),
        code,
    }
}

impl<R: Read> Iterator for BillReader<R> {
    type Item = Result<BillLine, Vec<LineError>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.csv.read_record(&mut self.record) {
                Ok(false) => return None,
                Ok(true) if self.record.iter().all(|c| c.trim().is_empty()) => {}
                Ok(true) => {
                    let line = record_line(self.csv.position(), self.record.as_byte_record().as_slice());
                    return Some(self.line(line));
                }
                Err(e) => {
                    let line = e.position().map_or(0, csv::Position::line);
                    let fatal = !matches!(e.kind(), csv::ErrorKind::Utf8 { .. });
                    let error = Some(Err(vec![whole_line(line, LineErrorCode::Unreadable)]));
                    if fatal {
                        // An I/O error or a broken quote: nothing after it can be trusted.
                        self.record.clear();
                        while self.csv.read_record(&mut self.record).unwrap_or(false) {}
                    }
                    return error;
                }
            }
        }
    }
}

/// The cells of one line, and the errors found reading them.
pub(super) struct Cells<'a> {
    rec: &'a StringRecord,
    header: &'a Header,
    /// The file line.
    pub(super) line: u64,
    /// Every problem so far.
    pub(super) errors: Vec<LineError>,
}

impl Cells<'_> {
    /// Records a problem in the column at `i`.
    pub(super) fn fail(&mut self, i: usize, code: LineErrorCode) {
        self.errors.push(LineError {
            line: self.line,
            column: self.header.spelling(i).to_owned(),
            code,
        });
    }

    /// The trimmed text at `i` (empty for an absent column).
    pub(super) fn text(&self, i: Option<usize>) -> &str {
        i.and_then(|i| self.rec.get(i)).map_or("", str::trim)
    }

    /// A required text.
    pub(super) fn required(&mut self, i: usize) -> String {
        let text = self.text(Some(i)).to_owned();
        if text.is_empty() {
            self.fail(i, LineErrorCode::Required);
        }
        text
    }

    /// An optional decimal (`None` when empty or absent; an error when not a number).
    pub(super) fn decimal(&mut self, i: Option<usize>) -> Option<Decimal> {
        let text = self.text(i);
        if text.is_empty() {
            return None;
        }
        let parsed = Decimal::from_str(text).or_else(|_| Decimal::from_scientific(text));
        match (parsed, i) {
            (Ok(d), Some(i)) if !in_range(d) => {
                let value = text.to_owned();
                self.fail(i, LineErrorCode::OutOfRange { value });
                None
            }
            (Ok(d), _) if !in_range(d) => None,
            (Ok(d), _) => Some(d),
            (Err(_), Some(i)) => {
                let value = text.to_owned();
                self.fail(i, LineErrorCode::NotANumber { value });
                None
            }
            (Err(_), None) => None,
        }
    }

    /// A required decimal.
    pub(super) fn required_decimal(&mut self, i: usize) -> Decimal {
        if self.text(Some(i)).is_empty() {
            self.fail(i, LineErrorCode::Required);
        }
        self.decimal(Some(i)).unwrap_or_default()
    }

    /// A required timestamp, Unix seconds.
    pub(super) fn time(&mut self, i: usize) -> i64 {
        let text = self.text(Some(i)).to_owned();
        if text.is_empty() {
            self.fail(i, LineErrorCode::Required);
            return 0;
        }
        timestamp::parse(&text).unwrap_or_else(|| {
            self.fail(i, LineErrorCode::NotATime { value: text });
            0
        })
    }

    /// The charge period from the columns at `start` and `end`; an error at `end` when it ends
    /// before it starts.
    pub(super) fn period(&mut self, start: usize, end: usize) -> (i64, i64) {
        let before = self.errors.len();
        let (s, e) = (self.time(start), self.time(end));
        if self.errors.len() == before && e < s {
            self.fail(end, LineErrorCode::EndBeforeStart);
        }
        (s, e)
    }

    /// Refuses a negative `value` read from the column at `i` unless the line gives back.
    pub(super) fn not_negative(&mut self, i: Option<usize>, value: Decimal, gives_back: bool) {
        if let Some(i) = i.filter(|_| value.is_sign_negative() && !value.is_zero() && !gives_back) {
            let value = self.text(Some(i)).to_owned();
            self.fail(i, LineErrorCode::Negative { value });
        }
    }
}

/// The largest magnitude a bill's number may have: a trillion, far above any real line (costs,
/// quantities and prices alike). Sums and products of many such numbers can still leave
/// `Decimal`'s range (≈ 7.9 × 10²⁸): reconciliation adds and multiplies checked.
pub const MAX_AMOUNT: Decimal = Decimal::from_parts(3_567_587_328, 232, 0, false, 0);
/// The most decimals a bill's number may have.
pub const MAX_DECIMALS: u32 = 10;

/// Whether a number read from a bill is within the bounds above.
fn in_range(d: Decimal) -> bool {
    d.abs() <= MAX_AMOUNT && d.normalize().scale() <= MAX_DECIMALS
}

#[cfg(test)]
mod tests {
    use super::open;
    use crate::domain::line_endings::shapes;

    /// A FOCUS export as a cloud console writes it (columns of the FOCUS 1.x specification),
    /// with a description quoted over two lines, a blank line and a line whose cost is no number.
    /// Excel's "CSV UTF-8" writes such a file with a UTF-8 byte-order mark and CRLF (RFC 4180 §2);
    /// <https://devlab.itlibra.com/en/blog/excel-csv-guide/> shows both.
    const FOCUS: &str = "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ResourceId,ChargeDescription\n\
        40.00,CNY,2026-12-01T08:00:00Z,2026-12-01T18:00:00Z,Usage,i-l4,GPU instance\n\
        1.60,CNY,2026-12-01T18:00:00Z,2026-12-03T08:00:00Z,Usage,vol-l4,\"Data disk\n200 GB\"\n\
        \n\
        ten,CNY,2026-12-01T08:00:00Z,2026-12-01T09:00:00Z,Usage,eip-l4,Public IP\n\
        2.00,CNY,2026-12-01T08:00:00Z,2026-12-01T09:00:00Z,Usage,eip-l4,Public IP\n";

    #[test]
    fn a_bill_reads_alike_in_every_shape_with_the_files_line_numbers() {
        let read = |bytes: &[u8]| open(bytes).expect("a FOCUS header").collect::<Vec<_>>();
        let want = read(FOCUS.as_bytes());
        let lines: Vec<u64> = want
            .iter()
            .map(|l| match l {
                Ok(line) => line.line,
                Err(errors) => errors[0].line,
            })
            .collect();
        // The header is line 1; the quoted description spans lines 3 and 4; line 5 is blank.
        assert_eq!(lines, [2, 3, 6, 7]);
        assert_eq!(
            want[1].as_ref().map(|l| l.description.as_str()),
            Ok("Data disk\n200 GB")
        );
        for (shape, bytes) in shapes::four(FOCUS) {
            assert_eq!(read(&bytes), want, "{shape}");
        }
    }
}
