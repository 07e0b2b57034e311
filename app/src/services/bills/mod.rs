//! Importing the vendor's bill onto an approved order and reconciling it with the order's
//! estimate: the one use case behind the order page's bill section, its export and the bench.
//!
//! 1. [`check`] reads the file ([`crate::domain::bills::open`], streamed), matches every line to
//!    the order's rental, and refuses — naming line and column — a file already imported (same
//!    SHA-256), a line already imported (same charge, any file), a period overlapping a bill
//!    already imported onto the order (corrections of earlier periods excepted: FOCUS writes
//!    them with the period they correct), or a currency the team has no exchange rate for.
//!    Nothing is written.
//! 2. The [`Checked`] bill lists every line error; only a bill without one can be saved.
//! 3. [`import`] with `save` stores the bill and all its lines (matched or not) in one
//!    `BEGIN IMMEDIATE` transaction with its audit event (`bill_imported`): all or nothing.
//!
//! A bill in another currency is converted at the team's rate on its invoice date (the end of
//! its period), and keeps that rate: a rate entered later changes no bill already imported.
//!
//! The reconciliation ([`crate::domain::bills::reconcile`]) covers every bill of the order, the
//! new one included, against the frozen estimate of the approved revision the rental follows
//! ([`estimate`]). [`section`] builds what the order page shows of it.

pub mod estimate;
pub mod preview;
mod save;
pub mod section;
pub mod texts;

pub use save::{Outcome, import, set_threshold};

use crate::{
    domain::{
        bills::{
            BillLine, ChargeKind, Layout, LineError, MAX_LINES,
            matching::{RentalSpan, Unmatched, placement},
            open,
            reconcile::{Billed, Inputs, ReconcileError, Reconciliation, conversion_factor, reconcile},
            timestamp,
        },
        tco::{Currency, ExchangeRate, latest_rate, rate_on},
    },
    error::AppError,
    store::{self, Db, rentals::RentalRow},
};
use estimate::OrderEstimate;
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

mod check;
pub use check::check;
#[cfg(test)]
use check::read_lines;
use check::{add_line, factor_for, no_rate};

/// Line errors kept for the preview (all are counted).
pub const MAX_ERRORS: usize = 500;

/// Why a bill cannot be imported at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The order has no rental recorded: lines have nothing to match.
    NoRental,
    /// The approved revision froze no estimate of the chosen quote.
    NoEstimate,
    /// The file has no known layout, or no header.
    File(crate::domain::bills::FileError),
    /// The file has a header and no line.
    NoLines,
    /// The file has more lines than [`crate::domain::bills::MAX_LINES`]; reading stopped there.
    TooManyLines {
        /// The most lines a bill may have.
        limit: u64,
    },
    /// The bill's currency has no rate to the estimate's (or is not a currency NodeLedger knows).
    NoRate {
        /// The bill's currency as written.
        code: String,
        /// The estimate's currency.
        to: Currency,
        /// Where it is first written.
        line: u64,
        /// Its column.
        column: &'static str,
    },
    /// The bill's figures add up beyond the range of exact decimals (numbers no real bill has).
    TooLarge,
    /// The same file was imported before.
    DuplicateFile {
        /// The order it was imported onto.
        order_id: i64,
    },
    /// A line charges what a bill already imported charged.
    DuplicateLine {
        /// The line.
        line: u64,
        /// The bill it was imported in.
        bill_id: i64,
    },
    /// A line's period overlaps a bill already imported onto the order.
    Overlap {
        /// The first such line.
        line: u64,
        /// Its period start column.
        column: &'static str,
        /// The other bill.
        bill_id: i64,
        /// Its period.
        start: String,
        /// Its period end.
        end: String,
    },
}

