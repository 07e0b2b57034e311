//! Where a rental stands at a moment, the checks on its times, and when it is overdue.
//!
//! ```text
//!   started ──(stop)──▶ stopped, not released ──(release)──▶ released
//!      └─────────────────────(release)──────────────────────────▲
//! ```
//!
//! Stopping is not releasing: a stopped node keeps its disks and addresses, and the
//! vendor keeps billing them (and compute too, on some sheets) until the rental is released.

use super::Instant;
use serde::{Deserialize, Serialize};

/// A stopped rental is overdue once it has stayed stopped without being released this long.
pub const STOPPED_GRACE_S: i64 = 86_400;

/// The times of one rental.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RentalTimes {
    /// When the node(s) started.
    pub started_at: Instant,
    /// Start plus the frozen estimate's time to finish.
    pub planned_end_at: Instant,
    /// When compute was stopped (the resources are still held).
    pub stopped_at: Option<Instant>,
    /// When every resource was given back.
    pub released_at: Option<Instant>,
}

/// Where a rental stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RentalState {
    /// Running (and billing compute).
    Running,
    /// Stopped but not released: disks and addresses still bill.
    Stopped,
    /// Released: billing has ended.
    Released,
}

/// Why a rental's times are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeRefusal {
    /// The release is before the start.
    ReleaseBeforeStart,
    /// The stop is before the start.
    StopBeforeStart,
    /// The stop is after the release.
    StopAfterRelease,
    /// The time lies in the future (a step is recorded when it has happened).
    InFuture,
}

/// Why a rental is overdue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum Overdue {
    /// Still running after its planned end, by `hours` (whole hours, rounded down).
    PastPlannedEnd {
        /// Whole hours past the planned end.
        hours: i64,
    },
    /// Stopped for more than a day without being released, for `hours` (rounded down).
    StoppedNotReleased {
        /// Whole hours since the stop.
        hours: i64,
    },
}

impl RentalTimes {
    /// The state at `now`: released once released (at or before `now`), else stopped once
    /// stopped, else running.
    #[must_use]
    pub fn state_at(&self, now: Instant) -> RentalState {
        match (self.stopped_at, self.released_at) {
            (_, Some(r)) if r <= now => RentalState::Released,
            (Some(s), _) if s <= now => RentalState::Stopped,
            _ => RentalState::Running,
        }
    }

    /// Checks the times against each other and against `now` (nothing recorded lies ahead
    /// of now; the planned end may).
    ///
    /// # Errors
    /// The first [`TimeRefusal`] found.
    pub fn check(&self, now: Instant) -> Result<(), TimeRefusal> {
        let past = [Some(self.started_at), self.stopped_at, self.released_at];
        if past.into_iter().flatten().any(|t| t > now) {
            return Err(TimeRefusal::InFuture);
        }
        if self.released_at.is_some_and(|r| r < self.started_at) {
            return Err(TimeRefusal::ReleaseBeforeStart);
        }
        if self.stopped_at.is_some_and(|s| s < self.started_at) {
            return Err(TimeRefusal::StopBeforeStart);
        }
        if let (Some(s), Some(r)) = (self.stopped_at, self.released_at)
            && s > r
        {
            return Err(TimeRefusal::StopAfterRelease);
        }
        Ok(())
    }

    /// Whether the rental is overdue at `now`: running past its planned end, or stopped and
    /// not released for more than [`STOPPED_GRACE_S`].
    #[must_use]
    pub fn overdue_at(&self, now: Instant) -> Option<Overdue> {
        let hours = |since: Instant| (now.unix() - since.unix()).div_euclid(3600);
        match self.state_at(now) {
            RentalState::Running if now > self.planned_end_at => Some(Overdue::PastPlannedEnd {
                hours: hours(self.planned_end_at),
            }),
            RentalState::Stopped => self
                .stopped_at
                .filter(|s| now.unix() - s.unix() > STOPPED_GRACE_S)
                .map(|s| Overdue::StoppedNotReleased { hours: hours(s) }),
            _ => None,
        }
    }

    /// Hours the node(s) ran: start to the stop, else to the release, else to `now`.
    #[must_use]
    pub fn running_hours(&self, now: Instant) -> rust_decimal::Decimal {
        let end = self.stopped_at.or(self.released_at).unwrap_or(now).min(now);
        self.started_at.hours_until(end.max(self.started_at))
    }

