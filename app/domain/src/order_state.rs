//! The states of an order revision: named by the lifecycle's rules (`orders::lifecycle`, where
//! the state diagram is) and by the audit events and exports that record them.

use serde::{Deserialize, Serialize};

/// State of one order revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderState {
    /// Being written; editable.
    Draft,
    /// Waiting for a manager; locked.
    Submitted,
    /// Approved; locked.
    Approved,
    /// Rejected; locked.
    Rejected,
}

impl OrderState {
    /// The state a `Create` event starts in.
    pub const INITIAL: OrderState = OrderState::Draft;
}
