//! An order's audit record as exported by the app, and the checks that need no database.
//!
//! # Format
//! One JSON object (field order irrelevant; the export is ordinary JSON, not canonical):
//!
//! ```text
//! {
//!   "order_id": 42,
//!   "events": [                       // the order's audit events, ascending seq
//!     { "seq": 7, "order_id": 42, "actor_id": 3, "at": "2026-12-01T09:00:00Z",
//!       "action": "approve", "data": { "revision": 1, "content_hash": "…" },
//!       "prev_hash": "…64 hex…", "hash": "…64 hex…" },
//!     …
//!   ],
//!   "revisions": [                    // every revision of the order
//!     { "revision": 1, "state": "approved", "content": { … }, "content_hash": "…" | null },
//!     …
//!   ]
//! }
//! ```
//!
//! `events` are [`AuditEvent`]s exactly as stored (`action` in snake_case, `data` the decoded
//! JSON); `state` is `draft`, `submitted`, `approved` or `rejected`; `content` is the revision's
//! content as JSON (its canonical form is what [`content_hash`] hashes); `content_hash` is the
//! hash stored with the revision (set when approved).
//!
//! [`check_self`] checks what an export proves on its own; the comparison with the database is
//! `services::audit::check_export` (server only).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::action::Action;
use super::event::{AuditEvent, content_hash};
use crate::order_state::OrderState;

/// One exported order revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedRevision {
    /// Revision number, 1 for the first.
    pub revision: i64,
    /// Its state when exported.
    pub state: OrderState,
    /// Its whole content.
    pub content: Value,
    /// SHA-256 of the canonical JSON of `content`, as stored (set when approved).
    pub content_hash: Option<String>,
}

/// An order's audit record: its events and revisions (format in the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderExport {
    pub order_id: i64,
    /// Its audit events, ascending seq.
    pub events: Vec<AuditEvent>,
    pub revisions: Vec<ExportedRevision>,
}

/// The first thing wrong with an export, or where it disagrees with the database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExportFault {
    /// The file is not an export of the documented shape.
    #[error("not an order export: {reason}")]
    Malformed {
        /// What could not be read.
        reason: String,
    },
    /// An event belongs to another order, or events are not in ascending seq.
    #[error("exported event {seq}: not in ascending seq order or not of order {order_id}")]
    Misplaced {
        /// The event's seq.
        seq: i64,
        /// The export's order.
        order_id: i64,
    },
    /// An exported event's `hash` does not recompute from its fields.
    #[error("exported event {seq}: hash does not match the event")]
    EventHash {
        /// The event's seq.
        seq: i64,
    },
    /// An exported event follows the previous seq but its `prev_hash` is not that event's hash.
    #[error("exported event {seq}: prev_hash is not the hash of the exported event before it")]
    BrokenLink {
        /// The event's seq.
        seq: i64,
    },
    /// An approved revision has no content hash.
    #[error("exported revision {revision}: approved but has no content_hash")]
    MissingContentHash {
        /// Revision number.
        revision: i64,
    },
    /// A revision's content does not hash to its `content_hash`.
    #[error("exported revision {revision}: content hashes to {actual}, content_hash says {stated}")]
    ContentHash {
        /// Revision number.
        revision: i64,
        /// The `content_hash` field.
        stated: String,
        /// Hash of `content` (empty when it has no canonical form).
        actual: String,
    },
    /// An exported approval event pins a different hash than the exported revision's.
    #[error(
        "exported event {seq}: approval pins {pinned} for revision {revision}, the revision's content_hash is {stated}"
    )]
    ApprovalPin {
        /// The approval event's seq.
        seq: i64,
        /// Revision number.
        revision: i64,
        /// Hash in the approval event.
        pinned: String,
        /// The revision's `content_hash` (empty when absent).
        stated: String,
    },
    /// An exported event is not in the database.
    #[error("exported event {seq}: not in the database")]
    EventNotInDatabase {
        /// The event's seq.
        seq: i64,
    },
    /// The database's event with this seq differs from the exported one.
    #[error("exported event {seq}: differs from the database's event {seq} ({field})")]
    EventDiffers {
        /// The event's seq.
        seq: i64,
        /// First differing field (`hash`, `data`, …).
        field: String,
    },
    /// The database has an event of the order, older than the export's last, that the export lacks.
    #[error("database event {seq} of the order is missing from the export")]
    EventOmitted {
        /// The missing event's seq.
        seq: i64,
    },
    /// An exported revision is not in the database.
    #[error("exported revision {revision}: not in the database")]
    RevisionNotInDatabase {
        /// Revision number.
        revision: i64,
    },
    /// A revision approved in the export is no longer approved in the database.
    #[error("exported revision {revision}: approved in the export, {state} in the database")]
    RevisionState {
        /// Revision number.
        revision: i64,
        /// The database revision's state.
        state: String,
    },
    /// The database's content of a revision does not hash like the export's.
    #[error(
        "exported revision {revision}: content differs from the database (export hashes to {exported}, database to {database}; database state {state})"
    )]
    RevisionDiffers {
        /// Revision number.
        revision: i64,
        /// Hash of the exported content.
        exported: String,
        /// Hash of the database's content (empty when it has no canonical form).
        database: String,
        /// The database revision's state.
        state: String,
    },
}

