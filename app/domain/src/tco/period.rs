//! Lengths of billed time as vendors write them: a billing increment ("per second", "10 min",
//! "15 分钟", "per day") or a package period ("month", "week", "100 h").
//!
//! A [`BillingIncrement`] is a whole number of seconds, so that every figure built on it stays
//! exact: busy time in milliseconds is rounded up to a count of increments, and the cost is
//! count × increment seconds × hourly price ÷ 3600, the division last. A month is 730 hours,
//! as everywhere in the cost model.
//!
//! On the wire (scenario files, stored quotes, signed records) an increment is one string:
//! `second`, `minute`, `hour`, `day`, `week` and `month` for those lengths (the first three
//! are what every file written before other lengths existed says), else the number of seconds
//! with an `s`: `600s` for 10 minutes. [`BillingIncrement::parse`] also reads what people type
//! on a form or a vendor's sheet: `10 min`, `10 minutes`, `15分钟`, `10 s`, `2 h`, `1 天`,
//! `per day`, `每小时`, `按天`.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A length of billed time: the step running time is rounded up to, or a package's period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BillingIncrement {
    seconds: u32,
}

/// The longest increment or package period read: one year (8,760 h).
pub const MAX_INCREMENT_SECONDS: u32 = 8_760 * 3_600;

/// The named lengths and their wire names, shortest first.
const NAMED: [(&str, u32); 6] = [
    ("second", 1),
    ("minute", 60),
    ("hour", 3_600),
    ("day", 86_400),
    ("week", 604_800),
    ("month", 730 * 3_600),
];

/// Unit words people write after a number, and the seconds each stands for (a month is 730 h).
const UNITS: [(&str, u32); 29] = [
    ("seconds", 1),
    ("second", 1),
    ("secs", 1),
    ("sec", 1),
    ("s", 1),
    ("秒", 1),
    ("minutes", 60),
    ("minute", 60),
    ("mins", 60),
    ("min", 60),
    ("m", 60),
    ("分钟", 60),
    ("分", 60),
    ("hours", 3_600),
    ("hour", 3_600),
    ("hrs", 3_600),
    ("hr", 3_600),
    ("h", 3_600),
    ("小时", 3_600),
    ("days", 86_400),
    ("day", 86_400),
    ("d", 86_400),
    ("天", 86_400),
    ("weeks", 604_800),
    ("week", 604_800),
    ("周", 604_800),
    ("months", 730 * 3_600),
    ("month", 730 * 3_600),
    ("月", 730 * 3_600),
];

impl BillingIncrement {
    /// Per started second.
    pub const SECOND: BillingIncrement = BillingIncrement { seconds: 1 };
    /// Per started minute.
    pub const MINUTE: BillingIncrement = BillingIncrement { seconds: 60 };
    /// Per started hour.
    pub const HOUR: BillingIncrement = BillingIncrement { seconds: 3_600 };
    /// Per started day.
    pub const DAY: BillingIncrement = BillingIncrement { seconds: 86_400 };
    /// One week (168 h).
    pub const WEEK: BillingIncrement = BillingIncrement { seconds: 604_800 };
    /// One billing month (730 h).
    pub const MONTH: BillingIncrement = BillingIncrement { seconds: 730 * 3_600 };

    /// An increment of `seconds`, from 1 s to one year; `None` outside.
    #[must_use]
    pub const fn from_seconds(seconds: u32) -> Option<BillingIncrement> {
        if seconds == 0 || seconds > MAX_INCREMENT_SECONDS {
            None
        } else {
            Some(BillingIncrement { seconds })
        }
    }

    /// The length in seconds.
    #[must_use]
    pub const fn seconds(self) -> u32 {
        self.seconds
    }

    /// The length in hours (exact for whole seconds up to 28 digits).
    #[must_use]
    pub fn hours(self) -> Decimal {
        Decimal::from(self.seconds) / Decimal::from(3_600)
    }

    /// The wire name: `second` … `month` for the named lengths, else `<seconds>s`.
    #[must_use]
    pub fn wire(self) -> String {
        match NAMED.iter().find(|(_, s)| *s == self.seconds) {
            Some((name, _)) => (*name).to_owned(),
            None => format!("{}s", self.seconds),
        }
    }

