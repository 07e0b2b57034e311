//! A team's quotes as every comparison reads them — each quote at its latest revision, decoded,
//! and its label — kept while the team's data does not change. Reading and decoding 20,000
//! quotes took about a quarter of a second per comparison; the comparisons of one catalogue
//! differ only in their assumptions, so they share one reading.
//!
//! Keyed on the team's data version ([`store::data_versions`]), read *before* the quotes: a
//! write between the two leaves newer quotes under the older version (read again at the next
//! version), never older quotes under the newer one.

use crate::{error::AppError, store, store::quotes::QuoteSummary};
use std::sync::{Arc, Mutex, PoisonError};

/// One team's catalogue at one data version.
#[derive(Clone, Debug)]
pub struct Catalogue {
    team_id: i64,
    version: i64,
    /// Each quote at its latest revision.
    pub quotes: Arc<Vec<QuoteSummary>>,
    /// Each quote's label, as pickers show it.
    pub labels: Arc<Vec<(i64, String)>>,
}

/// The catalogues of the teams compared last, shared by the clones of one comparison cache.
#[derive(Clone, Debug, Default)]
pub struct Catalogues(Arc<Mutex<Vec<Catalogue>>>);

impl Catalogues {
    /// Teams whose catalogue is kept (the oldest goes first).
    pub const TEAMS: usize = 4;

    /// Team `team_id`'s catalogue, read from the store unless kept at its current data version.
    pub async fn of(&self, db: &store::Db, team_id: i64) -> Result<Catalogue, AppError> {
        let version = store::data_versions::of_team(db, team_id).await?;
        if let Some(kept) = self.kept(team_id, version) {
            return Ok(kept);
        }
        let read = read(db, team_id, version).await?;
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|c| c.team_id != team_id);
        if kept.len() >= Self::TEAMS {
            kept.remove(0);
        }
        kept.push(read.clone());
        Ok(read)
    }

    fn kept(&self, team_id: i64, version: i64) -> Option<Catalogue> {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter()
            .find(|c| c.team_id == team_id && c.version == version)
            .cloned()
    }
}

/// Team `team_id`'s catalogue read from the store now, as of data version `version`.
pub async fn read(db: &store::Db, team_id: i64, version: i64) -> Result<Catalogue, AppError> {
    Ok(Catalogue {
        team_id,
        version,
        quotes: Arc::new(store::quotes::latest_all(db, team_id).await?),
        labels: Arc::new(store::runs::quote_labels(db, team_id).await?),
    })
}
