//! The charge period's timestamps: read as bills write them, kept as Unix seconds (UTC), written
//! back as RFC 3339 with a `Z` ("2026-12-01T08:00:00Z", the form the rentals table uses, so text
//! order is time order).
//!
//! Accepted: `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM`, `…:SS`, `…:SS.fraction` (the
//! fraction is dropped), with `T` or a space, followed by `Z`, `+HH:MM`, `-HH:MM`, `+HHMM` or
//! nothing (UTC); one space may stand before the zone. FOCUS writes `2026-12-01T00:00:00Z`; spreadsheets often write the space form.

use crate::calendar::civil_from_days;
use crate::quotes::Date;

fn digits(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Seconds east of UTC of a zone suffix (`Z`, `+08:00`, `-0500`, empty).
fn offset(zone: &str) -> Option<i64> {
    if zone.is_empty() || zone == "Z" || zone == "z" {
        return Some(0);
    }
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let rest = zone[1..].replace(':', "");
    if rest.len() != 4 {
        return None;
    }
    // `get`, not slicing: the four bytes may not be four characters (`+1é1`).
    let (h, m) = (digits(rest.get(..2)?)?, digits(rest.get(2..)?)?);
    (h <= 14 && m < 60).then_some(sign * (h * 3600 + m * 60))
}

/// Reads a timestamp (forms in the module docs) as Unix seconds, UTC; `None` when it is not one.
#[must_use]
pub fn parse(text: &str) -> Option<i64> {
    let text = text.trim();
    let date = text.get(..10)?;
    let (y, m, d) = (
        digits(date.get(..4)?)?,
        digits(date.get(5..7)?)?,
        digits(date.get(8..10)?)?,
    );
    if date.as_bytes()[4] != b'-' || date.as_bytes()[7] != b'-' {
        return None;
    }
    let date = Date::new(u16::try_from(y).ok()?, u8::try_from(m).ok()?, u8::try_from(d).ok()?)?;
    let day = date.day_number() * 86_400;
    let rest = &text[10..];
    if rest.is_empty() {
        return Some(day);
    }
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    let zone_at = rest.find(['Z', 'z', '+', '-']).unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(zone_at);
    // A space may stand before the zone, as people type it: `2026-12-15 18:00 +08:00`.
    let clock = clock.strip_suffix(' ').unwrap_or(clock);
    let clock = clock.split('.').next()?;
    let mut parts = clock.split(':');
    let h = digits(parts.next()?)?;
    let min = digits(parts.next()?)?;
    let s = parts.next().map_or(Some(0), digits)?;
    if parts.next().is_some() || h > 23 || min > 59 || s > 60 {
        return None;
    }
    Some(day + h * 3600 + min * 60 + s - offset(zone)?)
}

/// Unix seconds as RFC 3339 UTC with a `Z`: `2026-12-01T08:00:00Z`.
#[must_use]
pub fn format(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A moment as a record names it to a reader: UTC, to the minute (`2026-12-31 10:00 UTC`).
#[must_use]
pub fn utc_minute(secs: i64) -> String {
    let stamp = format(secs);
    format!("{} UTC", stamp.get(..16).unwrap_or(&stamp).replace('T', " "))
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_moment_reads_to_the_minute_in_utc() {
        assert_eq!(utc_minute(4_102_394_400), "2099-12-31 10:00 UTC");
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
    }
    use super::{format, parse, utc_minute};

    #[test]
    fn the_forms_bills_write_read_as_the_same_instant() {
        let at = parse("2026-12-01T08:00:00Z").expect("FOCUS form");
        assert_eq!(format(at), "2026-12-01T08:00:00Z");
        assert_eq!(parse("2026-12-01 08:00:00"), Some(at));
        assert_eq!(parse("2026-12-01 16:00 +08:00"), Some(at));
        assert_eq!(parse("2026-12-01T16:00:00+08:00"), Some(at), "Beijing time");
        assert_eq!(parse("2026-12-01T03:00-0500"), Some(at));
        assert_eq!(parse("2026-12-01T08:00:00.000Z"), Some(at));
        assert_eq!(parse("2026-12-01"), Some(at - 8 * 3600));
        assert_eq!(format(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            parse("2024-02-29T00:00:00Z").map(format).as_deref(),
            Some("2024-02-29T00:00:00Z")
        );
    }

    #[test]
    fn what_is_not_a_time_is_refused() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30",
            "2026-12-01T25:00",
            "2026-12-01T08:00:00+8",
            "2026/12/01",
            // Four bytes, three characters: once a panic, slicing inside the `é`.
            "2026-12-01T08:00:00+1é1",
            "2026-12-01T08:00:00-é12",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
