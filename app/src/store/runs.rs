//! The `runs`, `run_files` and `run_file_chunks` tables: benchmark runs and the files they were
//! built from, kept byte for byte in chunks.

use super::Tx;
use crate::{
    domain::runs::RunStatus,
    views::{RunFileInfo, RunSummary},
};
use sqlx::SqliteExecutor;

mod files;
use files::file_info;
pub use files::{
    CHUNK_BYTES, FileForCreate, chunk, delete_unclaimed_files, file_by_sha, file_parsed, insert_chunk, insert_file,
};
mod stored;
pub use stored::{
    RunHolding, RunJudged, StoredRun, add_files, all_stored, counts, holding, set_judged, stored_of_workload,
    valid_of_quotes,
};

/// A run about to be stored.
pub struct RunForCreate<'a> {
    /// The quote revision (row id), if any.
    pub quote_revision_id: Option<i64>,
    /// How the uploader names the node (free text).
    pub node_label: &'a str,
    /// Workload id, if any.
    pub workload_id: Option<i64>,
    /// How many nodes the run used (≥ 1).
    pub nodes: i64,
    /// Its files and what judging them gave.
    pub judged: RunJudged<'a>,
    /// Free text; may be empty.
    pub note: &'a str,
    /// The user who stored the run.
    pub created_by: i64,
}

fn status_str(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Valid => "valid",
        RunStatus::Warn => "warn",
        RunStatus::Invalid => "invalid",
    }
}

fn parse_status(s: &str) -> Result<RunStatus, sqlx::Error> {
    match s {
        "valid" => Ok(RunStatus::Valid),
        "warn" => Ok(RunStatus::Warn),
        "invalid" => Ok(RunStatus::Invalid),
        other => Err(sqlx::Error::Decode(format!("unknown run status {other}").into())),
    }
}

