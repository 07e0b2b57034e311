//! The rental that follows an approved order: where it stands at a moment (running,
//! stopped but not released, released), the checks on its times, its planned end, what it costs
//! per day in its current state, when it is overdue, and what released rentals teach the next
//! estimate. Pure: the caller passes "now"; nothing reads the clock.
//!
//! Where things are: `instant.rs` the UTC times; `state.rs` the state, the checks and overdue;
//! `cost.rs` the cost per day (formula there, with a worked example); `learn.rs` the actuals and
//! their averages; `resources.rs` the resource ids as typed.

mod cost;
mod instant;
mod learn;
mod resources;
mod state;

pub use cost::{DAYS_PER_MONTH, DailyCost, DailyPrices};
pub use instant::Instant;
pub use learn::{Actuals, LEARN_WINDOW, Learned, as_fields, summarise, with_learned};
pub use resources::{MAX_RESOURCES, ResourceError, parse_resources};
pub use state::{Overdue, RentalState, RentalTimes, STOPPED_GRACE_S, TimeRefusal};

/// The planned end of a rental started at `started_at`: plus the frozen estimate's time to
/// finish (hours, rounded up to the second). `None` on overflow or a negative time.
#[must_use]
pub fn planned_end(started_at: Instant, time_to_finish_h: rust_decimal::Decimal) -> Option<Instant> {
    started_at.plus_hours(time_to_finish_h)
}

#[cfg(test)]
mod tests {
    use super::{Instant, planned_end};
    use rust_decimal_macros::dec;

    #[test]
    fn the_planned_end_is_the_start_plus_the_time_to_finish() {
        let start = Instant::parse("2026-12-01T08:00:00Z").expect("time");
        assert_eq!(
            planned_end(start, dec!(25.25)).map(|i| i.to_string()).as_deref(),
            Some("2026-12-02T09:15:00Z")
        );
        assert_eq!(planned_end(start, dec!(0)), Some(start));
    }
}
