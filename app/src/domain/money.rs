//! Showing money: the currency's symbol, its minor units, thousands separators. Exact decimals.

use crate::domain::tco::Currency;
use rust_decimal::{Decimal, RoundingStrategy};

/// Formats `amount` in `currency`: symbol, grouped thousands, the currency's minor units,
/// rounded half away from zero (`¥118,000.00`, `$0.75`, `JP¥1,200`, `-€3.50`).
pub fn format_money(amount: Decimal, currency: Currency) -> String {
    with_symbol(amount, currency, currency.minor_units())
}

fn with_symbol(amount: Decimal, currency: Currency, digits: u32) -> String {
    let text = group(amount, digits);
    match text.strip_prefix('-') {
        Some(abs) => format!("-{}{abs}", currency.symbol()),
        None => format!("{}{text}", currency.symbol()),
    }
}

/// Formats a unit price that may carry more digits than the currency's minor unit (up to
/// `max_extra` more, trailing zeros trimmed back to the minor unit): `$3.3333`, `¥2.50`.
pub fn format_unit_price(amount: Decimal, currency: Currency, max_extra: u32) -> String {
    let minor = currency.minor_units();
    let scaled = amount
        .round_dp_with_strategy(minor + max_extra, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    let digits = scaled.scale().max(minor);
    with_symbol(amount, currency, digits)
}

/// `amount` rounded to `digits` decimals with thousands separators.
pub fn group(amount: Decimal, digits: u32) -> String {
    let rounded = amount.round_dp_with_strategy(digits, RoundingStrategy::MidpointAwayFromZero);
    let text = format!("{:.*}", digits as usize, rounded.abs());
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut grouped = String::with_capacity(text.len() + whole.len() / 3 + 1);
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if rounded.is_sign_negative() && !rounded.is_zero() {
        "-"
    } else {
        ""
    };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn formats_with_symbol_minor_units_and_groups() {
        assert_eq!(format_money(dec!(118000), Currency::CNY), "¥118,000.00");
        assert_eq!(format_money(dec!(0.745), Currency::USD), "$0.75");
        assert_eq!(format_money(dec!(0.005), Currency::EUR), "€0.01", "half away from zero");
        assert_eq!(format_money(dec!(1199.5), Currency::JPY), "JP¥1,200");
        assert_eq!(format_money(dec!(-3.5), Currency::EUR), "-€3.50");
        assert_eq!(group(dec!(1234567.891), 2), "1,234,567.89");
        assert_eq!(group(dec!(999), 0), "999");
        assert_eq!(group(dec!(-0.001), 2), "0.00", "no negative zero");
    }

    #[test]
    fn unit_prices_keep_meaningful_extra_digits() {
        assert_eq!(format_unit_price(dec!(3.33333), Currency::USD, 2), "$3.3333");
        assert_eq!(format_unit_price(dec!(2.5), Currency::CNY, 2), "¥2.50");
        assert_eq!(format_unit_price(dec!(1000.125), Currency::CNY, 2), "¥1,000.125");
    }
}
