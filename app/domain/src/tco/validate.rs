//! Input checks: every rejected value names its field; nothing is silently assumed.

use super::arith::{non_negative, positive};
use super::error::{ErrorReason, TcoError};
use super::model::{Assumptions, Demand, NodeShape, PriceSheet, TrafficTier};
use rust_decimal::Decimal;

/// Checks all four inputs of an estimate.
pub(crate) fn inputs(
    sheet: &PriceSheet,
    shape: &NodeShape,
    workload: &Demand,
    assumptions: &Assumptions,
) -> Result<(), TcoError> {
    price_sheet(sheet)?;
    node_shape(shape)?;
    workload_fields(workload)?;
    assumption_fields(assumptions)
}

pub(crate) fn price_sheet(s: &PriceSheet) -> Result<(), TcoError> {
    match s.on_demand_hourly {
        Some(price) => {
            non_negative(price, "price_sheet.on_demand_hourly")?;
        }
        // A sheet of packages only is fine; a sheet with no price at all prices nothing.
        None if s.monthly_price.is_none() => {
            return Err(TcoError::new("price_sheet.on_demand_hourly", ErrorReason::Missing));
        }
        None => {}
    }
    non_negative(s.minimum_billable_hours, "price_sheet.minimum_billable_hours")?;
    stopped_billing(s)?;
    match (s.monthly_price, s.commitment_months) {
        (Some(price), Some(months)) => {
            non_negative(price, "price_sheet.monthly_price")?;
            if months == 0 {
                return Err(TcoError::new("price_sheet.commitment_months", ErrorReason::NotPositive));
            }
        }
        (Some(_), None) => {
            return Err(TcoError::new("price_sheet.commitment_months", ErrorReason::Missing));
        }
        (None, Some(_)) => {
            return Err(TcoError::new("price_sheet.monthly_price", ErrorReason::Missing));
        }
        (None, None) => {}
    }
    non_negative(s.disk_price_gb_month, "price_sheet.disk_price_gb_month")?;
    non_negative(s.snapshot_price_gb_month, "price_sheet.snapshot_price_gb_month")?;
    non_negative(s.egress_price_gb, "price_sheet.egress_price_gb")?;
    non_negative(s.free_egress_gb, "price_sheet.free_egress_gb")?;
    non_negative(s.ingress_price_gb, "price_sheet.ingress_price_gb")?;
    tiers(&s.egress_tiers, s.egress_price_gb, "price_sheet.egress_tiers")?;
    tiers(&s.ingress_tiers, s.ingress_price_gb, "price_sheet.ingress_tiers")?;
    non_negative(s.public_ip_hourly, "price_sheet.public_ip_hourly")?;
    for fee in &s.other_fees {
        non_negative(fee.amount, "price_sheet.other_fees.amount")?;
    }
    Ok(())
}

/// A stopped share lies in (0, 1) and a stopped rate is not negative; either one needs a sheet
/// that says stopped nodes bill compute, and not both at once.
fn stopped_billing(s: &PriceSheet) -> Result<(), TcoError> {
    if let Some(share) = s.stopped_compute_share
        && (share <= Decimal::ZERO || share >= Decimal::ONE)
    {
        let reason = ErrorReason::OutOfRange { allowed: "(0, 1)" };
        return Err(TcoError::new("price_sheet.stopped_compute_share", reason));
    }
    if let Some(rate) = s.stopped_hourly {
        non_negative(rate, "price_sheet.stopped_hourly")?;
        if s.stopped_compute_share.is_some() {
            let reason = ErrorReason::OutOfRange {
                allowed: "absent when a stopped share is given",
            };
            return Err(TcoError::new("price_sheet.stopped_hourly", reason));
        }
    }
    let partial = s.stopped_compute_share.is_some() || s.stopped_hourly.is_some();
    if partial && !s.stopped_bills_compute {
        return Err(TcoError::new("price_sheet.stopped_bills_compute", ErrorReason::Missing));
    }
    Ok(())
}

