//! The `bills`, `bill_lines` and `bill_settings` tables.
//!
//! Every query takes the team id from the session. Lines are inserted in chunks inside the
//! caller's `BEGIN IMMEDIATE` transaction: a refused line leaves nothing of its bill.

use super::Tx;
use crate::domain::{
    bills::{BillLine, ChargeKind, Component, matching::Unmatched, timestamp},
    dashboard::FlaggedBill,
};
use rust_decimal::Decimal;
use sqlx::{QueryBuilder, Sqlite, SqliteExecutor};
use std::str::FromStr;

/// The threshold of a team without a setting, percent.
pub const DEFAULT_THRESHOLD_PCT: Decimal = Decimal::TEN;

/// How many lines one `INSERT` carries (17 parameters each, far below SQLite's limit).
const CHUNK: usize = 400;

fn decode<E: std::error::Error + Send + Sync + 'static>(e: E) -> sqlx::Error {
    sqlx::Error::Decode(Box::new(e))
}

fn decimal(text: &str) -> Result<Decimal, sqlx::Error> {
    Decimal::from_str(text).map_err(decode)
}

/// The team's variance threshold, percent ([`DEFAULT_THRESHOLD_PCT`] when never set).
pub async fn threshold(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Decimal, sqlx::Error> {
    let text: Option<String> = sqlx::query_scalar("SELECT variance_threshold_pct FROM bill_settings WHERE team_id = ?")
        .bind(team_id)
        .fetch_optional(db)
        .await?;
    text.map_or(Ok(DEFAULT_THRESHOLD_PCT), |t| decimal(&t))
}

/// Sets the team's variance threshold; returns the one it replaces.
pub async fn set_threshold(tx: &mut Tx, team_id: i64, pct: Decimal, by: i64) -> Result<Decimal, sqlx::Error> {
    let before = threshold(&mut **tx, team_id).await?;
    sqlx::query(
        "INSERT INTO bill_settings (team_id, variance_threshold_pct, updated_by) VALUES (?, ?, ?)
         ON CONFLICT (team_id) DO UPDATE SET variance_threshold_pct = excluded.variance_threshold_pct,
             updated_by = excluded.updated_by, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(team_id)
    .bind(pct.normalize().to_string())
    .bind(by)
    .execute(&mut **tx)
    .await?;
    Ok(before)
}

/// A stored bill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BillRow {
    pub id: i64,
    pub file_name: String,
    pub file_sha256: String,
    pub layout: String,
    pub currency: String,
    pub period_start: String,
    pub period_end: String,
    pub line_count: i64,
    pub matched_count: i64,
    pub billed_total: String,
    /// What the matched lines cost; `None` for a bill imported before it was kept.
    pub matched_total: Option<String>,
    pub variance_pct: Option<String>,
    pub flagged: bool,
    pub imported_by: String,
    pub imported_at: String,
    /// The rate the bill was converted at and its date, `"7.2 2026-11-20"`; `None` in the
    /// estimate's currency or for a bill imported before rates were kept.
    pub rate: Option<String>,
}

type BillTuple = (
    i64,
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    String,
    Option<String>,
    Option<String>,
    i64,
    String,
    String,
    Option<String>,
);

fn bill_of(t: BillTuple) -> BillRow {
    BillRow {
        id: t.0,
        file_name: t.1,
        file_sha256: t.2,
        layout: t.3,
        currency: t.4,
        period_start: t.5,
        period_end: t.6,
        line_count: t.7,
        matched_count: t.8,
        billed_total: t.9,
        matched_total: t.10,
        variance_pct: t.11,
        flagged: t.12 != 0,
        imported_by: t.13,
        imported_at: t.14,
        rate: t.15,
    }
}

/// The bills of one of the team's orders, oldest first.
pub async fn of_order(db: impl SqliteExecutor<'_>, team_id: i64, order_id: i64) -> Result<Vec<BillRow>, sqlx::Error> {
    let rows: Vec<BillTuple> = sqlx::query_as(
        "SELECT b.id, b.file_name, b.file_sha256, b.layout, b.currency, b.period_start, b.period_end, b.line_count,
                b.matched_count, b.billed_total, b.matched_total, b.variance_pct, b.flagged, COALESCE(u.display_name, u.email, ''), b.imported_at,
                b.rate || ' ' || b.rate_date
         FROM bills b LEFT JOIN users u ON u.id = b.imported_by
         WHERE b.team_id = ? AND b.order_id = ? ORDER BY b.id",
    )
    .bind(team_id)
    .bind(order_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(bill_of).collect())
}

/// The team's bill already imported from a file with this SHA-256: `(bill id, order id)`.
pub async fn with_file(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    sha256: &str,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT id, order_id FROM bills WHERE team_id = ? AND file_sha256 = ?")
        .bind(team_id)
        .bind(sha256)
        .fetch_optional(db)
        .await
}

/// Of `keys` (line digests, in file order), the first already imported in the team, with the
/// bill it came in.
pub async fn first_imported_key(
    db: &mut sqlx::SqliteConnection,
    team_id: i64,
    keys: &[&str],
) -> Result<Option<(String, i64)>, sqlx::Error> {
    for chunk in keys.chunks(CHUNK) {
        let mut q: QueryBuilder<Sqlite> =
            QueryBuilder::new("SELECT line_key, bill_id FROM bill_lines WHERE team_id = ");
        q.push_bind(team_id).push(" AND line_key IN (");
        let mut list = q.separated(", ");
        for key in chunk {
            list.push_bind(*key);
        }
        q.push(")");
        let found: Vec<(String, i64)> = q.build_query_as().fetch_all(&mut *db).await?;
        if let Some(first) = chunk.iter().find_map(|k| found.iter().find(|(f, _)| f == k)) {
            return Ok(Some(first.clone()));
        }
    }
    Ok(None)
}

/// The order's bill whose period overlaps `[start, end)` (RFC 3339 UTC), if any:
/// `(bill id, period start, period end)`.
pub async fn overlapping(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    order_id: i64,
    start: &str,
    end: &str,
) -> Result<Option<(i64, String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, period_start, period_end FROM bills WHERE team_id = ? AND order_id = ?
           AND period_start < ? AND ? < period_end ORDER BY id LIMIT 1",
    )
    .bind(team_id)
    .bind(order_id)
    .bind(end)
    .bind(start)
    .fetch_optional(db)
    .await
}

