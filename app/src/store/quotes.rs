//! The `quotes` and `quote_revisions` tables: quotes and their immutable revisions.

use super::Tx;
use crate::domain::quotes::{Date, QuoteDraft, Sharing};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::{QueryBuilder, Sqlite, SqliteExecutor};

/// One line of the quote list: the latest revision of a quote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuoteSummary {
    /// Quote id.
    pub quote_id: i64,
    /// Id of the latest revision.
    pub revision_id: i64,
    /// Revision number (1, 2, …).
    pub revision: i64,
    /// The full quote of that revision.
    pub draft: QuoteDraft,
}

/// How the quote list is filtered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuoteFilter {
    /// Vendor name (exact, case-insensitive).
    pub vendor: Option<String>,
    /// Part of the GPU model name.
    pub gpu_model: Option<String>,
    /// At least this much VRAM per GPU, GiB.
    pub min_vram_gib: Option<u32>,
    /// Exactly this many GPUs per node.
    pub gpus_per_node: Option<u32>,
    /// Whole GPUs only (no MIG, vGPU or fractional share).
    pub exclusive_only: bool,
    /// Part of the region name.
    pub region: Option<String>,
    /// Node price per hour at most this (in the quote's currency).
    pub max_node_hourly: Option<Decimal>,
    /// Also list quotes whose validity has ended.
    pub include_expired: bool,
}

/// Sort order of the quote list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuoteSort {
    /// Cheapest node-hour first.
    #[default]
    PriceAsc,
    /// Most expensive first.
    PriceDesc,
    /// Most VRAM per GPU first.
    VramDesc,
    /// Newest quote first.
    ReceivedDesc,
    /// Soonest to expire first.
    ValidUntilAsc,
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

/// A node-hour price in millionths, for sorting and filtering.
fn micros(price: Decimal) -> Option<i64> {
    let scaled = price.checked_mul(Decimal::from(1_000_000))?.round();
    i64::try_from(scaled).ok()
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
    let node_hourly = draft.hourly_per_node().and_then(micros).ok_or(QuoteStoreError::PriceOutOfRange)?;
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
pub async fn revision(db: impl SqliteExecutor<'_>, team_id: i64, revision_id: i64) -> Result<Option<QuoteSummary>, sqlx::Error> {
    let row: Option<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT quote_id, id, revision, body FROM quote_revisions WHERE id = ? AND team_id = ?",
    )
    .bind(revision_id)
    .bind(team_id)
    .fetch_optional(db)
    .await?;
    row.map(summary).transpose()
}

fn summary((quote_id, revision_id, revision, body): (i64, i64, i64, String)) -> Result<QuoteSummary, sqlx::Error> {
    let draft = serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(QuoteSummary { quote_id, revision_id, revision, draft })
}

fn push_filter(q: &mut QueryBuilder<Sqlite>, team_id: i64, f: &QuoteFilter, today: Date) {
    q.push(" FROM quote_revisions r JOIN quotes qt ON qt.id = r.quote_id AND r.revision = qt.latest_revision");
    if f.vendor.is_some() {
        q.push(" JOIN vendors v ON v.id = qt.vendor_id");
    }
    q.push(" WHERE r.team_id = ").push_bind(team_id);
    if let Some(vendor) = &f.vendor {
        q.push(" AND v.name = ").push_bind(vendor.clone());
    }
    if let Some(model) = &f.gpu_model {
        q.push(" AND instr(lower(r.gpu_model), lower(").push_bind(model.clone()).push(")) > 0");
    }
    if let Some(gib) = f.min_vram_gib {
        q.push(" AND r.vram_mib >= ").push_bind(i64::from(gib) * 1024);
    }
    if let Some(n) = f.gpus_per_node {
        q.push(" AND r.gpus_per_node = ").push_bind(i64::from(n));
    }
    if f.exclusive_only {
        q.push(" AND r.exclusive = 1");
    }
    if let Some(region) = &f.region {
        q.push(" AND instr(lower(r.region), lower(").push_bind(region.clone()).push(")) > 0");
    }
    if let Some(max) = f.max_node_hourly.and_then(micros) {
        q.push(" AND r.node_hourly_micros <= ").push_bind(max);
    }
    if !f.include_expired {
        q.push(" AND r.valid_until >= ").push_bind(today.to_string());
    }
}

