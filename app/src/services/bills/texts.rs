//! The bill's messages in the reader's language: components, reasons, line errors, refusals.

use super::Refusal;
use crate::{
    domain::{
        bills::{
            ChargeKind, Component, FileError, Layout, LineErrorCode,
            matching::Unmatched,
            reconcile::{PlannedUnit, Reason, Row},
        },
        money::{format_money, group},
        tco::Currency,
    },
    i18n::{Locale, Msg},
};
use rust_decimal::Decimal;

/// The name of a component.
#[must_use]
pub fn component(locale: Locale, c: Component) -> &'static str {
    locale.t(match c {
        Component::Compute => Msg::BillsCCompute,
        Component::StoppedCompute => Msg::BillsCStoppedCompute,
        Component::Disk => Msg::BillsCDisk,
        Component::Ip => Msg::BillsCIp,
        Component::Traffic => Msg::BillsCTraffic,
        Component::Snapshots => Msg::BillsCSnapshots,
        Component::Fees => Msg::BillsCFees,
        Component::Tax => Msg::BillsCTax,
    })
}

/// The name of a layout.
#[must_use]
pub fn layout(locale: Locale, l: Layout) -> &'static str {
    locale.t(match l {
        Layout::Focus => Msg::BillsLayoutFocus,
        Layout::NodeLedger => Msg::BillsLayoutNodeledger,
    })
}

/// "credit", "correction", or empty for a charge.
#[must_use]
pub fn kind(locale: Locale, k: ChargeKind) -> &'static str {
    match k {
        ChargeKind::Usage => "",
        ChargeKind::Credit => locale.t(Msg::BillsKCredit),
        ChargeKind::Correction => locale.t(Msg::BillsKCorrection),
    }
}

/// Why a line is not the rental's.
#[must_use]
pub fn unmatched(locale: Locale, u: Unmatched) -> &'static str {
    locale.t(match u {
        Unmatched::NoResource => Msg::BillsUNoResource,
        Unmatched::OtherResource => Msg::BillsUOtherResource,
        Unmatched::OutsidePeriod => Msg::BillsUOutsidePeriod,
    })
}

/// An amount with its sign: "+¥12.00", "-¥3.00".
#[must_use]
pub fn signed(amount: Decimal, currency: Currency) -> String {
    let text = format_money(amount, currency);
    if amount > Decimal::ZERO {
        format!("+{text}")
    } else {
        text
    }
}

/// "2026-11-01" at midnight UTC, else "2026-11-01 08:00 UTC": a corrected period as FOCUS
/// writes it (billing periods start and end at midnight).
fn day_or_moment(secs: i64) -> String {
    let text = crate::domain::bills::timestamp::format(secs);
    if text.get(11..19) == Some("00:00:00") {
        text.get(..10).unwrap_or_default().to_owned()
    } else {
        format!(
            "{} {} UTC",
            text.get(..10).unwrap_or_default(),
            text.get(11..16).unwrap_or_default()
        )
    }
}

/// How a reason writes its quantities: as the page shows them (two decimals at most), or exact
/// (the page's `title`, and the figure an export would hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figures {
    /// At most two decimals: "65.89 GB-month".
    Shown,
    /// Every digit: "65.8927 GB-month".
    Exact,
}

impl Figures {
    /// The quantity as this way of writing rounds it (a difference is of the rounded figures,
    /// so that the sentence adds up as read).
    fn round(self, d: Decimal) -> Decimal {
        match self {
            Self::Shown => d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero),
            Self::Exact => d,
        }
    }

    /// How far apart `a` and `b` are, of the figures as written, so that a sentence adds up as
    /// read ("65.89 against 60.5, 5.39 more").
    fn difference(self, a: Decimal, b: Decimal) -> String {
        self.round(a)
            .checked_sub(self.round(b))
            .map_or_else(String::new, |d| self.text(d.abs()))
    }

    fn text(self, d: Decimal) -> String {
        match self {
            Self::Shown => crate::domain::money::quantity_text(d),
            Self::Exact => crate::domain::money::grouped(d),
        }
    }
}

/// The unit a row's reasons count in: "h", "GPU-h", "GB-month", "GB".
#[must_use]
pub fn unit(locale: Locale, row: &Row) -> &'static str {
    locale.t(match (row.unit, row.per_gpu) {
        (PlannedUnit::Hours, Some(_)) => Msg::BillsUnitGpuHours,
        (PlannedUnit::Hours, None) => Msg::BillsUnitHours,
        (PlannedUnit::GbMonth, _) => Msg::BillsUnitGbMonth,
        (PlannedUnit::Gb, _) => Msg::BillsUnitGb,
        (PlannedUnit::Other, _) => Msg::BillsUnitOther,
    })
}

