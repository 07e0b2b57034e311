//! Sign-in throttling: after [`MAX_FAILURES`] failed sign-ins for one account within
//! [`WINDOW_SECS`], further attempts are refused for [`LOCK_SECS`].

/// Failures that lock an account.
pub const MAX_FAILURES: usize = 10;
/// The window in which those failures must fall, in seconds (15 minutes).
pub const WINDOW_SECS: i64 = 15 * 60;
/// How long the lock lasts after the failure that triggered it, in seconds (15 minutes).
pub const LOCK_SECS: i64 = 15 * 60;
/// How far back a caller must load failures for [`locked_until`] to be exact.
pub const LOOKBACK_SECS: i64 = WINDOW_SECS + LOCK_SECS;

/// When the account is locked at `now`, the time (Unix seconds) the lock ends.
///
/// `failures` are the times of failed attempts since the last successful sign-in, at least
/// the last [`LOOKBACK_SECS`], in ascending order.
pub fn locked_until(failures: &[i64], now: i64) -> Option<i64> {
    failures
        .windows(MAX_FAILURES)
        .filter(|w| w[MAX_FAILURES - 1] - w[0] <= WINDOW_SECS)
        .map(|w| w[MAX_FAILURES - 1] + LOCK_SECS)
        .max()
        .filter(|until| *until > now)
}

/// Whole minutes left until `until`, rounded up (at least 1).
pub fn minutes_left(until: i64, now: i64) -> u32 {
    let secs = (until - now).max(1);
    u32::try_from((secs + 59) / 60).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_failures_do_not_lock() {
        let f: Vec<i64> = (0..9).map(|i| 1000 + i).collect();
        assert_eq!(locked_until(&f, 1010), None);
    }

    #[test]
    fn ten_failures_within_window_lock_for_fifteen_minutes() {
        let f: Vec<i64> = (0..10).map(|i| 1000 + i * 60).collect();
        let last = 1000 + 9 * 60;
        assert_eq!(locked_until(&f, last + 1), Some(last + LOCK_SECS));
        assert_eq!(locked_until(&f, last + LOCK_SECS - 1), Some(last + LOCK_SECS));
        assert_eq!(locked_until(&f, last + LOCK_SECS), None, "lock over");
    }

    #[test]
    fn failures_spread_wider_than_the_window_do_not_lock() {
        let f: Vec<i64> = (0..10).map(|i| i * 101).collect(); // spans 909 s > 900 s
        assert_eq!(locked_until(&f, 1000), None);
        let f: Vec<i64> = (0..10).map(|i| i * 100).collect(); // spans exactly 900 s
        assert_eq!(locked_until(&f, 1000), Some(900 + LOCK_SECS));
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes_left(160, 100), 1);
        assert_eq!(minutes_left(161, 100), 2);
        assert_eq!(minutes_left(100, 100), 1);
        assert_eq!(minutes_left(100 + LOCK_SECS, 100), 15);
    }
}
