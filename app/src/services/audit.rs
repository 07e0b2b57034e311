//! Verifying the audit trail: the hash chain over every event, and every approved order revision
//! against the content hash its approval event pinned. Used by `nodeledger audit verify` and
//! shown on each order page. Also: exporting one order's audit record ([`export_order`]) and
//! checking such an export against the database ([`check_export`], `nodeledger audit verify
//! --export FILE`), and checking heads recorded elsewhere ([`check_anchors`], `nodeledger audit
//! verify --anchor FILE`).

use crate::{
    domain::audit::{
        Action, Anchor, AnchorMismatch, ChainError, ChainFault, ChainHead, ExportFault, ExportedRevision, OrderExport,
        OrderState, canonical_json, check_anchor, check_self, content_hash_or_empty, first_difference, parse_export,
        sha256_hex, verify_next,
    },
    store::{self, Db},
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// An event that could not be appended: SQL's failure as it is, any other logged and internal.
impl From<store::audit::AppendError> for crate::error::AppError {
    fn from(e: store::audit::AppendError) -> Self {
        match e {
            store::audit::AppendError::Sql(e) => e.into(),
            store::audit::AppendError::Event(msg) => {
                tracing::error!(error = %msg, "cannot build an audit event");
                crate::error::AppError::Internal
            }
        }
    }
}

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
    #[error(
        "order {order_id} revision {revision}: approved content changed (approval pinned {pinned}, content hashes to {actual})"
    )]
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
    let mut pinned = HashMap::<(i64, i64), String>::new();
    loop {
        let rows = store::audit::page(db, after, PAGE).await?;
        let Some(last) = rows.last() else { break };
        after = last.0;
        for row in rows {
            let seq = row.0;
            let Some(event) = store::audit::decode(row) else {
                return Ok(Err(AuditFault::Unreadable { seq }));
            };
            head = match verify_next(&head, &event) {
                Ok(h) => h,
                Err(ChainError { seq, fault }) => {
                    return Ok(Err(AuditFault::Chain {
                        seq,
                        fault: fault.to_string(),
                    }));
                }
            };
            if event.action == Action::Approve
                && let (Some(rev), Some(hash)) = (
                    event.data.get("revision").and_then(serde_json::Value::as_i64),
                    event.data.get("content_hash").and_then(|h| h.as_str()),
                )
            {
                pinned.insert((event.order_id, rev), hash.to_string());
            }
        }
    }
    let approved = store::orders::approved(db).await?;
    for (_, order_id, revision, content, _) in &approved {
        let actual = serde_json::from_str::<serde_json::Value>(content)
            .ok()
            .and_then(|v| canonical_json(&v).ok())
            .map(|c| sha256_hex(&c))
            .unwrap_or_default();
        let pin = pinned.get(&(*order_id, *revision)).cloned().unwrap_or_default();
        if pin != actual {
            return Ok(Err(AuditFault::ApprovedContentChanged {
                order_id: *order_id,
                revision: *revision,
                pinned: pin,
                actual,
            }));
        }
    }
    Ok(Ok(AuditStatus {
        events: head.count,
        head_hash: head.head_hash,
        approved_revisions: approved.len() as u64,
    }))
}

/// Verifies one order's events where they stand in the chain (each hash recomputed, each
/// `prev_hash` equal to the hash of the event before it) and its approved revisions against the
/// hashes their approvals pinned. This is what the order page shows on every view; the whole
/// chain is verified by `nodeledger audit verify`. `events` counts the order's events,
/// `head_hash` is the whole chain's head.
pub async fn verify_order(db: &Db, order_id: i64) -> Result<Result<AuditStatus, AuditFault>, sqlx::Error> {
    let links = store::audit::prev_hashes_of_order(db, order_id).await?;
    let mut pinned = HashMap::<i64, String>::new();
    let mut events = 0;
    for (row, prev_in_chain) in store::audit::of_order(db, order_id).await?.into_iter().zip(links) {
        let seq = row.0;
        let Some(event) = store::audit::decode(row) else {
            return Ok(Err(AuditFault::Unreadable { seq }));
        };
        if event.compute_hash().ok().as_deref() != Some(event.hash.as_str()) {
            return Ok(Err(AuditFault::Chain {
                seq,
                fault: ChainFault::BadHash.to_string(),
            }));
        }
        let expected_prev = prev_in_chain.unwrap_or_else(|| crate::domain::audit::GENESIS_HASH.to_string());
        if event.prev_hash != expected_prev {
            return Ok(Err(AuditFault::Chain {
                seq,
                fault: ChainFault::BrokenLink.to_string(),
            }));
        }
        if event.action == Action::Approve
            && let (Some(rev), Some(hash)) = (
                event.data.get("revision").and_then(serde_json::Value::as_i64),
                event.data.get("content_hash").and_then(|h| h.as_str()),
            )
        {
            pinned.insert(rev, hash.to_string());
        }
        events += 1;
    }
    let mut approved = 0;
    for (revision, state, content, _) in store::orders::revisions_for_audit(db, order_id).await? {
        if state != "approved" {
            continue;
        }
        approved += 1;
        let actual = serde_json::from_str::<serde_json::Value>(&content)
            .ok()
            .and_then(|v| canonical_json(&v).ok())
            .map(|c| sha256_hex(&c))
            .unwrap_or_default();
        let pin = pinned.get(&revision).cloned().unwrap_or_default();
        if pin != actual {
            return Ok(Err(AuditFault::ApprovedContentChanged {
                order_id,
                revision,
                pinned: pin,
                actual,
            }));
        }
    }
    let head = store::audit::head(db).await?;
    Ok(Ok(AuditStatus {
        events,
        head_hash: head.head_hash,
        approved_revisions: approved,
    }))
}