    /// Hours stopped but not released: the stop to the release, else to `now` (0 if never
    /// stopped).
    #[must_use]
    pub fn stopped_hours(&self, now: Instant) -> rust_decimal::Decimal {
        self.stopped_at.map_or(rust_decimal::Decimal::ZERO, |s| {
            let end = self.released_at.unwrap_or(now).min(now);
            s.hours_until(end.max(s))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Overdue, RentalState, RentalTimes, TimeRefusal};
    use crate::rentals::Instant;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    fn at(s: &str) -> Instant {
        Instant::parse(s).expect("time")
    }

    fn rental() -> RentalTimes {
        RentalTimes {
            started_at: at("2026-12-01T08:00"),
            planned_end_at: at("2026-12-02T08:00"),
            stopped_at: None,
            released_at: None,
        }
    }

    #[test]
    fn running_then_stopped_then_released() {
        let mut r = rental();
        assert_eq!(r.state_at(at("2026-12-01T09:00")), RentalState::Running);
        r.stopped_at = Some(at("2026-12-01T20:00"));
        assert_eq!(r.state_at(at("2026-12-01T19:59")), RentalState::Running);
        assert_eq!(r.state_at(at("2026-12-01T20:00")), RentalState::Stopped);
        r.released_at = Some(at("2026-12-03T20:00"));
        assert_eq!(r.state_at(at("2026-12-03T20:00")), RentalState::Released);
        assert_eq!(r.running_hours(at("2026-12-09T00:00")), dec!(12));
        assert_eq!(r.stopped_hours(at("2026-12-09T00:00")), dec!(48));
        assert_eq!(
            r.stopped_hours(at("2026-12-02T20:00")),
            dec!(24),
            "still stopped: up to now"
        );
    }

    #[test]
    fn times_must_follow_each_other_and_not_lie_ahead() {
        let now = at("2026-12-05T00:00");
        let mut r = rental();
        assert_eq!(r.check(now), Ok(()));
        r.released_at = Some(at("2026-12-01T07:59"));
        assert_eq!(r.check(now), Err(TimeRefusal::ReleaseBeforeStart));
        r.released_at = Some(at("2026-12-02T00:00"));
        r.stopped_at = Some(at("2026-12-02T00:01"));
        assert_eq!(r.check(now), Err(TimeRefusal::StopAfterRelease));
        r.stopped_at = Some(at("2026-12-01T07:00"));
        assert_eq!(r.check(now), Err(TimeRefusal::StopBeforeStart));
        r.stopped_at = Some(at("2026-12-02T00:00"));
        assert_eq!(r.check(now), Ok(()), "stopped and released at once");
        assert_eq!(r.check(at("2026-12-01T23:00")), Err(TimeRefusal::InFuture));
    }

    #[test]
    fn overdue_when_running_past_the_planned_end_or_stopped_for_more_than_a_day() {
        let mut r = rental();
        assert_eq!(r.overdue_at(at("2026-12-02T08:00")), None, "at the planned end");
        assert_eq!(
            r.overdue_at(at("2026-12-02T10:30")),
            Some(Overdue::PastPlannedEnd { hours: 2 })
        );
        r.stopped_at = Some(at("2026-12-01T20:00"));
        assert_eq!(r.overdue_at(at("2026-12-02T20:00")), None, "exactly a day");
        assert_eq!(
            r.overdue_at(at("2026-12-02T20:00:01")),
            Some(Overdue::StoppedNotReleased { hours: 24 })
        );
        r.released_at = Some(at("2026-12-04T00:00"));
        assert_eq!(r.overdue_at(at("2026-12-09T00:00")), None, "released");
    }

    proptest! {
        #[test]
        fn checked_times_never_give_negative_hours(start in 0i64..1_000_000, stop in 0i64..1_000_000, release in 0i64..1_000_000, now in 0i64..2_000_000) {
            let r = RentalTimes {
                started_at: Instant::from_unix(start),
                planned_end_at: Instant::from_unix(start),
                stopped_at: Some(Instant::from_unix(stop)),
                released_at: Some(Instant::from_unix(release)),
            };
            let now = Instant::from_unix(now);
            if r.check(now).is_ok() {
                prop_assert!(start <= stop && stop <= release);
                prop_assert!(r.running_hours(now) >= dec!(0) && r.stopped_hours(now) >= dec!(0));
                prop_assert_eq!(r.state_at(now), RentalState::Released);
            }
        }
    }
}