/// Stores a run. The files must be the team's and held by no other run (the `UNIQUE`
/// constraints refuse a second claim), and the quote revision and workload the team's:
/// `Ok(None)` otherwise.
pub async fn insert(tx: &mut Tx, team_id: i64, run: &RunForCreate<'_>) -> Result<Option<i64>, sqlx::Error> {
    let owned: i64 = sqlx::query_scalar(
        "SELECT (? IS NULL OR EXISTS (SELECT 1 FROM quote_revisions WHERE id = ? AND team_id = ?))
            AND (? IS NULL OR EXISTS (SELECT 1 FROM workloads WHERE id = ? AND team_id = ?))
            AND (? IS NULL OR EXISTS (SELECT 1 FROM run_files WHERE id = ? AND team_id = ?))
            AND (? IS NULL OR EXISTS (SELECT 1 FROM run_files WHERE id = ? AND team_id = ?))",
    )
    .bind(run.quote_revision_id)
    .bind(run.quote_revision_id)
    .bind(team_id)
    .bind(run.workload_id)
    .bind(run.workload_id)
    .bind(team_id)
    .bind(run.judged.result_file_id)
    .bind(run.judged.result_file_id)
    .bind(team_id)
    .bind(run.judged.telemetry_file_id)
    .bind(run.judged.telemetry_file_id)
    .bind(team_id)
    .fetch_one(&mut **tx)
    .await?;
    if owned == 0 {
        return Ok(None);
    }
    let id = sqlx::query_scalar(
        "INSERT INTO runs (team_id, quote_revision_id, node_label, workload_id, nodes, result_file_id, telemetry_file_id,
                           canonical, status, source_format, gpu_name, throughput_value, throughput_unit, note, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(team_id)
    .bind(run.quote_revision_id)
    .bind(run.node_label)
    .bind(run.workload_id)
    .bind(run.nodes)
    .bind(run.judged.result_file_id)
    .bind(run.judged.telemetry_file_id)
    .bind(run.judged.canonical)
    .bind(status_str(run.judged.status))
    .bind(run.judged.source_format)
    .bind(run.judged.gpu_name)
    .bind(run.judged.throughput_value)
    .bind(run.judged.throughput_unit)
    .bind(run.note)
    .bind(run.created_by)
    .fetch_one(&mut **tx)
    .await?;
    Ok(Some(id))
}

/// The run-list columns and joins, as a literal for `concat!`.
macro_rules! summary_select {
    () => {
        "SELECT r.id AS id, q.id AS quote_id, qr.revision AS revision,
        CASE WHEN q.id IS NULL THEN NULL ELSE v.name || ' · ' || q.reference END AS quote_label,
        r.node_label AS node_label, r.workload_id AS workload_id, w.name AS workload_name, r.nodes AS nodes,
        r.status AS status, r.source_format AS source_format, r.gpu_name AS gpu_name,
        json_extract(r.canonical, '$.node.gpu_count') AS gpu_count,
        NULLIF(json_array_length(r.canonical, '$.gpus_used'), 0) AS gpus_used,
        coalesce(json_array_length(r.canonical, '$.telemetry'), 0) > 0 AS has_telemetry,
        r.throughput_value AS throughput_value, r.throughput_unit AS throughput_unit,
        json_extract(r.canonical, '$.workload.concurrency') AS concurrency,
        json_extract(r.canonical, '$.latencies') AS latencies,
        (SELECT json_extract(j.value, '$.value') FROM json_each(r.canonical, '$.throughputs') j
            WHERE json_extract(j.value, '$.name') = 'total_tokens' LIMIT 1) AS total_tokens_per_s,
        r.status <> 'invalid' AND NOT EXISTS (SELECT 1 FROM json_each(r.canonical, '$.verdict.reasons') j
            WHERE json_extract(j.value, '$.severity') <> 'info'
              AND json_extract(j.value, '$.code') <> 'misses_response_target') AS on_curve,
        u.display_name AS created_by, r.created_at AS created_at
     FROM runs r
     LEFT JOIN quote_revisions qr ON qr.id = r.quote_revision_id
     LEFT JOIN quotes q ON q.id = qr.quote_id
     LEFT JOIN vendors v ON v.id = q.vendor_id
     LEFT JOIN workloads w ON w.id = r.workload_id
     JOIN users u ON u.id = r.created_by"
    };
}

/// One row of [`summary_select`], before the status is decoded.
#[derive(sqlx::FromRow)]
struct SummaryRow {
    id: i64,
    quote_id: Option<i64>,
    revision: Option<i64>,
    quote_label: Option<String>,
    node_label: String,
    workload_id: Option<i64>,
    workload_name: Option<String>,
    nodes: i64,
    status: String,
    source_format: String,
    gpu_name: Option<String>,
    gpu_count: Option<i64>,
    gpus_used: Option<i64>,
    has_telemetry: bool,
    throughput_value: Option<f64>,
    throughput_unit: Option<String>,
    concurrency: Option<i64>,
    latencies: Option<String>,
    total_tokens_per_s: Option<f64>,
    on_curve: bool,
    created_by: String,
    created_at: String,
}

fn summary(r: SummaryRow) -> Result<RunSummary, sqlx::Error> {
    Ok(RunSummary {
        status: parse_status(&r.status)?,
        id: r.id,
        quote_id: r.quote_id,
        revision: r.revision,
        quote_label: r.quote_label,
        node_label: r.node_label,
        workload_id: r.workload_id,
        workload_name: r.workload_name,
        nodes: r.nodes,
        source_format: r.source_format,
        gpu_name: r.gpu_name,
        gpu_count: r.gpu_count,
        gpus_used: r.gpus_used,
        has_telemetry: r.has_telemetry,
        throughput_value: r.throughput_value,
        throughput_unit: r.throughput_unit,
        concurrency: r.concurrency.and_then(|n| u64::try_from(n).ok()),
        // Stored by the judge, so it decodes; anything else is read as no latencies.
        latencies: r
            .latencies
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default(),
        total_tokens_per_s: r.total_tokens_per_s,
        on_curve: r.on_curve,
        created_by: r.created_by,
        created_at: r.created_at,
    })
}

/// Which runs to list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunFilter {
    /// Only runs of this quote (any revision).
    pub quote_id: Option<i64>,
    /// Only runs of this workload.
    pub workload_id: Option<i64>,
}

/// The team's runs, newest first (at most `limit`).
pub async fn list(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    filter: RunFilter,
    limit: i64,
) -> Result<Vec<RunSummary>, sqlx::Error> {
    let sql = concat!(
        summary_select!(),
        " WHERE r.team_id = ? AND (? IS NULL OR q.id = ?) AND (? IS NULL OR r.workload_id = ?) ORDER BY r.id DESC LIMIT ?"
    );
    let rows: Vec<SummaryRow> = sqlx::query_as(sql)
        .bind(team_id)
        .bind(filter.quote_id)
        .bind(filter.quote_id)
        .bind(filter.workload_id)
        .bind(filter.workload_id)
        .bind(limit)
        .fetch_all(db)
        .await?;
    rows.into_iter().map(summary).collect()
}

/// The team's nccl-tests runs of `quote_id` (any revision), newest first (at most `limit`):
/// run id and judged canonical JSON.
pub async fn link_tests(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    quote_id: i64,
    limit: i64,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.canonical FROM runs r JOIN quote_revisions qr ON qr.id = r.quote_revision_id
         WHERE r.team_id = ? AND qr.quote_id = ? AND r.source_format = 'nccl_tests' ORDER BY r.id DESC LIMIT ?",
    )
    .bind(team_id)
    .bind(quote_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The team's runs among `run_ids` (an order's attached runs), newest first: every one of them,
