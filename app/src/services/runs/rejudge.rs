//! Judging stored runs again: when the rules change (every team's runs, at start-up) or when a
//! workload changes what its runs are judged against; a verdict that changes is written with the
//! reason.

use super::*;

/// What [`rejudge_all`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rejudged {
    /// Runs judged again.
    pub runs: usize,
    /// Runs whose status changed: id, stored status, today's status.
    pub changed: Vec<(i64, crate::domain::runs::RunStatus, crate::domain::runs::RunStatus)>,
}

/// Judges every stored run's canonical record again with today's rules, against its quote
/// revision and workload, and stores the new verdict and status, all in one `BEGIN IMMEDIATE`
/// transaction (all runs or none). Runs are otherwise never re-judged: a stored run keeps the
/// status it was judged with until this runs.
pub async fn rejudge_all(db: &Db) -> Result<Rejudged, AppError> {
    let mut tx = store::begin_write(db).await?;
    let out = rejudge_in(&mut tx).await?;
    store::site::set_run_rules_version(&mut tx, crate::domain::runs::RULES_VERSION).await?;
    tx.commit().await?;
    Ok(out)
}

/// Judges every stored run again when they were judged with older rules than today's
/// ([`crate::domain::runs::RULES_VERSION`]), as [`rejudge_all`] does, and records the version
/// in the same transaction; `None` when they already were. Called at start (the server and
/// `nodeledger migrate`), which log the verdicts that changed.
pub async fn rejudge_if_rules_changed(db: &Db) -> Result<Option<Rejudged>, AppError> {
    if store::site::run_rules_version(db).await? >= crate::domain::runs::RULES_VERSION {
        return Ok(None);
    }
    rejudge_all(db).await.map(Some)
}

/// Judges the team's runs of one workload again, inside the caller's write transaction: a
/// changed workload (its target, headroom, model) changes what its runs are judged against.
pub async fn rejudge_workload(tx: &mut store::Tx, team_id: i64, workload_id: i64) -> Result<Rejudged, AppError> {
    let stored = store::runs::stored_of_workload(tx, team_id, workload_id).await?;
    rejudge_rows(tx, stored).await
}

pub(super) async fn rejudge_in(tx: &mut store::Tx) -> Result<Rejudged, AppError> {
    let stored = store::runs::all_stored(tx).await?;
    rejudge_rows(tx, stored).await
}

pub(super) async fn rejudge_rows(
    tx: &mut store::Tx,
    stored: Vec<store::runs::StoredRun>,
) -> Result<Rejudged, AppError> {
    let mut out = Rejudged {
        runs: stored.len(),
        changed: Vec::new(),
    };
    for row in stored {
        let run: CanonicalRun = serde_json::from_str(&row.canonical).map_err(|e| {
            tracing::error!(error = %e, run = row.id, "stored run does not decode");
            AppError::Internal
        })?;
        let spec = match row.quote_revision_id {
            Some(rev) => store::quotes::revision(&mut **tx, row.team_id, rev)
                .await?
                .map(|q| q.draft.spec),
            None => None,
        };
        let workload = match row.workload_id {
            Some(id) => store::workloads::by_id(&mut **tx, row.team_id, id)
                .await?
                .map(|w| w.record),
            None => None,
        };
        let judged = assess(run, &verdict_context(spec.as_ref(), workload.as_ref()));
        let status = judged
            .verdict
            .as_ref()
            .map_or(crate::domain::runs::RunStatus::Valid, |v| v.status);
        let canonical = serde_json::to_string(&judged).map_err(|e| {
            tracing::error!(error = %e, "cannot encode run");
            AppError::Internal
        })?;
        let value = judged.throughput.as_ref().map(|t| t.value);
        store::runs::set_judged(
            tx,
            row.team_id,
            row.id,
            &canonical,
            status,
            judged.node.gpu_name.as_deref(),
            value,
        )
        .await?;
        if status != row.status {
            out.changed.push((row.id, row.status, status));
        }
    }
    Ok(out)
}
