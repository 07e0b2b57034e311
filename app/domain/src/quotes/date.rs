//! A calendar date written `YYYY-MM-DD` (years 0001–9999); no clock, no time zone.

use super::error::ErrorCode;
use crate::calendar::civil_from_days;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A validated Gregorian calendar date. Orders chronologically; serialized as `"YYYY-MM-DD"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    /// 1970-01-01.
    pub const EPOCH: Date = Date {
        year: 1970,
        month: 1,
        day: 1,
    };

    /// The date, if it exists (year 1–9999).
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let valid = (1..=9999).contains(&year) && day >= 1 && day <= days_in_month(year, month);
        valid.then_some(Date { year, month, day })
    }

    /// Parses exactly `YYYY-MM-DD` (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<Date, ErrorCode> {
        let b = text.trim().as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(ErrorCode::InvalidDate);
        }
        let num = |r: std::ops::Range<usize>| {
            b[r].iter().try_fold(0u16, |acc, &d| {
                d.is_ascii_digit().then(|| acc * 10 + u16::from(d - b'0'))
            })
        };
        let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
            return Err(ErrorCode::InvalidDate);
        };
        let (Ok(m), Ok(d)) = (u8::try_from(m), u8::try_from(d)) else {
            return Err(ErrorCode::InvalidDate);
        };
        Date::new(y, m, d).ok_or(ErrorCode::InvalidDate)
    }

    /// The year.
    pub const fn year(self) -> u16 {
        self.year
    }

    /// The month, 1–12.
    pub const fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, 1–31.
    pub const fn day(self) -> u8 {
        self.day
    }

    /// The date `days` days later, if it is still within year 9999.
    pub fn add_days(self, days: u32) -> Option<Date> {
        from_day_number(self.day_number() + i64::from(days))
    }

    /// Days from `self` to `other` (negative when `other` is earlier).
    pub fn days_until(self, other: Date) -> i64 {
        other.day_number() - self.day_number()
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    pub fn day_number(self) -> i64 {
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }
}

/// The date of a day count since 1970-01-01.
fn from_day_number(z: i64) -> Option<Date> {
    let (y, m, d) = civil_from_days(z);
    Date::new(u16::try_from(y).ok()?, u8::try_from(m).ok()?, u8::try_from(d).ok()?)
}

const fn days_in_month(year: u16, month: u8) -> u8 {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = ErrorCode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Date::parse(s)
    }
}

impl From<Date> for String {
    fn from(d: Date) -> String {
        d.to_string()
    }
}

impl TryFrom<String> for Date {
    type Error = ErrorCode;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Date::parse(&s)
    }
}

/// True when the quote has expired: `today` is after its last valid day.
pub fn is_expired(valid_until: Date, today: Date) -> bool {
    today > valid_until
}