/// Tiers: prices not negative, bounds above 0 and rising, only the last band open; the flat
/// price beside them 0 (one price per GB, never two).
fn tiers(tiers: &[TrafficTier], flat: Decimal, field: &'static str) -> Result<(), TcoError> {
    if tiers.is_empty() {
        return Ok(());
    }
    if !flat.is_zero() {
        let reason = ErrorReason::OutOfRange {
            allowed: "a flat price of 0 beside tiers",
        };
        return Err(TcoError::new(field, reason));
    }
    let mut previous = Decimal::ZERO;
    for (i, tier) in tiers.iter().enumerate() {
        non_negative(tier.price_gb, field)?;
        match tier.up_to_gb {
            Some(bound) if bound > previous => previous = bound,
            Some(_) => {
                let reason = ErrorReason::OutOfRange {
                    allowed: "bounds above 0, each above the one before",
                };
                return Err(TcoError::new(field, reason));
            }
            None if i + 1 == tiers.len() => {}
            None => {
                let reason = ErrorReason::OutOfRange {
                    allowed: "an open band only as the last tier",
                };
                return Err(TcoError::new(field, reason));
            }
        }
    }
    Ok(())
}

pub(crate) fn node_shape(s: &NodeShape) -> Result<(), TcoError> {
    if s.gpus_per_node == 0 {
        return Err(TcoError::new("node_shape.gpus_per_node", ErrorReason::NotPositive));
    }
    non_negative(s.system_disk_gb, "node_shape.system_disk_gb")?;
    non_negative(s.data_disk_gb, "node_shape.data_disk_gb")?;
    Ok(())
}

fn workload_fields(w: &Demand) -> Result<(), TcoError> {
    if let Some(work) = &w.total_work {
        positive(work.amount, "workload.total_work.amount")?;
    }
    if let Some(hours) = w.run_hours {
        non_negative(hours, "workload.run_hours")?;
    }
    Ok(())
}

/// Node counts an efficiency may be stated at: more than any plan weighs.
const MAX_EFFICIENCY_POINTS: usize = 64;

fn assumption_fields(a: &Assumptions) -> Result<(), TcoError> {
    non_negative(a.setup_h, "assumptions.setup_h")?;
    non_negative(a.data_prep_h, "assumptions.data_prep_h")?;
    non_negative(a.download_h, "assumptions.download_h")?;
    non_negative(a.export_h, "assumptions.export_h")?;
    non_negative(a.idle_h, "assumptions.idle_h")?;
    non_negative(a.stopped_h, "assumptions.stopped_h")?;
    if a.rerun_share < Decimal::ZERO || a.rerun_share >= Decimal::ONE {
        let reason = ErrorReason::OutOfRange { allowed: "[0, 1)" };
        return Err(TcoError::new("assumptions.rerun_share", reason));
    }
    non_negative(a.egress_gb, "assumptions.egress_gb")?;
    non_negative(a.ingress_gb, "assumptions.ingress_gb")?;
    non_negative(a.snapshot_gb, "assumptions.snapshot_gb")?;
    non_negative(a.snapshot_months, "assumptions.snapshot_months")?;
    if a.nodes == Some(0) {
        return Err(TcoError::new("assumptions.nodes", ErrorReason::NotPositive));
    }
    if a.efficiency <= Decimal::ZERO || a.efficiency > Decimal::ONE {
        let reason = ErrorReason::OutOfRange { allowed: "(0, 1]" };
        return Err(TcoError::new("assumptions.efficiency", reason));
    }
    if a.efficiency_by_nodes.len() > MAX_EFFICIENCY_POINTS {
        let reason = ErrorReason::OutOfRange {
            allowed: "at most 64 node counts",
        };
        return Err(TcoError::new("assumptions.efficiency_by_nodes", reason));
    }
    for point in &a.efficiency_by_nodes {
        if point.nodes < 2 {
            let reason = ErrorReason::OutOfRange {
                allowed: "2 nodes or more",
            };
            return Err(TcoError::new("assumptions.efficiency_by_nodes.nodes", reason));
        }
        if point.efficiency <= Decimal::ZERO || point.efficiency > Decimal::ONE {
            let reason = ErrorReason::OutOfRange { allowed: "(0, 1]" };
            return Err(TcoError::new("assumptions.efficiency_by_nodes.efficiency", reason));
        }
    }
    if let Some(t) = a.measured_throughput_per_s {
        positive(t, "assumptions.measured_throughput_per_s")?;
    }
    if a.n_run == Some(0) {
        return Err(TcoError::new("assumptions.n_run", ErrorReason::NotPositive));
    }
    Ok(())
}