/// Why an export does not check out: the export itself or its agreement with the database
/// ([`ExportFault`]), or the database's own audit trail ([`AuditFault`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", content = "fault", rename_all = "snake_case")]
pub enum ExportMismatch {
    /// The export is inconsistent, or differs from the database.
    #[error(transparent)]
    Export(ExportFault),
    /// The database's chain or approved content does not verify.
    #[error("database audit trail: {0}")]
    Database(AuditFault),
}

/// An export that matches the database, and the database's verified chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportStatus {
    /// The exported order.
    pub order_id: i64,
    /// Exported events checked.
    pub events: u64,
    /// Exported revisions checked.
    pub revisions: u64,
    /// The whole database's verification.
    pub chain: AuditStatus,
}

fn unreadable(what: String) -> sqlx::Error {
    sqlx::Error::Decode(what.into())
}

/// One order's audit record (format: [`crate::domain::audit::OrderExport`]): all its events and
/// revisions as stored now; `None` when the order has neither.
///
/// Not scoped to a team: callers check access to the order first.
///
/// # Errors
/// Database errors, or a stored event or revision that cannot be decoded.
pub async fn export_order(db: &Db, order_id: i64) -> Result<Option<OrderExport>, sqlx::Error> {
    let mut events = Vec::new();
    for row in store::audit::of_order(db, order_id).await? {
        let seq = row.0;
        events.push(
            store::audit::decode(row)
                .ok_or_else(|| unreadable(format!("audit event {seq}: unreadable action or data")))?,
        );
    }
    let mut revisions = Vec::new();
    for (revision, state, content, content_hash) in store::orders::revisions_for_audit(db, order_id).await? {
        let content = serde_json::from_str(&content)
            .map_err(|e| unreadable(format!("order {order_id} revision {revision}: {e}")))?;
        revisions.push(ExportedRevision {
            revision,
            state: store::orders::parse_state(&state)?,
            content,
            content_hash,
        });
    }
    if events.is_empty() && revisions.is_empty() {
        return Ok(None);
    }
    Ok(Some(OrderExport {
        order_id,
        events,
        revisions,
    }))
}

/// Checks an exported order record (JSON, format: [`crate::domain::audit::OrderExport`])
/// against the database. First failure wins, in this order:
/// 1. the export alone ([`check_self`]): events of the order in ascending seq, each hash
///    recomputes, consecutive events link, revisions hash to their `content_hash` (required when
///    approved) and approval events pin those hashes;
/// 2. every exported event is in the database with the same seq and identical fields, and the
///    database has no event of the order, up to the export's last seq, that the export lacks;
/// 3. every exported revision is in the database and its content there hashes like the
///    exported content; a revision approved in the export is still approved;
/// 4. the database's whole chain and approved revisions verify ([`verify`]).
///
/// # Errors
/// Database errors only; every mismatch is an `Ok(Err(_))`.
pub async fn check_export(
    db: &Db,
    export: &serde_json::Value,
) -> Result<Result<ExportStatus, ExportMismatch>, sqlx::Error> {
    let fail = |f: ExportFault| Ok(Err(ExportMismatch::Export(f)));
    let export = match parse_export(export) {
        Ok(e) => e,
        Err(f) => return fail(f),
    };
    if let Err(f) = check_self(&export) {
        return fail(f);
    }

    let stored: BTreeMap<i64, store::audit::EventRow> = store::audit::of_order(db, export.order_id)
        .await?
        .into_iter()
        .map(|r| (r.0, r))
        .collect();
    if let Err(f) = events_match(&export, &stored) {
        return fail(f);
    }
    let revisions: HashMap<i64, (String, String)> = store::orders::revisions_for_audit(db, export.order_id)
        .await?
        .into_iter()
        .map(|(rev, state, content, _)| (rev, (state, content)))
        .collect();
    if let Err(f) = revisions_match(&export, &revisions) {
        return fail(f);
    }

    Ok(match verify(db).await? {
        Err(fault) => Err(ExportMismatch::Database(fault)),
        Ok(chain) => Ok(ExportStatus {
            order_id: export.order_id,
            events: export.events.len() as u64,
            revisions: export.revisions.len() as u64,
            chain,
        }),
    })
}

