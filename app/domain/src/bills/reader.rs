//! Layout detection and the streamed line loop shared by both layouts.

use super::cells::{Cells, Header};
use super::{BillLine, FileError, Layout, LineError, LineErrorCode, focus, simple};
use crate::line_endings::{Lf, record_line};
use csv::{ReaderBuilder, StringRecord};
use std::io::Read;

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
    /// The latest FOCUS `BillingPeriodEnd` of the lines read so far.
    billing_end: Option<i64>,
}

/// Reads the header of a bill from `source` and detects its layout; the lines are then read by
/// iterating the [`BillReader`], each as a [`BillLine`] or the errors found in it. LF, CRLF,
/// a byte-order mark and a last line without a line break read alike
/// ([`crate::line_endings`]): line numbers are the file's.
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
        billing_end: None,
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

    /// The end of the invoice's billing period (FOCUS `BillingPeriodEnd`, the latest of the lines
    /// read so far): the day the bill is converted at. `None` when the file does not say.
    pub const fn billing_period_end(&self) -> Option<i64> {
        self.billing_end
    }

    fn line(&mut self, line: u64) -> Result<BillLine, Vec<LineError>> {
        if self.record.len() != self.header.names.len() {
            let code = LineErrorCode::FieldCount {
                expected: self.header.names.len(),
                found: self.record.len(),
            };
            return Err(vec![whole_line(line, code)]);
        }
        let mut cells = Cells::new(&self.record, &self.header, line);
        let read = match &self.columns {
            Columns::Focus(c) => {
                let end = c.billing_end(&mut cells);
                self.billing_end = self.billing_end.max(end);
                c.line(&mut cells)
            }
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

#[cfg(test)]
mod tests {
    use super::open;
    use crate::line_endings::shapes;

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
