//! How often a vendor's page may be asked for: a person filling a bid opens and saves it a few
//! times a minute at most; a script guessing links or hammering one is refused.
//!
//! | counted by      | allowed                      | then refused until the window ends |
//! |-----------------|------------------------------|------------------------------------|
//! | the link        | [`PER_LINK`]: 120 in 10 min  | 429 with `Retry-After`             |
//! | client address  | [`PER_ADDRESS`]: 300 in 10 min | 429 with `Retry-After`           |
//!
//! Counted in fixed windows per key, in memory. At most [`MAX_KEYS`] keys are kept: when full,
//! ended windows are dropped first, and a new key beyond that is refused as if it had used its
//! window (the memory stays bounded whatever a client sends).

use std::collections::HashMap;

/// One limit: `max` requests per `window_secs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub max: u32,
    pub window_secs: i64,
}

/// Requests through one link.
pub const PER_LINK: Limit = Limit {
    max: 120,
    window_secs: 600,
};

/// Requests from one client address to any vendor page.
pub const PER_ADDRESS: Limit = Limit {
    max: 300,
    window_secs: 600,
};

/// Keys kept at once.
pub const MAX_KEYS: usize = 10_000;

/// Fixed-window counters by key.
#[derive(Debug, Default)]
pub struct Counter {
    windows: HashMap<String, (i64, u32)>,
}

impl Counter {
    /// Counts one request of `key` at `now` (Unix seconds) under `limit`: `Err(seconds)` to wait
    /// when the window is used up.
    ///
    /// # Errors
    /// The seconds until the key's window ends.
    pub fn hit(&mut self, key: &str, now: i64, limit: Limit) -> Result<(), u32> {
        let wait = |start: i64| u32::try_from((start + limit.window_secs - now).max(1)).unwrap_or(u32::MAX);
        if !self.windows.contains_key(key) && self.windows.len() >= MAX_KEYS {
            self.windows.retain(|_, (start, _)| now < *start + limit.window_secs);
            if self.windows.len() >= MAX_KEYS {
                return Err(u32::try_from(limit.window_secs).unwrap_or(u32::MAX));
            }
        }
        let entry = self.windows.entry(key.to_string()).or_insert((now, 0));
        if now >= entry.0 + limit.window_secs {
            *entry = (now, 0);
        }
        if entry.1 >= limit.max {
            return Err(wait(entry.0));
        }
        entry.1 += 1;
        Ok(())
    }

    /// Keys kept now.
    #[must_use]
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// Whether no key is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit {
        max: 3,
        window_secs: 60,
    };

    #[test]
    fn a_key_gets_its_allowance_per_window_and_is_told_how_long_to_wait() {
        let mut c = Counter::default();
        for _ in 0..3 {
            assert_eq!(c.hit("link", 1_000, SMALL), Ok(()));
        }
        assert_eq!(c.hit("link", 1_010, SMALL), Err(50));
        // Another key is counted on its own.
        assert_eq!(c.hit("other", 1_010, SMALL), Ok(()));
        // A new window starts when the old one ends.
        assert_eq!(c.hit("link", 1_060, SMALL), Ok(()));
    }

    #[test]
    fn memory_stays_bounded_whatever_keys_arrive() {
        let mut c = Counter::default();
        for i in 0..MAX_KEYS {
            assert_eq!(c.hit(&i.to_string(), 0, SMALL), Ok(()));
        }
        // Full of live windows: a new key is refused, an old one still counts.
        assert_eq!(c.hit("new", 10, SMALL), Err(60));
        assert_eq!(c.hit("0", 10, SMALL), Ok(()));
        assert_eq!(c.len(), MAX_KEYS);
        // Once the windows ended they make room.
        assert_eq!(c.hit("new", 100, SMALL), Ok(()));
        assert_eq!(c.len(), 1);
    }
}
