//! Texts built from domain values in the reader's language, beside [`crate::i18n`]: pages, the
//! API, the CLI and services word the same values the same way, and none of them has to reach
//! into `pages` for it (nothing below `pages` imports from `pages`).

pub mod audit;
pub mod bus;
pub mod dashboard;
#[cfg(feature = "ssr")]
pub mod quotes;
pub mod response;
#[cfg(feature = "ssr")]
pub mod rfq_mail;
pub mod runs;
pub mod security_mail;

/// A stored moment (`2026-11-03T10:00:00Z`, RFC 3339 in UTC) as a reader reads it:
/// `2026-11-03 10:00 UTC`. Text in any other shape is shown as it is, never dropped.
#[must_use]
pub fn moment(at: &str) -> String {
    let b = at.as_bytes();
    let shaped = b.len() >= 17
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && at.ends_with('Z')
        && at.is_char_boundary(16);
    if shaped {
        format!("{} {} UTC", &at[..10], &at[11..16])
    } else {
        at.to_string()
    }
}

/// A moment in Unix seconds as vendors and the team read it in a record: UTC, to the minute.
pub use crate::domain::bills::timestamp::utc_minute;

#[cfg(test)]
mod tests {
    use super::moment;

    #[test]
    fn a_stored_moment_reads_as_date_minute_and_zone() {
        assert_eq!(moment("2026-11-03T10:00:59Z"), "2026-11-03 10:00 UTC");
        assert_eq!(moment("2026-11-03T10:00:00.123Z"), "2026-11-03 10:00 UTC");
        assert_eq!(moment("yesterday"), "yesterday", "other text is kept");
        assert_eq!(
            moment("2026-11-03T10:00:00+08:00"),
            "2026-11-03T10:00:00+08:00",
            "only UTC is shortened"
        );
        assert_eq!(
            moment("２０２６-11-03T10:00Z"),
            "２０２６-11-03T10:00Z",
            "no panic on wide characters"
        );
    }
}
