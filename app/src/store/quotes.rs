//! The `quotes` and `quote_revisions` tables: quotes and their immutable revisions.

use super::Tx;
use crate::domain::{
    quotes::{Date, QuoteDraft, Sharing},
    tco::{Currency, ExchangeRate, latest_rate},
};
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
    /// Node price per hour at most this, in the currency of the [`PriceConversion`] (the team's base
    /// currency; as quoted when the team has none).
    pub max_node_hourly: Option<Decimal>,
    /// Also list quotes whose validity has ended.
    pub include_expired: bool,
}

/// How node prices in different currencies are compared when filtering and sorting by price.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PriceConversion {
    /// The team has no base currency: prices are compared as quoted.
    #[default]
    AsQuoted,
    /// Prices are compared in the team's base currency. Each entry is a currency that can be
    /// converted (the base itself, and those with a rate into it): one unit of it is worth
    /// `numerator / denominator` units of the base. Quotes in other currencies are left out of a
    /// price filter and listed after the others when sorting by price.
    Base(Vec<PriceFactor>),
}

/// One currency's value in the base currency: `numerator / denominator`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriceFactor {
    /// ISO 4217 code.
    pub currency: &'static str,
    /// Numerator (the rate when the pair is "1 currency = rate base").
    pub numerator: Decimal,
    /// Denominator (the rate when the pair is "1 base = rate currency").
    pub denominator: Decimal,
}

impl PriceConversion {
    /// The basis for a team with `base` currency and these rates: for each currency, the latest
    /// rate of its pair with the base (either direction).
    pub fn new(base: Option<Currency>, rates: &[ExchangeRate]) -> Self {
        let Some(base) = base else { return Self::AsQuoted };
        let mut factors = vec![PriceFactor {
            currency: base.code(),
            numerator: Decimal::ONE,
            denominator: Decimal::ONE,
        }];
        for currency in Currency::ALL.into_iter().filter(|c| *c != base) {
            if let Some(rate) = latest_rate(rates, currency, base) {
                let (numerator, denominator) = if rate.from == currency {
                    (rate.rate, Decimal::ONE)
                } else {
                    (Decimal::ONE, rate.rate)
                };
                factors.push(PriceFactor {
                    currency: currency.code(),
                    numerator,
                    denominator,
                });
            }
        }
        Self::Base(factors)
    }

    /// The currency prices are compared in (the team's base currency), if any.
    pub fn currency(&self) -> Option<&'static str> {
        match self {
            Self::AsQuoted => None,
            Self::Base(factors) => factors.first().map(|f| f.currency),
        }
    }
}

impl PriceFactor {
    /// The largest node price in this currency, in millionths, whose value in the base currency
    /// is at most `max_base` (exact: no rounding can let a dearer quote through).
    fn max_micros(&self, max_base: Decimal) -> Option<i64> {
        let max_micros = max_base.checked_mul(Decimal::from(1_000_000))?;
        let scaled = max_micros
            .checked_mul(self.denominator)?
            .checked_div(self.numerator)?
            .floor();
        // Division may round; step to the exact boundary: price × num ≤ max × den.
        let fits = |p: Decimal| {
            p.checked_mul(self.numerator)
                .zip(max_micros.checked_mul(self.denominator))
                .is_some_and(|(a, b)| a <= b)
        };
        let bound = if fits(scaled + Decimal::ONE) {
            scaled + Decimal::ONE
        } else if fits(scaled) {
            scaled
        } else {
            scaled - Decimal::ONE
        };
        Some(i64::try_from(bound).unwrap_or(if bound.is_sign_negative() { i64::MIN } else { i64::MAX }))
    }

    /// The factor in billionths, for a sort key (ordering only; never shown as money).
    fn sort_factor(&self) -> i64 {
        let f = self
            .numerator
            .checked_mul(Decimal::from(1_000_000_000))
            .and_then(|v| v.checked_div(self.denominator));
        f.and_then(|v| i64::try_from(v.round()).ok()).unwrap_or(i64::MAX)
    }
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
    let node_hourly = draft
        .hourly_per_node()
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
    let row: Option<(i64, i64, i64, String)> =
        sqlx::query_as("SELECT quote_id, id, revision, body FROM quote_revisions WHERE id = ? AND team_id = ?")
            .bind(revision_id)
            .bind(team_id)
            .fetch_optional(db)
            .await?;
    row.map(summary).transpose()
}

/// The team's quote revisions that its runs of `workload_id` were measured on, in one query
/// (the cost comparison matches runs to quotes by node spec).
pub async fn measured_revisions(
    db: impl SqliteExecutor<'_>,
    team_id: i64,
    workload_id: i64,
) -> Result<Vec<QuoteSummary>, sqlx::Error> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "SELECT DISTINCT q.quote_id, q.id, q.revision, q.body FROM quote_revisions q
         JOIN runs r ON r.quote_revision_id = q.id AND r.team_id = q.team_id
         WHERE q.team_id = ? AND r.workload_id = ?",
    )
    .bind(team_id)
    .bind(workload_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(summary).collect()
}

