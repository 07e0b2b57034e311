//! What the import page shows after a check: the rows the file would create (key fields, each
//! problem in its cell, skipped rows marked), the catalog's missing validity date, and the
//! problems of rows beyond the first ones listed.

use super::{ImportOutcome, Problem};
use crate::i18n::{Msg, t, use_locale};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One cell of a previewed row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellView {
    /// Which key field (`vendor`, `reference`, `gpu`, `vram`, `price`, `valid_until`, `region`).
    pub key: String,
    /// The value as it will be saved, or the file's text for a cell that could not be read.
    pub text: String,
    /// What is wrong with this cell, in the user's language.
    pub problems: Vec<String>,
}

/// One row of the file in the preview.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowView {
    /// Line (header = 1).
    pub line: u64,
    /// `ready` (becomes a quote), `error` or `skipped`.
    pub status: String,
    /// Why a skipped row is left out, in the user's language.
    pub skipped_because: String,
    /// The key fields, in column order.
    pub cells: Vec<CellView>,
    /// Problems outside the key fields (`column: why`).
    pub other: Vec<String>,
}

#[cfg(feature = "ssr")]
pub(super) mod build {
    use super::{CellView, RowView};
    use crate::{
        i18n::Locale,
        services::quote_import::{KeyField, PreviewRow, RowProblem, RowStatus},
        texts::quotes as text,
    };

    /// A service row in the reader's language.
    pub fn row_view(locale: Locale, row: PreviewRow) -> RowView {
        let (status, skipped_because) = match row.status {
            RowStatus::Ready => ("ready", String::new()),
            RowStatus::Invalid => ("error", String::new()),
            RowStatus::Skipped(reason) => ("skipped", text::skip_reason(locale, reason)),
        };
        let cells = KeyField::ALL
            .iter()
            .zip(row.cells)
            .map(|(key, cell)| CellView {
                key: key.name().to_owned(),
                text: cell.text,
                problems: cell.problems.iter().map(|p| p.message(locale)).collect(),
            })
            .collect();
        RowView {
            line: row.line,
            status: status.to_owned(),
            skipped_because,
            cells,
            other: row.other.iter().map(|p| located(locale, p)).collect(),
        }
    }

    /// `Column: why`, or only why when the problem is the row's.
    fn located(locale: Locale, p: &RowProblem) -> String {
        match &p.column {
            Some(c) => format!("{}: {}", text::column_label(locale, c), p.message(locale)),
            None => p.message(locale),
        }
    }
}

/// The column headings of the preview, in the order of [`CellView::key`].
const HEADINGS: [Msg; 7] = [
    Msg::QfVendor,
    Msg::QfReference,
    Msg::ImportsColGpu,
    Msg::ImportsColVram,
    Msg::ImportsColPrice,
    Msg::QfValidUntil,
    Msg::QfSpecRegion,
];

fn cell_view(cell: CellView, pending_date: bool) -> impl IntoView {
    let invalid = !cell.problems.is_empty();
    let text = if cell.text.is_empty() && cell.key == "valid_until" && pending_date {
        view! { <span class="hint">{t(Msg::ImportsValidUntilPending)}</span> }.into_any()
    } else {
        cell.text.into_any()
    };
    view! {
        <td data-col=cell.key aria-invalid=invalid.then_some("true")>
            {text}
            {cell.problems.into_iter().map(|p| view! { <div class="field-error">{p}</div> }).collect_view()}
        </td>
    }
}

/// One row; `saved` once the import ran, when a ready row has become a quote.
fn row_view(row: RowView, pending_date: bool, saved: bool) -> impl IntoView {
    let (class, label) = match row.status.as_str() {
        "ready" if saved => ("verdict verdict-valid", t(Msg::ImportsStatusCreated)),
        "ready" => ("verdict verdict-valid", t(Msg::ImportsStatusReady)),
        "skipped" => ("verdict verdict-warn", t(Msg::ImportsStatusSkipped)),
        _ => ("verdict verdict-invalid", t(Msg::ImportsStatusError)),
    };
    view! {
        <tr data-line=row.line data-status=row.status.clone()>
            <td class="num">{row.line}</td>
            <td data-col="status">
                <span class=class>{label}</span>
                {(!row.skipped_because.is_empty()).then(|| view! { <div class="hint">{row.skipped_because}</div> })}
                {row.other.into_iter().map(|p| view! { <div class="field-error">{p}</div> }).collect_view()}
            </td>
            {row.cells.into_iter().map(|c| cell_view(c, pending_date)).collect_view()}
        </tr>
    }
}

/// The rows table, and how many rows it leaves out.
fn rows_table(rows: Vec<RowView>, more: usize, pending_date: bool, saved: bool) -> impl IntoView {
    let locale = use_locale();
    let shown = rows.len();
    view! {
        <h2>{t(Msg::ImportsRowsTitle)}</h2>
        <div class="table-scroll">
            <table class="table" data-testid="import-rows">
                <thead>
                    <tr>
                        <th class="num">{t(Msg::ImportColLine)}</th>
                        <th>{t(Msg::ImportsColStatus)}</th>
                        {HEADINGS.into_iter().map(|m| view! { <th>{t(m)}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{rows.into_iter().map(|r| row_view(r, pending_date, saved)).collect_view()}</tbody>
            </table>
        </div>
        {(more > 0).then(|| view! {
            <p class="table-meta" data-testid="import-more-rows">
                {locale.fmt(Msg::ImportsMoreRows, &[("shown", &shown.to_string()), ("more", &more.to_string())])}
            </p>
        })}
    }
}

/// The problems of rows the table does not list (a file longer than the preview).
fn unlisted_problems(problems: Vec<Problem>) -> impl IntoView {
    view! {
        <h2>{t(Msg::ImportsUnlistedTitle)}</h2>
        <table class="table" data-testid="import-problems">
            <thead><tr><th class="num">{t(Msg::ImportColLine)}</th><th>{t(Msg::ImportColColumn)}</th><th>{t(Msg::ImportColProblem)}</th></tr></thead>
            <tbody>
                {problems.into_iter().map(|p| view! {
                    <tr><td class="num">{p.line}</td><td>{p.column}</td><td>{p.message}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// The outcome of a check or an import: file error, summary, what was saved, the rows.
pub fn outcome_view(o: ImportOutcome) -> impl IntoView {
    let locale = use_locale();
    let has_errors = o.bad > 0;
    let last_listed = o.rows.last().map_or(0, |r| r.line);
    let unlisted: Vec<Problem> = if o.more_rows > 0 {
        o.problems.into_iter().filter(|p| p.line > last_listed).collect()
    } else {
        Vec::new()
    };
    let pending_date = o.asks_valid_until && o.saved.is_none();
    let saved = o.saved.is_some();
    view! {
        <section class="card" data-testid="import-result">
            {o.file_error.map(|e| view! { <p class="form-error" role="alert">{e}</p> })}
            {(!o.summary.is_empty()).then(|| view! { <p data-testid="import-summary">{o.summary.clone()}</p> })}
            {o.saved.map(|n| view! {
                <p class="form-ok" role="status" data-testid="import-done">
                    {locale.count(Msg::ImportDoneOne, Msg::ImportDone, n as u64)} " " <a href="/quotes">{t(Msg::QuotesBack)}</a>
                </p>
            })}
            {has_errors.then(|| view! { <p class="form-error">{t(Msg::ImportFixAndRetry)}</p> })}
            {(!o.rows.is_empty()).then(|| rows_table(o.rows, o.more_rows, pending_date, saved))}
            {(!unlisted.is_empty()).then(|| unlisted_problems(unlisted))}
        </section>
    }
}
