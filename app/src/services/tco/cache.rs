//! Comparisons computed in the last few seconds, so the cost page and the three charts it
//! embeds (four requests for the same query, one after the other) cost one computation, and a
//! comparison many people open at once is computed once per few seconds.
//!
//! An entry is found by (team, the query as the comparison reads it — without `chart`, unknown
//! keys dropped, in one order — language, the team's data version, today): the data version ([`crate::store::data_versions`]) is raised by triggers on every
//! write to what the comparison reads, so a saved quote, run, rate, workload or budget is seen
//! by the very next request; an entry also ends [`ComparisonCache::TTL`] after its comparison
//! was finished (a comparison still being computed is never expired: those asking wait). At most
//! [`ComparisonCache::CAPACITY`] entries are kept; when full, expired entries go first, then
//! the oldest.
//!
//! What is cached is the comparison for a reader who may not set the budget; the page sets
//! `can_set_budget` for its caller on its copy.

use super::{Computed, CostRequest};
use crate::{
    domain::quotes::Date,
    error::AppError,
    i18n::Locale,
    store::{self, Db},
};
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};
use tokio::sync::OnceCell;

/// What an entry is found by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    team_id: i64,
    query: String,
    locale: Locale,
    version: i64,
    today: Date,
}

/// The entries, each with when it was computed.
#[derive(Debug)]
struct Entries<V>(HashMap<Key, (Instant, V, usize)>);

impl<V> Default for Entries<V> {
    fn default() -> Self {
        Self(HashMap::new())
    }
}

impl<V: Clone> Entries<V> {
    /// The entry for `key`, if kept less than `ttl` before `now`.
    fn get(&self, key: &Key, now: Instant, ttl: Duration) -> Option<V> {
        self.0
            .get(key)
            .filter(|(at, _, _)| now.duration_since(*at) < ttl)
            .map(|(_, v, _)| v.clone())
    }

    /// Restarts the time of `key`'s entry at `now` (when its comparison is finished) and sets its
    /// weight: the quotes it keeps.
    fn touch(&mut self, key: &Key, now: Instant, weight: usize) {
        if let Some((at, _, w)) = self.0.get_mut(key) {
            *at = now;
            *w = weight.max(1);
        }
    }

    /// Keeps `value` for `key`, letting expired entries go first; then, while the cache holds
    /// [`ComparisonCache::CAPACITY`] entries or [`ComparisonCache::WEIGHT`] quotes, the oldest
    /// goes. Each entry may hold a comparison of a thousand quotes (tens of megabytes): a
    /// count of entries alone let four people planning over 20,000 quotes hold gigabytes.
    fn put(&mut self, key: Key, value: V, now: Instant, ttl: Duration) {
        self.0.retain(|_, (at, _, _)| now.duration_since(*at) < ttl);
        while !self.0.contains_key(&key)
            && (self.0.len() >= ComparisonCache::CAPACITY
                || self.0.values().map(|(_, _, w)| w).sum::<usize>() >= ComparisonCache::WEIGHT)
        {
            let Some(oldest) = self.0.iter().min_by_key(|(_, (at, _, _))| *at).map(|(k, _)| k.clone()) else {
                break;
            };
            self.0.remove(&oldest);
        }
        self.0.insert(key, (now, value, 1));
    }
}

/// One comparison: computed once, by the first request that asks; requests asking while it is
/// computed wait for it (the page's own render asks twice at once).
type Slot = Arc<OnceCell<Arc<Computed>>>;

/// Recently computed comparisons, shared by every request of the server (clones share it).
#[derive(Clone, Debug)]
pub struct ComparisonCache {
    entries: Arc<Mutex<Entries<Slot>>>,
    catalogues: super::catalogue::Catalogues,
    computed: Arc<AtomicU64>,
    ttl: Duration,
    in_flight: InFlight,
}

/// Comparisons each signed-in user is computing, by user id. Waiting for a comparison someone
/// else is computing costs nothing and is not counted.
#[derive(Clone, Debug, Default)]
struct InFlight(Arc<Mutex<HashMap<i64, u32>>>);

/// One comparison a user is computing; the count goes down when it is dropped.
struct Started {
    flights: InFlight,
    caller: i64,
}

