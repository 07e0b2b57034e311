//! The comparison's sentences in the reader's language: engine errors, input errors, cost
//! lines, hours and exchange-rate notes.

use super::{
    fields::{FieldError, MAX_NODES},
    request::QuoteInputError,
};
use crate::{
    domain::{
        money::{format_exact_price, format_money, group, quantity_that_adds_up},
        orders::record::SignedComponent,
        quotes::Workload,
        tco::{Currency, ErrorReason, ExchangeRate, TcoError},
    },
    i18n::{Locale, Msg},
    views::tco::{BandLine, ComponentLine},
};
use rust_decimal::Decimal;

/// An exact figure as the exports write it (trailing zeros dropped).
pub(super) fn decimal(d: Decimal) -> String {
    d.normalize().to_string()
}

/// What is wrong with a typed assumption, as shown next to the field.
pub(super) fn field_error(locale: Locale, e: FieldError) -> String {
    match e {
        FieldError::Number => locale.t(Msg::TcoErrNumber).to_string(),
        FieldError::Negative => locale.t(Msg::TcoErrNegative).to_string(),
        FieldError::Percent { min, max } => locale.fmt(
            Msg::TcoErrPercent,
            &[("min", &min.to_string()), ("max", &max.to_string())],
        ),
        FieldError::Nodes => nodes_error(locale),
    }
}

fn nodes_error(locale: Locale) -> String {
    locale.fmt(Msg::TcoErrNodes, &[("max", &MAX_NODES.to_string())])
}

/// What is wrong with one quote's own inputs, as "field: message".
pub(super) fn quote_input_error(locale: Locale, e: QuoteInputError) -> String {
    let (label, message) = match e {
        QuoteInputError::Override(name, e) => (
            locale.t(Msg::from_key(&format!("tco.f_{name}")).unwrap_or(Msg::TcoAssumptions)),
            field_error(locale, e),
        ),
        QuoteInputError::ThroughputNotPositive => {
            (locale.t(Msg::TcoOverrideTp), locale.t(Msg::TcoErrPositive).to_string())
        }
        QuoteInputError::ThroughputNumber => (locale.t(Msg::TcoOverrideTp), locale.t(Msg::TcoErrNumber).to_string()),
        QuoteInputError::ThroughputNodes => (locale.t(Msg::TcoOverrideTpNodes), nodes_error(locale)),
    };
    format!("{label}: {message}")
}

fn reason_text(locale: Locale, reason: &ErrorReason) -> String {
    Msg::from_key(&format!("tco_error.{}", reason.code()))
        .map_or_else(|| reason.to_string(), |m| locale.t(m).to_string())
}

/// Why a quote cannot be costed, as a sentence in the reader's language.
pub(super) fn error_sentence(locale: Locale, e: &TcoError, workload: &Workload) -> String {
    use ErrorReason as R;
    let reason = reason_text(locale, &e.reason);
    match (&e.reason, e.field) {
        (R::NoWorkSize, _) if workload.total_work.is_none() => locale.t(Msg::TcoENoWorkSize).to_string(),
        (R::NoWorkSize, _) => locale.t(Msg::TcoENoRunLength).to_string(),
        (R::MissingRate { from, to }, _) => locale.fmt(Msg::TcoEMissingRate, &[("from", from), ("to", to)]),
        (R::Overflow, _) => locale.t(Msg::TcoEOverflow).to_string(),
        (R::Missing, "price_sheet.commitment_months" | "price_sheet.monthly_price") => {
            locale.t(Msg::TcoEMonthlyIncomplete).to_string()
        }
        (_, f) if f.starts_with("price_sheet.") => locale.fmt(Msg::TcoEPriceSheet, &[("reason", &reason)]),
        (_, f) if f.starts_with("node_shape.") => locale.fmt(Msg::TcoENodeShape, &[("reason", &reason)]),
        (_, f) if f.starts_with("workload.") => locale.fmt(Msg::TcoEWorkload, &[("reason", &reason)]),
        (_, f) => locale.fmt(Msg::TcoErrorLine, &[("field", f), ("reason", &reason)]),
    }
}

