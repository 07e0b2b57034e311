//! What an order revision records: its content, stored as canonical JSON and hashed at approval.

use crate::{
    domain::{
        audit::canonical_json,
        checklist::ItemAnswer,
        tco::{Scenario, ScenarioResult},
    },
    error::AppError,
    store::orders::OrderRow,
    views::tco::CostRow,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole record of one order revision; stored as canonical JSON, hashed at approval.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Content {
    /// The workload.
    pub workload_id: i64,
    /// The chosen quote.
    pub quote_id: Option<i64>,
    /// Its revision row id (pinned when chosen).
    pub quote_revision_id: Option<i64>,
    /// Quotes considered.
    pub considered: Vec<i64>,
    /// Runs that back the choice.
    pub runs: Vec<i64>,
    /// Waiver when no valid run exists.
    pub waiver: String,
    /// Checklist answers by item id.
    pub answers: BTreeMap<String, ItemAnswer>,
    /// The cost comparison frozen at submission (rows as shown).
    pub tco: Option<Vec<CostRow>>,
    /// The comparison procurement chose for this order: the cost page's query (workload,
    /// picked quotes, shared assumptions, per-quote overrides `{field}_{quote}`, typed
    /// throughputs `tp_{quote}`). `None`: the quotes considered under the default assumptions.
    #[serde(default)]
    pub comparison: Option<String>,
    /// What the rows above were computed from, frozen at submission: reruns with
    /// `nodeledger tco` to the same cent.
    #[serde(default)]
    pub frozen: Option<Frozen>,
}

/// One quote revision as it was costed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedQuote {
    /// Quote id.
    pub quote_id: i64,
    /// Its revision number.
    pub revision: i64,
}

/// The comparison behind an order's frozen rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frozen {
    /// The comparison's query (see [`Content::comparison`]).
    pub query: String,
    /// The quote revisions costed.
    pub quotes: Vec<PinnedQuote>,
    /// The scenario file (`nodeledger tco FILE` reads it): workload, shared assumptions,
    /// every quote with its price sheet, node, throughput and overrides, the rates with
    /// their dates.
    pub scenario: Scenario,
    /// What the scenario gives; every total equals the frozen rows'.
    pub result: ScenarioResult,
}

impl Content {
    /// Canonical JSON text.
    pub fn canonical(&self) -> Result<String, AppError> {
        let value = serde_json::to_value(self).map_err(|_| AppError::Internal)?;
        canonical_json(&value).map_err(|e| {
            tracing::error!(error = %e, "order content is not canonical");
            AppError::Internal
        })
    }
}

/// The content of a stored revision (a row that does not decode is logged: it cannot happen
/// unless the database was edited by hand).
pub(super) fn content_of(row: &OrderRow) -> Result<Content, AppError> {
    serde_json::from_str(&row.content).map_err(|e| {
        tracing::error!(error = %e, order = row.id, "stored order content does not decode");
        AppError::Internal
    })
}

#[cfg(test)]
mod tests {
    use super::Content;

    #[test]
    fn a_new_orders_content_is_one_exact_canonical_text_that_reads_back() {
        let content = Content {
            workload_id: 3,
            considered: vec![7, 2],
            waiver: "run booked for May".into(),
            ..Content::default()
        };
        let text = content.canonical().expect("canonical");
        assert_eq!(
            text,
            r#"{"answers":{},"comparison":null,"considered":[7,2],"frozen":null,"quote_id":null,"quote_revision_id":null,"runs":[],"tco":null,"waiver":"run booked for May","workload_id":3}"#
        );
        let back: Content = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, content);
    }
}
