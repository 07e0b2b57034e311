//! The `quotes` and `quote_revisions` tables: quotes and their immutable revisions.

mod filter;

pub use filter::{PriceConversion, PriceFactor, QuoteFilter, QuoteSort};

use super::Tx;
use crate::domain::{
    quotes::{Date, QuoteDraft, Sharing},
    tco::{Currency, ExchangeRate},
};
use filter::{micros, push_filter, push_order};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::{QueryBuilder, Sqlite, SqliteExecutor};

/// One line of the quote list: the latest revision of a quote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuoteSummary {
    pub quote_id: i64,
    /// Id of this revision (the latest one in the quote list).
    pub revision_id: i64,
    /// Revision number (1, 2, …).
    pub revision: i64,
    /// The full quote of that revision.
    pub draft: QuoteDraft,
}

/// Why a quote could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum QuoteStoreError {
    /// The vendor already has a quote with this reference.
    #[error("duplicate quote reference")]
    DuplicateReference,
    /// The price cannot be represented as a sort key (absurdly large).
    #[error("price out of range")]
    PriceOutOfRange,
    /// Database failure.
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
}

fn mib(gib: Decimal) -> i64 {
    i64::try_from((gib * Decimal::from(1024)).round()).unwrap_or(i64::MAX)
}

async fn insert_revision(
    tx: &mut Tx,
    team_id: i64,
    quote_id: i64,
    revision: i64,
    draft: &QuoteDraft,
    created_by: Option<i64>,
) -> Result<i64, QuoteStoreError> {
    let node_hourly = draft
        .hourly_equivalent_per_node()
        .and_then(micros)
        .ok_or(QuoteStoreError::PriceOutOfRange)?;
    let body = serde_json::to_string(draft).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let id = sqlx::query_scalar(
        "INSERT INTO quote_revisions (quote_id, team_id, revision, received_on, valid_until, currency,
            gpu_model, gpus_per_node, vram_mib, exclusive, region, node_hourly_micros, body, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(quote_id)
    .bind(team_id)
    .bind(revision)
    .bind(draft.received_on.to_string())
    .bind(draft.valid_until.to_string())
    .bind(draft.price.currency.code())
    .bind(&draft.spec.gpu_model)
    .bind(i64::from(draft.spec.gpus_per_node))
    .bind(mib(draft.spec.vram_gib))
    .bind(matches!(draft.spec.sharing, Sharing::Exclusive))
    .bind(&draft.spec.region)
    .bind(node_hourly)
    .bind(body)
    .bind(created_by)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Stores a new quote (revision 1) for `vendor_id`; returns `(quote id, revision id)`.
pub async fn insert(
    tx: &mut Tx,
    team_id: i64,
    vendor_id: i64,
    draft: &QuoteDraft,
    created_by: Option<i64>,
) -> Result<(i64, i64), QuoteStoreError> {
    let quote_id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO quotes (team_id, vendor_id, reference) VALUES (?, ?, ?)
         ON CONFLICT (team_id, vendor_id, reference) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(vendor_id)
    .bind(&draft.reference)
    .fetch_optional(&mut **tx)
    .await?;
    let quote_id = quote_id.ok_or(QuoteStoreError::DuplicateReference)?;
    let revision_id = insert_revision(tx, team_id, quote_id, 1, draft, created_by).await?;
    Ok((quote_id, revision_id))
}

/// Appends a revision to one of the team's quotes; returns `(revision number, revision id)`,
/// or `Ok(None)` when the team has no such quote.
pub async fn add_revision(
    tx: &mut Tx,
    team_id: i64,
    quote_id: i64,
    draft: &QuoteDraft,
    created_by: Option<i64>,
) -> Result<Option<(i64, i64)>, QuoteStoreError> {
    let next: Option<i64> = sqlx::query_scalar(
        "UPDATE quotes SET latest_revision = latest_revision + 1 WHERE id = ? AND team_id = ? RETURNING latest_revision",
    )
    .bind(quote_id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(revision) = next else { return Ok(None) };
    let id = insert_revision(tx, team_id, quote_id, revision, draft, created_by).await?;
    Ok(Some((revision, id)))
}

/// One revision of one of the team's quotes.
pub async fn revision(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    revision_id: i64,
) -> Result<Option<QuoteSummary>, sqlx::Error> {
    let sql = "SELECT quote_id, id, revision, body FROM quote_revisions WHERE id = ? AND team_id = ?";
    Ok(summaries(db, sql, &[revision_id, team_id]).await?.pop())
}

/// Revision number `revision` of the team's quote `quote_id`.
pub async fn at_revision(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    quote_id: i64,
    revision: i64,
) -> Result<Option<QuoteSummary>, sqlx::Error> {
    let sql = "SELECT quote_id, id, revision, body FROM quote_revisions
         WHERE quote_id = ? AND revision = ? AND team_id = ?";
    Ok(summaries(db, sql, &[quote_id, revision, team_id]).await?.pop())
}

/// The team's quote revisions that its runs of `workload_id` were measured on, in one query
/// (the cost comparison matches runs to quotes by node spec).
pub async fn measured_revisions(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    workload_id: i64,
) -> Result<Vec<QuoteSummary>, sqlx::Error> {
    let sql = "SELECT DISTINCT q.quote_id, q.id, q.revision, q.body FROM quote_revisions q
         JOIN runs r ON r.quote_revision_id = q.id AND r.team_id = q.team_id
         WHERE q.team_id = ? AND r.workload_id = ?";
    summaries(db, sql, &[team_id, workload_id]).await
}

/// The columns a [`QuoteSummary`] is read from: quote id, revision id, revision number, body.
type SummaryRow = (i64, i64, i64, String);

/// The summaries `sql` selects (as [`SummaryRow`] columns) with `ids` bound in order.
async fn summaries(
    db: impl SqliteExecutor<'_>,
    sql: &'static str,
    ids: &[i64],
) -> Result<Vec<QuoteSummary>, sqlx::Error> {
    let mut query = sqlx::query_as::<_, SummaryRow>(sql);
    for id in ids {
        query = query.bind(*id);
    }
    query.fetch_all(db).await?.into_iter().map(summary).collect()
}

fn summary((quote_id, revision_id, revision, body): SummaryRow) -> Result<QuoteSummary, sqlx::Error> {
    let draft = serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(QuoteSummary {
        quote_id,
        revision_id,
        revision,
        draft,
    })
}

/// The latest revision of the team's quotes matching `filter`, one page, and the total count.
///
/// The page is chosen on narrow rows (ids and sort keys, mostly from an index) and only its
/// quotes' bodies are then read, so the cost does not grow with the size of the bodies.
#[expect(
    clippy::too_many_arguments,
    reason = "one query: team, filter, price basis, sort, date, page"
)]
pub async fn list(
    db: &super::Db,
    team_id: i64,
    filter: &QuoteFilter,
    basis: &PriceConversion,
    sort: QuoteSort,
    today: Date,
    page: u32,
    per_page: u32,
) -> Result<(Vec<QuoteSummary>, i64), sqlx::Error> {
    let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*)");
    push_filter(&mut count, team_id, filter, basis, today);
    let total: i64 = count.build_query_scalar().fetch_one(db).await?;

    let mut q = QueryBuilder::<Sqlite>::new("SELECT r.revision_id");
    push_filter(&mut q, team_id, filter, basis, today);
    push_order(&mut q, basis, sort);
    let per_page = per_page.clamp(1, 200);
    q.push(" LIMIT ").push_bind(i64::from(per_page));
    q.push(" OFFSET ").push_bind(i64::from(page) * i64::from(per_page));
    let ids: Vec<i64> = q.build_query_scalar().fetch_all(db).await?;
    if ids.is_empty() {
        return Ok((Vec::new(), total));
    }
    let mut bodies =
        QueryBuilder::<Sqlite>::new("SELECT quote_id, id, revision, body FROM quote_revisions WHERE id IN (");
    let mut list = bodies.separated(", ");
    for id in &ids {
        list.push_bind(*id);
    }
    bodies.push(")");
    let mut rows: Vec<SummaryRow> = bodies.build_query_as().fetch_all(db).await?;
    rows.sort_by_key(|row| ids.iter().position(|id| *id == row.1));
    let items = rows.into_iter().map(summary).collect::<Result<_, _>>()?;
    Ok((items, total))
}

