//! A quote as entered or imported, before it is saved, and price normalisation.

use super::date::Date;
use super::spec::NodeSpec;
use crate::tco::{PriceBasis, PriceSheet};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// One vendor quote for one node type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteDraft {
    /// The vendor's name.
    pub vendor: String,
    /// The vendor's quote number or instance type; unique per vendor.
    pub reference: String,
    /// When the quote was received.
    pub received_on: Date,
    /// The last day the quote is valid.
    pub valid_until: Date,
    /// The node offered.
    pub spec: NodeSpec,
    pub price: PriceSheet,
    /// Whether a commitment renews automatically, if stated (checklist item `bill.auto_renewal`).
    #[serde(default)]
    pub auto_renewal: Option<bool>,
    /// The early-release rule, in the vendor's words (checklist item `bill.early_release`).
    #[serde(default)]
    pub early_release: String,
    /// How many such nodes the vendor can provide at once, if the quote says: the most a
    /// rental plan may use. Not stated is a question for the vendor, never "unlimited".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_available: Option<u32>,
    /// Hours from the order until the nodes are ready, if the quote says: a plan finishes
    /// that much later. Not stated is a question for the vendor, never "at once".
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "rust_decimal::serde::str_option"
    )]
    pub lead_time_hours: Option<Decimal>,
    /// Free text; may be empty.
    #[serde(default)]
    pub notes: String,
}

impl QuoteDraft {
    /// True when `today` is after [`QuoteDraft::valid_until`].
    pub fn is_expired(&self, today: Date) -> bool {
        super::date::is_expired(self.valid_until, today)
    }

    /// The on-demand price of one GPU-hour; see [`hourly_per_gpu`].
    pub fn hourly_per_gpu(&self) -> Option<Decimal> {
        hourly_per_gpu(&self.price, self.spec.gpus_per_node)
    }

    /// The on-demand price of one node-hour; see [`hourly_per_node`].
    pub fn hourly_per_node(&self) -> Option<Decimal> {
        hourly_per_node(&self.price, self.spec.gpus_per_node)
    }

    /// The node-hour price lists sort by; see [`hourly_equivalent_per_node`].
    pub fn hourly_equivalent_per_node(&self) -> Option<Decimal> {
        hourly_equivalent_per_node(&self.price, self.spec.gpus_per_node)
    }
}

/// The on-demand price of one GPU-hour. A per-node price is divided by `gpus_per_node` and
/// rounded half away from zero to two digits more than the currency's minor unit (10.00 per
/// 3-GPU node → 3.3333). `None` when `gpus_per_node` is 0 or the sheet offers no on-demand
/// price.
pub fn hourly_per_gpu(sheet: &PriceSheet, gpus_per_node: u32) -> Option<Decimal> {
    if gpus_per_node == 0 {
        return None;
    }
    let hourly = sheet.on_demand_hourly?;
    match sheet.basis {
        PriceBasis::PerGpu => Some(hourly),
        PriceBasis::PerNode => {
            let exact = hourly.checked_div(Decimal::from(gpus_per_node))?;
            let dp = sheet.currency.minor_units() + 2;
            Some(exact.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero))
        }
    }
}

/// The on-demand price of one node-hour (exact): a per-GPU price × `gpus_per_node`.
/// `None` when `gpus_per_node` is 0, the sheet offers no on-demand price or the product
/// overflows.
pub fn hourly_per_node(sheet: &PriceSheet, gpus_per_node: u32) -> Option<Decimal> {
    if gpus_per_node == 0 {
        return None;
    }
    let hourly = sheet.on_demand_hourly?;
    match sheet.basis {
        PriceBasis::PerNode => Some(hourly),
        PriceBasis::PerGpu => hourly.checked_mul(Decimal::from(gpus_per_node)),
    }
}

/// What one node-hour costs for sorting a list: the on-demand price, or for a sheet of
/// packages only the package price per node spread over its period (9,600 a month = 13.15 an
/// hour), so a package-only quote never sorts as free.
pub fn hourly_equivalent_per_node(sheet: &PriceSheet, gpus_per_node: u32) -> Option<Decimal> {
    if let Some(hourly) = hourly_per_node(sheet, gpus_per_node) {
        return Some(hourly);
    }
    let monthly = sheet.monthly_per_node(gpus_per_node)?;
    monthly.checked_div(sheet.package_period().hours())
}
