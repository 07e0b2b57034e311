//! The bill section's tables: the reconciliation with its chart, bill lines (unmatched lines on
//! the order page, every line in the import preview), the bills imported, the problems found.

use crate::{
    i18n::{Msg, t},
    views::bills::{BillSummary, LineView, ReconRow, ReconView},
};
// The import preview is rendered on the server (the import form's island shows its markup).
#[cfg(feature = "ssr")]
use crate::views::bills::{BillPreview, BillProblem};
use leptos::prelude::*;

/// The reconciliation table, the verdict, the chart. On a phone the table is one card per
/// component (`.table.cards`), each figure under its column's name, so the difference and the
/// reasons are read without scrolling sideways.
pub fn recon_view(r: ReconView) -> impl IntoView {
    let verdict_class = if r.flagged { "callout callout-warn" } else { "callout" };
    view! {
        <div data-testid="bill-reconciliation">
            <table class="table cards">
                <thead><tr>
                    <th>{t(Msg::BillsColComponent)}</th><th class="num">{t(Msg::BillsColEstimated)}</th>
                    <th class="num">{t(Msg::BillsColBilled)}</th><th class="num">{t(Msg::BillsColDifference)}</th>
                    <th>{t(Msg::BillsColWhy)}</th>
                </tr></thead>
                <tbody>
                    {r.rows.into_iter().map(recon_row).collect_view()}
                </tbody>
                <tfoot><tr>
                    <th>{t(Msg::BillsColTotal)}</th><th class="num" data-testid="bill-estimated">{r.estimated}</th>
                    <th class="num" data-testid="bill-billed">{r.billed}</th><th class="num" data-testid="bill-difference">{r.difference}</th>
                    <th data-testid="bill-variance">{r.variance}</th>
                </tr></tfoot>
            </table>
            {r.rate_note.map(|n| view! { <p class="hint">{n}</p> })}
            <p class=verdict_class data-testid="bill-verdict">{r.verdict}</p>
            <img class="chart bill-chart" data-testid="bill-chart" src=r.chart_src alt=r.chart_alt />
        </div>
    }
}

/// One component's row; a reason whose quantities are rounded carries the exact sentence as
/// its `title`.
fn recon_row(row: ReconRow) -> impl IntoView {
    let mut exact = row.reasons_exact.into_iter();
    let reasons = row
        .reasons
        .into_iter()
        .map(|why| {
            let title = exact.next().filter(|e| *e != why);
            view! { <li data-testid="bill-reason" title=title>{why}</li> }
        })
        .collect_view();
    view! {
        <tr data-testid=format!("bill-row-{}", row.component)>
            <td data-label=t(Msg::BillsColComponent)>{row.name}</td>
            <td class="num" data-label=t(Msg::BillsColEstimated)>{row.estimated}</td>
            <td class="num" data-label=t(Msg::BillsColBilled)>{row.billed}</td>
            <td class="num" data-label=t(Msg::BillsColDifference) data-testid="bill-row-difference">{row.difference}</td>
            <td data-label=t(Msg::BillsColWhy) data-testid="bill-row-why"><ul class="plain">{reasons}</ul></td>
        </tr>
    }
}