/// Currencies of the team's current quotes that `basis` cannot convert into the base currency
/// (one index seek per currency without a rate; none without a base currency).
pub async fn unconvertible_currencies(
    db: &super::Db,
    team_id: i64,
    basis: &PriceConversion,
) -> Result<Vec<&'static str>, sqlx::Error> {
    let PriceConversion::Base(factors) = basis else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for currency in Currency::ALL
        .map(Currency::code)
        .into_iter()
        .filter(|c| !factors.iter().any(|f| f.currency == *c))
    {
        let used: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM quote_list WHERE team_id = ? AND currency = ?)")
                .bind(team_id)
                .bind(currency)
                .fetch_one(db)
                .await?;
        if used {
            found.push(currency);
        }
    }
    Ok(found)
}

/// Whether the vendor already has a quote with this reference in the team.
pub async fn reference_exists(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    vendor_id: i64,
    reference: &str,
) -> Result<bool, sqlx::Error> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM quotes WHERE team_id = ? AND vendor_id = ? AND reference = ?")
            .bind(team_id)
            .bind(vendor_id)
            .bind(reference)
            .fetch_one(db)
            .await?;
    Ok(n > 0)
}

/// Why an import could not be saved: the first row the database refused.
#[derive(Debug, thiserror::Error)]
pub enum SaveImportError {
    /// The quote on this line duplicates a quote already stored (same vendor and reference).
    #[error("line {line}: the vendor already has a quote with this reference")]
    DuplicateReference {
        /// 1-based line in the imported file.
        line: u64,
    },
    /// The price on this line is out of range.
    #[error("line {line}: price out of range")]
    PriceOutOfRange {
        /// 1-based line in the imported file.
        line: u64,
    },
    /// Database failure.
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
}

