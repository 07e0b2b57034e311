//! The header row of a quote CSV (its names, their positions, the format they indicate), and the
//! CSV record reader that the header and the row loop share.

use super::{CsvFormat, ImportError};
use crate::line_endings::{Lf, numbered_lines};
use csv::{ReaderBuilder, StringRecord};
use std::collections::HashMap;

/// The CSV records of `text`, LF, CRLF and lone CR alike, so that line numbers are the file's
/// ([`crate::line_endings`]).
pub(super) fn reader(text: &str) -> csv::Reader<Lf<&[u8]>> {
    ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(Lf::new(text.as_bytes()))
}

/// Whether every cell of `rec` is blank.
pub(super) fn is_blank(rec: &StringRecord) -> bool {
    rec.iter().all(|c| c.trim().is_empty())
}

/// The header row: names as spelled, and an index by lower-case name.
pub(super) struct Header {
    /// The names as spelled in the file.
    pub(super) names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Header {
    /// Reads the first non-blank line as the header.
    pub(super) fn read(text: &str) -> Result<Header, ImportError> {
        let first_line = numbered_lines(text)
            .map(|(_, l)| l)
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        let other = [';', '\t'].into_iter().find(|d| first_line.contains(*d));
        if let Some(found) = other.filter(|_| !first_line.contains(',')) {
            return Err(ImportError::WrongDelimiter { found });
        }
        let rec = reader(text)
            .records()
            .filter_map(Result::ok)
            .find(|r| !is_blank(r))
            .ok_or(ImportError::Empty)?;
        let names: Vec<String> = rec.iter().map(|n| n.trim().to_owned()).collect();
        let mut index = HashMap::with_capacity(names.len());
        for (i, name) in names.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
            if index.insert(name.to_ascii_lowercase(), i).is_some() {
                return Err(ImportError::DuplicateColumn { column: name.clone() });
            }
        }
        Ok(Header { names, index })
    }

    /// The header of one quote given as named cells ([`crate::quotes::QuoteInput`]): the names
    /// as given, each once (they are the keys of a map).
    pub(super) fn from_names(names: Vec<String>) -> Header {
        let index = names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.to_ascii_lowercase(), i))
            .collect();
        Header { names, index }
    }

    /// The position of the column named `lower` (lower case), if present.
    pub(super) fn position(&self, lower: &str) -> Option<usize> {
        self.index.get(lower).copied()
    }

    /// True when the column named `lower` is present.
    pub(super) fn has(&self, lower: &str) -> bool {
        self.index.contains_key(lower)
    }

    /// The column's name as spelled in the file.
    pub(super) fn spelling(&self, lower: &str) -> Option<String> {
        self.position(lower).map(|i| self.names[i].clone())
    }

    /// The format the columns indicate.
    pub(super) fn format(&self) -> Result<CsvFormat, ImportError> {
        if self.has("vendor") && self.has("reference") {
            Ok(CsvFormat::NodeLedger)
        } else if self.has("instancetype") && self.has("acceleratorname") {
            Ok(CsvFormat::SkyPilot)
        } else {
            Err(ImportError::UnknownFormat)
        }
    }
}
