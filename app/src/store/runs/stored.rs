//! Stored runs as re-judging reads them: every team's (the maintainers' `nodeledger runs
//! rejudge`) or one workload's, inside the write transaction that judges them again.

use super::*;

/// A stored run as re-judging needs it (any team: the maintainers' `nodeledger runs rejudge`).
#[derive(Clone, Debug)]
pub struct StoredRun {
    pub id: i64,
    pub team_id: i64,
    /// The quote revision it was judged against, if any.
    pub quote_revision_id: Option<i64>,
    /// Its workload, if any.
    pub workload_id: Option<i64>,
    /// The judged canonical JSON.
    pub canonical: String,
    /// The stored status.
    pub status: RunStatus,
}

/// A `runs` row as [`all_stored`] reads it, before the status is decoded.
pub(super) type StoredRow = (i64, i64, Option<i64>, Option<i64>, String, String);

/// Every team's runs, oldest first, read inside the write transaction that re-judges them.
pub async fn all_stored(tx: &mut Tx) -> Result<Vec<StoredRun>, sqlx::Error> {
    let rows: Vec<StoredRow> =
        sqlx::query_as("SELECT id, team_id, quote_revision_id, workload_id, canonical, status FROM runs ORDER BY id")
            .fetch_all(&mut **tx)
            .await?;
    rows.into_iter().map(stored_run).collect()
}

/// A [`StoredRow`] with its status decoded.
pub(super) fn stored_run(row: StoredRow) -> Result<StoredRun, sqlx::Error> {
    let (id, team_id, quote_revision_id, workload_id, canonical, status) = row;
    Ok(StoredRun {
        id,
        team_id,
        quote_revision_id,
        workload_id,
        canonical,
        status: parse_status(&status)?,
    })
}

