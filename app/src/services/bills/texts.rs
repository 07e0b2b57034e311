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

fn number(d: Decimal) -> String {
    group(d.round_dp(4).normalize(), d.round_dp(4).normalize().scale())
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

/// Every reason of a row, with its effect; first, when the bill counts GPU-hours, at how many
/// GPUs per node they were compared.
#[must_use]
pub fn reasons(locale: Locale, row: &Row, currency: Currency) -> Vec<String> {
    let note = row
        .per_gpu
        .map(|gpus| locale.fmt(Msg::BillsPerGpuNote, &[("gpus", &gpus.to_string())]));
    let unit = unit(locale, row);
    let name = component(locale, row.component);
    note.into_iter()
        .chain(row.reasons.iter().map(|why| match why {
            Reason::Unplanned { .. } | Reason::NotBilled { .. } => named(locale, why, currency, name, row.estimated),
            _ => reason(locale, why, currency, unit),
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

/// One reason, with its effect; `unit` is what its quantities count ([`unit`]).
#[must_use]
pub fn reason(locale: Locale, r: &Reason, currency: Currency, unit: &str) -> String {
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
            quantity_reason(locale, msg, (*estimated, *billed), &price(*agreed), unit, &effect)
        }
        Reason::MinimumBilling {
            ran, billed, agreed, ..
        } => locale.fmt(
            Msg::BillsRMinimumBilling,
            &[
                ("billed", &number(*billed)),
                ("ran", &number(*ran)),
                ("difference", &billed.checked_sub(*ran).map_or_else(String::new, number)),
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
    msg: Msg,
    (estimated, billed): (Decimal, Decimal),
    agreed: &str,
    unit: &str,
    effect: &str,
) -> String {
    // Both quantities are shown to four places at most, so their difference is exact.
    let difference = billed
        .checked_sub(estimated)
        .map_or_else(String::new, |d| number(d.abs()));
    locale.fmt(
        msg,
        &[
            ("billed", &number(billed)),
            ("estimated", &number(estimated)),
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
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn every_reason_and_refusal_reads_in_both_languages_with_its_figures() {
        let drift = Reason::PriceDrift {
            quoted: dec!(86.64),
            billed: dec!(90),
            quantity: dec!(50),
            effect: dec!(168.00),
        };
        let en = reason(Locale::En, &drift, Currency::USD, "h");
        assert!(
            en.contains("$90") && en.contains("$86.64") && en.contains("+$168.00"),
            "{en}"
        );
        assert_ne!(reason(Locale::ZhCn, &drift, Currency::USD, "小时"), en);
        let fewer = Reason::MoreHours {
            estimated: dec!(48),
            billed: dec!(40),
            agreed: dec!(86.64),
            effect: dec!(-693.12),
        };
        assert_eq!(
            reason(Locale::En, &fewer, Currency::USD, "h"),
            "Fewer hours: 40 h billed against 48 h planned, 8 h fewer at the agreed $86.64: -$693.12"
        );
        let minimum = Reason::MinimumBilling {
            ran: dec!(49),
            billed: dec!(50),
            agreed: dec!(86.64),
            effect: dec!(86.64),
        };
        assert_eq!(
            reason(Locale::En, &minimum, Currency::USD, "h"),
            "Minimum billing: 50 h billed for 49 h the rental ran, 1 h more at the agreed $86.64: +$86.64"
        );
        assert!(reason(Locale::ZhCn, &minimum, Currency::USD, "小时").contains("按约定单价 $86.64"));
        let left = Reason::AfterRelease { effect: dec!(19.73) };
        assert!(reason(Locale::En, &left, Currency::USD, "GB-month").contains("after it was released"));
        let row = Row {
            component: Component::Compute,
            estimated: dec!(4158.72),
            billed: dec!(4500),
            invoiced: dec!(4500),
            difference: dec!(341.28),
            reasons: vec![Reason::MoreHours {
                estimated: dec!(384),
                billed: dec!(392),
                agreed: dec!(10.83),
                effect: dec!(86.64),
            }],
            unit: PlannedUnit::Hours,
            per_gpu: Some(8),
        };
        let texts = reasons(Locale::En, &row, Currency::USD);
        assert!(texts[0].contains("8 GPU-hours"), "{texts:?}");
        assert!(
            texts[1].contains("392 GPU-h billed against 384 GPU-h planned, 8 GPU-h more at the agreed $10.83"),
            "{texts:?}"
        );
        assert!(reasons(Locale::ZhCn, &row, Currency::USD)[1].contains("392 卡时"));
        let refused = Refusal::NoRate {
            code: "EUR".into(),
            to: Currency::CNY,
            line: 2,
            column: "BillingCurrency",
        };
        let text = refusal(Locale::En, &refused);
        assert!(
            text.contains("2") && text.contains("BillingCurrency") && text.contains("EUR") && text.contains("CNY"),
            "{text}"
        );
        for c in Component::ALL {
            assert_ne!(component(Locale::En, c), component(Locale::ZhCn, c));
        }
    }

    #[test]
    fn reasons_read_in_an_accountants_terms_with_quantities_and_both_prices() {
        let drift = Reason::PriceDrift {
            quoted: dec!(12.5),
            billed: dec!(13.1),
            quantity: dec!(24),
            effect: dec!(14.40),
        };
        let en = reason(Locale::En, &drift, Currency::CNY, "h");
        assert!(
            en.starts_with("Price: 24 h at ¥13.10 instead of the agreed ¥12.50"),
            "{en}"
        );
        assert!(
            en.contains("24 × ¥13.10 = ¥314.40 against 24 × ¥12.50 = ¥300.00") && en.ends_with("+¥14.40"),
            "{en}"
        );
        let zh = reason(Locale::ZhCn, &drift, Currency::CNY, "小时");
        assert!(zh.contains("24 小时 按 ¥13.10 计费") && zh.contains("¥314.40"), "{zh}");
        let less = Reason::MoreUsage {
            estimated: dec!(100),
            billed: dec!(80),
            agreed: dec!(0.5),
            effect: dec!(-10.00),
        };
        assert_eq!(
            reason(Locale::En, &less, Currency::CNY, "GB-month"),
            "Less usage: 80 GB-month billed against 100 GB-month planned, 20 GB-month less at the agreed ¥0.50: -¥10.00"
        );
        assert!(reason(Locale::ZhCn, &less, Currency::CNY, "GB·月").starts_with("用量减少"));
        let ip = Row {
            component: Component::Ip,
            estimated: dec!(3.60),
            billed: Decimal::ZERO,
            invoiced: Decimal::ZERO,
            difference: dec!(-3.60),
            reasons: vec![Reason::NotBilled { effect: dec!(-3.60) }],
            unit: PlannedUnit::Hours,
            per_gpu: None,
        };
        assert_eq!(
            reasons(Locale::En, &ip, Currency::CNY),
            ["Public IP: planned, not billed (¥3.60 in the estimate): -¥3.60"]
        );
        assert!(reasons(Locale::ZhCn, &ip, Currency::CNY)[0].contains("已计划，未计费"));
    }
}