/// A bill read, matched and reconciled; nothing saved yet.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The layout read.
    pub layout: Layout,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    /// Every line read, with why it is not the rental's (`None`: matched).
    pub lines: Vec<(BillLine, Option<Unmatched>)>,
    /// Each line's [`BillLine::key`], computed once (same order as `lines`).
    pub keys: Vec<String>,
    /// The first [`MAX_ERRORS`] line errors, in file order.
    pub errors: Vec<LineError>,
    /// How many line errors there are.
    pub error_count: usize,
    /// The order's reconciliation with this bill added (only for a bill without errors).
    pub reconciliation: Option<Reconciliation>,
    /// The bill's currency.
    pub currency: String,
    /// The rental matched against.
    pub rental_id: i64,
    /// The rate the bill is converted at, when its currency is not the estimate's: the team's
    /// rate on its invoice date.
    pub rate: Option<ExchangeRate>,
    /// The end of the invoice's billing period when the file states it (FOCUS
    /// `BillingPeriodEnd`).
    pub billing_period_end: Option<i64>,
}

impl Checked {
    /// Lines matched to the rental.
    #[must_use]
    pub fn matched(&self) -> usize {
        self.lines.iter().filter(|(_, u)| u.is_none()).count()
    }

    /// The bill's total, in its currency.
    #[must_use]
    pub fn total(&self) -> Decimal {
        self.lines.iter().map(|(l, _)| l.cost).sum()
    }

    /// What the lines matched to the rental cost, in the bill's currency.
    #[must_use]
    pub fn matched_total(&self) -> Decimal {
        self.lines
            .iter()
            .filter(|(_, u)| u.is_none())
            .map(|(l, _)| l.cost)
            .sum()
    }

    /// The bill's own period, which may not overlap another bill of the order: [`Checked::period`]
    /// of its lines other than corrections; `None` for a bill of corrections only, which carry the
    /// periods they correct and overlap those bills by design.
    #[must_use]
    pub fn own_period(&self) -> Option<(i64, i64)> {
        self.lines
            .iter()
            .any(|(l, _)| l.kind != ChargeKind::Correction)
            .then(|| self.period())
    }

    /// Start and end of the matched lines' periods (of every line when none matched). Corrections
    /// of earlier periods do not count when the bill has other lines: they carry the period they
    /// correct, not the bill's.
    #[must_use]
    pub fn period(&self) -> (i64, i64) {
        let own: Vec<&(BillLine, Option<Unmatched>)> = self
            .lines
            .iter()
            .filter(|(l, _)| l.kind != ChargeKind::Correction)
            .collect();
        let all: Vec<&(BillLine, Option<Unmatched>)> = if own.is_empty() {
            self.lines.iter().collect()
        } else {
            own
        };
        let matched: Vec<&BillLine> = all.iter().filter(|(_, u)| u.is_none()).map(|(l, _)| l).collect();
        let lines: Vec<&BillLine> = if matched.is_empty() {
            all.iter().map(|(l, _)| l).collect()
        } else {
            matched
        };
        let start = lines.iter().map(|l| l.period_start).min().unwrap_or_default();
        let end = lines.iter().map(|l| l.period_end).max().unwrap_or_default();
        (start, end)
    }
}

/// The rental of the order as bills are matched against it.
pub(crate) fn span_of(rental: &RentalRow) -> RentalSpan {
    RentalSpan {
        resources: rental.resources.clone(),
        started_at: timestamp::parse(&rental.started_at).unwrap_or_default(),
        released_at: rental.released_at.as_deref().and_then(timestamp::parse),
    }
}

/// What a bill of the order is reconciled with: the rental and its estimate.
pub(crate) struct Basis {
    pub rental: RentalRow,
    pub estimate: OrderEstimate,
    pub threshold_pct: Decimal,
}