impl InFlight {
    /// Starts a comparison for `caller`, or `None` when they already compute
    /// [`ComparisonCache::PER_CALLER`].
    fn start(&self, caller: i64) -> Option<Started> {
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = counts.entry(caller).or_insert(0);
        if *count >= ComparisonCache::PER_CALLER {
            return None;
        }
        *count += 1;
        Some(Started {
            flights: self.clone(),
            caller,
        })
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let mut counts = self.flights.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.caller) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.caller);
            }
        }
    }
}

impl Default for ComparisonCache {
    fn default() -> Self {
        Self::with_ttl(Self::TTL)
    }
}

impl ComparisonCache {
    /// How long an entry is used after its comparison is finished.
    pub const TTL: Duration = Duration::from_secs(5);
    /// Most entries kept.
    pub const CAPACITY: usize = 64;
    /// Most quotes kept across the entries: four comparisons of a large catalogue (each keeps
    /// at most a thousand, some 25 MB), or many small ones.
    pub const WEIGHT: usize = 4_000;
    /// Comparisons one signed-in user may have computed at once: the page and a chart, or two
    /// tabs. A third is refused (429 with `Retry-After`) until one is done, so no one can keep
    /// the machine busy with distinct queries.
    pub const PER_CALLER: u32 = 2;
    /// Seconds a user is told to wait when they compute [`Self::PER_CALLER`] already.
    pub const BUSY_RETRY_S: u32 = 5;

    /// A cache whose entries are used for `ttl` after they are finished. Tests that count
    /// computations use a long one, so a slow machine's pauses do not expire an entry between
    /// two requests; writes still end an entry at once (the data version is in the key).
    #[must_use]
    pub fn with_ttl(ttl: Duration) -> Self {
        Self {
            entries: Arc::default(),
            catalogues: super::catalogue::Catalogues::default(),
            computed: Arc::default(),
            ttl,
            in_flight: InFlight::default(),
        }
    }

    /// How many comparisons this cache has computed (each miss computes one).
    #[must_use]
    pub fn computations(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// The slot of `key`: the live one, else a new empty one kept from now.
    fn slot(&self, key: &Key) -> Slot {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let live = entries
            .0
            .get(key)
            .filter(|(_, slot, _)| !slot.initialized())
            .map(|(_, slot, _)| Arc::clone(slot));
        if let Some(slot) = live.or_else(|| entries.get(key, now, self.ttl)) {
            return slot;
        }
        let slot = Slot::default();
        entries.put(key.clone(), Arc::clone(&slot), now, self.ttl);
        slot
    }

    /// Starts `key`'s time to live now: its comparison, keeping `quotes` quotes, has just been
    /// finished.
    fn finished(&self, key: &Key, quotes: usize) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.touch(key, Instant::now(), quotes);
    }

    /// The comparison of team `team_id` for the cost page's query `raw` (with or without `?`;
    /// a `chart` pair is not part of the comparison), from the cache when it was computed in
    /// the last [`Self::TTL`] on the same data, else computed once and kept. Computed for a
    /// reader who may not set the budget. A comparison not in the cache is computed for user
    /// `caller`, at most [`Self::PER_CALLER`] at once ([`AppError::OwnComparisonsBusy`]).
    pub async fn compare(
        &self,
        db: &Db,
        (team_id, caller): (i64, i64),
        raw: &str,
        locale: Locale,
    ) -> Result<Arc<Computed>, AppError> {
        // Keyed on the query as the comparison reads it: a parameter the page does not know
        // (`&z=1`) or another order of the same ones is the same comparison, so no query string
        // can force a fresh computation on every request.
        let raw = without_chart(raw);
        let request = CostRequest::from_query(&raw);
        let key = Key {
            team_id,
            query: super::query::normalised(&raw),
            locale,
            version: store::data_versions::of_team(db, team_id).await?,
            today: store::today(),
        };
        let slot = self.slot(&key);
        let computed = slot
            .get_or_try_init(|| async {
                let _started = self
                    .in_flight
                    .start(caller)
                    .ok_or(AppError::OwnComparisonsBusy(Self::BUSY_RETRY_S))?;
                let computed =
                    super::compare_in(db, team_id, &request, (locale, false), Some(&self.catalogues)).await?;
                self.computed.fetch_add(1, Ordering::Relaxed);
                self.finished(&key, computed.costed.len());
                Ok::<_, AppError>(Arc::new(computed))
            })
            .await?;
        Ok(Arc::clone(computed))
    }
}

