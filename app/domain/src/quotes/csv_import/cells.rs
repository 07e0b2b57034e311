//! Reading one cell as a number, boolean, date, choice, currency, sharing mode or fee list.
//! A cell that cannot be read records a failure and yields a placeholder, so that every
//! problem of a row is reported at once.

use super::header::Header;
use crate::csv_cell;
use crate::quotes::date::Date;
use crate::quotes::error::ErrorCode;
use crate::quotes::spec::Sharing;
use crate::tco::{BillingIncrement, Currency, ErrorReason, Fee, TrafficTier};
use csv::StringRecord;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// A decimal written plainly (`-12.50`) or in scientific notation (`1e-05`), as Python
/// writes floats. Rejects `nan`, `inf`, digit separators and empty text.
pub(crate) fn parse_decimal(text: &str) -> Option<Decimal> {
    let s = text.trim();
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    let dots = mantissa.bytes().filter(|b| *b == b'.').count();
    if digits == 0 || digits + dots != mantissa.len() || dots > 1 {
        return None;
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    match exponent {
        None => Decimal::from_str_exact(s).ok(),
        Some(exp) => {
            let exp_digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Decimal::from_scientific(s).ok()
        }
    }
}

/// A whole number written as a decimal (`8` or Python's `8.0`).
pub(crate) fn parse_u32(text: &str) -> Option<u32> {
    let d = parse_decimal(text)?;
    if !d.fract().is_zero() {
        return None;
    }
    d.to_u32()
}

/// A duration in hours, written as a number of hours or days with an optional unit: `72`,
/// `72 h`, `72 hours`, `72 小时`, `3 d`, `3 days`, `3 天` (a day is 24 hours; case ignored).
pub fn parse_hours(text: &str) -> Option<Decimal> {
    let s = text.trim().to_lowercase();
    let number_end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, unit) = s.split_at(number_end);
    let value = parse_decimal(number)?;
    match unit.trim() {
        "" | "h" | "hr" | "hrs" | "hour" | "hours" | "小时" | "小時" => Some(value),
        "d" | "day" | "days" | "天" | "日" => value.checked_mul(Decimal::from(24)),
        _ => None,
    }
}

/// A duration as vendors write a minimum billable time, in hours: a number of hours, or a
/// number with a unit (`10 min`, `90 s`, `1 h`, `2 d`, `10分钟`); minutes and seconds become the
/// exact fraction of an hour the cost model rounds to whole milliseconds.
pub fn parse_duration_hours(text: &str) -> Option<Decimal> {
    if let Some(hours) = parse_hours(text) {
        return Some(hours);
    }
    let s = text.trim().to_lowercase();
    let number_end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, unit) = s.split_at(number_end);
    let value = parse_decimal(number)?;
    let per_hour = match unit.trim() {
        "min" | "mins" | "minute" | "minutes" | "m" | "分钟" | "分" => 60,
        "s" | "sec" | "secs" | "second" | "seconds" | "秒" => 3_600,
        _ => return None,
    };
    value.checked_div(Decimal::from(per_hour))
}

/// A traffic quantity in GB (10⁹ bytes): a plain number is GB; `TB` is 1,000 GB, `GiB`
/// 1.073741824 GB and `TiB` 1,099.511627776 GB (binary units only when the sheet writes them).
pub fn parse_gb(text: &str) -> Option<Decimal> {
    let s = text.trim().to_lowercase();
    let number_end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, unit) = s.split_at(number_end);
    let value = parse_decimal(number)?;
    let factor = match unit.trim() {
        "" | "gb" | "g" => Decimal::ONE,
        "tb" | "t" => Decimal::from(1_000),
        "pb" => Decimal::from(1_000_000),
        "mb" => Decimal::new(1, 3),
        "gib" => Decimal::new(1_073_741_824, 9),
        "tib" => Decimal::new(1_099_511_627_776, 9),
        _ => return None,
    };
    value.checked_mul(factor)
}

/// Traffic tiers as `UP_TO:PRICE` bands separated by `;` or line breaks (one band per line, as
/// typed in the quote form), the last one open (`*:PRICE`): `1TB:0; 10TB:0.09; *:0.085` is the
/// first TB free, 0.09 per GB up to 10 TB, then 0.085.
pub fn parse_tiers(text: &str) -> Option<Vec<TrafficTier>> {
    text.split([';', '\n'])
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            let (bound, price) = part.split_once(':')?;
            let bound = bound.trim();
            let up_to_gb = match bound {
                "*" | "" | "rest" | "其余" => None,
                _ => Some(parse_gb(bound)?),
            };
            Some(TrafficTier {
                up_to_gb,
                price_gb: parse_decimal(price)?,
            })
        })
        .collect()
}