/// One cost component (as signed: codes and exact values) as a line of the breakdown; a code
/// this release does not know is shown as it is.
pub(super) fn component_line(locale: Locale, c: &SignedComponent, currency: Currency) -> ComponentLine {
    let name = match c.code.as_str() {
        "on_demand_compute" => locale.t(Msg::TcoCOnDemandCompute).to_string(),
        "monthly_commitment" => locale.t(Msg::TcoCMonthlyCommitment).to_string(),
        "stopped_compute" => locale.t(Msg::TcoCStoppedCompute).to_string(),
        "disk" => locale.t(Msg::TcoCDisk).to_string(),
        "public_ip" => locale.t(Msg::TcoCPublicIp).to_string(),
        "traffic" => locale.t(Msg::TcoCTraffic).to_string(),
        "snapshots" => locale.t(Msg::TcoCSnapshots).to_string(),
        "other_fee" => locale.fmt(Msg::TcoCOtherFee, &[("label", c.fee.as_deref().unwrap_or_default())]),
        other => other.to_string(),
    };
    let unit = match c.unit.as_str() {
        "node_hour" => locale.t(Msg::TcoUNodeHour),
        "node_month" => locale.t(Msg::TcoUNodeMonth),
        "gb_month" => locale.t(Msg::TcoUGbMonth),
        "gb" => locale.t(Msg::TcoUGb),
        "ip_hour" => locale.t(Msg::TcoUIpHour),
        "item" => locale.t(Msg::TcoUItem),
        other => other,
    };
    let quantity = c.unit_price.map_or_else(
        || c.quantity.round_dp(4).normalize(),
        |price| quantity_that_adds_up(c.quantity, price, c.cost, currency),
    );
    ComponentLine {
        code: c.code.clone(),
        name,
        unit: unit.into(),
        quantity: group(quantity, quantity.scale()),
        // A line states quantity × price = cost, so the price keeps every digit it has (up to
        // six decimals) and the quantity the digits the product needs: what is shown adds up.
        price: c
            .unit_price
            .map(|p| format_exact_price(p, currency))
            .unwrap_or_default(),
        cost: format_money(c.cost, currency),
        cost_exact: decimal(c.cost),
        bands: c.bands.iter().map(|b| band_line(locale, b, currency)).collect(),
    }
}

/// One band of a tiered traffic line: "Outbound, 1,000–10,000 GB" with its GB, its price per GB
/// (every digit, so the line adds up) and its cost.
fn band_line(locale: Locale, b: &crate::domain::orders::record::SignedBand, currency: Currency) -> BandLine {
    let gb = |d: Decimal| {
        let d = d.round_dp(4).normalize();
        group(d, d.scale())
    };
    let direction = locale.t(if b.direction == "ingress" {
        Msg::TcoBandIn
    } else {
        Msg::TcoBandOut
    });
    let band = match b.up_to_gb {
        Some(to) => locale.fmt(
            Msg::TcoBandRange,
            &[("direction", direction), ("from", &gb(b.from_gb)), ("to", &gb(to))],
        ),
        None => locale.fmt(Msg::TcoBandAbove, &[("direction", direction), ("from", &gb(b.from_gb))]),
    };
    BandLine {
        name: if b.free {
            locale.fmt(Msg::TcoBandFree, &[("band", &band)])
        } else {
            band
        },
        quantity: {
            let q = quantity_that_adds_up(b.quantity_gb, b.price_gb, b.cost, currency);
            group(q, q.scale())
        },
        price: format_exact_price(b.price_gb, currency),
        cost: format_money(b.cost, currency),
    }
}

/// Hours with at most two decimals, grouped.
pub(super) fn hours(d: Decimal) -> String {
    group(d.round_dp(2).normalize(), d.round_dp(2).normalize().scale())
}