/// Every reason of a row, with its effect, its quantities written as `figures` says; first, when
/// the bill counts GPU-hours, at how many GPUs per node they were compared.
#[must_use]
pub fn reasons(locale: Locale, row: &Row, currency: Currency, figures: Figures) -> Vec<String> {
    let note = row
        .per_gpu
        .map(|gpus| locale.fmt(Msg::BillsPerGpuNote, &[("gpus", &gpus.to_string())]));
    let unit = unit(locale, row);
    let name = component(locale, row.component);
    note.into_iter()
        .chain(row.reasons.iter().map(|why| match why {
            Reason::Unplanned { .. } | Reason::NotBilled { .. } => named(locale, why, currency, name, row.estimated),
            _ => reason_with(locale, why, currency, unit, figures),
        }))
        .collect()
}

/// A reason that names what was billed and not planned, or planned and not billed: "Public IP:
/// planned, not billed"; `planned` is the row's estimate.
#[must_use]
pub fn named(locale: Locale, r: &Reason, currency: Currency, name: &str, planned: Decimal) -> String {
    let effect = signed(r.effect(), currency);
    let planned = format_money(planned, currency);
    let msg = if matches!(r, Reason::NotBilled { .. }) {
        Msg::BillsRNotBilled
    } else {
        Msg::BillsRUnplanned
    };
    locale.fmt(msg, &[("component", name), ("planned", &planned), ("effect", &effect)])
}

/// One reason, with its effect and its quantities as the page shows them; `unit` is what its
/// quantities count ([`unit`]).
#[must_use]
pub fn reason(locale: Locale, r: &Reason, currency: Currency, unit: &str) -> String {
    reason_with(locale, r, currency, unit, Figures::Shown)
}

/// One reason, its quantities written as `figures` says.
#[must_use]
pub fn reason_with(locale: Locale, r: &Reason, currency: Currency, unit: &str, figures: Figures) -> String {
    let number = |d: Decimal| figures.text(d);
    let effect = signed(r.effect(), currency);
    // Every digit of the prices, so that quantity × price is the effect shown.
    let price = |p: Decimal| crate::domain::money::format_exact_price(p, currency);
    match r {
        Reason::Credits { .. } => locale.fmt(Msg::BillsRCredits, &[("effect", &effect)]),
        Reason::Correction {
            period_start,
            period_end,
            ..
        } => locale.fmt(
            Msg::BillsRCorrection,
            &[
                ("start", &day_or_moment(*period_start)),
                ("end", &day_or_moment(*period_end)),
                ("effect", &effect),
            ],
        ),
        Reason::AfterRelease { .. } => locale.fmt(Msg::BillsRAfterRelease, &[("effect", &effect)]),
        Reason::Unplanned { .. } | Reason::NotBilled { .. } => named(locale, r, currency, unit, Decimal::ZERO),
        Reason::PriceDrift {
            quoted,
            billed,
            quantity,
            ..
        } => {
            let total = |p: Decimal| {
                p.checked_mul(*quantity)
                    .map_or_else(String::new, |t| format_money(t, currency))
            };
            locale.fmt(
                Msg::BillsRPriceDrift,
                &[
                    ("billed", &price(*billed)),
                    ("quoted", &price(*quoted)),
                    ("quantity", &number(*quantity)),
                    ("unit", unit),
                    ("billed_total", &total(*billed)),
                    ("quoted_total", &total(*quoted)),
                    ("effect", &effect),
                ],
            )
        }
        Reason::MoreHours {
            estimated,
            billed,
            agreed,
            effect: e,
        }
        | Reason::MoreUsage {
            estimated,
            billed,
            agreed,
            effect: e,
        } => {
            let hours = matches!(r, Reason::MoreHours { .. });
            let msg = match (hours, e.is_sign_negative()) {
                (true, false) => Msg::BillsRMoreHours,
                (true, true) => Msg::BillsRFewerHours,
                (false, false) => Msg::BillsRMoreUsage,
                (false, true) => Msg::BillsRLessUsage,
            };
            let words = (msg, unit, effect.as_str());
            quantity_reason(locale, words, (*estimated, *billed), &price(*agreed), figures)
        }
        Reason::MinimumBilling {
            ran, billed, agreed, ..
        } => locale.fmt(
            Msg::BillsRMinimumBilling,
            &[
                ("billed", &number(*billed)),
                ("ran", &number(*ran)),
                ("difference", &figures.difference(*billed, *ran)),
                ("agreed", &price(*agreed)),
                ("unit", unit),
                ("effect", &effect),
            ],
        ),
        Reason::Other { .. } => locale.fmt(Msg::BillsROther, &[("effect", &effect)]),
    }
}

