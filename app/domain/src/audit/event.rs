//! Audit events and their hashes.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::action::Action;
use super::canonical::{CanonicalError, canonical_json, write_str};

/// `prev_hash` of the first event of a chain: 64 zeros.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One entry of the tamper-evident audit chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEvent {
    /// Position in the chain, 1 for the first event.
    pub seq: i64,
    /// The order concerned.
    pub order_id: i64,
    /// The user who acted.
    pub actor_id: i64,
    /// When, as an RFC 3339 UTC timestamp (hashed as given).
    pub at: String,
    pub action: Action,
    /// Details; integers only (see [`super::canonical_json`]).
    pub data: Value,
    /// `hash` of the previous event, or [`GENESIS_HASH`].
    pub prev_hash: String,
    /// [`event_hash`] of the fields above, lowercase hex.
    pub hash: String,
}

/// SHA-256 (lowercase hex) of the UTF-8 bytes of a string.
#[must_use]
pub fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The hash of an event: SHA-256 hex of the canonical JSON of the object with exactly
/// the keys `action` (snake_case string), `actor_id`, `at`, `data`, `order_id`,
/// `prev_hash` and `seq`.
///
/// # Errors
/// If `data` holds a non-integer number.
pub fn event_hash(
    seq: i64,
    order_id: i64,
    actor_id: i64,
    at: &str,
    action: Action,
    data: &Value,
    prev_hash: &str,
) -> Result<String, CanonicalError> {
    let data = canonical_json(data)?;
    // Keys written directly, in byte order; equal to `canonical_json` of the object.
    let mut s = String::with_capacity(data.len() + 200);
    s.push_str("{\"action\":");
    write_str(action.as_str(), &mut s);
    s.push_str(",\"actor_id\":");
    s.push_str(&actor_id.to_string());
    s.push_str(",\"at\":");
    write_str(at, &mut s);
    s.push_str(",\"data\":");
    s.push_str(&data);
    s.push_str(",\"order_id\":");
    s.push_str(&order_id.to_string());
    s.push_str(",\"prev_hash\":");
    write_str(prev_hash, &mut s);
    s.push_str(",\"seq\":");
    s.push_str(&seq.to_string());
    s.push('}');
    Ok(sha256_hex(&s))
}

/// SHA-256 hex of the canonical JSON of `value`; pins an order revision's full content
/// (e.g. in the `data` of an approval event).
///
/// # Errors
/// If `value` holds a non-integer number.
pub fn content_hash(value: &Value) -> Result<String, CanonicalError> {
    Ok(sha256_hex(&canonical_json(value)?))
}

impl AuditEvent {
    /// Recomputes this event's hash from its other fields.
    ///
    /// # Errors
    /// If `data` holds a non-integer number.
    pub fn compute_hash(&self) -> Result<String, CanonicalError> {
        event_hash(
            self.seq,
            self.order_id,
            self.actor_id,
            &self.at,
            self.action,
            &self.data,
            &self.prev_hash,
        )
    }
}

/// Whether `at` has the shape `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` with fields in range
/// (month 1–12, day 1–31, hour ≤ 23, minute ≤ 59, second ≤ 60). A shape check only:
/// it does not know month lengths.
#[must_use]
pub fn is_rfc3339_utc(at: &str) -> bool {
    let b = at.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if b.len() < 20 || seps.iter().any(|&(i, c)| b[i] != c) {
        return false;
    }
    let fields = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    );
    let (Some(_), Some(mo), Some(d), Some(h), Some(mi), Some(s)) = fields else {
        return false;
    };
    let in_range = (1..=12).contains(&mo) && (1..=31).contains(&d) && h <= 23 && mi <= 59 && s <= 60;
    let frac_ok = match &b[19..] {
        [b'Z'] => true,
        [b'.', rest @ .., b'Z'] => (1..=9).contains(&rest.len()) && rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    in_range && frac_ok
}