/// Saves imported quotes all-or-nothing in one `BEGIN IMMEDIATE` transaction, creating vendors
/// that do not exist yet. `rows` are `(line, quote)`; returns how many were saved.
pub async fn save_import(
    db: &super::Db,
    team_id: i64,
    rows: &[(u64, &QuoteDraft)],
    created_by: Option<i64>,
) -> Result<usize, SaveImportError> {
    let mut tx = super::begin_write(db).await?;
    let mut vendors = std::collections::HashMap::<String, i64>::new();
    for (line, draft) in rows {
        let key = draft.vendor.to_lowercase();
        let vendor_id = match vendors.get(&key) {
            Some(id) => *id,
            None => {
                let id = super::vendors::id_or_create(&mut tx, team_id, &draft.vendor).await?;
                vendors.insert(key, id);
                id
            }
        };
        insert(&mut tx, team_id, vendor_id, draft, created_by)
            .await
            .map_err(|e| match e {
                QuoteStoreError::DuplicateReference => SaveImportError::DuplicateReference { line: *line },
                QuoteStoreError::PriceOutOfRange => SaveImportError::PriceOutOfRange { line: *line },
                QuoteStoreError::Sql(e) => SaveImportError::Sql(e),
            })?;
    }
    tx.commit().await?;
    super::db::optimize(db).await?;
    Ok(rows.len())
}

/// The latest revision of one of the team's quotes.
pub async fn latest(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    quote_id: i64,
) -> Result<Option<QuoteSummary>, sqlx::Error> {
    let sql = "SELECT r.quote_id, r.id, r.revision, r.body FROM quote_revisions r
         JOIN quotes q ON q.id = r.quote_id AND q.latest_revision = r.revision
         WHERE q.id = ? AND q.team_id = ?";
    Ok(summaries(db, sql, &[quote_id, team_id]).await?.pop())
}

/// One revision in a quote's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct RevisionInfo {
    /// Id of the revision (what runs and orders refer to).
    pub id: i64,
    /// Revision number within the quote (1, 2, …).
    pub revision: i64,
    /// When it was saved (RFC 3339 UTC).
    pub created_at: String,
    /// Who saved it (display name), if known.
    pub created_by: Option<String>,
}

/// The history of one of the team's quotes, newest first.
pub async fn revisions(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    quote_id: i64,
) -> Result<Vec<RevisionInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.revision, r.created_at, u.display_name AS created_by
         FROM quote_revisions r LEFT JOIN users u ON u.id = r.created_by
         WHERE r.quote_id = ? AND r.team_id = ? ORDER BY r.revision DESC",
    )
    .bind(quote_id)
    .bind(team_id)
    .fetch_all(db)
    .await
}

/// The team's current quotes (latest revisions) matching `filter`, in `sort` order, for export.
pub async fn latest_drafts(
    db: &super::Db,
    team_id: i64,
    filter: &QuoteFilter,
    basis: &PriceConversion,
    sort: QuoteSort,
    today: Date,
) -> Result<Vec<QuoteDraft>, sqlx::Error> {
    let mut q = QueryBuilder::<Sqlite>::new("SELECT (SELECT body FROM quote_revisions WHERE id = r.revision_id)");
    push_filter(&mut q, team_id, filter, basis, today);
    push_order(&mut q, basis, sort);
    let bodies: Vec<String> = q.build_query_scalar().fetch_all(db).await?;
    bodies
        .iter()
        .map(|b| serde_json::from_str(b).map_err(|e| sqlx::Error::Decode(Box::new(e))))
        .collect()
}

