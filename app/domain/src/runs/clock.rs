//! Wall-clock times of a run, as the tools write them.
//!
//! Times are kept as written, without a time zone: `YYYY-MM-DDTHH:MM:SS[.fff]`.
//! vLLM writes the end of the benchmark as `date` (`"20250101-120000"`,
//! `datetime.now()` on the client); nvidia-smi writes each row's local time.
//! Both are read as seconds on one naive clock, so a result can be placed
//! inside its telemetry when both were written on the same clock (the usual
//! case: one node, one time zone). When they were not, the window does not
//! overlap the telemetry and the verdict says so.

use super::smi_value::parse_timestamp;
use crate::calendar::civil_from_days;

/// Seconds on the naive clock of a canonical time (`None` when malformed).
pub(crate) fn seconds(at: &str) -> Option<f64> {
    parse_timestamp(at.as_bytes())
}

/// The canonical form of `secs` on the naive clock, to the millisecond.
pub(crate) fn format(secs: f64) -> Option<String> {
    if !secs.is_finite() || secs.abs() > 1e13 {
        return None;
    }
    let ms = (secs * 1000.0).round() as i64;
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let s = ms_of_day / 1000;
    let frac = ms_of_day % 1000;
    let base = format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    Some(if frac == 0 { base } else { format!("{base}.{frac:03}") })
}

/// A start time as a person or a script states it, in canonical form: `YYYY-MM-DDTHH:MM`
/// (an HTML `datetime-local` field), with seconds and fractions or a space instead of `T`;
/// a trailing `Z` is dropped (times are on the telemetry's naive clock). `None` when it is not
/// such a time.
#[must_use]
pub fn stated_start(text: &str) -> Option<String> {
    let t = text.trim();
    let t = t.strip_suffix('Z').unwrap_or(t);
    if t.len() > 40 {
        return None;
    }
    let full = if t.len() == 16 { format!("{t}:00") } else { t.to_owned() };
    seconds(&full).and_then(format)
}

/// The canonical time `secs` seconds after `start` (a time [`stated_start`] reads): where a
/// benchmark began when it is known to start that long after its command (a server's start-up
/// first). `None` when `start` is not such a time.
#[must_use]
pub fn later_by(start: &str, secs: u64) -> Option<String> {
    let at = seconds(&stated_start(start)?)?;
    #[expect(
        clippy::cast_precision_loss,
        reason = "a probe's offset is at most a week of seconds"
    )]
    let later = at + secs as f64;
    format(later)
}

/// vLLM's `date` (`"%Y%m%d-%H%M%S"`, e.g. `"20250101-120000"`) in canonical form.
pub(crate) fn from_vllm_date(date: &str) -> Option<String> {
    let b = date.trim().as_bytes();
    if b.len() != 15 || b[8] != b'-' || !b.iter().enumerate().all(|(i, c)| i == 8 || c.is_ascii_digit()) {
        return None;
    }
    let d = |a: usize, z: usize| std::str::from_utf8(&b[a..z]).ok();
    let at = format!(
        "{}-{}-{}T{}:{}:{}",
        d(0, 4)?,
        d(4, 6)?,
        d(6, 8)?,
        d(9, 11)?,
        d(11, 13)?,
        d(13, 15)?
    );
    seconds(&at).map(|_| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_later_by_an_offset_crosses_midnight() {
        assert_eq!(
            later_by("2026-12-01 23:59:30", 90).as_deref(),
            Some("2026-12-02T00:01:00")
        );
        assert_eq!(later_by("2026-12-01T10:00", 0).as_deref(), Some("2026-12-01T10:00:00"));
        assert_eq!(later_by("yesterday", 90), None);
    }

    #[test]
    fn vllm_dates_and_round_trips() {
        assert_eq!(
            from_vllm_date("20250101-120000").as_deref(),
            Some("2025-01-01T12:00:00")
        );
        assert_eq!(from_vllm_date("20251301-120000"), None);
        assert_eq!(from_vllm_date("2025-01-01"), None);
        let s = seconds("2025-01-01T12:00:00").unwrap();
        assert_eq!(format(s - 412.0).as_deref(), Some("2025-01-01T11:53:08"));
        assert_eq!(format(s + 0.25).as_deref(), Some("2025-01-01T12:00:00.250"));
        assert_eq!(
            seconds("2024/05/01 12:00:00.123").map(format),
            Some(Some("2024-05-01T12:00:00.123".into()))
        );
        assert_eq!(format(-1.0).as_deref(), Some("1969-12-31T23:59:59"));
        assert_eq!(stated_start("2026-12-02T10:30").as_deref(), Some("2026-12-02T10:30:00"));
        assert_eq!(
            stated_start(" 2026-12-02 10:30:15.5Z ").as_deref(),
            Some("2026-12-02T10:30:15.500")
        );
        assert_eq!(stated_start("yesterday"), None);
        assert_eq!(stated_start("2026-13-02T10:30"), None);
        assert_eq!(stated_start(&"9".repeat(100)), None);
        assert_eq!(format(f64::NAN), None);
    }
}