/// The latest revision of the team's quotes matching `filter`, one page, and the total count.
///
/// The page is chosen on narrow rows (ids and sort keys, mostly from an index) and only its
/// quotes' bodies are then read, so the cost does not grow with the size of the bodies.
pub async fn list(
    db: &super::Db,
    team_id: i64,
    filter: &QuoteFilter,
    sort: QuoteSort,
    today: Date,
    page: u32,
    per_page: u32,
) -> Result<(Vec<QuoteSummary>, i64), sqlx::Error> {
    let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*)");
    push_filter(&mut count, team_id, filter, today);
    let total: i64 = count.build_query_scalar().fetch_one(db).await?;

    let mut q = QueryBuilder::<Sqlite>::new("SELECT r.id");
    push_filter(&mut q, team_id, filter, today);
    q.push(match sort {
        QuoteSort::PriceAsc => " ORDER BY r.node_hourly_micros, r.id",
        QuoteSort::PriceDesc => " ORDER BY r.node_hourly_micros DESC, r.id",
        QuoteSort::VramDesc => " ORDER BY r.vram_mib DESC, r.node_hourly_micros, r.id",
        QuoteSort::ReceivedDesc => " ORDER BY r.received_on DESC, r.id DESC",
        QuoteSort::ValidUntilAsc => " ORDER BY r.valid_until, r.id",
    });
    let per_page = per_page.clamp(1, 200);
    q.push(" LIMIT ").push_bind(i64::from(per_page));
    q.push(" OFFSET ").push_bind(i64::from(page) * i64::from(per_page));
    let ids: Vec<i64> = q.build_query_scalar().fetch_all(db).await?;
    if ids.is_empty() {
        return Ok((Vec::new(), total));
    }
    let mut bodies = QueryBuilder::<Sqlite>::new("SELECT quote_id, id, revision, body FROM quote_revisions WHERE id IN (");
    let mut list = bodies.separated(", ");
    for id in &ids {
        list.push_bind(*id);
    }
    bodies.push(")");
    let mut rows: Vec<(i64, i64, i64, String)> = bodies.build_query_as().fetch_all(db).await?;
    rows.sort_by_key(|row| ids.iter().position(|id| *id == row.1));
    let items = rows.into_iter().map(summary).collect::<Result<_, _>>()?;
    Ok((items, total))
}

/// Whether the vendor already has a quote with this reference in the team.
pub async fn reference_exists(db: impl SqliteExecutor<'_>, team_id: i64, vendor_id: i64, reference: &str) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM quotes WHERE team_id = ? AND vendor_id = ? AND reference = ?")
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
        insert(&mut tx, team_id, vendor_id, draft, created_by).await.map_err(|e| match e {
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
pub async fn latest(db: impl SqliteExecutor<'_>, team_id: i64, quote_id: i64) -> Result<Option<QuoteSummary>, sqlx::Error> {
    let row: Option<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT r.quote_id, r.id, r.revision, r.body FROM quote_revisions r
         JOIN quotes q ON q.id = r.quote_id AND q.latest_revision = r.revision
         WHERE q.id = ? AND q.team_id = ?",
    )
    .bind(quote_id)
    .bind(team_id)
    .fetch_optional(db)
    .await?;
    row.map(summary).transpose()
}

/// One revision in a quote's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct RevisionInfo {
    /// Revision id.
    pub id: i64,
    /// Revision number.
    pub revision: i64,
    /// When it was saved (RFC 3339 UTC).
    pub created_at: String,
    /// Who saved it (display name), if known.
    pub created_by: Option<String>,
}

/// The history of one of the team's quotes, newest first.
pub async fn revisions(db: impl SqliteExecutor<'_>, team_id: i64, quote_id: i64) -> Result<Vec<RevisionInfo>, sqlx::Error> {
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

/// Every current quote of the team (latest revisions), cheapest node-hour first, for export.
pub async fn latest_drafts(db: &super::Db, team_id: i64, include_expired: bool, today: Date) -> Result<Vec<QuoteDraft>, sqlx::Error> {
    let filter = QuoteFilter { include_expired, ..QuoteFilter::default() };
    let mut q = QueryBuilder::<Sqlite>::new("SELECT r.body");
    push_filter(&mut q, team_id, &filter, today);
    q.push(" ORDER BY r.node_hourly_micros, r.id");
    let bodies: Vec<String> = q.build_query_scalar().fetch_all(db).await?;
    bodies.iter().map(|b| serde_json::from_str(b).map_err(|e| sqlx::Error::Decode(Box::new(e)))).collect()
}

/// Every current quote of the team (latest revisions) with its ids, cheapest node-hour first.
pub async fn latest_all(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<QuoteSummary>, sqlx::Error> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT r.quote_id, r.id, r.revision, r.body FROM quote_revisions r
         JOIN quotes q ON q.id = r.quote_id AND r.revision = q.latest_revision
         WHERE r.team_id = ? ORDER BY r.node_hourly_micros, r.id",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(summary).collect()
}
