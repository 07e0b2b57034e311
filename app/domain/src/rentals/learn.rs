//! What released rentals teach the next estimate: the team's actual setup, data preparation,
//! re-run share, idle and stopped hours, averaged per kind of workload over the latest
//! [`LEARN_WINDOW`] released rentals, and offered to the cost comparison as defaults.
//!
//! Per released rental (hours per node, as the estimate counts them):
//!
//! * setup, data preparation and re-run hours: as recorded at release;
//! * re-run share = re-run hours ÷ the frozen estimate's compute hours (0 without compute);
//! * idle = max(0, running hours − setup − data preparation − the estimate's download and
//!   export hours − compute hours − re-run hours), running hours being start to stop (or to
//!   release when never stopped);
//! * stopped = stop to release.
//!
//! The summary is the plain mean of each figure, rounded half away from zero to 2 decimals
//! (the share to 4, i.e. 2 in percent). *Example:* setups of 3, 4 and 2.5 h average 3.17 h.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// How many of the latest released rentals of a kind the summary averages.
pub const LEARN_WINDOW: usize = 5;

/// One released rental's actuals, with what its frozen estimate assumed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actuals {
    /// Setup hours recorded.
    pub setup_h: Decimal,
    /// Data preparation hours recorded.
    pub data_prep_h: Decimal,
    /// Hours of failed work re-run, recorded.
    pub rerun_h: Decimal,
    /// Start to stop (or to release).
    pub running_h: Decimal,
    /// Stop to release.
    pub stopped_h: Decimal,
    /// The frozen estimate's useful compute hours.
    pub compute_h: Decimal,
    /// The frozen estimate's download plus export hours.
    pub transfer_h: Decimal,
}

/// The averages of a team's latest released rentals of one kind of workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Learned {
    /// Rentals averaged (at most [`LEARN_WINDOW`]).
    pub rentals: usize,
    /// Mean setup hours.
    pub setup_h: Decimal,
    /// Mean data preparation hours.
    pub data_prep_h: Decimal,
    /// Mean re-run share of compute, in `[0, 1)` when it can be used as an assumption.
    pub rerun_share: Decimal,
    /// Mean idle hours while running.
    pub idle_h: Decimal,
    /// Mean stopped-but-not-released hours.
    pub stopped_h: Decimal,
}

impl Actuals {
    /// Re-run hours as a share of the estimate's compute hours.
    #[must_use]
    pub fn rerun_share(&self) -> Decimal {
        if self.compute_h > Decimal::ZERO {
            self.rerun_h.checked_div(self.compute_h).unwrap_or_default()
        } else {
            Decimal::ZERO
        }
    }

    /// Hours running but not doing any of the work the estimate counts.
    #[must_use]
    pub fn idle_h(&self) -> Decimal {
        let used = self.setup_h + self.data_prep_h + self.transfer_h + self.compute_h + self.rerun_h;
        (self.running_h - used).max(Decimal::ZERO)
    }
}

fn mean(values: impl Iterator<Item = Decimal>, n: usize, dp: u32) -> Decimal {
    let sum: Decimal = values.sum();
    (sum / Decimal::from(n)).round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
}

/// The averages of `latest` (newest first; only the first [`LEARN_WINDOW`] count); `None`
/// when there is none.
#[must_use]
pub fn summarise(latest: &[Actuals]) -> Option<Learned> {
    let window = &latest[..latest.len().min(LEARN_WINDOW)];
    let n = window.len();
    (n > 0).then(|| Learned {
        rentals: n,
        setup_h: mean(window.iter().map(|a| a.setup_h), n, 2),
        data_prep_h: mean(window.iter().map(|a| a.data_prep_h), n, 2),
        rerun_share: mean(window.iter().map(Actuals::rerun_share), n, 4),
        idle_h: mean(window.iter().map(Actuals::idle_h), n, 2),
        stopped_h: mean(window.iter().map(|a| a.stopped_h), n, 2),
    })
}

/// The cost comparison's fields the summary fills, with their values as the form writes them
/// (the share in percent). A share of 100 % or more is left out: the comparison refuses it.
#[must_use]
pub fn as_fields(l: &Learned) -> Vec<(&'static str, String)> {
    let text = |d: Decimal| d.normalize().to_string();
    let mut fields = vec![("setup_h", text(l.setup_h)), ("data_prep_h", text(l.data_prep_h))];
    if l.rerun_share < Decimal::ONE {
        fields.push(("rerun_pct", text(l.rerun_share * Decimal::ONE_HUNDRED)));
    }
    fields.push(("idle_h", text(l.idle_h)));
    fields.push(("stopped_h", text(l.stopped_h)));
    fields
}

