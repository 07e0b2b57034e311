//! What a dashboard shows besides the to-do: counts and a manager's recent decisions.

use super::Todo;
use crate::orders::OrderState;
use serde::{Deserialize, Serialize};

/// What a count counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counted {
    /// Current quotes still valid today.
    CurrentQuotes,
    /// Orders whose latest revision is in this state.
    Orders(OrderState),
    /// Benchmark runs recorded.
    Runs,
    /// Of those, the valid ones.
    ValidRuns,
}

impl Counted {
    /// The list the count stands for.
    #[must_use]
    pub fn href(self) -> &'static str {
        match self {
            Counted::CurrentQuotes => "/quotes",
            Counted::Orders(_) => "/orders",
            Counted::Runs | Counted::ValidRuns => "/runs",
        }
    }
}

/// One count of a dashboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub what: Counted,
    pub n: i64,
}

/// A manager's decision on an order revision, as the manager's dashboard lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub order_id: i64,
    pub title: String,
    pub revision: i64,
    pub approved: bool,
    /// The manager's display name.
    pub by: String,
    /// Days since the decision.
    pub days: i64,
}

/// Everything one dashboard shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dashboard {
    /// Counts for the caller's role in the active team.
    pub counts: Vec<Count>,
    /// What waits for the caller in the active team, most pressing first.
    pub todo: Vec<Todo>,
    /// Managers: the latest decisions in the team.
    pub decisions: Vec<Decision>,
    /// Administrators: what waits for them site-wide.
    pub admin: Vec<Todo>,
}

/// The orders counted by state, in lifecycle order, every state shown (a state with none is 0).
#[must_use]
pub fn order_counts(counts: &[(OrderState, i64)]) -> Vec<Count> {
    [
        OrderState::Draft,
        OrderState::Submitted,
        OrderState::Approved,
        OrderState::Rejected,
    ]
    .into_iter()
    .map(|state| Count {
        what: Counted::Orders(state),
        n: counts.iter().find(|(s, _)| *s == state).map_or(0, |(_, n)| *n),
    })
    .collect()
}