/// A bill to store.
pub struct NewBill<'a> {
    pub team_id: i64,
    pub order_id: i64,
    pub rental_id: i64,
    pub file_name: &'a str,
    pub file_sha256: &'a str,
    pub layout: &'a str,
    pub currency: &'a str,
    pub period_start: &'a str,
    pub period_end: &'a str,
    pub matched_count: usize,
    pub billed_total: Decimal,
    /// What the lines matched to the rental cost, in the bill's currency.
    pub matched_total: Decimal,
    pub estimated_total: Decimal,
    pub reconciled_total: Decimal,
    pub variance_pct: Option<Decimal>,
    pub after_release: Decimal,
    pub flagged: bool,
    pub imported_by: i64,
    /// The rate the bill was converted at (units of the estimate's currency per unit of the
    /// bill's) and that rate's date; `None` in the estimate's currency.
    pub rate: Option<(Decimal, String)>,
}

/// Stores a bill and every one of its lines (`keys`: each line's [`BillLine::key`], same order);
/// returns the bill's id.
pub async fn insert(
    tx: &mut Tx,
    bill: &NewBill<'_>,
    lines: &[(BillLine, Option<Unmatched>)],
    keys: &[String],
) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO bills (team_id, order_id, rental_id, file_name, file_sha256, layout, currency, period_start,
                            period_end, line_count, matched_count, billed_total, matched_total, estimated_total,
                            reconciled_total, variance_pct, after_release_total, flagged, imported_by, rate, rate_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(bill.team_id)
    .bind(bill.order_id)
    .bind(bill.rental_id)
    .bind(bill.file_name)
    .bind(bill.file_sha256)
    .bind(bill.layout)
    .bind(bill.currency)
    .bind(bill.period_start)
    .bind(bill.period_end)
    .bind(i64::try_from(lines.len()).unwrap_or(i64::MAX))
    .bind(i64::try_from(bill.matched_count).unwrap_or(i64::MAX))
    .bind(bill.billed_total.normalize().to_string())
    .bind(bill.matched_total.normalize().to_string())
    .bind(bill.estimated_total.normalize().to_string())
    .bind(bill.reconciled_total.normalize().to_string())
    .bind(bill.variance_pct.map(|v| v.normalize().to_string()))
    .bind(bill.after_release.normalize().to_string())
    .bind(i64::from(bill.flagged))
    .bind(bill.imported_by)
    .bind(bill.rate.as_ref().map(|(r, _)| r.normalize().to_string()))
    .bind(bill.rate.as_ref().map(|(_, d)| d.clone()))
    .fetch_one(&mut **tx)
    .await?;
    for (chunk, chunk_keys) in lines.chunks(CHUNK).zip(keys.chunks(CHUNK)) {
        let mut q: QueryBuilder<Sqlite> = QueryBuilder::new(
            "INSERT INTO bill_lines (bill_id, team_id, line, line_key, resource_id, period_start, period_end, component,
                                     kind, description, sku, quantity, unit, unit_price, cost, effective_cost,
                                     unmatched) ",
        );
        q.push_values(chunk.iter().zip(chunk_keys), |mut row, ((l, unmatched), key)| {
            row.push_bind(id)
                .push_bind(bill.team_id)
                .push_bind(i64::try_from(l.line).unwrap_or(i64::MAX))
                .push_bind(key.clone())
                .push_bind(l.resource_id.clone())
                .push_bind(timestamp::format(l.period_start))
                .push_bind(timestamp::format(l.period_end))
                .push_bind(l.component.as_str())
                .push_bind(l.kind.as_str())
                .push_bind(l.description.clone())
                .push_bind(l.sku.clone())
                .push_bind(l.quantity.normalize().to_string())
                .push_bind(l.unit.clone())
                .push_bind(l.unit_price.map(|p| p.normalize().to_string()))
                .push_bind(l.cost.normalize().to_string())
                .push_bind(l.effective_cost.normalize().to_string())
                .push_bind(unmatched.map(Unmatched::as_str));
        });
        q.build().execute(&mut **tx).await?;
    }
    Ok(id)
}

