//! The `exchange_rates` table: a team's rates, one per currency pair and date.

use super::Tx;
use crate::{
    domain::tco::{Currency, ExchangeRate},
    views::Stored,
};
use rust_decimal::Decimal;
use sqlx::SqliteExecutor;
use std::str::FromStr;

/// Stores a rate in `team_id`; `Ok(None)` when the team already has a rate for this pair and
/// date.
pub async fn insert(tx: &mut Tx, team_id: i64, rate: &ExchangeRate) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO exchange_rates (team_id, from_currency, to_currency, rate, rate_date) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (team_id, from_currency, to_currency, rate_date) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(rate.from.code())
    .bind(rate.to.code())
    .bind(rate.rate.to_string())
    .bind(&rate.date)
    .fetch_optional(&mut **tx)
    .await
}

fn decode<E: std::error::Error + Send + Sync + 'static>(e: E) -> sqlx::Error {
    sqlx::Error::Decode(Box::new(e))
}

/// The team's rates as [`list`] orders them, without their ids: what a conversion reads.
pub async fn records(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<ExchangeRate>, sqlx::Error> {
    Ok(list(db, team_id).await?.into_iter().map(|s| s.record).collect())
}

/// The team's rates by pair (`from`, then `to`), the newest of each pair first.
pub async fn list(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<Stored<ExchangeRate>>, sqlx::Error> {
    let rows: Vec<(i64, String, String, String, String)> = sqlx::query_as(
        "SELECT id, from_currency, to_currency, rate, rate_date FROM exchange_rates WHERE team_id = ?
         ORDER BY from_currency, to_currency, rate_date DESC, id DESC",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(id, from, to, rate, date)| {
            let record = ExchangeRate {
                from: Currency::parse(&from).map_err(decode)?,
                to: Currency::parse(&to).map_err(decode)?,
                rate: Decimal::from_str(&rate).map_err(decode)?,
                date,
            };
            Ok(Stored { id, record })
        })
        .collect()
}
