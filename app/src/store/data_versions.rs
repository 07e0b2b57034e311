//! The `team_data_versions` table: a counter per team that triggers raise on every write to
//! what a cost comparison reads (vendors, quotes and their revisions, workloads, exchange
//! rates, runs, budgets, the team's base currency). Reading it is one indexed row.

use sqlx::SqliteExecutor;

/// The team's data version: 0 before its first write, then higher after every write.
pub async fn of_team(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<i64, sqlx::Error> {
    let version: Option<i64> = sqlx::query_scalar("SELECT version FROM team_data_versions WHERE team_id = ?")
        .bind(team_id)
        .fetch_optional(db)
        .await?;
    Ok(version.unwrap_or(0))
}