    /// Reads an increment as written on the wire or by a person: a wire name, `per hour`,
    /// `每小时`, `按天`, or a whole number with a unit (`10 min`, `15分钟`, `600s`, `2 h`, `1 天`). A bare
    /// number without a unit is refused: "10" could be seconds or minutes.
    #[must_use]
    pub fn parse(text: &str) -> Option<BillingIncrement> {
        let lower = text.trim().to_lowercase();
        let word = lower
            .strip_prefix("per ")
            .or_else(|| lower.strip_prefix('每'))
            .or_else(|| lower.strip_prefix('按'))
            .unwrap_or(&lower)
            .trim();
        if let Some((_, seconds)) = NAMED.iter().find(|(name, _)| *name == word) {
            return Some(BillingIncrement { seconds: *seconds });
        }
        if let Some((_, seconds)) = UNITS.iter().find(|(unit, _)| *unit == word) {
            return Some(BillingIncrement { seconds: *seconds });
        }
        let digits_end = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
        let (count, unit) = word.split_at(digits_end);
        let count: u32 = count.parse().ok()?;
        let (_, per_unit) = UNITS.iter().find(|(name, _)| *name == unit.trim())?;
        BillingIncrement::from_seconds(count.checked_mul(*per_unit)?)
    }

    /// How a person reads it, in English: `per second`, `10 min`, `15 min`, `2 h`, `per day`.
    #[must_use]
    pub fn describe(self) -> String {
        let s = self.seconds;
        match NAMED.iter().find(|(_, n)| *n == s) {
            Some((name, _)) => format!("per {name}"),
            None if s.is_multiple_of(86_400) => format!("{} d", s / 86_400),
            None if s.is_multiple_of(3_600) => format!("{} h", s / 3_600),
            None if s.is_multiple_of(60) => format!("{} min", s / 60),
            None => format!("{s} s"),
        }
    }
}

impl Serialize for BillingIncrement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.wire())
    }
}

impl<'de> Deserialize<'de> for BillingIncrement {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        wire(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "a billing increment is second, minute, hour, day, week, month or whole seconds such as 600s (1 s to one year), not {text:?}"
            ))
        })
    }
}

/// The wire form only: a name, or `<seconds>s` without spaces or leading zeros.
fn wire(text: &str) -> Option<BillingIncrement> {
    if let Some((_, seconds)) = NAMED.iter().find(|(name, _)| *name == text) {
        return Some(BillingIncrement { seconds: *seconds });
    }
    let digits = text.strip_suffix('s')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    BillingIncrement::from_seconds(digits.parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::BillingIncrement;

    #[test]
    fn the_three_old_names_keep_their_wire_form() {
        for (name, seconds) in [("second", 1), ("minute", 60), ("hour", 3600)] {
            let inc: BillingIncrement = serde_json::from_str(&format!("\"{name}\"")).expect("old name");
            assert_eq!(inc.seconds(), seconds);
            assert_eq!(serde_json::to_string(&inc).expect("json"), format!("\"{name}\""));
        }
    }

    #[test]
    fn other_lengths_are_written_in_seconds_and_read_back() {
        let ten_min = BillingIncrement::parse("10 min").expect("10 min");
        assert_eq!(ten_min.seconds(), 600);
        assert_eq!(serde_json::to_string(&ten_min).expect("json"), "\"600s\"");
        let back: BillingIncrement = serde_json::from_str("\"600s\"").expect("600s");
        assert_eq!(back, ten_min);
        assert_eq!(ten_min.describe(), "10 min");
    }

    #[test]
    fn what_vendors_write_is_read() {
        // Written as on vendors' published sheets: per-second billing with a minimum, 10-second
        // and 10/15-minute steps, daily rentals; and the Chinese forms of the same.
        let cases = [
            ("per second", 1),
            ("10s", 10),
            ("10 s", 10),
            ("10 seconds", 10),
            ("10 min", 600),
            ("10 minutes", 600),
            ("15min", 900),
            ("15分钟", 900),
            ("15 分钟", 900),
            ("2 h", 7200),
            ("per hour", 3600),
            ("每小时", 3600),
            ("按小时", 3600),
            ("按天", 86_400),
            ("1 天", 86_400),
            ("per day", 86_400),
            ("Day", 86_400),
            ("week", 604_800),
        ];
        for (text, seconds) in cases {
            assert_eq!(
                BillingIncrement::parse(text).map(BillingIncrement::seconds),
                Some(seconds),
                "{text}"
            );
        }
    }

    #[test]
    fn ambiguous_or_impossible_lengths_are_refused() {
        for text in [
            "",
            "10",
            "0 min",
            "-5 min",
            "1.5 h",
            "ten minutes",
            "2 years",
            "9000 h",
            "4294967296 s",
        ] {
            assert_eq!(BillingIncrement::parse(text), None, "{text}");
        }
        for wire in ["\"10 min\"", "\"0s\"", "\"010s\"", "\"s\"", "\"Hour\"", "600"] {
            assert!(serde_json::from_str::<BillingIncrement>(wire).is_err(), "{wire}");
        }
    }
}
