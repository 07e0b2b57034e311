//! Showing money: the currency's symbol, its minor units, thousands separators. Exact decimals.

use crate::tco::Currency;
use crate::tco::unit_scale::{PER_UNIT_SIGNIFICANT, significant_scale};
pub use nodeledger_messages::group;
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

/// Formats a figure per unit of something (a GPU-hour, a million tokens, a GB-month) in
/// `currency`: like any amount, in the currency's minor units (`¥14.72`, `JP¥1,200`); but a
/// figure below one minor unit, which would read as zero, keeps up to four significant digits,
/// trailing zeros trimmed (`¥0.003457`, `$0.005`, `JP¥0.25`). What it is per is said once, in
/// the column's or the sentence's words, never in the figure.
pub fn format_per_unit(amount: Decimal, currency: Currency) -> String {
    let rounded = round_per_unit(amount, currency);
    with_symbol(rounded, currency, rounded.scale())
}

/// A figure per unit rounded as [`format_per_unit`] shows it, written with at least the
/// currency's minor digits (`14.72`, `0.003457`, JPY `1200`): what an export writes.
pub fn round_per_unit(amount: Decimal, currency: Currency) -> Decimal {
    let minor = currency.minor_units();
    if amount.is_zero() || amount.abs() >= currency.minor_unit() {
        return currency.round(amount);
    }
    let digits = significant_scale(amount, PER_UNIT_SIGNIFICANT).max(minor);
    let mut rounded = amount
        .round_dp_with_strategy(digits, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    if rounded.scale() < minor {
        rounded.rescale(minor);
    }
    rounded
}

/// A unit price in a sentence or line that states "quantity at price = amount": every digit it
/// has up to six decimals, and at least the currency's minor digits, so that what is shown adds
/// up (`¥0.1458` × 24 = `¥3.50`, where `¥0.15` × 24 would read `¥3.60`).
pub fn format_exact_price(amount: Decimal, currency: Currency) -> String {
    let minor = currency.minor_units();
    let mut price = amount
        .round_dp_with_strategy(6, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    if price.scale() < minor {
        price.rescale(minor);
    }
    with_symbol(price, currency, price.scale())
}

/// A quantity as a line "quantity × price = cost" shows it: four decimals at most, unless the
/// shown quantity times `price` would round to another cost than `cost` (a 10-minute increment
/// gives 24⅙ hours, a GB-month is a fraction of a month); then as many more decimals as it takes,
/// up to ten. Never rounded to make a sum come out: only digits are added. A cost exactly on a
/// half minor unit (1,126,445 ten-minute pieces at ¥950.67 is ¥178,479,578.025, shown .03) is
/// reached by no quantity rounded to nearest, since every one falls short of the third ...3;
/// there the quantity is rounded up in its last digit, still within one unit of it.
#[must_use]
pub fn quantity_that_adds_up(quantity: Decimal, price: Decimal, cost: Decimal, currency: Currency) -> Decimal {
    use rust_decimal::RoundingStrategy::{AwayFromZero, MidpointAwayFromZero};
    let shown_cost = currency.round(cost);
    let adds_up = |q: &Decimal| currency.round(q.checked_mul(price).unwrap_or(Decimal::MAX)) == shown_cost;
    (4..=10)
        .flat_map(|dp| {
            [MidpointAwayFromZero, AwayFromZero].map(|how| quantity.round_dp_with_strategy(dp, how).normalize())
        })
        .find(adds_up)
        .unwrap_or_else(|| quantity.round_dp(4).normalize())
}

/// A plain number (tokens, rows, GiB) with all its digits, trailing zeros dropped, grouped by
/// thousands the way both languages write them: `2000000000` → `2,000,000,000`, `18.50` → `18.5`.
pub fn grouped(value: Decimal) -> String {
    let value = value.normalize();
    group(value, value.scale())
}

/// An exchange rate as a reader sees it: every digit it has (a rate is kept exact), but trailing
/// zeros only down to two decimals, as a price is written (`7.1000` → `7.10`, `7.2` → `7.20`,
/// `7.12345` → `7.12345`, `0.00074` → `0.00074`, `110` → `110.00`).
#[must_use]
pub fn rate_text(rate: Decimal) -> String {
    let mut r = rate.normalize();
    if r.scale() < 2 {
        r.rescale(2);
    }
    r.to_string()
}

/// A quantity as a sentence shows it: at most two decimals, trailing zeros dropped, grouped
/// (`65.8927` → `65.89`, `30.00` → `30`, `1234.5` → `1,234.5`), half away from zero as money is. The exact figure goes beside it
/// where a reader can ask for it (a `title`).
#[must_use]
pub fn quantity_text(quantity: Decimal) -> String {
    let q = quantity
        .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    group(q, q.scale())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rate_keeps_its_digits_but_pads_only_to_two_decimals() {
        use rust_decimal_macros::dec;
        assert_eq!(rate_text(dec!(7.1000)), "7.10");
        assert_eq!(rate_text(dec!(7.2)), "7.20");
        assert_eq!(rate_text(dec!(7.12345)), "7.12345");
        assert_eq!(rate_text(dec!(0.00074)), "0.00074");
        assert_eq!(rate_text(dec!(110)), "110.00");
    }

    #[test]
    fn a_quantity_is_shown_with_two_decimals_at_most() {
        use rust_decimal_macros::dec;
        assert_eq!(quantity_text(dec!(65.8927)), "65.89");
        assert_eq!(quantity_text(dec!(30.00)), "30");
        assert_eq!(quantity_text(dec!(1234.5)), "1,234.5");
        assert_eq!(quantity_text(dec!(0.005)), "0.01");
    }

    #[test]
    fn a_quantity_gets_the_digits_its_line_needs_to_add_up() {
        use rust_decimal_macros::dec;
        let hours = dec!(145) / dec!(6); // 145 ten-minute increments
        let price = dec!(98.32);
        let cost = hours * price; // 2,376.0666…
        // 24.1667 × 98.32 = 2,376.0699… which reads 2,376.07; the cost reads 2,376.07 too.
        assert_eq!(quantity_that_adds_up(hours, price, cost, Currency::USD), dec!(24.1667));
        // At ¥20,000 a node-month, 0.3333 months reads ¥6,666.00 against ¥6,666.67.
        let months = dec!(1) / dec!(3);
        let q = quantity_that_adds_up(months, dec!(20000), months * dec!(20000), Currency::CNY);
        assert_eq!(q, dec!(0.3333333));
        assert_eq!(Currency::CNY.round(q * dec!(20000)), dec!(6666.67));
        // A whole quantity stays whole.
        assert_eq!(
            quantity_that_adds_up(dec!(24), dec!(2.5), dec!(60), Currency::CNY),
            dec!(24)
        );
        // A cost on a half cent: the quantity rounded up in its last digit reaches it.
        let pieces = dec!(1126445) / dec!(6);
        let q = quantity_that_adds_up(pieces, dec!(950.67), pieces * dec!(950.67), Currency::CNY);
        assert_eq!(
            Currency::CNY.round(q * dec!(950.67)),
            Currency::CNY.round(pieces * dec!(950.67))
        );
        assert!((q - pieces).abs() < dec!(0.0001), "{q}");
        // A cost that is not quantity × price (a refund, a cap) keeps the usual four decimals.
        assert_eq!(
            quantity_that_adds_up(months, dec!(3), dec!(99), Currency::CNY),
            dec!(0.3333)
        );
    }

    #[test]
    fn an_exact_price_keeps_the_digits_a_sum_needs() {
        use rust_decimal_macros::dec;
        assert_eq!(format_exact_price(dec!(0.1458), Currency::CNY), "¥0.1458");
        assert_eq!(format_exact_price(dec!(12.5), Currency::CNY), "¥12.50");
        assert_eq!(format_exact_price(dec!(86.64), Currency::USD), "$86.64");
        assert_eq!(format_exact_price(dec!(0.00345678), Currency::USD), "$0.003457");
        // 24 h at the price shown is the effect shown, to the cent.
        assert_eq!(dec!(24) * dec!(0.1458), dec!(3.4992));
    }

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
        assert_eq!(grouped(dec!(2000000000)), "2,000,000,000");
        assert_eq!(grouped(dec!(18.50)), "18.5");
        assert_eq!(grouped(dec!(-1234.5)), "-1,234.5");
        assert_eq!(grouped(Decimal::ZERO), "0");
    }

    #[test]
    fn per_unit_figures_are_in_minor_units_unless_below_one() {
        assert_eq!(format_per_unit(dec!(14.7242), Currency::CNY), "¥14.72", "minor units");
        assert_eq!(format_per_unit(dec!(2.5), Currency::CNY), "¥2.50");
        assert_eq!(
            format_per_unit(dec!(1234567.891), Currency::USD),
            "$1,234,567.89",
            "grouped"
        );
        assert_eq!(format_per_unit(dec!(0.01), Currency::USD), "$0.01", "one minor unit");
        assert_eq!(
            format_per_unit(dec!(0.0034567), Currency::CNY),
            "¥0.003457",
            "4 significant"
        );
        assert_eq!(
            format_per_unit(dec!(0.005), Currency::USD),
            "$0.005",
            "trailing zeros trimmed"
        );
        assert_eq!(
            format_per_unit(dec!(0.0099999), Currency::USD),
            "$0.01",
            "rounds up to a cent"
        );
        assert_eq!(format_per_unit(dec!(0.000012345), Currency::EUR), "€0.00001235");
        assert_eq!(
            format_per_unit(dec!(-0.0034567), Currency::CNY),
            "-¥0.003457",
            "negative"
        );
        assert_eq!(format_per_unit(Decimal::ZERO, Currency::CNY), "¥0.00", "zero");
        assert_eq!(format_per_unit(dec!(0.25), Currency::JPY), "JP¥0.25", "below one yen");
        assert_eq!(format_per_unit(dec!(1199.5), Currency::JPY), "JP¥1,200");
        assert_eq!(format_per_unit(dec!(0.123456), Currency::KRW), "₩0.1235");
        assert_eq!(round_per_unit(dec!(14.7242), Currency::CNY).to_string(), "14.72");
        assert_eq!(round_per_unit(dec!(0.0417), Currency::USD).to_string(), "0.04");
        assert_eq!(round_per_unit(dec!(0.0099999), Currency::USD).to_string(), "0.01");
        assert_eq!(round_per_unit(dec!(0.0034567), Currency::CNY).to_string(), "0.003457");
        assert_eq!(round_per_unit(dec!(1199.5), Currency::JPY).to_string(), "1200");
    }
}