/// Loads the rental and its estimate; `Ok(Err)` when there is none.
pub(crate) async fn basis(db: &Db, team_id: i64, order_id: i64) -> Result<Result<Basis, Refusal>, AppError> {
    store::orders::latest(db, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let Some(rental) = store::rentals::of_order(db, team_id, order_id).await? else {
        return Ok(Err(Refusal::NoRental));
    };
    let content = store::orders::revision_content(db, team_id, rental.order_revision_id).await?;
    let Some(estimate) = content.as_deref().and_then(estimate::of_content) else {
        return Ok(Err(Refusal::NoEstimate));
    };
    let threshold_pct = store::bills::threshold(db, team_id).await?;
    Ok(Ok(Basis {
        rental,
        estimate,
        threshold_pct,
    }))
}

/// Reconciles the order's stored matched lines, plus `extra` (a bill being imported, in
/// `extra_currency`, converted at `extra_rate`), with its estimate. Each stored bill is converted
/// at the rate it kept; one imported before rates were kept, at the team's latest rate.
pub(crate) async fn reconciliation(
    db: &Db,
    team_id: i64,
    order_id: i64,
    basis: &Basis,
    extra: &[(BillLine, Option<Unmatched>)],
    extra_rate: Option<&ExchangeRate>,
) -> Result<Result<Reconciliation, Refusal>, AppError> {
    let stored = store::bills::lines_of_order(db, team_id, order_id, true, i64::MAX).await?;
    let to = basis.estimate.currency;
    let rates = store::exchange_rates::records(db, team_id).await?;
    // Placed against the rental as it is now: a release recorded after a bill was imported
    // turns that bill's later lines into charges after release.
    let span = span_of(&basis.rental);
    let mut billed = Billed::default();
    for s in &stored {
        let factor = match s.rate {
            Some(kept) => Some(kept),
            None => factor_for(&s.line, to, |from| latest_rate(&rates, from, to)),
        };
        if let Err(refusal) = add_line(&mut billed, &s.line, factor, to, &span) {
            return Ok(Err(refusal));
        }
    }
    for (line, _) in extra.iter().filter(|(_, u)| u.is_none()) {
        let factor = factor_for(line, to, |_| extra_rate);
        if let Err(refusal) = add_line(&mut billed, line, factor, to, &span) {
            return Ok(Err(refusal));
        }
    }
    let started = timestamp::parse(&basis.rental.started_at).unwrap_or_default();
    let stopped = basis.rental.stopped_at.as_deref().and_then(timestamp::parse);
    let released = basis.rental.released_at.as_deref().and_then(timestamp::parse);
    let inputs = Inputs {
        currency: to,
        planned: &basis.estimate.planned,
        billed: &billed,
        // Every line is in the estimate's currency by now (converted as it was added).
        bill_currency: to,
        rate: None,
        ran_node_hours: estimate::ran_node_hours(started, stopped, released, basis.estimate.nodes),
        gpus_per_node: basis.estimate.gpus_per_node,
        threshold_pct: basis.threshold_pct,
    };
    Ok(reconcile(&inputs).map_err(|e| match e {
        ReconcileError::NoRate { from, .. } => no_rate(from.code(), to, 0),
        ReconcileError::TooLarge => Refusal::TooLarge,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Locale;

    /// A simple bill of `n` tiny lines of `i-1`, each its own charge.
    fn tiny_bill(n: u64) -> Vec<u8> {
        let mut text = String::from("resource_id,period_start,period_end,amount,currency\n");
        for i in 0..n {
            text.push_str(&format!("i-1,2026-12-01,2026-12-02,{i},CNY\n"));
        }
        text.into_bytes()
    }

    fn span() -> RentalSpan {
        RentalSpan {
            resources: vec!["i-1".into()],
            started_at: 1_764_547_200,
            released_at: None,
        }
    }

    /// The largest bill body holds ≈ 830,000 such lines: reading stops past the cap, and the
    /// refusal names it in both languages.
    #[test]
    fn a_bill_past_the_line_cap_is_refused_naming_the_cap() {
        let at_cap = read_lines(&tiny_bill(MAX_LINES), &span()).map(|r| r.lines.len());
        assert_eq!(at_cap.ok(), usize::try_from(MAX_LINES).ok());
        let refusal = read_lines(&tiny_bill(MAX_LINES + 1), &span()).err();
        assert_eq!(refusal, Some(Refusal::TooManyLines { limit: MAX_LINES }));
        let refusal = Refusal::TooManyLines { limit: MAX_LINES };
        for locale in [Locale::En, Locale::ZhCn] {
            let text = texts::refusal(locale, &refusal);
            assert!(text.contains("150,000"), "{text}");
        }
    }
}
