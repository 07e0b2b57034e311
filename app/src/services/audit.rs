//! Verifying the audit trail: the hash chain over every event, and every approved order revision
//! against the content hash its approval event pinned. Used by `nodeledger audit verify` and
//! shown on each order page.

use crate::{
    domain::audit::{Action, ChainHead, ChainError, ChainFault, canonical_json, sha256_hex, verify_next},
    store::{self, Db},
};
use serde::{Deserialize, Serialize};

/// Events read per query while verifying.
const PAGE: i64 = 5000;

/// What is wrong, at the first place found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AuditFault {
    /// The chain breaks at this event.
    #[error("audit event {seq}: {fault}")]
    Chain {
        /// The event's seq.
        seq: i64,
        /// What is wrong with it.
        fault: String,
    },
    /// A stored event's action or data cannot be read.
    #[error("audit event {seq}: unreadable action or data")]
    Unreadable {
        /// The event's seq.
        seq: i64,
    },
    /// An approved revision's content no longer matches the hash its approval pinned.
    #[error("order {order_id} revision {revision}: approved content changed (approval pinned {pinned}, content hashes to {actual})")]
    ApprovedContentChanged {
        /// Order id.
        order_id: i64,
        /// Revision number.
        revision: i64,
        /// Hash in the approval event.
        pinned: String,
        /// Hash of the content now.
        actual: String,
    },
}

/// The chain's state after a successful verification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditStatus {
    /// Events verified.
    pub events: u64,
    /// Hash of the last event (64 zeros when empty).
    pub head_hash: String,
    /// Approved revisions checked against their pinned hash.
    pub approved_revisions: u64,
}

/// Verifies the whole chain and every approved revision; the first fault is returned.
pub async fn verify(db: &Db) -> Result<Result<AuditStatus, AuditFault>, sqlx::Error> {
    let mut head = ChainHead::genesis();
    let mut after = 0;
    let mut pinned = std::collections::HashMap::<(i64, i64), String>::new();
    loop {
        let rows = store::audit::page(db, after, PAGE).await?;
        let Some(last) = rows.last() else { break };
        after = last.0;
        for row in rows {
            let seq = row.0;
            let Some(event) = store::audit::decode(row) else { return Ok(Err(AuditFault::Unreadable { seq })) };
            head = match verify_next(&head, &event) {
                Ok(h) => h,
                Err(ChainError { seq, fault }) => return Ok(Err(AuditFault::Chain { seq, fault: describe(&fault) })),
            };
            if event.action == Action::Approve
                && let (Some(rev), Some(hash)) = (event.data.get("revision").and_then(serde_json::Value::as_i64), event.data.get("content_hash").and_then(|h| h.as_str()))
            {
                pinned.insert((event.order_id, rev), hash.to_string());
            }
        }
    }
    let approved = store::orders::approved(db).await?;
    for (_, order_id, revision, content, _) in &approved {
        let actual = serde_json::from_str::<serde_json::Value>(content).ok().and_then(|v| canonical_json(&v).ok()).map(|c| sha256_hex(&c)).unwrap_or_default();
        let pin = pinned.get(&(*order_id, *revision)).cloned().unwrap_or_default();
        if pin != actual {
            return Ok(Err(AuditFault::ApprovedContentChanged { order_id: *order_id, revision: *revision, pinned: pin, actual }));
        }
    }
    Ok(Ok(AuditStatus { events: head.count, head_hash: head.head_hash, approved_revisions: approved.len() as u64 }))
}

fn describe(fault: &ChainFault) -> String {
    fault.to_string()
}
