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
    use crate::store;
    let labels = store::runs::quote_labels(db, team_id).await?;
    let workloads = store::workloads::list(db, team_id)
        .await?
        .into_iter()
        .map(|w| (w.id, w.record.name))
        .collect();
    Ok((labels, workloads))
}
