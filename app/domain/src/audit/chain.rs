//! Building and verifying the hash chain.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::action::Action;
use super::canonical::CanonicalError;
use super::event::{AuditEvent, GENESIS_HASH, event_hash, is_rfc3339_utc};

/// The end of a verified chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainHead {
    /// Number of events (= seq of the last one; 0 for an empty chain).
    pub count: u64,
    /// Hash of the last event, or [`GENESIS_HASH`] for an empty chain.
    pub head_hash: String,
}

impl ChainHead {
    /// The head of an empty chain.
    #[must_use]
    pub fn genesis() -> Self {
        Self {
            count: 0,
            head_hash: GENESIS_HASH.to_owned(),
        }
    }
}

/// What is wrong with an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChainFault {
    /// `seq` is not one more than the previous event's (or 1 for the first).
    #[error("seq gap: expected {expected}")]
    SeqGap {
        /// The seq that was due.
        expected: i64,
    },
    /// `prev_hash` is not the previous event's `hash` (or [`GENESIS_HASH`]).
    #[error("broken link: prev_hash is not the previous event's hash")]
    BrokenLink,
    /// `hash` does not match the recomputed hash.
    #[error("bad hash: stored hash does not match the event")]
    BadHash,
    /// `data` has no canonical form, so the hash cannot be recomputed.
    #[error("data not canonicalizable: {0}")]
    Uncanonical(CanonicalError),
}

/// The first bad event of a chain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("audit chain invalid at seq {seq}: {fault}")]
pub struct ChainError {
    /// The `seq` field of the bad event, as stored.
    pub seq: i64,
    /// What is wrong with it.
    pub fault: ChainFault,
}

/// Why [`next_event`] could not build an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventError {
    /// `at` is not an RFC 3339 UTC timestamp ([`super::is_rfc3339_utc`]).
    #[error("timestamp is not RFC 3339 UTC")]
    BadTimestamp,
    /// `data` has no canonical form.
    #[error(transparent)]
    Uncanonical(CanonicalError),
    /// The chain is full.
    #[error("seq overflow")]
    SeqOverflow,
}

/// Verifies a whole chain in order, in constant memory, and returns its head.
///
/// Checks per event, in this order: `seq` is the previous seq + 1 (first is 1),
/// `prev_hash` equals the previous `hash` (first: [`GENESIS_HASH`]), and `hash`
/// recomputes. An empty chain gives [`ChainHead::genesis`].
///
/// # Errors
/// The first bad event's seq and fault.
pub fn verify_chain(events: impl IntoIterator<Item = AuditEvent>) -> Result<ChainHead, ChainError> {
    events
        .into_iter()
        .try_fold(ChainHead::genesis(), |head, e| verify_next(&head, &e))
}

/// Verifies one event against the head of the chain before it; returns the new head.
///
/// # Errors
/// As for [`verify_chain`].
pub fn verify_next(head: &ChainHead, e: &AuditEvent) -> Result<ChainHead, ChainError> {
    let fail = |fault| Err(ChainError { seq: e.seq, fault });
    let expected = next_seq(head.count);
    if expected != Some(e.seq) {
        return fail(ChainFault::SeqGap {
            expected: expected.unwrap_or(i64::MAX),
        });
    }
    if e.prev_hash != head.head_hash {
        return fail(ChainFault::BrokenLink);
    }
    match e.compute_hash() {
        Err(err) => fail(ChainFault::Uncanonical(err)),
        Ok(h) if h != e.hash => fail(ChainFault::BadHash),
        Ok(_) => Ok(ChainHead {
            count: head.count + 1,
            head_hash: e.hash.clone(),
        }),
    }
}

/// Builds the event that follows `head`, with its seq, `prev_hash` and hash filled in.
///
/// # Errors
/// If `at` is not RFC 3339 UTC, `data` has a non-integer number, or seq would overflow.
pub fn next_event(
    head: &ChainHead,
    order_id: i64,
    actor_id: i64,
    at: &str,
    action: Action,
    data: Value,
) -> Result<AuditEvent, EventError> {
    if !is_rfc3339_utc(at) {
        return Err(EventError::BadTimestamp);
    }
    let seq = next_seq(head.count).ok_or(EventError::SeqOverflow)?;
    let hash =
        event_hash(seq, order_id, actor_id, at, action, &data, &head.head_hash).map_err(EventError::Uncanonical)?;
    Ok(AuditEvent {
        seq,
        order_id,
        actor_id,
        at: at.to_owned(),
        action,
        data,
        prev_hash: head.head_hash.clone(),
        hash,
    })
}

fn next_seq(count: u64) -> Option<i64> {
    i64::try_from(count).ok()?.checked_add(1)
}