/// however many newer runs the team has; ids of another team's runs are left out.
pub async fn attached(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    run_ids: &[i64],
) -> Result<Vec<RunSummary>, sqlx::Error> {
    if run_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = serde_json::to_string(run_ids).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let sql = concat!(
        summary_select!(),
        " WHERE r.team_id = ? AND r.id IN (SELECT value FROM json_each(?)) ORDER BY r.id DESC"
    );
    let rows: Vec<SummaryRow> = sqlx::query_as(sql).bind(team_id).bind(ids).fetch_all(db).await?;
    rows.into_iter().map(summary).collect()
}

/// One of the team's runs: its summary, judged canonical JSON, note and files.
pub async fn get(
    db: &super::Db,
    team_id: i64,
    id: i64,
) -> Result<Option<(RunSummary, String, String, Vec<RunFileInfo>)>, sqlx::Error> {
    let sql = concat!(summary_select!(), " WHERE r.team_id = ? AND r.id = ?");
    let Some(row) = sqlx::query_as::<_, SummaryRow>(sql)
        .bind(team_id)
        .bind(id)
        .fetch_optional(db)
        .await?
    else {
        return Ok(None);
    };
    let (canonical, note): (String, String) =
        sqlx::query_as("SELECT canonical, note FROM runs WHERE id = ? AND team_id = ?")
            .bind(id)
            .bind(team_id)
            .fetch_one(db)
            .await?;
    let files: Vec<(i64, String, i64, String, String, Option<i64>)> = sqlx::query_as(
        "SELECT f.id, f.file_name, f.size, f.sha256, f.format, r.id FROM runs r
         JOIN run_files f ON f.id IN (r.result_file_id, r.telemetry_file_id)
         WHERE r.id = ? AND r.team_id = ? ORDER BY f.id",
    )
    .bind(id)
    .bind(team_id)
    .fetch_all(db)
    .await?;
    Ok(Some((
        summary(row)?,
        canonical,
        note,
        files.into_iter().map(file_info).collect(),
    )))
}

/// The team's run's verdict status and the quote revision (row id) it was measured on.
pub async fn status_and_revision(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    id: i64,
) -> Result<Option<(RunStatus, Option<i64>)>, sqlx::Error> {
    let row: Option<(String, Option<i64>)> =
        sqlx::query_as("SELECT status, quote_revision_id FROM runs WHERE id = ? AND team_id = ?")
            .bind(id)
            .bind(team_id)
            .fetch_optional(db)
            .await?;
    row.map(|(status, rev)| Ok((parse_status(&status)?, rev))).transpose()
}

/// The judged canonical JSON of the team's run.
pub async fn canonical(db: impl SqliteExecutor<'_>, team_id: i64, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT canonical FROM runs WHERE id = ? AND team_id = ?")
        .bind(id)
        .bind(team_id)
        .fetch_optional(db)
        .await
}

/// Team `?1`'s quotes at their latest revision, each with its label as pickers show it
/// ("vendor · reference · n× GPU"), followed by the query's own conditions and order (one SQL
/// text, written at compile time).
macro_rules! labelled_quotes {
    ($rest:literal) => {
        concat!(
            "SELECT q.id, v.name || ' · ' || q.reference || ' · ' || qr.gpus_per_node || '× ' || qr.gpu_model
             FROM quotes q JOIN vendors v ON v.id = q.vendor_id
             JOIN quote_revisions qr ON qr.quote_id = q.id AND qr.revision = q.latest_revision
             WHERE q.team_id = ?1 ",
            $rest
        )
    };
}

/// The team's quotes as pickers show them: id and "vendor · reference · n× GPU", by vendor.
pub async fn quote_labels(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(labelled_quotes!("ORDER BY v.name, q.reference"))
        .bind(team_id)
        .fetch_all(db)
        .await
}

/// The quotes the run list filters by: those with a run of the team, and `also` (the quote
/// the list is filtered by now), labelled as [`quote_labels`] does. A catalogue of thousands of
/// quotes offers the few with runs, not every quote.
pub async fn quote_labels_with_runs(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    also: Option<i64>,
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(labelled_quotes!(
        "AND (q.id = ?2 OR q.id IN (
             SELECT rr.quote_id FROM runs r JOIN quote_revisions rr ON rr.id = r.quote_revision_id
             WHERE r.team_id = ?1))
         ORDER BY v.name, q.reference"
    ))
    .bind(team_id)
    .bind(also)
    .fetch_all(db)
    .await
}

#[cfg(test)]
mod tests {
    use super::{RunFilter, RunJudged, add_files, attached, holding, list};
    use crate::domain::runs::RunStatus;
    use crate::store::{Db, begin_write};

