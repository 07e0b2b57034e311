//! Reading one bill line's cells by column name: the header row, and the typed cells of a line
//! with the problems found in them. Both layouts (FOCUS and the simple one) read through these.

use super::{FileError, LineError, LineErrorCode, timestamp};
use csv::StringRecord;
use rust_decimal::Decimal;
use std::{collections::HashMap, str::FromStr};

/// The header row: names as spelled, and their positions by lower-case name.
pub(super) struct Header {
    /// The names as spelled in the file.
    pub(super) names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Header {
    /// Reads the header row; a name given twice (any case) is refused.
    pub(super) fn of(rec: &StringRecord) -> Result<Header, FileError> {
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

/// The cells of one line, and the errors found reading them.
pub(super) struct Cells<'a> {
    rec: &'a StringRecord,
    header: &'a Header,
    /// The file line.
    pub(super) line: u64,
    /// Every problem so far.
    pub(super) errors: Vec<LineError>,
}

impl<'a> Cells<'a> {
    /// The cells of the record `rec` read at file line `line`, no problem found yet.
    pub(super) fn new(rec: &'a StringRecord, header: &'a Header, line: u64) -> Self {
        Cells {
            rec,
            header,
            line,
            errors: Vec::new(),
        }
    }

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
    /// An optional time: `None` when the column is absent or the cell empty (an error when it
    /// is not a time).
    pub(super) fn optional_time(&mut self, i: Option<usize>) -> Option<i64> {
        let i = i?;
        if self.text(Some(i)).is_empty() {
            return None;
        }
        let before = self.errors.len();
        let t = self.time(i);
        (self.errors.len() == before).then_some(t)
    }

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
