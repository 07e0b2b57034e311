//! The `teams` table.

use super::Tx;
use crate::{domain::tco::Currency, views::TeamSummary};
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
    sqlx::query_scalar("SELECT name FROM teams WHERE id = ?")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// The team's id by name (case-insensitive).
pub async fn id_by_name(db: impl SqliteExecutor<'_>, name: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM teams WHERE name = ?")
        .bind(name)
        .fetch_optional(db)
        .await
}

/// The team's base currency (converted totals are shown in it); CNY unless changed.
pub async fn base_currency(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Option<Currency>, sqlx::Error> {
    let code: Option<String> = sqlx::query_scalar("SELECT base_currency FROM teams WHERE id = ?")
        .bind(team_id)
        .fetch_optional(db)
        .await?;
    code.map(|c| Currency::parse(&c).map_err(|e| sqlx::Error::Decode(Box::new(e))))
        .transpose()
}

/// Sets the team's base currency; `false` when there is no such team.
pub async fn set_base_currency(tx: &mut Tx, team_id: i64, currency: Currency) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("UPDATE teams SET base_currency = ? WHERE id = ?")
        .bind(currency.code())
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Days after which the team's exchange rates are warned of as stale (30 unless changed);
/// `None` when there is no such team.
pub async fn stale_rate_days(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT stale_rate_days FROM teams WHERE id = ?")
        .bind(team_id)
        .fetch_optional(db)
        .await
}

/// Sets the days after which rates are warned of as stale (the caller keeps it in 1–3650, as
/// the table's check does); `false` when there is no such team.
pub async fn set_stale_rate_days(tx: &mut Tx, team_id: i64, days: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query("UPDATE teams SET stale_rate_days = ? WHERE id = ?")
        .bind(days)
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(result.rows_affected() == 1)
}
