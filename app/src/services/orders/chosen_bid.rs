//! The vendor's bid an order's chosen quote revision was made from (a request for quotation):
//! its request, revision, receipt and written answers, which the checklist cites.

use crate::{
    error::AppError,
    store::{self, Db},
};

/// The bid behind the chosen quote revision: its request, revision, receipt and written answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenBid {
    pub request_id: i64,
    pub title: String,
    pub revision: i64,
    pub receipt: String,
    pub answers: Vec<crate::domain::rfq::bid::WrittenAnswer>,
}

impl ChosenBid {
    /// The written answer to `item`, if the vendor gave one.
    #[must_use]
    pub fn answer_to(&self, item: &str) -> Option<&crate::domain::rfq::bid::WrittenAnswer> {
        self.answers.iter().find(|a| a.item == item)
    }
}

/// The bid the chosen quote revision was made from, with its written answers.
pub(super) async fn chosen_bid(
    db: &Db,
    team_id: i64,
    quote_revision_id: Option<i64>,
) -> Result<Option<ChosenBid>, AppError> {
    let Some(id) = quote_revision_id else { return Ok(None) };
    let Some(source) = store::rfq::source_of(db, team_id, id).await? else {
        return Ok(None);
    };
    let record = crate::domain::rfq::bid::BidRecord::decode(&source.body).map_err(|_| AppError::Internal)?;
    Ok(Some(ChosenBid {
        request_id: source.request_id,
        title: source.title,
        revision: source.revision,
        receipt: source.receipt,
        answers: record.answers,
    }))
}