/// The team's stored runs of one workload, oldest first (judged again when the workload
/// changes what a run is judged against).
pub async fn stored_of_workload(tx: &mut Tx, team_id: i64, workload_id: i64) -> Result<Vec<StoredRun>, sqlx::Error> {
    let rows: Vec<StoredRow> = sqlx::query_as(
        "SELECT id, team_id, quote_revision_id, workload_id, canonical, status FROM runs \
         WHERE team_id = ? AND workload_id = ? ORDER BY id",
    )
    .bind(team_id)
    .bind(workload_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(stored_run).collect()
}

/// Replaces a run's judged record, status and the figures the list shows.
pub async fn set_judged(
    tx: &mut Tx,
    team_id: i64,
    id: i64,
    canonical: &str,
    status: RunStatus,
    gpu_name: Option<&str>,
    throughput_value: Option<f64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE runs SET canonical = ?, status = ?, gpu_name = ?, throughput_value = ? WHERE id = ? AND team_id = ?",
    )
    .bind(canonical)
    .bind(status_str(status))
    .bind(gpu_name)
    .bind(throughput_value)
    .bind(id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// How many of the team's runs there are, and how many of them are valid.
pub async fn counts(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as("SELECT COUNT(*), COALESCE(SUM(status = 'valid'), 0) FROM runs WHERE team_id = ?")
        .bind(team_id)
        .fetch_one(db)
        .await
}

/// The team's valid runs among `run_ids`, each with the quote it was measured on, as
/// `(run id, quote id)`.
pub async fn valid_of_quotes(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    run_ids: &[i64],
) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    if run_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = serde_json::to_string(run_ids).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query_as(
        "SELECT r.id, q.quote_id FROM runs r JOIN quote_revisions q ON q.id = r.quote_revision_id
         WHERE r.team_id = ? AND r.status = 'valid' AND r.id IN (SELECT value FROM json_each(?))",
    )
    .bind(team_id)
    .bind(ids)
    .fetch_all(db)
    .await
}

/// A run as adding a file to it needs it: what it was judged against and the files it holds.
#[derive(Clone, Debug)]
pub struct RunHolding {
    /// The run.
    pub id: i64,
    /// The quote revision it was judged against, if any.
    pub quote_revision_id: Option<i64>,
    /// That revision's quote.
    pub quote_id: Option<i64>,
    /// Its workload, if any.
    pub workload_id: Option<i64>,
    /// Its result file.
    pub result_file_id: Option<i64>,
    /// Its telemetry file.
    pub telemetry_file_id: Option<i64>,
    /// The judged canonical JSON.
    pub canonical: String,
}

/// A `runs` row as [`holding`] reads it.
pub(super) type HoldingRow = (
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    String,
);

/// The team's run `id` with its files.
pub async fn holding(db: impl SqliteExecutor<'_>, team_id: i64, id: i64) -> Result<Option<RunHolding>, sqlx::Error> {
    let row: Option<HoldingRow> = sqlx::query_as(
        "SELECT r.id, r.quote_revision_id, qr.quote_id, r.workload_id, r.result_file_id, r.telemetry_file_id, r.canonical
         FROM runs r LEFT JOIN quote_revisions qr ON qr.id = r.quote_revision_id
         WHERE r.team_id = ? AND r.id = ?",
    )
    .bind(team_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(
        |(id, quote_revision_id, quote_id, workload_id, result_file_id, telemetry_file_id, canonical)| RunHolding {
            id,
            quote_revision_id,
            quote_id,
            workload_id,
            result_file_id,
            telemetry_file_id,
            canonical,
        },
    ))
}

/// A run's files and what judging them gave, as stored with it: the judged record and the figures
/// the list shows. A new run is stored with it ([`RunForCreate`]); a run that gains files is
/// updated to it ([`add_files`]).
pub struct RunJudged<'a> {
    /// The result file (for a run that gains files: the one it had, or the one added).
    pub result_file_id: Option<i64>,
    /// The telemetry file (likewise).
    pub telemetry_file_id: Option<i64>,
    /// The merged, judged canonical JSON.
    pub canonical: &'a str,
    /// Its status.
    pub status: RunStatus,
    /// The format of its main file.
    pub source_format: &'a str,
    /// GPU name the run observed, when it says.
    pub gpu_name: Option<&'a str>,
    /// Primary throughput, in `throughput_unit`.
    pub throughput_value: Option<f64>,
    /// Throughput unit.
    pub throughput_unit: Option<&'a str>,
}

/// Points the team's run `id` at `added`'s files, the ones it had kept: a file slot already
/// filled with another file is left as it is and nothing changes (`false`). A file another run
/// holds breaks the unique file columns (the caller answers 409).
pub async fn add_files(tx: &mut Tx, team_id: i64, id: i64, added: &RunJudged<'_>) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE runs SET result_file_id = ?, telemetry_file_id = ?, canonical = ?, status = ?, source_format = ?,
                gpu_name = ?, throughput_value = ?, throughput_unit = ?
         WHERE team_id = ? AND id = ?
           AND (result_file_id IS NULL OR result_file_id IS ?)
           AND (telemetry_file_id IS NULL OR telemetry_file_id IS ?)
           AND (? IS NULL OR EXISTS (SELECT 1 FROM run_files WHERE id = ? AND team_id = ?))
           AND (? IS NULL OR EXISTS (SELECT 1 FROM run_files WHERE id = ? AND team_id = ?))",
    )
    .bind(added.result_file_id)
    .bind(added.telemetry_file_id)
    .bind(added.canonical)
    .bind(status_str(added.status))
    .bind(added.source_format)
    .bind(added.gpu_name)
    .bind(added.throughput_value)
    .bind(added.throughput_unit)
    .bind(team_id)
    .bind(id)
    .bind(added.result_file_id)
    .bind(added.telemetry_file_id)
    .bind(added.result_file_id)
    .bind(added.result_file_id)
    .bind(team_id)
    .bind(added.telemetry_file_id)
    .bind(added.telemetry_file_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