    /// Team 1 with run 1 (result file 10 only) and an unclaimed telemetry file 11; team 2's
    /// telemetry file 21; run 2 of team 1 holding telemetry file 12.
    async fn fixture(db: &Db) {
        for sql in [
            "INSERT INTO teams (id, name) VALUES (1, 'A'), (2, 'B')",
            "INSERT INTO users (id, email, display_name, password_hash) VALUES (1, 'a@example.com', 'a', 'x')",
            "INSERT INTO run_files (id, team_id, sha256, file_name, size, format, parsed, uploaded_by) VALUES
                (10, 1, printf('%064d', 10), 'v.json', 1, 'vllm', '{}', 1),
                (11, 1, printf('%064d', 11), 's.csv', 1, 'nvidia_smi', '{}', 1),
                (12, 1, printf('%064d', 12), 't.csv', 1, 'nvidia_smi', '{}', 1),
                (21, 2, printf('%064d', 21), 'b.csv', 1, 'nvidia_smi', '{}', 1)",
            "INSERT INTO runs (id, team_id, node_label, result_file_id, canonical, status, source_format, created_by)
                VALUES (1, 1, 'box', 10, '{}', 'warn', 'vllm', 1)",
            "INSERT INTO runs (id, team_id, node_label, telemetry_file_id, canonical, status, source_format, created_by)
                VALUES (2, 1, 'box', 12, '{}', 'warn', 'nvidia_smi', 1)",
        ] {
            sqlx::query(sql).execute(db).await.expect(sql);
        }
    }

    fn added(telemetry: i64) -> RunJudged<'static> {
        RunJudged {
            result_file_id: Some(10),
            telemetry_file_id: Some(telemetry),
            canonical: "{\"merged\":true}",
            status: RunStatus::Valid,
            source_format: "vllm",
            gpu_name: Some("NVIDIA L40S"),
            throughput_value: Some(1.0),
            throughput_unit: Some("tokens/s"),
        }
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_run_gains_the_file_it_lacks_and_only_that(db: Db) {
        fixture(&db).await;
        let mut tx = begin_write(&db).await.expect("tx");
        assert!(
            !add_files(&mut tx, 1, 1, &added(21)).await.expect("update"),
            "another team's file"
        );
        assert!(
            add_files(&mut tx, 1, 1, &added(12)).await.is_err(),
            "a file another run holds breaks the unique column"
        );
        assert!(add_files(&mut tx, 1, 1, &added(11)).await.expect("update"));
        assert!(
            !add_files(&mut tx, 1, 1, &added(12)).await.expect("update"),
            "a filled slot is not replaced"
        );
        assert!(
            !add_files(&mut tx, 2, 1, &added(11)).await.expect("update"),
            "another team's run"
        );
        tx.commit().await.expect("commit");
        let run = holding(&db, 1, 1).await.expect("read").expect("found");
        assert_eq!(
            (run.result_file_id, run.telemetry_file_id, run.canonical.as_str()),
            (Some(10), Some(11), "{\"merged\":true}")
        );
        assert!(holding(&db, 2, 1).await.expect("read").is_none());
    }

    /// An order's attached runs are found by id however many newer runs the team has (more
    /// than any list of the newest would show), and only the team's own.
    #[sqlx::test(migrations = "../migrations")]
    async fn attached_runs_are_found_by_id_past_any_list_of_the_newest(db: Db) {
        fixture(&db).await;
        for sql in [
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
             INSERT INTO run_files (id, team_id, sha256, file_name, size, format, parsed, uploaded_by)
             SELECT 1000 + i, 1, printf('%064d', 1000 + i), 'v.json', 1, 'vllm', '{}', 1 FROM n",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
             INSERT INTO runs (team_id, node_label, result_file_id, canonical, status, source_format, created_by)
             SELECT 1, 'box', 1000 + i, '{}', 'warn', 'vllm', 1 FROM n",
        ] {
            sqlx::query(sql).execute(&db).await.expect("newer runs");
        }
        sqlx::query(
            "INSERT INTO runs (id, team_id, node_label, telemetry_file_id, canonical, status, source_format, created_by)
             VALUES (9000, 2, 'theirs', 21, '{}', 'warn', 'vllm', 1)",
        )
        .execute(&db)
        .await
        .expect("another team's run");
        let newest = list(&db, 1, RunFilter::default(), 2000).await.expect("list");
        assert!(newest.iter().all(|r| r.id != 1), "run 1 is past the newest 2,000");
        let found = attached(&db, 1, &[1, 9000, 2]).await.expect("attached");
        assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), vec![2, 1]);
        assert!(attached(&db, 1, &[]).await.expect("none").is_empty());
    }
}