fn summary((quote_id, revision_id, revision, body): (i64, i64, i64, String)) -> Result<QuoteSummary, sqlx::Error> {
    let draft = serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(QuoteSummary {
        quote_id,
        revision_id,
        revision,
        draft,
    })
}

fn push_filter(q: &mut QueryBuilder<Sqlite>, team_id: i64, f: &QuoteFilter, basis: &PriceConversion, today: Date) {
    // `quote_list`: one row per quote, its latest revision's filter and sort columns.
    q.push(" FROM quote_list r");
    if f.vendor.is_some() {
        q.push(" JOIN vendors v ON v.id = r.vendor_id");
    }
    q.push(" WHERE r.team_id = ").push_bind(team_id);
    if let Some(vendor) = &f.vendor {
        q.push(" AND v.name = ").push_bind(vendor.clone());
    }
    if let Some(model) = &f.gpu_model {
        q.push(" AND instr(lower(r.gpu_model), lower(")
            .push_bind(model.clone())
            .push(")) > 0");
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
        q.push(" AND instr(lower(r.region), lower(")
            .push_bind(region.clone())
            .push(")) > 0");
    }
    if let Some(max) = f.max_node_hourly {
        match basis {
            PriceConversion::AsQuoted => {
                q.push(" AND r.node_hourly_micros <= ")
                    .push_bind(micros(max).unwrap_or(i64::MAX));
            }
            PriceConversion::Base(factors) => {
                q.push(" AND (0");
                for factor in factors {
                    if let Some(bound) = factor.max_micros(max) {
                        q.push(" OR (r.currency = ").push_bind(factor.currency);
                        q.push(" AND r.node_hourly_micros <= ").push_bind(bound).push(")");
                    }
                }
                q.push(")");
            }
        }
    }
    if !f.include_expired {
        q.push(" AND r.valid_until >= ").push_bind(today.to_string());
    }
}

/// Appends the ORDER BY for `sort`.
fn push_order(q: &mut QueryBuilder<Sqlite>, basis: &PriceConversion, sort: QuoteSort) {
    // The price sort key: the node price in the base currency (billionths of a millionth), NULL
    // for a currency without a rate (listed last); as quoted without a base currency.
    let price_key = |q: &mut QueryBuilder<Sqlite>| match basis {
        PriceConversion::AsQuoted => {
            q.push("r.node_hourly_micros");
        }
        PriceConversion::Base(factors) => {
            q.push("(CASE r.currency");
            for factor in factors {
                q.push(" WHEN ").push_bind(factor.currency);
                q.push(" THEN r.node_hourly_micros * ").push_bind(factor.sort_factor());
            }
            q.push(" END)");
        }
    };
    match sort {
        QuoteSort::ReceivedDesc => {
            q.push(" ORDER BY r.received_on DESC, r.revision_id DESC");
        }
        QuoteSort::ValidUntilAsc => {
            q.push(" ORDER BY r.valid_until, r.revision_id");
        }
        QuoteSort::PriceAsc | QuoteSort::PriceDesc | QuoteSort::VramDesc => {
            q.push(" ORDER BY ");
            if sort == QuoteSort::VramDesc {
                q.push("r.vram_mib DESC, ");
            }
            if matches!(basis, PriceConversion::Base(_)) {
                price_key(q);
                q.push(" IS NULL, ");
            }
            price_key(q);
            q.push(if sort == QuoteSort::PriceDesc {
                " DESC, r.revision_id"
            } else {
                ", r.revision_id"
            });
        }
    }
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
    let mut rows: Vec<(i64, i64, i64, String)> = bodies.build_query_as().fetch_all(db).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(numerator: &str, denominator: &str) -> PriceFactor {
        PriceFactor {
            currency: "USD",
            numerator: numerator.parse().unwrap(),
            denominator: denominator.parse().unwrap(),
        }
    }

    #[test]
    fn price_limits_convert_exactly_at_the_boundary() {
        // 1 X = 1/3 base: at most 1 base is exactly 3 X.
        assert_eq!(factor("1", "3").max_micros(Decimal::ONE), Some(3_000_000));
        // 1 X = 3 base: at most 1 base is 0.333333 X (one micro more would cost over 1 base).
        assert_eq!(factor("3", "1").max_micros(Decimal::ONE), Some(333_333));
        // 1 X = 7.2 base: ¥7.20 buys exactly $1.
        assert_eq!(factor("7.2", "1").max_micros("7.20".parse().unwrap()), Some(1_000_000));
        assert_eq!(factor("7.2", "1").max_micros("7.19".parse().unwrap()), Some(998_611));
        assert_eq!(factor("1", "1").max_micros("-1".parse().unwrap()), Some(-1_000_000));
    }

    #[test]
    fn sort_factors_are_billionths() {
        assert_eq!(factor("7.2", "1").sort_factor(), 7_200_000_000);
        assert_eq!(factor("1", "8").sort_factor(), 125_000_000);
    }
}
