//! `--duration 20m`: how long to run a command that does not end by itself.

use std::time::Duration;

/// Longest `--duration` accepted: a week.
const MAX_SECS: u64 = 7 * 24 * 3600;

/// Reads `90s`, `20m`, `1h30m`, `2h`, or bare seconds (`600`). Units `s`, `m`, `h`, `d`;
/// parts add up. Zero and more than a week are refused.
///
/// # Errors
/// A message naming what was not understood.
pub fn parse(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("--duration is empty: write e.g. 20m, 1h30m or 90s".into());
    }
    if let Ok(secs) = text.parse::<u64>() {
        return bounded(text, secs);
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => {
                return Err(format!(
                    "--duration {text:?}: unknown unit {c:?} (use s, m, h or d, e.g. 20m)"
                ));
            }
        };
        let n: u64 = digits
            .parse()
            .map_err(|_| format!("--duration {text:?}: a number must come before {c:?}"))?;
        total = total.saturating_add(n.saturating_mul(unit));
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(format!(
            "--duration {text:?}: {digits} has no unit (write {digits}s or {digits}m)"
        ));
    }
    bounded(text, total)
}

fn bounded(text: &str, secs: u64) -> Result<Duration, String> {
    match secs {
        0 => Err(format!("--duration {text:?} is zero")),
        s if s > MAX_SECS => Err(format!("--duration {text:?} is longer than a week")),
        s => Ok(Duration::from_secs(s)),
    }
}

/// `m:ss` or `h:mm:ss`, as the live line shows elapsed time.
#[must_use]
pub fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_ways_people_write_a_duration() {
        assert_eq!(parse("20m"), Ok(Duration::from_secs(1200)));
        assert_eq!(parse("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse(" 90s "), Ok(Duration::from_secs(90)));
        assert_eq!(parse("600"), Ok(Duration::from_secs(600)));
        assert_eq!(parse("1d"), Ok(Duration::from_secs(86_400)));
    }

    #[test]
    fn refuses_what_it_cannot_read_and_says_why() {
        assert!(parse("20x").unwrap_err().contains("unknown unit 'x'"));
        assert!(parse("1h30").unwrap_err().contains("30 has no unit"));
        assert!(parse("m").unwrap_err().contains("a number must come before"));
        assert!(parse("0m").unwrap_err().contains("is zero"));
        assert!(parse("8d").unwrap_err().contains("longer than a week"));
        assert!(parse("").unwrap_err().contains("empty"));
    }

    #[test]
    fn clocks_read_as_minutes_then_hours() {
        assert_eq!(clock(5), "0:05");
        assert_eq!(clock(754), "12:34");
        assert_eq!(clock(3723), "1:02:03");
    }
}
