//! Password-attempt throttling, by account and by client address.
//!
//! Every place that checks a password — sign-in, the manager's sign-off on an order, the
//! password change — counts its failures together (the secret is the same, so are the guesses):
//!
//! | counted by     | refused after                         | for        | a success resets it |
//! |----------------|---------------------------------------|------------|---------------------|
//! | account e-mail | [`ACCOUNT`]: 10 failures in 15 min    | 15 minutes | yes                 |
//! | client address | [`ADDRESS`]: 30 failures in 15 min    | 15 minutes | no                  |
//!
//! The per-address rule stops one client from guessing across many accounts (ten each, just
//! under the account lock); a success on one account (the attacker's own) does not clear it.
//! An address is counted by [`address_key`]: IPv4 exactly, IPv6 by its /64 prefix. Wrong
//! set-up codes and wrong second-factor codes count as failures of their address too
//! (`auth::throttle`), so an address guessing codes across accounts is stopped as well.
//! Refusals are answered 429 with `Retry-After` and say in how many minutes to try again.

/// Failures that lock an account.
pub const MAX_FAILURES: usize = ACCOUNT.max_failures;
/// The window in which those failures must fall, in seconds (15 minutes).
pub const WINDOW_SECS: i64 = 15 * 60;
/// How long the lock lasts after the failure that triggered it, in seconds (15 minutes).
pub const LOCK_SECS: i64 = 15 * 60;
/// How far back a caller must load failures for [`locked_until`] to be exact.
pub const LOOKBACK_SECS: i64 = WINDOW_SECS + LOCK_SECS;

/// A lock rule: `max_failures` within `window_secs` lock for `lock_secs` after the last of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Failures that lock.
    pub max_failures: usize,
    /// Seconds in which they must fall.
    pub window_secs: i64,
    /// Seconds the lock lasts after the failure that completed the count.
    pub lock_secs: i64,
}

/// Failures of one account (by e-mail), since its last success.
pub const ACCOUNT: Rule = Rule {
    max_failures: 10,
    window_secs: WINDOW_SECS,
    lock_secs: LOCK_SECS,
};

/// Failures from one client address, across every account, successes or not.
pub const ADDRESS: Rule = Rule {
    max_failures: 30,
    window_secs: WINDOW_SECS,
    lock_secs: LOCK_SECS,
};

impl Rule {
    /// When `failures` (Unix seconds, ascending, at least the last [`LOOKBACK_SECS`]) lock at
    /// `now`, the time the lock ends.
    pub fn locked_until(&self, failures: &[i64], now: i64) -> Option<i64> {
        let n = self.max_failures.max(1);
        failures
            .windows(n)
            .filter(|w| w[n - 1] - w[0] <= self.window_secs)
            .map(|w| w[n - 1] + self.lock_secs)
            .max()
            .filter(|until| *until > now)
    }
}

/// When the account is locked at `now`, the time (Unix seconds) the lock ends.
///
/// `failures` are the times of failed attempts since the last successful sign-in, at least
/// the last [`LOOKBACK_SECS`], in ascending order.
pub fn locked_until(failures: &[i64], now: i64) -> Option<i64> {
    ACCOUNT.locked_until(failures, now)
}

/// The later of the account lock and the address lock, if either holds at `now`.
pub fn refused_until(account_failures: &[i64], address_failures: &[i64], now: i64) -> Option<i64> {
    let account = ACCOUNT.locked_until(account_failures, now);
    let address = ADDRESS.locked_until(address_failures, now);
    account.max(address)
}

/// The key a client address is counted under: an IPv4 address exactly, an IPv6 address by its
/// /64 prefix (`2001:db8:1:2::/64`). One IPv6 subscriber or host is routinely given a whole /64
/// and can pick a new address in it for every request, so counting exact IPv6 addresses would
/// never lock anyone. An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) counts as IPv4.
pub fn address_key(address: std::net::IpAddr) -> String {
    use std::net::{IpAddr, Ipv6Addr};
    match address.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let [a, b, c, d, ..] = v6.segments();
            format!("{}/64", Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
        }
    }
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
    fn an_address_locks_after_thirty_failures_whatever_the_accounts() {
        let f: Vec<i64> = (0..29).map(|i| 1000 + i * 10).collect();
        assert_eq!(refused_until(&[], &f, 1300), None, "29 are allowed");
        let f: Vec<i64> = (0..30).map(|i| 1000 + i * 10).collect();
        assert_eq!(refused_until(&[], &f, 1300), Some(1290 + LOCK_SECS));
        let wide: Vec<i64> = (0..30).map(|i| i * 32).collect(); // spans 928 s
        assert_eq!(refused_until(&[], &wide, 1000), None);
    }

    #[test]
    fn the_later_lock_wins() {
        let account: Vec<i64> = (0..10).map(|i| 1000 + i).collect();
        let address: Vec<i64> = (0..30).map(|i| 1100 + i).collect();
        assert_eq!(refused_until(&account, &[], 1200), Some(1009 + LOCK_SECS));
        assert_eq!(refused_until(&account, &address, 1200), Some(1129 + LOCK_SECS));
        assert_eq!(refused_until(&[], &[], 1200), None);
    }

    #[test]
    fn ipv4_is_counted_exactly_and_ipv6_by_its_64_prefix() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("203.0.113.5"), "203.0.113.5");
        assert_ne!(key("203.0.113.5"), key("203.0.113.6"));
        assert_eq!(key("::ffff:203.0.113.5"), "203.0.113.5", "IPv4-mapped is IPv4");
        assert_eq!(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2:ffff:ffff:ffff:ffff"), key("2001:db8:1:2::7"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"), "another /64");
        assert_eq!(key("::1"), "::/64");
    }

    #[test]
    fn minutes_round_up() {
        assert_eq!(minutes_left(160, 100), 1);
        assert_eq!(minutes_left(161, 100), 2);
        assert_eq!(minutes_left(100, 100), 1);
        assert_eq!(minutes_left(100 + LOCK_SECS, 100), 15);
    }
}
