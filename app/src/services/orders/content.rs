//! What an order revision records, as the store holds it: the record itself, its versions and
//! its decoder are `domain::orders::record`; here it is read from and written to a revision row.

pub use crate::domain::orders::record::{
    AcknowledgedProblem, Acknowledgement, Frozen, OrderRecord, PinnedQuote, SignedRows,
};

use crate::{
    domain::orders::record::{self, EncodeError},
    error::AppError,
    store::orders::OrderRow,
};

/// The record of a stored revision, in whichever version it was written (a row that does not
/// decode is logged: it cannot happen unless the database was edited by hand).
pub(super) fn content_of(row: &OrderRow) -> Result<OrderRecord, AppError> {
    record::decode(&row.content).map_err(|e| {
        tracing::error!(error = %e, order = row.id, "stored order content does not decode");
        AppError::Internal
    })
}

impl From<EncodeError> for AppError {
    /// A record that cannot be written is a bug (old rows kept in a new revision): logged.
    fn from(e: EncodeError) -> Self {
        tracing::error!(error = %e, "order content cannot be written");
        AppError::Internal
    }
}