/// How the team's prices compare: its base currency and the latest rate of each pair.
pub async fn price_conversion(db: &super::Db, team_id: i64) -> Result<PriceConversion, sqlx::Error> {
    let base = super::teams::base_currency(db, team_id).await?;
    let rates: Vec<ExchangeRate> = super::exchange_rates::list(db, team_id)
        .await?
        .into_iter()
        .map(|r| r.record)
        .collect();
    Ok(PriceConversion::new(base, &rates))
}

/// Every current quote of the team (latest revisions) with its ids, cheapest node-hour first.
pub async fn latest_all(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<QuoteSummary>, sqlx::Error> {
    let sql = "SELECT r.quote_id, r.id, r.revision, r.body FROM quote_revisions r
         JOIN quotes q ON q.id = r.quote_id AND r.revision = q.latest_revision
         WHERE r.team_id = ? ORDER BY r.node_hourly_micros, r.id";
    summaries(db, sql, &[team_id]).await
}

/// The columns a dashboard's [`QuoteFact`](crate::domain::dashboard::QuoteFact) is read from.
type FactRow = (i64, String, String, String);

fn fact((quote_id, vendor, gpus, valid_until): FactRow) -> Result<crate::domain::dashboard::QuoteFact, sqlx::Error> {
    let valid_until =
        Date::parse(&valid_until).map_err(|e| sqlx::Error::Decode(format!("valid_until: {e:?}").into()))?;
    Ok(crate::domain::dashboard::QuoteFact {
        quote_id,
        vendor,
        gpus,
        valid_until,
    })
}

/// The [`FactRow`] columns of the current quote list `l` with its vendor `v`, up to `WHERE`.
macro_rules! quote_fact_columns {
    () => {
        "SELECT l.quote_id, v.name, l.gpus_per_node || '× ' || l.gpu_model, l.valid_until
         FROM quote_list l JOIN vendors v ON v.id = l.vendor_id"
    };
}

/// The team's current quotes whose last valid day is from `first` to `last` (both included),
/// soonest first: one range seek on the quote list's page index.
pub async fn expiring(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    first: Date,
    last: Date,
) -> Result<Vec<crate::domain::dashboard::QuoteFact>, sqlx::Error> {
    let rows: Vec<FactRow> = sqlx::query_as(concat!(
        quote_fact_columns!(),
        " WHERE l.team_id = ? AND l.valid_until BETWEEN ? AND ? ORDER BY l.valid_until, l.quote_id LIMIT 200"
    ))
    .bind(team_id)
    .bind(first.to_string())
    .bind(last.to_string())
    .fetch_all(db)
    .await?;
    rows.into_iter().map(fact).collect()
}

/// The team's current quotes among `ids` (any order, unknown ids skipped), each with its latest
/// revision's node and whether some revision of it has a valid run: what
/// [`crate::domain::dashboard::quotes_to_measure`] judges.
pub async fn run_candidates(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    ids: &[i64],
) -> Result<Vec<crate::domain::dashboard::RunCandidate>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids = serde_json::to_string(ids).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let rows: Vec<(i64, String, String, String, String, bool)> = sqlx::query_as(
        "SELECT l.quote_id, v.name, l.gpus_per_node || '× ' || l.gpu_model, l.valid_until,
                (SELECT body FROM quote_revisions WHERE id = l.revision_id),
                EXISTS (SELECT 1 FROM quote_revisions qr JOIN runs r ON r.quote_revision_id = qr.id
                        WHERE qr.quote_id = l.quote_id AND r.team_id = l.team_id AND r.status = 'valid')
         FROM quote_list l JOIN vendors v ON v.id = l.vendor_id
         WHERE l.team_id = ? AND l.quote_id IN (SELECT value FROM json_each(?))
         ORDER BY v.name, l.quote_id",
    )
    .bind(team_id)
    .bind(&ids)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(quote_id, vendor, gpus, valid_until, body, has_valid_run)| {
            let draft: QuoteDraft = serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
            Ok(crate::domain::dashboard::RunCandidate {
                fact: fact((quote_id, vendor, gpus, valid_until))?,
                spec: draft.spec,
                has_valid_run,
            })
        })
        .collect()
}

/// How many of the team's current quotes are still valid on `today`.
pub async fn count_current(db: impl SqliteExecutor<'_>, team_id: i64, today: Date) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM quote_list WHERE team_id = ? AND valid_until >= ?")
        .bind(team_id)
        .bind(today.to_string())
        .fetch_one(db)
        .await
}