/// A share written as a fraction (`0.3`) or a percentage (`30%`, `30 %`).
pub fn parse_share(text: &str) -> Option<Decimal> {
    let s = text.trim();
    match s.strip_suffix('%') {
        Some(pct) => parse_decimal(pct)?.checked_div(Decimal::ONE_HUNDRED),
        None => parse_decimal(s),
    }
}

/// Whether `text` is the word that states a price of 0: `free`, `免费` or `免費` (case ignored).
pub fn is_free_word(text: &str) -> bool {
    matches!(text.trim().to_lowercase().as_str(), "free" | "免费" | "免費")
}

/// An on-demand price: a number above 0, or the word `free` (`免费`) for 0. A bare 0 is refused
/// ([`ErrorCode::ZeroNeedsFree`]): a sheet that offers no hourly price leaves the cell empty.
fn parse_price_or_free(text: &str) -> Result<Decimal, ErrorCode> {
    if is_free_word(text) {
        return Ok(Decimal::ZERO);
    }
    match parse_decimal(text) {
        Some(price) if price.is_zero() => Err(ErrorCode::ZeroNeedsFree),
        Some(price) => Ok(price),
        None => Err(ErrorCode::InvalidNumber),
    }
}

/// `true/false/yes/no/1/0/是/否` (ASCII case ignored).
pub(crate) fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "是" => Some(true),
        "false" | "no" | "0" | "否" => Some(false),
        _ => None,
    }
}

/// The cells of one row, read by lower-case column name.
pub(crate) struct Cells<'a> {
    rec: &'a StringRecord,
    header: &'a Header,
    failures: Vec<(&'static str, ErrorCode)>,
}

impl<'a> Cells<'a> {
    pub(super) fn new(rec: &'a StringRecord, header: &'a Header) -> Self {
        Cells {
            rec,
            header,
            failures: Vec::new(),
        }
    }

    /// The failed columns and why.
    pub(super) fn into_failures(self) -> Vec<(&'static str, ErrorCode)> {
        self.failures
    }

    /// Records a failure for `col`.
    pub(super) fn fail(&mut self, col: &'static str, code: ErrorCode) {
        self.failures.push((col, code));
    }

