//! Anchors: heads of the chain written down somewhere the database's owner cannot rewrite.
//!
//! The chain alone proves that no event was changed *unless the whole chain after it was
//! recomputed*: whoever can write the database file can rewrite an old event and rehash every
//! event after it, and the chain verifies again. An anchor is a head copied elsewhere (another
//! machine, WORM storage, a ticket): one line `AT COUNT HASH`, e.g.
//!
//! ```text
//! 2026-12-01T15:50:00Z 42 9f2c…(64 hex digits)
//! ```
//!
//! `nodeledger audit head` prints exactly such a line, so `nodeledger audit head >> anchors.txt`
//! appends one. Today's chain still extends an anchor when its event number COUNT has hash HASH
//! (COUNT 0 is the empty chain, whose "hash" is [`GENESIS_HASH`]). Since every hash covers the
//! one before it, that one comparison covers events 1…COUNT. Blank lines and lines starting with
//! `#` are skipped.

use serde::{Deserialize, Serialize};

use super::chain::ChainHead;
use super::event::{GENESIS_HASH, is_rfc3339_utc};

/// One recorded head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    /// 1-based line number in the anchor file.
    pub line: usize,
    /// When the head was recorded (RFC 3339 UTC), as written.
    pub at: String,
    /// Number of events then.
    pub count: u64,
    /// Hash of event number `count` then.
    pub hash: String,
}

/// Why an anchor file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("anchor line {line}: {reason}")]
pub struct AnchorParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// An anchor today's chain no longer extends.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnchorMismatch {
    /// The chain is shorter than the anchor: events were removed.
    #[error(
        "anchor line {} ({} {} {}): the chain now has only {events} events",
        anchor.line, anchor.at, anchor.count, anchor.hash
    )]
    Shorter {
        /// The anchor.
        anchor: Anchor,
        /// Events in the chain now.
        events: u64,
    },
    /// Event number `count` has another hash now: the chain up to it was rewritten.
    #[error(
        "anchor line {} ({} {} {}): event {} now has hash {actual}",
        anchor.line, anchor.at, anchor.count, anchor.hash, anchor.count
    )]
    Differs {
        /// The anchor.
        anchor: Anchor,
        /// The hash stored now.
        actual: String,
    },
}

/// The anchor line of `head` recorded at `at`: `AT COUNT HASH`.
#[must_use]
pub fn anchor_line(at: &str, head: &ChainHead) -> String {
    format!("{at} {} {}", head.count, head.head_hash)
}

/// Reads every anchor of an anchor file, in file order.
///
/// # Errors
/// The first line that is not `AT COUNT HASH` (RFC 3339 UTC time, whole number, 64 lowercase
/// hex digits).
pub fn parse_anchors(text: &str) -> Result<Vec<Anchor>, AnchorParseError> {
    let mut anchors = Vec::new();
    for (line, raw) in crate::line_endings::numbered_lines(text) {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fail = |reason: &str| AnchorParseError {
            line,
            reason: reason.to_owned(),
        };
        let parts: Vec<&str> = trimmed.split_whitespace().collect();
        let [at, count, hash] = parts[..] else {
            return Err(fail("expected three fields: time, event count, hash"));
        };
        if !is_rfc3339_utc(at) {
            return Err(fail("the time is not RFC 3339 UTC"));
        }
        let count = count
            .parse::<u64>()
            .map_err(|_| fail("the event count is not a whole number"))?;
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
            return Err(fail("the hash is not 64 lowercase hex digits"));
        }
        anchors.push(Anchor {
            line,
            at: at.to_owned(),
            count,
            hash: hash.to_owned(),
        });
    }
    Ok(anchors)
}

/// Checks one anchor against the chain now: `events` in it, and `hash_now` the stored hash of
/// event number `anchor.count` (`None` when there is no such event).
///
/// # Errors
/// How the chain no longer extends the anchor.
pub fn check_anchor(anchor: &Anchor, events: u64, hash_now: Option<&str>) -> Result<(), AnchorMismatch> {
    if anchor.count > events {
        return Err(AnchorMismatch::Shorter {
            anchor: anchor.clone(),
            events,
        });
    }
    let actual = if anchor.count == 0 {
        GENESIS_HASH
    } else {
        hash_now.unwrap_or_default()
    };
    if actual == anchor.hash {
        Ok(())
    } else {
        Err(AnchorMismatch::Differs {
            anchor: anchor.clone(),
            actual: actual.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(c: char) -> String {
        c.to_string().repeat(64)
    }

    #[test]
    fn a_head_line_reads_back_as_the_same_anchor() {
        let head = ChainHead {
            count: 42,
            head_hash: hash('a'),
        };
        let line = anchor_line("2026-12-01T15:50:00Z", &head);
        assert_eq!(line, format!("2026-12-01T15:50:00Z 42 {}", hash('a')));
        let text = format!(
            "# anchors of site A\n\n{line}\n{}\n",
            anchor_line("2026-12-02T00:00:00Z", &head)
        );
        let anchors = parse_anchors(&text).unwrap_or_default();
        assert_eq!(anchors.len(), 2);
        assert_eq!(
            anchors[0],
            Anchor {
                line: 3,
                at: "2026-12-01T15:50:00Z".into(),
                count: 42,
                hash: hash('a'),
            }
        );
        assert_eq!(anchors[1].line, 4);
    }

    #[test]
    fn bad_lines_are_named_by_number() {
        let bad = [
            ("2026-12-01T15:50:00Z 42", "three fields"),
            (&*format!("yesterday 42 {}", hash('a')), "RFC 3339"),
            (&*format!("2026-12-01T15:50:00Z -1 {}", hash('a')), "whole number"),
            ("2026-12-01T15:50:00Z 4 abc", "64 lowercase hex"),
            (&*format!("2026-12-01T15:50:00Z 4 {}", hash('A')), "64 lowercase hex"),
        ];
        for (line, why) in bad {
            let err = parse_anchors(&format!("# ok\n{line}\n")).err();
            assert_eq!(err.as_ref().map(|e| e.line), Some(2), "{line}");
            assert!(err.is_some_and(|e| e.reason.contains(why)), "{line}");
        }
    }

    #[test]
    fn an_anchor_holds_while_its_event_keeps_its_hash() {
        let a = Anchor {
            line: 1,
            at: "2026-12-01T15:50:00Z".into(),
            count: 3,
            hash: hash('b'),
        };
        assert_eq!(check_anchor(&a, 3, Some(&hash('b'))), Ok(()));
        assert_eq!(check_anchor(&a, 9, Some(&hash('b'))), Ok(()), "later events extend it");
        let differs = check_anchor(&a, 9, Some(&hash('c'))).err().map(|e| e.to_string());
        assert_eq!(
            differs,
            Some(format!(
                "anchor line 1 (2026-12-01T15:50:00Z 3 {}): event 3 now has hash {}",
                hash('b'),
                hash('c')
            ))
        );
        assert!(matches!(
            check_anchor(&a, 2, None),
            Err(AnchorMismatch::Shorter { events: 2, .. })
        ));
        let empty = Anchor {
            count: 0,
            hash: GENESIS_HASH.into(),
            ..a
        };
        assert_eq!(check_anchor(&empty, 0, None), Ok(()), "the empty chain's head");
    }
}