/// Step 2 of [`check_export`]: every exported event is stored (same seq, identical fields), and
/// no stored event of the order up to the export's last seq is missing from the export.
fn events_match(export: &OrderExport, stored: &BTreeMap<i64, store::audit::EventRow>) -> Result<(), ExportFault> {
    for e in &export.events {
        let Some(row) = stored.get(&e.seq) else {
            return Err(ExportFault::EventNotInDatabase { seq: e.seq });
        };
        let field = match store::audit::decode(row.clone()) {
            None => Some("action or data"),
            Some(s) => first_difference(e, &s),
        };
        if let Some(field) = field {
            return Err(ExportFault::EventDiffers {
                seq: e.seq,
                field: field.to_owned(),
            });
        }
    }
    if let Some(last) = export.events.last() {
        let exported: std::collections::HashSet<i64> = export.events.iter().map(|e| e.seq).collect();
        if let Some(&seq) = stored
            .range(..=last.seq)
            .map(|(s, _)| s)
            .find(|s| !exported.contains(*s))
        {
            return Err(ExportFault::EventOmitted { seq });
        }
    }
    Ok(())
}

/// Step 3 of [`check_export`]: every exported revision is stored (by revision number: state and
/// canonical content), its content hashes alike, and one approved in the export still is.
fn revisions_match(export: &OrderExport, stored: &HashMap<i64, (String, String)>) -> Result<(), ExportFault> {
    for r in &export.revisions {
        let Some((state, content)) = stored.get(&r.revision) else {
            return Err(ExportFault::RevisionNotInDatabase { revision: r.revision });
        };
        let exported = content_hash_or_empty(&r.content);
        let database = serde_json::from_str(content)
            .map(|v| content_hash_or_empty(&v))
            .unwrap_or_default();
        if exported != database {
            return Err(ExportFault::RevisionDiffers {
                revision: r.revision,
                exported,
                database,
                state: state.clone(),
            });
        }
        if r.state == OrderState::Approved && state != "approved" {
            return Err(ExportFault::RevisionState {
                revision: r.revision,
                state: state.clone(),
            });
        }
    }
    Ok(())
}

/// Why an anchor file does not check out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", content = "fault", rename_all = "snake_case")]
pub enum AnchorFault {
    /// The database's chain or approved content does not verify.
    #[error("database audit trail: {0}")]
    Database(AuditFault),
    /// The first anchor the chain no longer extends.
    #[error(transparent)]
    Anchor(AnchorMismatch),
}

/// Anchors that all hold, and the database's verified chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnchorStatus {
    /// Anchors checked.
    pub anchors: u64,
    /// The whole database's verification.
    pub chain: AuditStatus,
}

/// Verifies the whole chain ([`verify`]), then that today's chain still extends every anchor
/// (format and reasoning: [`crate::domain::audit::anchor`]), in file order; the first failure
/// wins. A chain rewritten and rehashed as a whole passes [`verify`] but not its anchors.
///
/// # Errors
/// Database errors only; every mismatch is an `Ok(Err(_))`.
pub async fn check_anchors(db: &Db, anchors: &[Anchor]) -> Result<Result<AnchorStatus, AnchorFault>, sqlx::Error> {
    let chain = match verify(db).await? {
        Ok(chain) => chain,
        Err(fault) => return Ok(Err(AnchorFault::Database(fault))),
    };
    for anchor in anchors {
        let hash_now = store::audit::hash_at(db, anchor.count).await?;
        if let Err(m) = check_anchor(anchor, chain.events, hash_now.as_deref()) {
            return Ok(Err(AnchorFault::Anchor(m)));
        }
    }
    Ok(Ok(AnchorStatus {
        anchors: anchors.len() as u64,
        chain,
    }))
}
