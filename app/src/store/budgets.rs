//! The `workload_budgets` table: one budget per workload, exact decimal with its currency.

use super::Tx;
use crate::domain::tco::Currency;
use rust_decimal::Decimal;
use sqlx::SqliteExecutor;
use std::str::FromStr;

/// Sets (or replaces) the budget of one of the team's workloads; `false` when the team has no
/// such workload.
pub async fn set(
    tx: &mut Tx,
    team_id: i64,
    workload_id: i64,
    amount: Decimal,
    currency: Currency,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO workload_budgets (workload_id, team_id, amount, currency)
         SELECT id, team_id, ?, ? FROM workloads WHERE id = ? AND team_id = ?
         ON CONFLICT (workload_id) DO UPDATE SET amount = excluded.amount, currency = excluded.currency,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(amount.normalize().to_string())
    .bind(currency.code())
    .bind(workload_id)
    .bind(team_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes the budget of one of the team's workloads.
pub async fn clear(tx: &mut Tx, team_id: i64, workload_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM workload_budgets WHERE workload_id = ? AND team_id = ?")
        .bind(workload_id)
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The budget of one of the team's workloads.
pub async fn get(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    workload_id: i64,
) -> Result<Option<(Decimal, Currency)>, sqlx::Error> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT amount, currency FROM workload_budgets WHERE workload_id = ? AND team_id = ?")
            .bind(workload_id)
            .bind(team_id)
            .fetch_optional(db)
            .await?;
    row.map(|(amount, currency)| {
        let amount = Decimal::from_str(&amount).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
        let currency = Currency::parse(&currency).map_err(|e| sqlx::Error::Decode(format!("{e}").into()))?;
        Ok((amount, currency))
    })
    .transpose()
}
