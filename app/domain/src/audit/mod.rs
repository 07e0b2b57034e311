//! Tamper-evident audit trail (pure: no I/O, no clock).
//!
//! # Canonical JSON
//! [`canonical_json`] turns a `serde_json::Value` into one exact string:
//! - objects: keys sorted by their UTF-8 bytes (= Unicode code point order), each key
//!   once; `{` `}` `:` `,` with no whitespace anywhere;
//! - arrays keep their order;
//! - strings: `"` and `\` escaped as `\"` `\\`; U+0008, U+0009, U+000A, U+000C, U+000D
//!   as `\b` `\t` `\n` `\f` `\r`; other characters below U+0020 as `\u00xx` (lowercase
//!   hex); everything else, including non-ASCII, `/`, U+007F and U+2028, written as-is
//!   in UTF-8 (this is what `serde_json` writes);
//! - numbers: integers in the `i64` or `u64` range, in plain decimal; any other number
//!   (floats, `1.0`, `1e3`) is an error, so the form is never ambiguous;
//! - `true`, `false`, `null` as such.
//!
//! This equals Python's
//! `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` encoded as
//! UTF-8, for any value whose numbers are such integers.
//!
//! # Hashes
//! All hashes are SHA-256 of the canonical UTF-8 text, as 64 lowercase hex digits.
//! [`event_hash`] hashes the object with exactly the keys `action` (snake_case name,
//! e.g. `"item_answered"`), `actor_id`, `at` (the string as stored), `data`,
//! `order_id`, `prev_hash`, `seq`. To recompute in Python:
//!
//! ```text
//! obj = {"seq": 1, "order_id": 42, "actor_id": 7, "at": "2025-01-02T03:04:05Z",
//!        "action": "create", "data": {}, "prev_hash": "0" * 64}
//! hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"),
//!                           ensure_ascii=False).encode("utf-8")).hexdigest()
//! ```
//!
//! A chain starts at seq 1 with `prev_hash` = [`GENESIS_HASH`] (64 zeros); each next
//! event has seq + 1 and the previous `hash` as `prev_hash`. [`verify_chain`] checks
//! this in one pass. [`content_hash`] pins a whole order revision (hash of its
//! canonical JSON), e.g. inside an approval event's `data`.
//!
//! # Site events
//! Administrators' actions (users, teams, roles, tokens, settings) are events of the same chain,
//! hashed the same way, with `order_id` [`NO_ORDER`] (0: order ids start at 1) and the subject
//! in `data` ([`Action`] lists each kind's fields). The chain is one chain for the whole
//! database, not one per team, so a site event needs no team of its own: it takes the next seq
//! like any other, and `nodeledger audit verify` checks it with the rest. `actor_id` is the
//! administrator, or [`CLI_ACTOR`] (0) for the command line.
//!
//! # Anchors
//! [`anchor`] explains how a head written down elsewhere catches a chain that was rewritten and
//! rehashed as a whole ([`parse_anchors`], [`check_anchor`]).
//!
//! # Exports
//! [`OrderExport`] is one order's events and revisions as JSON (format in `export.rs`);
//! [`check_self`] checks what an export proves without the database.
//!
//! # Lifecycle
//! The events record the order lifecycle, whose rules live in [`crate::orders`]
//! ([`crate::orders::transition`]); [`OrderState`] is re-exported here because exports
//! and events name the states.

mod action;
pub mod anchor;
mod canonical;
mod chain;
mod event;
mod export;
#[cfg(test)]
mod tests;

pub use crate::order_state::OrderState;
pub use action::{Action, CLI_ACTOR, NO_ORDER, VENDOR_ACTOR};
pub use anchor::{Anchor, AnchorMismatch, AnchorParseError, anchor_line, check_anchor, parse_anchors};
pub use canonical::{CanonicalError, canonical_json};
pub use chain::{ChainError, ChainFault, ChainHead, EventError, next_event, verify_chain, verify_next};
pub use event::{AuditEvent, GENESIS_HASH, content_hash, event_hash, is_rfc3339_utc, sha256_hex};
pub use export::{
    ExportFault, ExportedRevision, OrderExport, approval_pin, check_self, content_hash_or_empty, first_difference,
    parse_export,
};
