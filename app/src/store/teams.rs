//! The `teams` table.

use super::Tx;
use crate::model::TeamSummary;
use sqlx::SqliteExecutor;

/// Inserts a team; `Ok(None)` when the name is taken (case-insensitive).
pub async fn insert(tx: &mut Tx, name: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("INSERT INTO teams (name) VALUES (?) ON CONFLICT (name) DO NOTHING RETURNING id")
        .bind(name)
        .fetch_optional(&mut **tx)
        .await
}

/// Every team, by name.
pub async fn list(db: impl SqliteExecutor<'_>) -> Result<Vec<TeamSummary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.id, t.name, COUNT(m.user_id) AS members
         FROM teams t LEFT JOIN memberships m ON m.team_id = t.id
         GROUP BY t.id ORDER BY t.name",
    )
    .fetch_all(db)
    .await
}

/// The team's name, if it exists.
pub async fn name_of(db: impl SqliteExecutor<'_>, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM teams WHERE id = ?").bind(id).fetch_optional(db).await
}

/// The team's id by name (case-insensitive).
pub async fn id_by_name(db: impl SqliteExecutor<'_>, name: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM teams WHERE name = ?").bind(name).fetch_optional(db).await
}
