//! One quote as people type it: the text of each column of NodeLedger's format, by column name
//! (`vendor`, `price.on_demand_hourly`, …). The quote form and the API build one from their
//! fields, a quote shown for editing is one ([`QuoteInput::from_draft`]), and it is read by the
//! same parser and checks as a row of an imported file ([`QuoteInput::read`]) — never through
//! CSV text, so a vendor's name that starts with `=` stays as typed.

use super::csv_export::cell;
use super::csv_import::{COLUMNS, ImportError, ImportRow, read_input};
use super::draft::QuoteDraft;
use std::collections::BTreeMap;

/// The typed text of a quote's columns; only columns of the format are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuoteInput {
    cells: BTreeMap<String, String>,
}

impl QuoteInput {
    /// The cells of `fields` that name a column of the format; any other field is dropped.
    pub fn from_fields(fields: BTreeMap<String, String>) -> QuoteInput {
        let cells = fields
            .into_iter()
            .filter(|(name, _)| COLUMNS.iter().any(|c| c.name == name))
            .collect();
        QuoteInput { cells }
    }

    /// Every column of a saved quote, written as the form shows it and the export writes it.
    pub fn from_draft(draft: &QuoteDraft) -> QuoteInput {
        let cells = COLUMNS
            .iter()
            .map(|c| (c.name.to_owned(), cell(draft, c.name)))
            .collect();
        QuoteInput { cells }
    }

    /// The text of `column`, when given.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.cells.get(column).map(String::as_str)
    }

    /// Sets the text of `column` (a column of the format).
    pub fn set(&mut self, column: &'static str, text: String) {
        debug_assert!(COLUMNS.iter().any(|c| c.name == column), "{column} is not a column");
        self.cells.insert(column.to_owned(), text);
    }

    /// The cells by column name.
    pub fn cells(&self) -> &BTreeMap<String, String> {
        &self.cells
    }

    /// The cells by column name, to change in place (numbers normalised as typed).
    pub fn cells_mut(&mut self) -> &mut BTreeMap<String, String> {
        &mut self.cells
    }

    /// The cells by column name.
    pub fn into_cells(self) -> BTreeMap<String, String> {
        self.cells
    }

    /// Reads the quote: the draft and every problem of its cells, as an imported row is read;
    /// [`ImportError::MissingColumns`] when a required column is not given at all.
    pub fn read(&self) -> Result<ImportRow, ImportError> {
        let (names, values) = self
            .cells
            .iter()
            .map(|(name, text)| (name.clone(), text.as_str()))
            .unzip();
        read_input(names, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quotes::{CsvFormat, ImportDefaults, import};

    const QUOTES: &[u8] = include_bytes!("fixtures/nodeledger_quotes.csv");

    fn imported() -> Vec<QuoteDraft> {
        let defaults = ImportDefaults::new("", crate::quotes::Date::EPOCH, None);
        let preview = import(QUOTES, Some(CsvFormat::NodeLedger), &defaults).expect("the fixture imports");
        preview.rows.into_iter().filter_map(|r| r.draft).collect()
    }

    #[test]
    fn a_saved_quote_reads_back_to_itself_through_its_cells() {
        let drafts = imported();
        assert!(drafts.len() >= 3, "the fixture's quotes");
        for draft in drafts {
            let input = QuoteInput::from_draft(&draft);
            let row = input.read().expect("every column given");
            assert!(row.errors.is_empty(), "{}: {:?}", draft.reference, row.errors);
            assert_eq!(row.draft.as_ref(), Some(&draft), "{}", draft.reference);
        }
    }

    #[test]
    fn a_name_that_looks_like_a_formula_stays_as_typed() {
        let mut draft = imported().remove(0);
        draft.vendor = "=HYPERLINK(\"x\")".to_owned();
        let input = QuoteInput::from_draft(&draft);
        assert_eq!(
            input.get("vendor"),
            Some("=HYPERLINK(\"x\")"),
            "no CSV quoting in a form's value"
        );
        let row = input.read().expect("read");
        assert_eq!(row.draft.map(|d| d.vendor).as_deref(), Some("=HYPERLINK(\"x\")"));
    }

    #[test]
    fn cells_are_checked_as_an_imported_row_and_missing_columns_refused() {
        let mut input = QuoteInput::from_draft(&imported().remove(0));
        input.set("price.on_demand_hourly", "twelve".to_owned());
        let row = input.read().expect("read");
        assert!(row.draft.is_none() || !row.errors.is_empty());
        assert!(
            row.errors
                .iter()
                .any(|e| e.column.as_deref() == Some("price.on_demand_hourly")),
            "{:?}",
            row.errors
        );
        let only_vendor = QuoteInput::from_fields(BTreeMap::from([
            ("vendor".to_owned(), "Acme".to_owned()),
            ("x".into(), "y".into()),
        ]));
        assert_eq!(only_vendor.get("x"), None, "a field that is no column is dropped");
        assert!(matches!(only_vendor.read(), Err(ImportError::MissingColumns { .. })));
    }
}