/// The query without `?` and without its `chart=…` pairs (which quote a chart is drawn for
/// does not change the comparison).
#[must_use]
pub fn without_chart(raw: &str) -> String {
    raw.trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("chart"))
        .collect::<Vec<_>>()
        .join("&")
}

/// The quote a per-quote chart is asked for (`chart=<quote id>`, the last one), if any.
#[must_use]
pub fn chart_of(raw: &str) -> Option<i64> {
    raw.trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.strip_prefix("chart="))
        .next_back()
        .and_then(|id| id.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i64) -> Key {
        Key {
            team_id: 1,
            query: format!("workload={n}"),
            locale: Locale::default(),
            version: 0,
            today: store::today(),
        }
    }

    #[test]
    fn a_user_computes_two_comparisons_at_once_at_most() {
        let flights = InFlight::default();
        let (a, b) = (flights.start(7), flights.start(7));
        assert!(a.is_some() && b.is_some());
        assert!(flights.start(7).is_none(), "a third waits for one of the two");
        assert!(flights.start(8).is_some(), "another user is not held up");
        drop(a);
        assert!(flights.start(7).is_some(), "one done, the next may start");
    }

    #[test]
    fn the_chart_pair_is_not_part_of_the_comparison() {
        assert_eq!(without_chart("?workload=1&chart=7&q=2"), "workload=1&q=2");
        assert_eq!(without_chart("chart=7"), "");
        assert_eq!(without_chart("charts=1&x=chart"), "charts=1&x=chart");
        assert_eq!(chart_of("?chart=3&workload=1&chart=7"), Some(7));
        assert_eq!((chart_of("charts=3"), chart_of("chart=x")), (None, None));
    }

    #[test]
    fn entries_end_after_the_ttl_and_the_oldest_goes_when_full() {
        let mut entries = Entries::<u32>::default();
        let t0 = Instant::now();
        let ttl = ComparisonCache::TTL;
        entries.put(key(0), 0, t0, ttl);
        assert_eq!(entries.get(&key(0), t0 + Duration::from_secs(1), ttl), Some(0));
        assert_eq!(entries.get(&key(0), t0 + ttl, ttl), None, "expired");
        entries.touch(&key(0), t0 + Duration::from_secs(1), 1);
        assert_eq!(
            entries.get(&key(0), t0 + ttl, ttl),
            Some(0),
            "the time restarts when finished"
        );
        for n in 1..=ComparisonCache::CAPACITY {
            let at = t0 + Duration::from_secs(1) + Duration::from_millis(n as u64);
            entries.put(key(n as i64), n as u32, at, ttl);
        }
        assert_eq!(entries.0.len(), ComparisonCache::CAPACITY, "bounded");
        assert!(!entries.0.contains_key(&key(0)), "the oldest went first");
        assert_eq!(entries.get(&key(1), t0, ttl), Some(1));
        let later = t0 + ttl + Duration::from_secs(2);
        entries.put(key(1000), 1000, later, ttl);
        assert_eq!(entries.0.len(), 1, "expired entries go before any live one");
    }

    #[test]
    fn large_comparisons_are_kept_by_the_quotes_they_hold_not_only_by_count() {
        let mut entries = Entries::<u32>::default();
        let (t0, ttl) = (Instant::now(), ComparisonCache::TTL);
        for n in 0..20 {
            let at = t0 + Duration::from_millis(n);
            entries.put(key(n as i64), n as u32, at, ttl);
            entries.touch(&key(n as i64), at, 1_000);
        }
        assert_eq!(
            entries.0.len(),
            ComparisonCache::WEIGHT / 1_000,
            "four of a thousand quotes each"
        );
        assert!(
            entries.0.contains_key(&key(19)) && !entries.0.contains_key(&key(15)),
            "the newest kept"
        );
    }
}
