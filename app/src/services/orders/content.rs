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
    /// The workload the order rents for (fixed when the order is created).
    pub workload_id: i64,
    /// The quote procurement chose to rent.
    pub quote_id: Option<i64>,
    /// The revision row of that quote pinned when it was chosen: later edits of the quote do
    /// not change what the order cites.
    pub quote_revision_id: Option<i64>,
    /// The alternatives weighed, the chosen quote among them; the default comparison costs these.
    pub considered: Vec<i64>,
    /// Benchmark runs attached to back the choice.
    pub runs: Vec<i64>,
    /// Why the order may go ahead without a valid run of the chosen quote (empty: no waiver).
    pub waiver: String,
    /// The checklist answers, keyed by item id.
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
    /// The problems found that procurement acknowledged when submitting (absent when none were
    /// open): part of what the manager signs, hashed with the rest at approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems_acknowledged: Option<Acknowledgement>,
}

/// Procurement's acknowledgement, at submission, of the problems found on the checklist.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acknowledgement {
    /// User id of who acknowledged them (the submitter).
    pub by: i64,
    /// When, as events store it (UTC, seconds).
    pub at: String,
    /// Each problem as it was acknowledged, in checklist order.
    pub problems: Vec<AcknowledgedProblem>,
}

/// One problem found, as acknowledged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcknowledgedProblem {
    /// The checklist item.
    pub item_id: String,
    /// The explanation given with it.
    pub note: String,
}

/// One quote revision as it was costed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedQuote {
    /// The quote costed.
    pub quote_id: i64,
    /// The revision number it was costed at.
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

    #[test]
    fn an_acknowledgement_is_part_of_the_hashed_content_and_absent_without_one() {
        use super::{AcknowledgedProblem, Acknowledgement};
        let mut content = Content {
            workload_id: 3,
            ..Content::default()
        };
        assert!(
            !content
                .canonical()
                .expect("canonical")
                .contains("problems_acknowledged")
        );
        content.problems_acknowledged = Some(Acknowledgement {
            by: 7,
            at: "2026-12-01T10:00:00Z".into(),
            problems: vec![AcknowledgedProblem {
                item_id: "sec.disk_encryption".into(),
                note: "no encryption at rest".into(),
            }],
        });
        let text = content.canonical().expect("canonical");
        assert!(
            text.contains(r#""problems_acknowledged":{"at":"2026-12-01T10:00:00Z","by":7,"problems":[{"item_id":"sec.disk_encryption","note":"no encryption at rest"}]}"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Content>(&text).expect("reads back"), content);
    }
}
