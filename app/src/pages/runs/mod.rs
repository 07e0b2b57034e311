//! Benchmark runs: the list and comparison, the upload page, one run's figures, verdict and
//! charts, and the API tokens scripts upload with.

pub mod detail;
pub mod list;
// The node facts `nodeledger probe` recorded.
pub mod node_facts;
pub mod tokens;
pub mod upload;

/// The team's quotes (latest revisions, by label) and workloads, for pickers and filters.
#[cfg(feature = "ssr")]
pub(crate) async fn choices(
    db: &crate::store::Db,
    team_id: i64,
) -> Result<(Vec<(i64, String)>, Vec<(i64, String)>), crate::error::AppError> {
    let labels = crate::store::runs::quote_labels(db, team_id).await?;
    Ok((labels, workload_choices(db, team_id).await?))
}

/// The team's workloads, id and name.
#[cfg(feature = "ssr")]
async fn workload_choices(db: &crate::store::Db, team_id: i64) -> Result<Vec<(i64, String)>, crate::error::AppError> {
    Ok(crate::store::workloads::list(db, team_id)
        .await?
        .into_iter()
        .map(|w| (w.id, w.record.name))
        .collect())
}

/// The run list's filters: the quotes with runs (and `quote`, the one filtered by now) and the
/// workloads. A catalogue of thousands of quotes offers the few with runs, not every quote.
#[cfg(feature = "ssr")]
pub(crate) async fn filter_choices(
    db: &crate::store::Db,
    team_id: i64,
    quote: Option<i64>,
) -> Result<(Vec<(i64, String)>, Vec<(i64, String)>), crate::error::AppError> {
    let labels = crate::store::runs::quote_labels_with_runs(db, team_id, quote).await?;
    Ok((labels, workload_choices(db, team_id).await?))
}