/// A throughput with at most three decimals, grouped.
pub(super) fn throughput_text(d: Decimal) -> String {
    group(d.round_dp(3).normalize(), d.round_dp(3).normalize().scale())
}

/// The note of the rate a figure was converted with: the pair, the rate exact (padded to two
/// decimals only, as the rates page writes it), its date.
pub(super) fn rate_note(locale: Locale, r: &ExchangeRate) -> String {
    locale.fmt(
        Msg::TcoRateNote,
        &[
            ("from", r.from.code()),
            ("rate", &crate::domain::money::rate_text(r.rate)),
            ("to", r.to.code()),
            ("date", &r.date),
        ],
    )
}

/// A requirement's name in the reader's language (`req.<code>` of the locale files), from its
/// code (e.g. `vram`); a code this release does not know is shown as it is.
pub(super) fn requirement_text(locale: Locale, code: &str) -> String {
    Msg::from_key(&format!("req.{code}")).map_or_else(|| code.to_string(), |m| locale.t(m).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiered egress line (the first 1,000 GB free, 9,000 GB at $0.09, 500 GB above at
    /// $0.07, as AWS's data-transfer-out tiers are written) is shown band by band, each
    /// GB × price = cost, in both languages.
    #[test]
    fn a_tiered_traffic_line_shows_each_band_as_quantity_times_price() {
        use crate::domain::orders::record::SignedBand;
        use rust_decimal_macros::dec;
        let band = |free, from_gb, up_to_gb, quantity_gb, price_gb, cost| SignedBand {
            direction: "egress".into(),
            free,
            from_gb,
            up_to_gb,
            quantity_gb,
            price_gb,
            cost,
        };
        let line = SignedComponent {
            code: "traffic".into(),
            fee: None,
            unit: "gb".into(),
            quantity: dec!(10500),
            unit_price: None,
            cost: dec!(845.00),
            bands: vec![
                band(true, dec!(0), Some(dec!(1000)), dec!(1000), dec!(0), dec!(0)),
                band(
                    false,
                    dec!(1000),
                    Some(dec!(10000)),
                    dec!(9000),
                    dec!(0.09),
                    dec!(810.00),
                ),
                band(false, dec!(10000), None, dec!(500), dec!(0.07), dec!(35.00)),
            ],
        };
        let usd = Currency::parse("USD").unwrap();
        let shown = component_line(Locale::En, &line, usd);
        let rows: Vec<(&str, &str, &str, &str)> = shown
            .bands
            .iter()
            .map(|b| (b.name.as_str(), b.quantity.as_str(), b.price.as_str(), b.cost.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Outbound, 0–1,000 GB (free allowance)", "1,000", "$0.00", "$0.00"),
                ("Outbound, 1,000–10,000 GB", "9,000", "$0.09", "$810.00"),
                ("Outbound, above 10,000 GB", "500", "$0.07", "$35.00"),
            ]
        );
        let zh = component_line(Locale::ZhCn, &line, usd);
        assert_eq!(zh.bands[2].name, "出站 超过 10,000 GB 的部分");
    }

    /// The figure a shown money or quantity text stands for: symbol and grouping taken off.
    fn read_back(text: &str) -> Decimal {
        let digits: String = text
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
            .collect();
        digits.parse().unwrap_or_else(|_| panic!("{text}"))
    }

    proptest::proptest! {
        /// Every line of the breakdown adds up as shown: quantity × price rounds to the cost,
        /// for quantities billed in 10-minute, 1-second or monthly pieces and prices with up to
        /// four decimals (a sheet's ¥12.3456 per node-hour).
        #[test]
        fn every_component_line_adds_up_as_shown(
            pieces in 1u32..2_000_000,
            per_unit in proptest::sample::select(vec![1u32, 6, 60, 730, 3600]),
            price_ten_thousandths in 1i64..100_000_000,
        ) {
            let quantity = Decimal::from(pieces) / Decimal::from(per_unit);
            let price = Decimal::new(price_ten_thousandths, 4);
            let line = SignedComponent {
                code: "on_demand_compute".into(),
                fee: None,
                unit: "node_hour".into(),
                quantity,
                unit_price: Some(price),
                cost: quantity * price,
                bands: Vec::new(),
            };
            let shown = component_line(Locale::En, &line, Currency::CNY);
            let product = read_back(&shown.quantity) * read_back(&shown.price);
            proptest::prop_assert_eq!(
                Currency::CNY.round(product),
                read_back(&shown.cost),
                "{} × {} ≠ {}", shown.quantity, shown.price, shown.cost
            );
        }
    }

    #[test]
    fn engine_errors_become_sentences_in_both_languages() {
        use crate::domain::tco::ErrorReason as R;
        let mut w: Workload = serde_json::from_value(serde_json::json!({
            "name": "w", "kind": "batch", "vram_peak_gib": "20", "vram_peak_measured": true, "concurrency": 1,
            "gpus_needed": 1, "data_gb": "0", "checkpoint_gb": "0"
        }))
        .unwrap();
        let no_size = TcoError::new("workload.run_hours", R::NoWorkSize);
        assert_eq!(
            error_sentence(Locale::En, &no_size, &w),
            "This workload states neither its total work nor its run length: add one on the workload page."
        );
        assert!(error_sentence(Locale::ZhCn, &no_size, &w).starts_with("该任务既没有填写总工作量"));
        w.total_work = Some(crate::domain::tco::TotalWork {
            amount: Decimal::ONE,
            unit: "tokens".into(),
        });
        assert!(error_sentence(Locale::En, &no_size, &w).starts_with("No valid run measures this quote"));
        let rate = TcoError::new(
            "scenario.exchange_rates",
            R::MissingRate {
                from: "USD".into(),
                to: "CNY".into(),
            },
        );
        assert_eq!(
            error_sentence(Locale::En, &rate, &w),
            "There is no exchange rate between USD and CNY: add one under Exchange rates."
        );
        let term = TcoError::new("price_sheet.commitment_months", R::Missing);
        assert!(error_sentence(Locale::En, &term, &w).contains("without a commitment term"));
        let price = TcoError::new("price_sheet.on_demand_hourly", R::Negative);
        assert_eq!(
            error_sentence(Locale::En, &price, &w),
            "A price on this quote must not be negative: fix the quote."
        );
        assert_eq!(
            error_sentence(Locale::ZhCn, &price, &w),
            "该报价的某个价格不能为负数：请修改报价。"
        );
        for e in [no_size, rate, term, price] {
            for locale in [Locale::En, Locale::ZhCn] {
                assert!(!error_sentence(locale, &e, &w).contains(e.field), "{e}");
            }
        }
    }

    #[test]
    fn input_errors_name_the_field_and_the_rule() {
        let percent = FieldError::Percent { min: 0, max: 99 };
        assert_eq!(field_error(Locale::En, percent), "Must lie between 0 and 99 %.");
        assert!(field_error(Locale::En, FieldError::Nodes).contains("1 to 64"));
        assert_eq!(field_error(Locale::En, FieldError::Negative), "Must not be negative.");
        let nodes = quote_input_error(Locale::En, QuoteInputError::ThroughputNodes);
        assert!(nodes.contains(": ") && nodes.contains("1 to 64"), "{nodes}");
        let idle = quote_input_error(Locale::En, QuoteInputError::Override("idle_h", FieldError::Number));
        assert!(idle.ends_with(": Enter a number, e.g. 1.5."), "{idle}");
    }

    #[test]
    fn hours_and_throughputs_are_rounded_for_reading() {
        assert_eq!(hours(Decimal::new(123_456, 3)), "123.46");
        assert_eq!(hours(Decimal::from(1200)), "1,200");
        assert_eq!(throughput_text(Decimal::new(10_004_449, 4)), "1,000.445");
    }
}
