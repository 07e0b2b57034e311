//! Per-quote changes to a scenario's shared assumptions.

use super::model::Assumptions;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Assumptions that differ for one quote; an absent field keeps the shared value.
/// (A quote's measured throughput and its `n_run` are set on the quote itself.)
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssumptionOverrides {
    /// Replaces `setup_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub setup_h: Option<Decimal>,
    /// Replaces `data_prep_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub data_prep_h: Option<Decimal>,
    /// Replaces `download_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub download_h: Option<Decimal>,
    /// Replaces `export_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub export_h: Option<Decimal>,
    /// Replaces `idle_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub idle_h: Option<Decimal>,
    /// Replaces `stopped_h`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub stopped_h: Option<Decimal>,
    /// Replaces `rerun_share`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub rerun_share: Option<Decimal>,
    /// Replaces `egress_gb`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub egress_gb: Option<Decimal>,
    /// Replaces `ingress_gb`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub ingress_gb: Option<Decimal>,
    /// Replaces `snapshot_gb`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub snapshot_gb: Option<Decimal>,
    /// Replaces `snapshot_months`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub snapshot_months: Option<Decimal>,
    /// Replaces `nodes` (the user's node count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    /// Replaces `efficiency`.
    #[serde(
        default,
        with = "rust_decimal::serde::str_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub efficiency: Option<Decimal>,
}

impl AssumptionOverrides {
    /// `base` with every given field replaced.
    pub fn apply(&self, base: &Assumptions) -> Assumptions {
        let pick = |o: Option<Decimal>, b: Decimal| o.unwrap_or(b);
        Assumptions {
            setup_h: pick(self.setup_h, base.setup_h),
            data_prep_h: pick(self.data_prep_h, base.data_prep_h),
            download_h: pick(self.download_h, base.download_h),
            export_h: pick(self.export_h, base.export_h),
            idle_h: pick(self.idle_h, base.idle_h),
            stopped_h: pick(self.stopped_h, base.stopped_h),
            rerun_share: pick(self.rerun_share, base.rerun_share),
            egress_gb: pick(self.egress_gb, base.egress_gb),
            ingress_gb: pick(self.ingress_gb, base.ingress_gb),
            snapshot_gb: pick(self.snapshot_gb, base.snapshot_gb),
            snapshot_months: pick(self.snapshot_months, base.snapshot_months),
            nodes: self.nodes.or(base.nodes),
            efficiency: pick(self.efficiency, base.efficiency),
            measured_throughput_per_s: base.measured_throughput_per_s,
            n_run: base.n_run,
            // The quote's own efficiency is one figure for every node count.
            efficiency_by_nodes: if self.efficiency.is_some() {
                Vec::new()
            } else {
                base.efficiency_by_nodes.clone()
            },
        }
    }
}
