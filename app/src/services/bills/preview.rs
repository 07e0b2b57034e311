//! What checking (or importing) a bill found, as the bill section's preview shows it: the
//! summary, the problems, the reconciliation with the bill added, and every line — the first
//! [`LISTED_LINES`] in a table, the others folded under it, so that no line is hidden.

use super::{
    Checked, Refusal,
    section::{LISTED_LINES, line_view, recon_view, tie_text},
    texts,
};
use crate::{
    domain::bills::matching,
    i18n::{Locale, Msg},
    views::bills::{BillPreview, BillProblem, LineView},
};

/// Lines sent in all (the first listed, the others folded): a bill of more says how many are
/// left out, the preview stays a bounded page.
pub const PREVIEW_LINES: usize = 2_000;

/// The preview of a checked (or refused) bill.
#[must_use]
pub fn preview(locale: Locale, checked: &Result<Checked, Refusal>, saved: Option<i64>) -> BillPreview {
    let c = match checked {
        Ok(c) => c,
        Err(r) => {
            return BillPreview {
                file_error: Some(texts::refusal(locale, r)),
                ..BillPreview::default()
            };
        }
    };
    let matched = c.matched();
    let unmatched = c.lines.len() - matched;
    let summary = locale.fmt(
        Msg::BillsSummary,
        &[
            ("layout", texts::layout(locale, c.layout)),
            ("lines", &(c.lines.len() + c.error_count).to_string()),
            ("matched", &matched.to_string()),
            ("unmatched", &unmatched.to_string()),
            ("errors", &c.error_count.to_string()),
        ],
    );
    let (lines, other_lines) = listed_and_other(locale, c);
    BillPreview {
        file_error: None,
        summary,
        problems: c
            .errors
            .iter()
            .map(|e| BillProblem {
                line: e.line,
                column: e.column.clone(),
                message: texts::line_error(locale, &e.code),
            })
            .collect(),
        more_lines: c.lines.len().saturating_sub(LISTED_LINES),
        lines,
        other_lines,
        matched,
        unmatched,
        tie: matching::tie(&c.lines).map_or_else(String::new, |t| tie_text(locale, t, &c.currency)),
        reconciliation: c.reconciliation.as_ref().map(|r| recon_view(locale, r, None)),
        ready: c.error_count == 0 && c.reconciliation.is_some() && saved.is_none(),
        saved,
    }
}

/// The lines in the preview's order (credits and corrections, the lines not matched, the matched
/// charges): the first [`LISTED_LINES`], then the others up to [`PREVIEW_LINES`] in all.
fn listed_and_other(locale: Locale, c: &Checked) -> (Vec<LineView>, Vec<LineView>) {
    let mut all: Vec<LineView> = matching::preview_order(&c.lines)
        .into_iter()
        .take(PREVIEW_LINES)
        .map(|i| line_view(locale, &c.lines[i].0, c.lines[i].1))
        .collect();
    let other = all.split_off(LISTED_LINES.min(all.len()));
    (all, other)
}
