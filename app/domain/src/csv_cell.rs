//! One CSV cell as NodeLedger writes it: quoted when it holds a comma, quote or line break
//! (RFC 4180), and neutralised against formula injection (OWASP "CSV Injection"): a cell that a
//! spreadsheet would run as a formula — it starts with `=`, `+`, `-`, `@`, a tab or a carriage
//! return — gets a leading `'`, which spreadsheets show as text. Plain numbers (`-12.50`) are
//! left as they are: a spreadsheet reads them as numbers, not formulas.
//!
//! [`restore`] undoes [`neutralise`] exactly, so a file NodeLedger exported imports back to the
//! same values. A cell that already starts with `'` before a trigger (`'=x`) is given one more
//! `'`, so that the round trip holds for it too.

/// Characters that make a spreadsheet read a cell as a formula.
const TRIGGERS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether `text` is a plain decimal number: an optional `-`, digits, and an optional fraction.
fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a spreadsheet could read `text` as a formula, or `text` is `'` before such a text.
fn needs_mark(text: &str) -> bool {
    match text.chars().next() {
        Some('\'') => needs_mark(&text[1..]),
        Some(c) => TRIGGERS.contains(&c) && !is_plain_number(text),
        None => false,
    }
}

/// The text with a leading `'` when a spreadsheet would otherwise read it as a formula.
#[must_use]
pub fn neutralise(text: &str) -> String {
    if needs_mark(text) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// The text a [`neutralise`]d cell stood for (any other text is returned as it is).
#[must_use]
pub fn restore(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_mark(rest) => rest,
        _ => cell,
    }
}

/// The cell as it goes into the file: neutralised, then quoted if it holds `,` `"` or a line break.
#[must_use]
pub fn field(text: &str) -> String {
    let safe = neutralise(text);
    if safe.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", safe.replace('"', "\"\""))
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formulas_are_shown_as_text_and_numbers_stay_numbers() {
        assert_eq!(
            field("=HYPERLINK(\"http://evil.example\",\"Click\")"),
            "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"Click\"\")\""
        );
        assert_eq!(field("+cmd"), "'+cmd");
        assert_eq!(field("-2+3"), "'-2+3");
        assert_eq!(field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(field("\tx"), "'\tx");
        assert_eq!(field("\rx"), "\"'\rx\"");
        assert_eq!(field("-12.50"), "-12.50", "a negative number is a number");
        assert_eq!(field("-12."), "'-12.");
        assert_eq!(field("Acme, Inc."), "\"Acme, Inc.\"");
        assert_eq!(field("L4 24GB"), "L4 24GB");
        assert_eq!(field(""), "");
    }

    #[test]
    fn a_leading_quote_before_a_formula_is_kept_through_the_round_trip() {
        assert_eq!(neutralise("'=x"), "''=x");
        assert_eq!(restore("''=x"), "'=x");
        assert_eq!(neutralise("'quoted"), "'quoted", "no formula: unchanged");
        assert_eq!(restore("'quoted"), "'quoted");
    }

    proptest! {
        #[test]
        fn restore_undoes_neutralise(text in "['=+@\\t\\r-]{0,3}[ -~]{0,12}") {
            let cell = neutralise(&text);
            prop_assert_eq!(restore(&cell), text.as_str());
        }

        #[test]
        fn no_cell_starts_a_formula(text in "['=+@\\t\\r-]{0,3}[ -~]{0,12}") {
            let cell = neutralise(&text);
            let first = cell.chars().next();
            prop_assert!(first.is_none_or(|c| !TRIGGERS.contains(&c)) || is_plain_number(&cell), "{cell:?}");
        }
    }
}