/// "{billed} {unit} billed against {estimated} {unit} planned, {difference} {unit} more at the
/// agreed {agreed}": the quantity that differs, priced at the agreed price per bill unit.
fn quantity_reason(
    locale: Locale,
    (msg, unit, effect): (Msg, &str, &str),
    (estimated, billed): (Decimal, Decimal),
    agreed: &str,
    figures: Figures,
) -> String {
    let difference = figures.difference(billed, estimated);
    locale.fmt(
        msg,
        &[
            ("billed", &figures.text(billed)),
            ("estimated", &figures.text(estimated)),
            ("difference", &difference),
            ("agreed", agreed),
            ("unit", unit),
            ("effect", effect),
        ],
    )
}

/// What is wrong with a line or cell.
#[must_use]
pub fn line_error(locale: Locale, code: &LineErrorCode) -> String {
    match code {
        LineErrorCode::Required => locale.t(Msg::BillsERequired).to_string(),
        LineErrorCode::NotANumber { value } => locale.fmt(Msg::BillsENotANumber, &[("value", value)]),
        LineErrorCode::OutOfRange { value } => locale.fmt(Msg::BillsEOutOfRange, &[("value", value)]),
        LineErrorCode::NotATime { value } => locale.fmt(Msg::BillsENotATime, &[("value", value)]),
        LineErrorCode::EndBeforeStart => locale.t(Msg::BillsEEndBeforeStart).to_string(),
        LineErrorCode::Negative { value } => locale.fmt(Msg::BillsENegative, &[("value", value)]),
        LineErrorCode::UnknownComponent { value } => locale.fmt(Msg::BillsEUnknownComponent, &[("value", value)]),
        LineErrorCode::UnknownKind { value } => locale.fmt(Msg::BillsEUnknownKind, &[("value", value)]),
        LineErrorCode::OtherCurrency { value, bill } => {
            locale.fmt(Msg::BillsEOtherCurrency, &[("value", value), ("bill", bill)])
        }
        LineErrorCode::FieldCount { expected, found } => locale.fmt(
            Msg::BillsEFieldCount,
            &[("expected", &expected.to_string()), ("found", &found.to_string())],
        ),
        LineErrorCode::Unreadable => locale.t(Msg::BillsEUnreadable).to_string(),
        LineErrorCode::Repeated { first_line } => {
            locale.fmt(Msg::BillsERepeated, &[("first", &first_line.to_string())])
        }
    }
}

/// Why the whole file was refused.
#[must_use]
pub fn file_error(locale: Locale, e: &FileError) -> String {
    match e {
        FileError::Empty => locale.t(Msg::BillsFEmpty).to_string(),
        FileError::UnknownLayout {
            focus_missing,
            simple_missing,
        } => locale.fmt(
            Msg::BillsFUnknownLayout,
            &[
                ("focus", &focus_missing.join(", ")),
                ("simple", &simple_missing.join(", ")),
            ],
        ),
        FileError::MissingColumns { layout: l, columns } => locale.fmt(
            Msg::BillsFMissingColumns,
            &[("layout", layout(locale, *l)), ("columns", &columns.join(", "))],
        ),
        FileError::DuplicateColumn { column } => locale.fmt(Msg::BillsFDuplicateColumn, &[("column", column)]),
        FileError::Unreadable => locale.t(Msg::BillsFUnreadable).to_string(),
    }
}

/// Why the bill cannot be imported, naming line and column where there is one.
#[must_use]
pub fn refusal(locale: Locale, r: &Refusal) -> String {
    match r {
        Refusal::NoRental => locale.t(Msg::BillsFNoRental).to_string(),
        Refusal::NoEstimate => locale.t(Msg::BillsFNoEstimate).to_string(),
        Refusal::File(e) => file_error(locale, e),
        Refusal::NoLines => locale.t(Msg::BillsFNoLines).to_string(),
        Refusal::TooManyLines { limit } => {
            locale.fmt(Msg::BillsFTooManyLines, &[("limit", &group(Decimal::from(*limit), 0))])
        }
        Refusal::TooLarge => locale.t(Msg::BillsFTooLarge).to_string(),
        Refusal::NoRate { code, to, line, column } => locale.fmt(
            Msg::BillsFNoRate,
            &[
                ("line", &line.to_string()),
                ("column", column),
                ("code", code),
                ("to", to.code()),
            ],
        ),
        Refusal::DuplicateFile { order_id } => {
            locale.fmt(Msg::BillsFDuplicateFile, &[("order", &order_id.to_string())])
        }
        Refusal::DuplicateLine { line, bill_id } => locale.fmt(
            Msg::BillsFDuplicateLine,
            &[("line", &line.to_string()), ("bill", &bill_id.to_string())],
        ),
        Refusal::Overlap {
            line,
            column,
            bill_id,
            start,
            end,
        } => locale.fmt(
            Msg::BillsFOverlap,
            &[
                ("line", &line.to_string()),
                ("column", column),
                ("bill", &bill_id.to_string()),
                ("start", start),
                ("end", end),
            ],
        ),
    }
}

#[cfg(test)]
mod tests;
