//! `run_node_facts`: the node facts `nodeledger probe` sent with a run, one row per
//! run, of the run's team.

use super::Tx;
use sqlx::SqliteExecutor;

/// Stores the facts (JSON of [`crate::domain::node_facts::NodeFacts`]) of the team's run, in the
/// run's transaction; `false` when the run is not the team's.
pub async fn insert(
    tx: &mut Tx,
    team_id: i64,
    run_id: i64,
    facts: &str,
    exit_code: Option<i32>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO run_node_facts (run_id, team_id, facts, exit_code)
         SELECT id, team_id, ?, ? FROM runs WHERE id = ? AND team_id = ?",
    )
    .bind(facts)
    .bind(exit_code)
    .bind(run_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The facts JSON of the team's run, if the probe sent any.
pub async fn get(db: impl SqliteExecutor<'_>, team_id: i64, run_id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT facts FROM run_node_facts WHERE run_id = ? AND team_id = ?")
        .bind(run_id)
        .bind(team_id)
        .fetch_optional(db)
        .await
}