/// The flag of an order's latest bill, set again (when the threshold changes).
pub async fn set_flag(tx: &mut Tx, team_id: i64, bill_id: i64, flagged: bool) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE bills SET flagged = ? WHERE id = ? AND team_id = ?")
        .bind(i64::from(flagged))
        .bind(bill_id)
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The latest bill of each of the team's orders: `(bill id, estimated total, reconciled total,
/// charged after release)` of the order's reconciliation when it was saved.
pub async fn latest_per_order(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
) -> Result<Vec<(i64, Decimal, Decimal, Decimal)>, sqlx::Error> {
    let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT id, estimated_total, reconciled_total, after_release_total FROM bills b WHERE team_id = ?
           AND id = (SELECT MAX(id) FROM bills WHERE order_id = b.order_id AND team_id = b.team_id)",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(id, e, r, a)| Ok((id, decimal(&e)?, decimal(&r)?, decimal(&a)?)))
        .collect()
}

/// A stored line, as the order page and the reconciliation read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLine {
    /// The bill it came in.
    pub bill_id: i64,
    /// The line as read (`currency` is the bill's).
    pub line: BillLine,
    /// Why it is not the rental's; `None` when matched.
    pub unmatched: Option<Unmatched>,
    /// The rate its bill was converted at (units of the estimate's currency per unit of the
    /// bill's); `None` for a bill in the estimate's currency or imported before rates were kept.
    pub rate: Option<Decimal>,
}

/// A stored line as selected, with its bill's currency and kept rate.
#[derive(sqlx::FromRow)]
struct LineRecord {
    bill_id: i64,
    line: i64,
    resource_id: String,
    period_start: String,
    period_end: String,
    component: String,
    kind: String,
    description: String,
    sku: String,
    quantity: String,
    unit: String,
    unit_price: Option<String>,
    cost: String,
    effective_cost: String,
    unmatched: Option<String>,
    currency: String,
    rate: Option<String>,
}

