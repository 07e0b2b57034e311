//! A moment in UTC, to the second, as rentals store it: `2026-12-01T08:00:00Z` (text order is
//! time order). No clock here: the caller passes "now".

use crate::quotes::Date;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Seconds in an hour.
const HOUR_S: i64 = 3600;

/// Seconds since 1970-01-01T00:00:00Z. Serialized as its RFC 3339 text with a `Z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Instant(i64);

impl Instant {
    /// The moment `seconds` after the epoch.
    #[must_use]
    pub const fn from_unix(seconds: i64) -> Instant {
        Instant(seconds)
    }

    /// Seconds since the epoch.
    #[must_use]
    pub const fn unix(self) -> i64 {
        self.0
    }

    /// Reads `YYYY-MM-DDTHH:MM[:SS][Z]` (a `T` or a space between date and time; what a
    /// `datetime-local` field sends, read as UTC). `None` for anything else, or before 1970.
    #[must_use]
    pub fn parse(text: &str) -> Option<Instant> {
        let s = text.trim();
        let s = s.strip_suffix('Z').unwrap_or(s);
        if s.len() < 16 || !s.is_char_boundary(10) {
            return None;
        }
        let (date, rest) = s.split_at(10);
        let date = Date::parse(date).ok()?;
        let time = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '))?;
        let parts: Vec<&str> = time.split(':').collect();
        let field = |i: usize, max: i64| -> Option<i64> {
            let p = parts.get(i)?;
            let v: i64 = (p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()?;
            (v <= max).then_some(v)
        };
        let (h, m) = (field(0, 23)?, field(1, 59)?);
        let sec = match parts.len() {
            2 => 0,
            3 => field(2, 59)?,
            _ => return None,
        };
        let days = Date::EPOCH.days_until(date);
        (days >= 0).then(|| Instant(days * 86_400 + h * HOUR_S + m * 60 + sec))
    }

    /// The moment `hours` later, rounded up to the next whole second (`None` on overflow or a
    /// negative span).
    #[must_use]
    pub fn plus_hours(self, hours: Decimal) -> Option<Instant> {
        if hours.is_sign_negative() {
            return None;
        }
        let secs = hours.checked_mul(Decimal::from(HOUR_S))?;
        let secs = secs.round_dp_with_strategy(0, RoundingStrategy::AwayFromZero);
        let secs: i64 = secs.try_into().ok()?;
        self.0.checked_add(secs).map(Instant)
    }

    /// Hours from `self` to `later`, exact (negative when `later` is earlier).
    #[must_use]
    pub fn hours_until(self, later: Instant) -> Decimal {
        Decimal::from(later.0 - self.0) / Decimal::from(HOUR_S)
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.0.div_euclid(86_400);
        let secs = self.0.rem_euclid(86_400);
        let date = u32::try_from(days)
            .ok()
            .and_then(|d| Date::EPOCH.add_days(d))
            .unwrap_or(Date::EPOCH);
        write!(
            f,
            "{date}T{:02}:{:02}:{:02}Z",
            secs / HOUR_S,
            secs % HOUR_S / 60,
            secs % 60
        )
    }
}

impl From<Instant> for String {
    fn from(i: Instant) -> String {
        i.to_string()
    }
}

impl TryFrom<String> for Instant {
    type Error = String;
    fn try_from(s: String) -> Result<Instant, String> {
        Instant::parse(&s).ok_or_else(|| format!("not a UTC time YYYY-MM-DDTHH:MM:SSZ: {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::Instant;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    #[test]
    fn reads_what_the_database_and_a_datetime_field_write() {
        let at = Instant::parse("2026-12-01T08:00:00Z").expect("stored form");
        assert_eq!(at.to_string(), "2026-12-01T08:00:00Z");
        assert_eq!(
            Instant::parse("2026-12-01T08:00"),
            Some(at),
            "datetime-local, read as UTC"
        );
        assert_eq!(Instant::parse(" 2026-12-01 08:00:00 "), Some(at));
        assert_eq!(Instant::parse("1970-01-02T00:00:01Z").map(Instant::unix), Some(86_401));
        for bad in [
            "",
            "2026-12-01",
            "2026-13-01T08:00",
            "2026-12-01T24:00",
            "2026-12-01T08:60",
            "2026-12-01T8:00",
            "1969-12-31T23:59",
            "2026-12-01T08:00:00+01:00",
            "２０２６-12-01T08:00",
        ] {
            assert_eq!(Instant::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn hours_are_exact_and_a_fraction_of_a_second_rounds_up() {
        let at = Instant::parse("2026-12-01T08:00:00Z").expect("time");
        assert_eq!(
            at.plus_hours(dec!(26.5)).map(|i| i.to_string()).as_deref(),
            Some("2026-12-02T10:30:00Z")
        );
        // 1/3 h = 1200 s exactly after rounding the decimal's last digit up.
        assert_eq!(
            at.plus_hours(dec!(1) / dec!(3)).map(|i| i.unix() - at.unix()),
            Some(1200)
        );
        assert_eq!(
            at.plus_hours(dec!(0.0001)).map(|i| i.unix() - at.unix()),
            Some(1),
            "0.36 s bills a second"
        );
        assert_eq!(at.plus_hours(dec!(-1)), None);
        let later = Instant::parse("2026-12-03T20:00:00Z").expect("time");
        assert_eq!(at.hours_until(later), dec!(60));
        assert_eq!(later.hours_until(at), dec!(-60));
    }

    proptest! {
        #[test]
        fn text_round_trips(secs in 0i64..253_402_300_799) {
            let at = Instant::from_unix(secs);
            prop_assert_eq!(Instant::parse(&at.to_string()), Some(at));
        }
    }
}