/// Bill lines; with `reasons`, the column saying why each is not matched.
pub fn lines_table(lines: Vec<LineView>, reasons: bool, testid: &'static str) -> impl IntoView {
    view! {
        <table class="table" data-testid=testid>
            <thead><tr>
                <th class="num">{t(Msg::BillsColLine)}</th><th>{t(Msg::BillsColResource)}</th><th>{t(Msg::BillsColPeriod)}</th>
                <th>{t(Msg::BillsColComponent)}</th><th>{t(Msg::BillsColDescription)}</th><th class="num">{t(Msg::BillsColCost)}</th>
                {reasons.then(|| view! { <th>{t(Msg::BillsColReason)}</th> })}
            </tr></thead>
            <tbody>
                {lines.into_iter().map(|l| view! {
                    <tr>
                        <td class="num">{l.line}</td><td><code>{l.resource_id}</code></td><td>{l.period}</td>
                        <td>{l.component}{(!l.kind.is_empty()).then(|| view! { " " <span class="verdict">{l.kind.clone()}</span> })}</td>
                        <td>{l.description}</td><td class="num">{l.cost}</td>
                        {reasons.then(|| view! { <td>{l.unmatched.clone()}</td> })}
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// The bills imported onto the order.
pub fn bills_list(bills: Vec<BillSummary>) -> impl IntoView {
    view! {
        <h3>{t(Msg::BillsImportedTitle)}</h3>
        {if bills.is_empty() {
            view! { <p class="hint" data-testid="bill-none">{t(Msg::BillsNoBill)}</p> }.into_any()
        } else {
            view! {
                <ul class="plain" data-testid="bill-list">
                    {bills.into_iter().map(|b| view! {
                        <li>
                            <strong>{b.title}</strong><br />
                            <span class="hint">{b.detail}</span>
                            {(!b.tie.is_empty()).then(|| view! { <br /><span data-testid="bill-saved-tie">{b.tie}</span> })}
                        </li>
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
    }
}

#[cfg(feature = "ssr")]
fn problems_table(problems: Vec<BillProblem>) -> impl IntoView {
    view! {
        <table class="table" data-testid="bill-problems">
            <thead><tr><th class="num">{t(Msg::BillsColLine)}</th><th>{t(Msg::BillsColColumn)}</th><th>{t(Msg::BillsColProblem)}</th></tr></thead>
            <tbody>
                {problems.into_iter().map(|p| view! { <tr><td class="num">{p.line}</td><td><code>{p.column}</code></td><td>{p.message}</td></tr> }).collect_view()}
            </tbody>
        </table>
    }
}

/// What checking a bill found: the refusal, or the summary, problems, reconciliation and lines.
#[cfg(feature = "ssr")]
pub fn preview_view(p: BillPreview) -> impl IntoView {
    if let Some(e) = p.file_error {
        return view! { <p class="form-error" role="alert" data-testid="bill-file-error">{e}</p> }.into_any();
    }
    let unmatched = p.lines.iter().chain(&p.other_lines).any(|l| !l.unmatched.is_empty());
    let listed = p.lines.len();
    view! {
        <div data-testid="bill-preview">
            <p data-testid="bill-summary">{p.summary}</p>
            {(!p.tie.is_empty()).then(|| view! { <p data-testid="bill-tie"><strong>{p.tie}</strong></p> })}
            {(!p.problems.is_empty()).then(|| problems_table(p.problems))}
            {p.saved.map(|_| view! { <p class="callout" role="status" data-testid="bill-saved">{t(Msg::BillsSaved)}</p> })}
            {p.reconciliation.filter(|_| p.saved.is_none()).map(recon_view)}
            <h3>{t(Msg::BillsLinesTitle)}</h3>
            {lines_table(p.lines, unmatched, "bill-preview-lines")}
            {other_lines(listed, p.more_lines, p.other_lines, unmatched)}
        </div>
    }
    .into_any()
}

/// Under the first lines: how many of the bill's lines they are, and the others folded in a
/// `<details>` (nothing when every line is listed); a bill too long to send whole says how many
/// lines are left out.
#[cfg(feature = "ssr")]
fn other_lines(listed: usize, more: usize, other: Vec<LineView>, reasons: bool) -> impl IntoView {
    let locale = crate::i18n::use_locale();
    let left_out = more.saturating_sub(other.len());
    (more > 0).then(|| {
        let shown = locale.fmt(
            Msg::BillsLinesShown,
            &[("shown", &listed.to_string()), ("total", &(listed + more).to_string())],
        );
        let summary = locale.fmt(Msg::BillsOtherLines, &[("n", &other.len().to_string())]);
        view! {
            <p class="hint" data-testid="bill-lines-shown">{shown}</p>
            {(!other.is_empty()).then(|| view! {
                <details class="breakdown" data-testid="bill-other-lines">
                    <summary>{summary}</summary>
                    {lines_table(other, reasons, "bill-other-lines-table")}
                </details>
            })}
            {(left_out > 0).then(|| view! {
                <p class="hint">{locale.fmt(Msg::BillsMoreLines, &[("more", &left_out.to_string())])}</p>
            })}
        }
    })
}
