//! Currencies (ISO 4217, with minor units), rounding to the minor unit, and exchange rates.

use super::arith;
use super::error::{ErrorReason, TcoError};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A currency the engine can round amounts in. Serialized as its ISO 4217 code, e.g. `"CNY"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "String")]
pub struct Currency {
    code: &'static str,
    minor_units: u32,
    symbol: &'static str,
}

const fn c(code: &'static str, minor_units: u32, symbol: &'static str) -> Currency {
    Currency {
        code,
        minor_units,
        symbol,
    }
}

impl Currency {
    /// Chinese yuan renminbi.
    pub const CNY: Currency = c("CNY", 2, "¥");
    /// US dollar.
    pub const USD: Currency = c("USD", 2, "$");
    /// Euro.
    pub const EUR: Currency = c("EUR", 2, "€");
    /// Pound sterling.
    pub const GBP: Currency = c("GBP", 2, "£");
    /// Japanese yen (no minor unit).
    pub const JPY: Currency = c("JPY", 0, "JP¥");
    /// Hong Kong dollar.
    pub const HKD: Currency = c("HKD", 2, "HK$");
    /// Singapore dollar.
    pub const SGD: Currency = c("SGD", 2, "S$");
    /// Korean won (no minor unit).
    pub const KRW: Currency = c("KRW", 0, "₩");
    /// Swiss franc.
    pub const CHF: Currency = c("CHF", 2, "CHF");
    /// Australian dollar.
    pub const AUD: Currency = c("AUD", 2, "A$");
    /// Canadian dollar.
    pub const CAD: Currency = c("CAD", 2, "C$");

    /// Every supported currency.
    pub const ALL: [Currency; 11] = [
        Currency::CNY,
        Currency::USD,
        Currency::EUR,
        Currency::GBP,
        Currency::JPY,
        Currency::HKD,
        Currency::SGD,
        Currency::KRW,
        Currency::CHF,
        Currency::AUD,
        Currency::CAD,
    ];

    /// Looks up an ISO 4217 code (three upper-case letters), e.g. `"USD"`.
    pub fn parse(code: &str) -> Result<Currency, ErrorReason> {
        if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(ErrorReason::InvalidCurrencyCode { code: code.to_owned() });
        }
        Currency::ALL
            .into_iter()
            .find(|c| c.code == code)
            .ok_or_else(|| ErrorReason::UnknownCurrency { code: code.to_owned() })
    }

    /// The ISO 4217 code, e.g. `"EUR"`.
    pub const fn code(self) -> &'static str {
        self.code
    }

    /// Digits after the decimal point (2 for CNY, 0 for JPY).
    pub const fn minor_units(self) -> u32 {
        self.minor_units
    }

    /// The symbol shown before amounts, e.g. `"€"`.
    pub const fn symbol(self) -> &'static str {
        self.symbol
    }

    /// The smallest amount, e.g. `0.01` for USD and `1` for JPY.
    pub fn minor_unit(self) -> Decimal {
        Decimal::new(1, self.minor_units)
    }

    /// `amount` rounded half away from zero to the minor unit (0.005 USD → 0.01, 0.5 JPY → 1),
    /// written with exactly that many digits (`5` USD → `5.00`).
    pub fn round(self, amount: Decimal) -> Decimal {
        let mut rounded = amount.round_dp_with_strategy(self.minor_units, RoundingStrategy::MidpointAwayFromZero);
        rounded.rescale(self.minor_units);
        rounded
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

impl TryFrom<String> for Currency {
    type Error = TcoError;

    fn try_from(code: String) -> Result<Self, Self::Error> {
        Currency::parse(&code).map_err(|r| TcoError::new("currency", r))
    }
}

impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Currency::try_from(code).map_err(serde::de::Error::custom)
    }
}

impl From<Currency> for String {
    fn from(c: Currency) -> String {
        c.code.to_owned()
    }
}

/// An exchange rate: one unit of `from` is worth `rate` units of `to`, as published on `date`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExchangeRate {
    /// The base currency.
    pub from: Currency,
    /// The quote currency.
    pub to: Currency,
    /// Units of `to` per unit of `from`.
    #[serde(with = "rust_decimal::serde::str")]
    pub rate: Decimal,
    /// Publication date, `YYYY-MM-DD`.
    pub date: String,
}

impl ExchangeRate {
    /// Checks the two currencies differ, the rate is positive and the date is a `YYYY-MM-DD`
    /// calendar date.
    pub fn validate(&self) -> Result<(), TcoError> {
        if self.from == self.to {
            return Err(TcoError::new("exchange_rate.to", ErrorReason::SameCurrency));
        }
        arith::positive(self.rate, "exchange_rate.rate")?;
        if !is_iso_date(&self.date) {
            let reason = ErrorReason::InvalidDate {
                value: self.date.clone(),
            };
            return Err(TcoError::new("exchange_rate.date", reason));
        }
        Ok(())
    }

    /// The other side of the pair, if `currency` is one side of it.
    pub fn counterpart(&self, currency: Currency) -> Option<Currency> {
        if currency == self.from {
            Some(self.to)
        } else if currency == self.to {
            Some(self.from)
        } else {
            None
        }
    }

    /// Converts `amount` in `currency` to the other side of the pair (either direction),
    /// rounded half away from zero to the target's minor unit.
    ///
    /// Converting and converting back lands within one minor unit of the coarser of the two
    /// currencies (measured in the starting currency).
    pub fn convert(&self, amount: Decimal, currency: Currency) -> Result<Decimal, TcoError> {
        self.validate()?;
        let exact = if currency == self.from {
            arith::mul(amount, self.rate, "exchange_rate.converted")?
        } else if currency == self.to {
            arith::div(amount, self.rate, "exchange_rate.converted")?
        } else {
            let reason = ErrorReason::CurrencyMismatch {
                currency: currency.code.to_owned(),
                from: self.from.code.to_owned(),
                to: self.to.code.to_owned(),
            };
            return Err(TcoError::new("exchange_rate", reason));
        };
        let target = self.counterpart(currency).unwrap_or(currency);
        Ok(target.round(exact))
    }
}

/// The latest of `rates` (by date) between `currency` and `base`, stated in either direction;
/// on the same date a rate from `currency` to `base` wins over the inverse one. The one rate
/// that converts totals, budgets and unit prices alike.
pub fn latest_rate(rates: &[ExchangeRate], currency: Currency, base: Currency) -> Option<&ExchangeRate> {
    let direct = |r: &ExchangeRate| r.from == currency && r.to == base;
    rates
        .iter()
        .filter(|r| currency != base && r.counterpart(currency) == Some(base))
        .max_by(|a, b| match a.date.cmp(&b.date) {
            std::cmp::Ordering::Equal => direct(a).cmp(&direct(b)),
            other => other,
        })
}

/// The rate between `currency` and `base` in force on `date` (`YYYY-MM-DD`): the latest of
/// `rates` dated on or before it, else (a rate entered only after the date) the earliest after
/// it; on one date a rate from `currency` to `base` wins over the inverse one. A bill is
/// converted at the rate of its invoice date, not at whatever rate is newest when it is read.
#[must_use]
pub fn rate_on<'a>(
    rates: &'a [ExchangeRate],
    currency: Currency,
    base: Currency,
    date: &str,
) -> Option<&'a ExchangeRate> {
    let pair: Vec<&ExchangeRate> = rates
        .iter()
        .filter(|r| currency != base && r.counterpart(currency) == Some(base))
        .collect();
    let direct = |r: &ExchangeRate| r.from == currency;
    let before = pair
        .iter()
        .filter(|r| r.date.as_str() <= date)
        .max_by(|a, b| a.date.cmp(&b.date).then(direct(a).cmp(&direct(b))));
    before
        .or_else(|| {
            pair.iter()
                .min_by(|a, b| a.date.cmp(&b.date).then(direct(b).cmp(&direct(a))))
        })
        .copied()
}

/// Days a rate may be old before a comparison warns that it is stale, unless the team sets
/// its own limit.
pub const STALE_RATE_DAYS: i64 = 30;

/// The largest disagreement, in percent, between a rate and the inverse of the same day's rate
/// of the opposite direction before a comparison warns (7.14 against 1 ÷ 0.1389 = 7.1994 is
/// 0.83 %: enough to flip a close ranking with the reporting currency).
pub const PAIR_TOLERANCE_PCT: Decimal = Decimal::from_parts(5, 0, 0, false, 1);

/// What is doubtful about the rate a total was converted with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RateWarning {
    /// The rate is older than the limit: `days` old on the day of the comparison.
    Stale {
        /// Its age in days.
        days: i64,
    },
    /// The same day's rate of the opposite direction does not invert to it.
    PairDisagrees {
        /// The rate used, as units of `used.to` per `used.from`.
        used: Decimal,
        /// The opposite rate's inverse, in the same units.
        inverse: Decimal,
        /// |used − inverse| ÷ inverse × 100, two decimals.
        pct: Decimal,
    },
}

/// The day count since 1970-01-01 of a `YYYY-MM-DD` date.
fn day_of(date: &str) -> Option<i64> {
    if !is_iso_date(date) {
        return None;
    }
    let part = |r: std::ops::Range<usize>| date.get(r).and_then(|t| t.parse::<i64>().ok());
    Some(crate::calendar::days_from_civil(part(0..4)?, part(5..7)?, part(8..10)?))
}

/// The warnings on `used`, one of `rates`, on day `today` (days since 1970-01-01): older than
/// `max_age_days`, or disagreeing by more than [`PAIR_TOLERANCE_PCT`] with the inverse of a
/// same-day rate of the opposite direction.
#[must_use]
pub fn rate_warnings(rates: &[ExchangeRate], used: &ExchangeRate, today: i64, max_age_days: i64) -> Vec<RateWarning> {
    let mut out = Vec::new();
    if let Some(days) = day_of(&used.date).map(|d| today - d).filter(|d| *d > max_age_days) {
        out.push(RateWarning::Stale { days });
    }
    let opposite = rates
        .iter()
        .find(|r| r.date == used.date && r.from == used.to && r.to == used.from && !r.rate.is_zero());
    if let Some(other) = opposite
        && let Some(inverse) = Decimal::ONE.checked_div(other.rate)
        && let Some(pct) = used
            .rate
            .checked_sub(inverse)
            .and_then(|d| d.abs().checked_mul(Decimal::ONE_HUNDRED))
            .and_then(|d| d.checked_div(inverse))
        && pct > PAIR_TOLERANCE_PCT
    {
        out.push(RateWarning::PairDisagrees {
            used: used.rate,
            inverse: inverse.round_dp(4),
            pct: pct.round_dp(2),
        });
    }
    out
}

/// True for a `YYYY-MM-DD` date that exists in the Gregorian calendar.
fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod rate_tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn rate(from: Currency, to: Currency, rate: Decimal, date: &str) -> ExchangeRate {
        ExchangeRate {
            from,
            to,
            rate,
            date: date.into(),
        }
    }

    #[test]
    fn a_rate_older_than_the_limit_or_disagreeing_with_its_pair_is_warned_about() {
        let today = day_of("2026-12-05").expect("a date");
        let fresh = rate(Currency::USD, Currency::CNY, dec!(7.14), "2026-11-20");
        assert_eq!(rate_warnings(std::slice::from_ref(&fresh), &fresh, today, 30), vec![]);
        let old = rate(Currency::USD, Currency::CNY, dec!(7.14), "2025-12-05");
        assert_eq!(
            rate_warnings(std::slice::from_ref(&old), &old, today, 30),
            vec![RateWarning::Stale { days: 365 }]
        );
        // 7.14 against 1 ÷ 0.1389 = 7.1994: 0.83 % apart, over the 0.5 % tolerance.
        let back = rate(Currency::CNY, Currency::USD, dec!(0.1389), "2026-11-20");
        let rates = [fresh.clone(), back];
        assert_eq!(
            rate_warnings(&rates, &fresh, today, 30),
            vec![RateWarning::PairDisagrees {
                used: dec!(7.14),
                inverse: dec!(7.1994),
                pct: dec!(0.83)
            }]
        );
        let close = rate(Currency::CNY, Currency::USD, dec!(0.1400), "2026-11-20");
        assert_eq!(rate_warnings(&[fresh.clone(), close], &fresh, today, 30), vec![]);
    }

    #[test]
    fn a_bill_takes_the_rate_on_or_before_its_invoice_date_else_the_first_after() {
        let rates = [
            rate(Currency::USD, Currency::CNY, dec!(7.10), "2026-11-01"),
            rate(Currency::USD, Currency::CNY, dec!(7.20), "2026-11-30"),
            rate(Currency::USD, Currency::CNY, dec!(7.40), "2027-01-15"),
        ];
        let on = |d: &str| rate_on(&rates, Currency::USD, Currency::CNY, d).map(|r| r.rate);
        assert_eq!(on("2026-12-01"), Some(dec!(7.20)));
        assert_eq!(on("2026-11-30"), Some(dec!(7.20)));
        assert_eq!(on("2026-10-01"), Some(dec!(7.10)), "only later rates: the first after");
        assert_eq!(on("2027-02-01"), Some(dec!(7.40)));
    }

    proptest::proptest! {
        /// A later rate never changes the rate of a day that already had one: a bill converted
        /// on its invoice date keeps that day's rate whatever the team enters afterwards.
        #[test]
        fn a_later_rate_never_changes_an_earlier_days_rate(
            known in proptest::collection::vec((1u32..28, 1i64..100_000, proptest::bool::ANY), 1..6),
            later in proptest::collection::vec((1u32..28, 1i64..100_000, proptest::bool::ANY), 0..6),
            day in 1u32..28,
        ) {
            let rate = |(d, r, direct): (u32, i64, bool), month: u32| {
                let (from, to) = if direct { (Currency::USD, Currency::CNY) } else { (Currency::CNY, Currency::USD) };
                ExchangeRate { from, to, rate: Decimal::new(r, 4), date: format!("2026-{month:02}-{d:02}") }
            };
            let mut rates: Vec<ExchangeRate> = known.iter().map(|k| rate(*k, 11)).collect();
            let date = format!("2026-11-{day:02}");
            proptest::prop_assume!(rates.iter().any(|r| r.date <= date));
            let before = rate_on(&rates, Currency::USD, Currency::CNY, &date).cloned();
            rates.extend(later.iter().map(|l| rate(*l, 12)));
            let after = rate_on(&rates, Currency::USD, Currency::CNY, &date).cloned();
            proptest::prop_assert_eq!(before, after);
        }
    }
}