/// The cost page's `query` with the shared fields of [`as_fields`] set to the summary (any
/// value they had replaced, everything else kept in order).
#[must_use]
pub fn with_learned(query: &str, l: &Learned) -> String {
    let fields = as_fields(l);
    let mut parts: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| {
            let key = p.split_once('=').map_or(*p, |(k, _)| k);
            !fields.iter().any(|(f, _)| *f == key)
        })
        .map(str::to_string)
        .collect();
    parts.extend(fields.into_iter().map(|(k, v)| format!("{k}={v}")));
    parts.join("&")
}

#[cfg(test)]
mod tests {
    use super::{Actuals, LEARN_WINDOW, summarise, with_learned};
    use proptest::prelude::*;
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;

    fn actuals(setup: Decimal, rerun: Decimal, running: Decimal) -> Actuals {
        Actuals {
            setup_h: setup,
            data_prep_h: dec!(1),
            rerun_h: rerun,
            running_h: running,
            stopped_h: dec!(10),
            compute_h: dec!(20),
            transfer_h: dec!(0.5),
        }
    }

    #[test]
    fn idle_is_what_the_running_hours_did_not_spend_on_counted_work() {
        // 30 h running − (3 + 1 + 0.5 + 20 + 2) = 3.5 h idle; re-runs 2 ÷ 20 = 10 %.
        let a = actuals(dec!(3), dec!(2), dec!(30));
        assert_eq!((a.idle_h(), a.rerun_share()), (dec!(3.5), dec!(0.1)));
        assert_eq!(actuals(dec!(3), dec!(2), dec!(20)).idle_h(), dec!(0), "never negative");
        let no_compute = Actuals {
            compute_h: dec!(0),
            ..a
        };
        assert_eq!(no_compute.rerun_share(), dec!(0));
    }

    #[test]
    fn the_latest_five_are_averaged_and_rounded() {
        assert_eq!(summarise(&[]), None);
        let three = [
            actuals(dec!(3), dec!(2), dec!(30)),
            actuals(dec!(4), dec!(1), dec!(30)),
            actuals(dec!(2.5), dec!(0), dec!(30)),
        ];
        let l = summarise(&three).expect("three rentals");
        // (3 + 4 + 2.5) ÷ 3 = 3.1666… → 3.17; shares (0.1 + 0.05 + 0) ÷ 3 = 0.05;
        // idle (3.5 + 3.5 + 6) ÷ 3 = 4.333… → 4.33.
        assert_eq!(
            (
                l.rentals,
                l.setup_h,
                l.data_prep_h,
                l.rerun_share,
                l.idle_h,
                l.stopped_h
            ),
            (3, dec!(3.17), dec!(1), dec!(0.05), dec!(4.33), dec!(10))
        );
        let mut many = vec![actuals(dec!(1), dec!(0), dec!(30)); LEARN_WINDOW];
        many.push(actuals(dec!(100), dec!(0), dec!(300)));
        assert_eq!(
            summarise(&many).map(|l| (l.rentals, l.setup_h)),
            Some((5, dec!(1))),
            "the oldest is left out"
        );
    }

    #[test]
    fn the_summary_fills_the_shared_fields_of_the_cost_pages_query() {
        let l = summarise(&[actuals(dec!(3.2), dec!(2), dec!(30))]).expect("one");
        assert_eq!(
            with_learned("workload=3&picked=1&q=7&setup_h=1&rerun_pct=10&setup_h_7=6", &l),
            "workload=3&picked=1&q=7&setup_h_7=6&setup_h=3.2&data_prep_h=1&rerun_pct=10&idle_h=3.3&stopped_h=10"
        );
        let huge = super::Learned {
            rerun_share: dec!(1.5),
            ..l
        };
        assert!(
            !with_learned("", &huge).contains("rerun_pct"),
            "a share the comparison refuses is not offered"
        );
    }

    proptest! {
        #[test]
        fn averages_lie_between_the_smallest_and_the_largest(setups in proptest::collection::vec(0u32..10_000, 1..8)) {
            let all: Vec<Actuals> = setups.iter().map(|s| actuals(Decimal::new(i64::from(*s), 2), dec!(0), dec!(30))).collect();
            let l = summarise(&all).expect("some");
            let window = &all[..all.len().min(LEARN_WINDOW)];
            let lo = window.iter().map(|a| a.setup_h).min().unwrap_or_default();
            let hi = window.iter().map(|a| a.setup_h).max().unwrap_or_default();
            prop_assert!(lo <= l.setup_h && l.setup_h <= hi);
        }
    }
}