fn line_of(t: LineRecord) -> Result<StoredLine, sqlx::Error> {
    let bad = |what: &str| decode(std::io::Error::other(format!("bill line: bad {what}")));
    let line = BillLine {
        line: u64::try_from(t.line).map_err(decode)?,
        resource_id: t.resource_id,
        period_start: timestamp::parse(&t.period_start).ok_or_else(|| bad("period_start"))?,
        period_end: timestamp::parse(&t.period_end).ok_or_else(|| bad("period_end"))?,
        component: Component::parse(&t.component).ok_or_else(|| bad("component"))?,
        kind: ChargeKind::parse(&t.kind).ok_or_else(|| bad("kind"))?,
        description: t.description,
        sku: t.sku,
        quantity: decimal(&t.quantity)?,
        unit: t.unit,
        unit_price: t.unit_price.as_deref().map(decimal).transpose()?,
        cost: decimal(&t.cost)?,
        effective_cost: decimal(&t.effective_cost)?,
        currency: t.currency,
    };
    let unmatched = t
        .unmatched
        .as_deref()
        .map(|u| Unmatched::parse(u).ok_or_else(|| bad("unmatched")))
        .transpose()?;
    Ok(StoredLine {
        bill_id: t.bill_id,
        line,
        unmatched,
        rate: t.rate.as_deref().map(decimal).transpose()?,
    })
}

/// Lines of the order's bills, matched (`matched = true`) or not, in bill and line order; at
/// most `limit`.
pub async fn lines_of_order(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    order_id: i64,
    matched: bool,
    limit: i64,
) -> Result<Vec<StoredLine>, sqlx::Error> {
    let rows: Vec<LineRecord> = sqlx::query_as(
        "SELECT l.bill_id, l.line, l.resource_id, l.period_start, l.period_end, l.component, l.kind, l.description,
                l.sku, l.quantity, l.unit, l.unit_price, l.cost, l.effective_cost, l.unmatched, b.currency, b.rate
         FROM bill_lines l JOIN bills b ON b.id = l.bill_id
         WHERE b.team_id = ? AND b.order_id = ? AND (l.unmatched IS NULL) = ?
         ORDER BY l.bill_id, l.line LIMIT ?",
    )
    .bind(team_id)
    .bind(order_id)
    .bind(matched)
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(line_of).collect()
}

/// The cost of each line of one of the team's bills and whether it matched the rental, in line
/// order: what a bill imported before its matched total was kept is tied back from.
pub async fn line_costs(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    bill_id: i64,
) -> Result<Vec<(Decimal, bool)>, sqlx::Error> {
    let rows: Vec<(String, bool)> = sqlx::query_as(
        "SELECT cost, unmatched IS NULL FROM bill_lines WHERE team_id = ? AND bill_id = ? ORDER BY line",
    )
    .bind(team_id)
    .bind(bill_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(cost, matched)| Ok((decimal(&cost)?, matched)))
        .collect()
}

/// How many of the order's bill lines are unmatched.
pub async fn unmatched_count(db: impl SqliteExecutor<'_>, team_id: i64, order_id: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM bill_lines l JOIN bills b ON b.id = l.bill_id
         WHERE b.team_id = ? AND b.order_id = ? AND l.unmatched IS NOT NULL",
    )
    .bind(team_id)
    .bind(order_id)
    .fetch_one(db)
    .await
}

/// The team's orders whose latest bill departs from its estimate by more than the threshold,
/// newest bill first (the managers' to-do).
pub async fn flagged_orders(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<FlaggedBill>, sqlx::Error> {
    let rows: Vec<(i64, String, i64, Option<String>)> = sqlx::query_as(
        "SELECT o.id, o.title, b.id, b.variance_pct FROM bills b JOIN orders o ON o.id = b.order_id
         WHERE b.team_id = ? AND o.team_id = b.team_id AND b.flagged = 1
           AND b.id = (SELECT MAX(id) FROM bills WHERE order_id = b.order_id AND team_id = b.team_id)
         ORDER BY b.id DESC",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(order_id, title, bill_id, variance_pct)| FlaggedBill {
            order_id,
            title,
            bill_id,
            variance_pct,
        })
        .collect())
}