    /// The trimmed cell, with the `'` NodeLedger's export puts before a formula-like text taken
    /// off ([`csv_cell::restore`]); `""` when the column is absent.
    pub(super) fn raw(&self, col: &str) -> &'a str {
        self.header
            .position(col)
            .and_then(|i| self.rec.get(i))
            .map_or("", |cell| csv_cell::restore(cell.trim()).trim())
    }

    /// The cell as text.
    pub(super) fn text(&self, col: &str) -> String {
        self.raw(col).to_owned()
    }

    /// `None` for an empty cell, else the value `parse` gives or a failure with `code`.
    fn opt<T>(&mut self, col: &'static str, code: ErrorCode, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        let raw = self.raw(col);
        if raw.is_empty() {
            return None;
        }
        let value = parse(raw);
        if value.is_none() {
            self.fail(col, code);
        }
        value
    }

    /// Like `opt`, but an empty cell is a failure too; `fallback` stands in for a failure.
    fn required<T>(&mut self, col: &'static str, code: ErrorCode, fallback: T, parse: impl Fn(&str) -> Option<T>) -> T {
        if self.raw(col).is_empty() {
            self.fail(col, ErrorCode::Required);
            return fallback;
        }
        self.opt(col, code, parse).unwrap_or(fallback)
    }

    /// An optional decimal.
    pub(super) fn opt_decimal(&mut self, col: &'static str) -> Option<Decimal> {
        self.opt(col, ErrorCode::InvalidNumber, parse_decimal)
    }

    /// A required decimal.
    pub(super) fn decimal(&mut self, col: &'static str) -> Decimal {
        self.required(col, ErrorCode::InvalidNumber, Decimal::ZERO, parse_decimal)
    }

    /// An amount that is 0 when the cell is empty.
    pub(super) fn amount(&mut self, col: &'static str) -> Decimal {
        self.opt_decimal(col).unwrap_or(Decimal::ZERO)
    }

    /// An optional whole number.
    pub(super) fn opt_u32(&mut self, col: &'static str) -> Option<u32> {
        self.opt(col, ErrorCode::InvalidInteger, parse_u32)
    }

    /// A required whole number.
    pub(super) fn u32(&mut self, col: &'static str) -> u32 {
        self.required(col, ErrorCode::InvalidInteger, 1, parse_u32)
    }

    /// An optional duration in hours ([`parse_hours`]).
    pub(super) fn opt_hours(&mut self, col: &'static str) -> Option<Decimal> {
        self.opt(col, ErrorCode::InvalidNumber, parse_hours)
    }

    /// An optional duration in hours with any unit ([`parse_duration_hours`]).
    pub(super) fn opt_duration_hours(&mut self, col: &'static str) -> Option<Decimal> {
        self.opt(col, ErrorCode::InvalidDuration, parse_duration_hours)
    }

    /// An optional billing increment or package period ([`BillingIncrement::parse`]).
    pub(super) fn opt_increment(&mut self, col: &'static str) -> Option<BillingIncrement> {
        self.opt(col, ErrorCode::InvalidDuration, BillingIncrement::parse)
    }

    /// An optional quantity of GB with a unit ([`parse_gb`]).
    pub(super) fn opt_gb(&mut self, col: &'static str) -> Option<Decimal> {
        self.opt(col, ErrorCode::InvalidNumber, parse_gb)
    }

    /// Traffic tiers ([`parse_tiers`]); an empty cell is none.
    pub(super) fn tiers(&mut self, col: &'static str) -> Vec<TrafficTier> {
        self.opt(col, ErrorCode::InvalidTiers, parse_tiers).unwrap_or_default()
    }

    /// An optional share ([`parse_share`]).
    pub(super) fn opt_share(&mut self, col: &'static str) -> Option<Decimal> {
        self.opt(col, ErrorCode::InvalidNumber, parse_share)
    }

    /// An optional on-demand price: empty is not offered, `free` is 0, a bare 0 is refused.
    pub(super) fn opt_price_or_free(&mut self, col: &'static str) -> Option<Decimal> {
        let raw = self.raw(col);
        if raw.is_empty() {
            return None;
        }
        match parse_price_or_free(raw) {
            Ok(price) => Some(price),
            Err(code) => {
                self.fail(col, code);
                None
            }
        }
    }

    /// An optional yes/no.
    pub(super) fn opt_bool(&mut self, col: &'static str) -> Option<bool> {
        self.opt(col, ErrorCode::InvalidBool, parse_bool)
    }

    /// A required date.
    pub(super) fn date(&mut self, col: &'static str, fallback: Date) -> Date {
        self.required(col, ErrorCode::InvalidDate, fallback, |s| Date::parse(s).ok())
    }

    /// One of `choices` (snake case, ASCII case ignored), optional.
    pub(super) fn opt_choice<T: Copy>(&mut self, col: &'static str, choices: &[(&str, T)]) -> Option<T> {
        self.opt(col, ErrorCode::InvalidChoice, |s| find_choice(s, choices))
    }

    /// One of `choices`, required; `fallback` stands in for a failure.
    pub(super) fn choice<T: Copy>(&mut self, col: &'static str, choices: &[(&str, T)], fallback: T) -> T {
        self.required(col, ErrorCode::InvalidChoice, fallback, |s| find_choice(s, choices))
    }

    /// An ISO 4217 currency code (case ignored).
    pub(super) fn currency(&mut self, col: &'static str) -> Currency {
        let raw = self.raw(col);
        if raw.is_empty() {
            self.fail(col, ErrorCode::Required);
            return Currency::USD;
        }
        match Currency::parse(&raw.to_ascii_uppercase()) {
            Ok(c) => c,
            Err(reason) => {
                let code = match reason {
                    ErrorReason::UnknownCurrency { .. } => ErrorCode::UnknownCurrency,
                    _ => ErrorCode::InvalidCurrency,
                };
                self.fail(col, code);
                Currency::USD
            }
        }
    }

    /// `exclusive`, `vgpu`, `mig:<profile>` or `fractional:<share>`.
    pub(super) fn sharing(&mut self, col: &'static str) -> Sharing {
        self.required(col, ErrorCode::InvalidChoice, Sharing::Exclusive, parse_sharing)
    }

    /// `label=amount;label=amount` (empty cell: no fees).
    pub(super) fn fees(&mut self, col: &'static str) -> Vec<Fee> {
        self.opt(col, ErrorCode::InvalidFeeList, parse_fees).unwrap_or_default()
    }
}

fn find_choice<T: Copy>(s: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(s))
        .map(|(_, v)| *v)
}

fn parse_sharing(s: &str) -> Option<Sharing> {
    let (mode, arg) = match s.split_once(':') {
        Some((m, a)) => (m.trim(), Some(a.trim())),
        None => (s, None),
    };
    match (mode.to_ascii_lowercase().as_str(), arg) {
        ("exclusive", None) => Some(Sharing::Exclusive),
        ("vgpu", None) => Some(Sharing::Vgpu),
        ("mig", Some(profile)) => Some(Sharing::Mig {
            profile: profile.to_owned(),
        }),
        ("fractional", Some(share)) => parse_decimal(share).map(|share| Sharing::Fractional { share }),
        _ => None,
    }
}

fn parse_fees(s: &str) -> Option<Vec<Fee>> {
    s.split(';')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            let (label, amount) = part.split_once('=')?;
            Some(Fee {
                label: label.trim().to_owned(),
                amount: parse_decimal(amount)?,
            })
        })
        .collect()
}