/// Reads an export from JSON.
///
/// # Errors
/// [`ExportFault::Malformed`] with serde's reason.
pub fn parse_export(value: &Value) -> Result<OrderExport, ExportFault> {
    OrderExport::deserialize(value).map_err(|e| ExportFault::Malformed { reason: e.to_string() })
}

/// Hash of a revision's content; empty when it has no canonical form (never equals a real hash).
#[must_use]
pub fn content_hash_or_empty(content: &Value) -> String {
    content_hash(content).unwrap_or_default()
}

/// What an export proves on its own, first failure wins:
/// 1. events belong to the order and come in ascending seq;
/// 2. each event's hash recomputes, and an event whose seq follows the previous exported
///    event's has that event's hash as `prev_hash`;
/// 3. each revision's content hashes to its `content_hash` (required when approved);
/// 4. each exported approval event pins the `content_hash` of the exported revision it names.
///
/// # Errors
/// The first [`ExportFault`].
pub fn check_self(export: &OrderExport) -> Result<(), ExportFault> {
    let mut prev: Option<&AuditEvent> = None;
    for e in &export.events {
        if e.order_id != export.order_id || prev.is_some_and(|p| p.seq >= e.seq) {
            return Err(ExportFault::Misplaced {
                seq: e.seq,
                order_id: export.order_id,
            });
        }
        if e.compute_hash().ok().as_deref() != Some(e.hash.as_str()) {
            return Err(ExportFault::EventHash { seq: e.seq });
        }
        if let Some(p) = prev
            && p.seq.checked_add(1) == Some(e.seq)
            && e.prev_hash != p.hash
        {
            return Err(ExportFault::BrokenLink { seq: e.seq });
        }
        prev = Some(e);
    }
    for r in &export.revisions {
        let stated = match (&r.content_hash, r.state) {
            (Some(h), _) => h,
            (None, OrderState::Approved) => {
                return Err(ExportFault::MissingContentHash { revision: r.revision });
            }
            (None, _) => continue,
        };
        let actual = content_hash_or_empty(&r.content);
        if &actual != stated {
            return Err(ExportFault::ContentHash {
                revision: r.revision,
                stated: stated.clone(),
                actual,
            });
        }
    }
    for e in export.events.iter().filter(|e| e.action == Action::Approve) {
        let (Some(revision), Some(pinned)) = approval_pin(&e.data) else {
            continue;
        };
        let Some(r) = export.revisions.iter().find(|r| r.revision == revision) else {
            continue;
        };
        let stated = r.content_hash.clone().unwrap_or_default();
        if stated != pinned {
            return Err(ExportFault::ApprovalPin {
                seq: e.seq,
                revision,
                pinned: pinned.to_owned(),
                stated,
            });
        }
    }
    Ok(())
}

/// The `revision` and `content_hash` an approval event's `data` pins.
#[must_use]
pub fn approval_pin(data: &Value) -> (Option<i64>, Option<&str>) {
    (
        data.get("revision").and_then(Value::as_i64),
        data.get("content_hash").and_then(Value::as_str),
    )
}

/// The first field in which two events with the same seq differ (`None` when equal).
#[must_use]
pub fn first_difference(exported: &AuditEvent, stored: &AuditEvent) -> Option<&'static str> {
    [
        ("seq", exported.seq == stored.seq),
        ("order_id", exported.order_id == stored.order_id),
        ("actor_id", exported.actor_id == stored.actor_id),
        ("at", exported.at == stored.at),
        ("action", exported.action == stored.action),
        ("data", exported.data == stored.data),
        ("prev_hash", exported.prev_hash == stored.prev_hash),
        ("hash", exported.hash == stored.hash),
    ]
    .into_iter()
    .find_map(|(field, same)| (!same).then_some(field))
}
