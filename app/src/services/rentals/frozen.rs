//! What an approved revision froze that a rental needs: the chosen quote's estimate (time to
//! finish, compute hours, download and export hours) and its pinned prices.

use crate::{
    domain::{orders::record::OrderRecord, rentals::DailyPrices},
    error::AppError,
    store::orders::OrderRow,
};
use rust_decimal::Decimal;

/// The chosen quote as the approved revision's frozen comparison costed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pinned {
    /// Hours until the results are out (the planned end is the start plus this).
    pub time_to_finish_h: Decimal,
    /// Hours of useful compute.
    pub compute_h: Decimal,
    /// Download plus export hours assumed.
    pub transfer_h: Decimal,
    /// The prices per day are computed from.
    pub prices: DailyPrices,
}

impl Pinned {
    /// The chosen quote in `content`'s frozen comparison; `None` when nothing was frozen or the
    /// chosen quote is not in it.
    pub fn of(content: &OrderRecord) -> Option<Pinned> {
        let frozen = content.frozen.as_ref()?;
        let (ranked, quote) = content.chosen_costing()?;
        let assumptions = quote.assumption_overrides.as_ref().map_or_else(
            || frozen.scenario.assumptions.clone(),
            |o| o.apply(&frozen.scenario.assumptions),
        );
        let e = &ranked.estimate;
        Some(Pinned {
            time_to_finish_h: e.time_to_finish_h,
            compute_h: e.compute_h,
            transfer_h: assumptions.download_h + assumptions.export_h,
            prices: DailyPrices::of(&quote.price_sheet, &quote.node_shape, e),
        })
    }

    /// [`Pinned::of`] the content of a stored revision.
    pub fn of_row(row: &OrderRow) -> Result<Option<Pinned>, AppError> {
        Self::of_content(&row.content)
    }

    /// [`Pinned::of`] a revision's content as stored (canonical JSON).
    pub fn of_content(content: &str) -> Result<Option<Pinned>, AppError> {
        let content = crate::domain::orders::record::decode(content).map_err(|e| {
            tracing::error!(error = %e, "stored order content does not decode");
            AppError::Internal
        })?;
        Ok(Self::of(&content))
    }
}
