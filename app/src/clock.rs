//! The one clock of the server, and the one way a moment is written down.
//!
//! Events, revisions, tokens and sessions store a moment as UTC to the second in one shape,
//! `2026-12-03T14:05:09Z` ([`stamp`]): the audit chain hashes that text, and the database
//! compares it as text, so every writer must produce exactly this shape. The domain never reads
//! the clock: services read it here and pass the moment down.

use time::{OffsetDateTime, format_description::FormatItem, macros::format_description};

/// The stored shape of a moment: UTC, seconds, `Z`.
const STAMP: &[FormatItem<'static>] = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");

/// The moment `at` as events store it (UTC, seconds).
#[must_use]
pub fn stamp(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC).format(STAMP).unwrap_or_default()
}

/// Now, as events store it (UTC, seconds).
#[must_use]
pub fn now_stamp() -> String {
    stamp(OffsetDateTime::now_utc())
}

/// Today's date (UTC), for validity checks.
#[must_use]
pub fn today() -> crate::domain::quotes::Date {
    let d = OffsetDateTime::now_utc().date();
    crate::domain::quotes::Date::parse(&format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day()))
        .expect("the clock gives a valid calendar date")
}

/// Current time in Unix seconds.
#[must_use]
pub fn now_unix() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_is_written_in_utc_to_the_second_whatever_its_offset() {
        let at = time::macros::datetime!(2026-12-03 22:05:09.75 +08:00);
        assert_eq!(stamp(at), "2026-12-03T14:05:09Z");
        assert_eq!(now_stamp().len(), "2026-12-03T14:05:09Z".len());
    }
}
