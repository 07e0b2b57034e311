//! The `workloads` table: what a team needs to run.
//! `body` is the whole [`Workload`] as JSON; `name` is a copy of its name, unique in the team.

use super::{Tx, Updated, db::updated};
use crate::{domain::quotes::Workload, views::Stored};
use sqlx::SqliteExecutor;

fn body(workload: &Workload) -> Result<String, sqlx::Error> {
    serde_json::to_string(workload).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

fn row((id, body): (i64, String)) -> Result<Stored<Workload>, sqlx::Error> {
    let record = serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(Stored { id, record })
}

/// Stores a workload in `team_id`; `Ok(None)` when the team already has one of that name.
pub async fn insert(
    tx: &mut Tx,
    team_id: i64,
    workload: &Workload,
    created_by: Option<i64>,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO workloads (team_id, name, body, created_by) VALUES (?, ?, ?, ?)
         ON CONFLICT (team_id, name) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(&workload.name)
    .bind(body(workload)?)
    .bind(created_by)
    .fetch_optional(&mut **tx)
    .await
}

/// Replaces the team's workload `id`.
pub async fn update(tx: &mut Tx, team_id: i64, id: i64, workload: &Workload) -> Result<Updated, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE workloads SET name = ?, body = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND team_id = ?",
    )
    .bind(&workload.name)
    .bind(body(workload)?)
    .bind(id)
    .bind(team_id)
    .execute(&mut **tx)
    .await;
    updated(result)
}

/// The team's workloads, by name.
pub async fn list(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<Stored<Workload>>, sqlx::Error> {
    let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, body FROM workloads WHERE team_id = ? ORDER BY name")
        .bind(team_id)
        .fetch_all(db)
        .await?;
    rows.into_iter().map(row).collect()
}

/// The team's workload `id`, if the team has it.
pub async fn by_id(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    id: i64,
) -> Result<Option<Stored<Workload>>, sqlx::Error> {
    let found: Option<(i64, String)> = sqlx::query_as("SELECT id, body FROM workloads WHERE id = ? AND team_id = ?")
        .bind(id)
        .bind(team_id)
        .fetch_optional(db)
        .await?;
    found.map(row).transpose()
}
