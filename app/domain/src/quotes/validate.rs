//! Checks a [`QuoteDraft`]: every rejected field is reported, with its dotted path.

use super::draft::QuoteDraft;
use super::error::{ErrorCode, FieldError};
use super::limits::*;
use super::rules::Errors;
use super::spec::{NodeSpec, Sharing};
use super::vendor::Vendor;
use crate::tco::PriceSheet;
use rust_decimal::Decimal;

/// Checks every field of `draft`; `Err` lists all problems found, in field order.
pub fn validate(draft: &QuoteDraft) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    e.required_text("vendor", &draft.vendor, MAX_SHORT_TEXT);
    e.required_text("reference", &draft.reference, MAX_SHORT_TEXT);
    if draft.valid_until < draft.received_on {
        e.push("valid_until", ErrorCode::EndBeforeStart);
    }
    spec(&mut e, &draft.spec);
    price(&mut e, &draft.price);
    e.text("early_release", &draft.early_release, MAX_LONG_TEXT);
    if let Some(nodes) = draft.nodes_available {
        e.count("nodes_available", nodes, MAX_NODES_AVAILABLE);
    }
    if let Some(hours) = draft.lead_time_hours {
        e.non_negative("lead_time_hours", hours, MAX_LEAD_TIME_HOURS);
    }
    e.text("notes", &draft.notes, MAX_LONG_TEXT);
    e.finish()
}

/// Checks a vendor record: a name, and texts of sane length.
pub fn validate_vendor(vendor: &Vendor) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    e.required_text("name", &vendor.name, MAX_SHORT_TEXT);
    e.text("website", &vendor.website, MAX_SHORT_TEXT);
    e.text("contact", &vendor.contact, MAX_SHORT_TEXT);
    e.text("notes", &vendor.notes, MAX_LONG_TEXT);
    e.text("support_scope.notes", &vendor.support_scope.notes, MAX_LONG_TEXT);
    e.finish()
}

fn spec(e: &mut Errors, s: &NodeSpec) {
    e.required_text("spec.gpu_model", &s.gpu_model, MAX_SHORT_TEXT);
    e.count("spec.gpus_per_node", s.gpus_per_node, MAX_GPUS_PER_NODE);
    e.positive("spec.vram_gib", s.vram_gib, MAX_VRAM_GIB);
    if s.vram_gib > Decimal::ZERO && s.vram_gib < MIN_VRAM_GIB {
        e.push(
            "spec.vram_gib",
            ErrorCode::OutOfRange {
                allowed: "[0.0009765625, 1024]",
            },
        );
    }
    if let Some(usable) = s.usable_vram_gib {
        e.positive("spec.usable_vram_gib", usable, MAX_VRAM_GIB);
        if usable > s.vram_gib {
            e.push("spec.usable_vram_gib", ErrorCode::ExceedsVram);
        }
    }
    sharing(e, &s.sharing);
    opt(e, "spec.network_gbps", s.network_gbps, MAX_GBPS);
    e.text("spec.cpu_model", &s.cpu_model, MAX_SHORT_TEXT);
    if let Some(vcpus) = s.vcpus {
        e.count("spec.vcpus", vcpus, MAX_VCPUS);
    }
    if let Some(ram) = s.ram_gib {
        e.positive("spec.ram_gib", ram, MAX_RAM_GIB);
    }
    opt(e, "spec.system_disk_gb", s.system_disk_gb, MAX_DISK_GB);
    e.text("spec.system_disk_type", &s.system_disk_type, MAX_SHORT_TEXT);
    opt(e, "spec.data_disk_gb", s.data_disk_gb, MAX_DISK_GB);
    e.text("spec.data_disk_type", &s.data_disk_type, MAX_SHORT_TEXT);
    opt(
        e,
        "spec.public_bandwidth_mbps",
        s.public_bandwidth_mbps,
        MAX_PUBLIC_MBPS,
    );
    opt(e, "spec.internal_bandwidth_gbps", s.internal_bandwidth_gbps, MAX_GBPS);
    e.text("spec.region", &s.region, MAX_SHORT_TEXT);
    e.text("spec.os", &s.os, MAX_SHORT_TEXT);
    e.text("spec.nvidia_driver", &s.nvidia_driver, MAX_SHORT_TEXT);
    e.text("spec.cuda", &s.cuda, MAX_SHORT_TEXT);
    e.text("spec.cudnn", &s.cudnn, MAX_SHORT_TEXT);
    if let Some(rocm) = &s.rocm {
        e.required_text("spec.rocm", rocm, MAX_SHORT_TEXT);
    }
}

fn sharing(e: &mut Errors, s: &Sharing) {
    match s {
        Sharing::Mig { profile } => e.required_text("spec.sharing", profile, MAX_SHORT_TEXT),
        Sharing::Fractional { share } if *share <= Decimal::ZERO || *share >= Decimal::ONE => {
            e.push("spec.sharing", ErrorCode::OutOfRange { allowed: "(0, 1)" });
        }
        _ => {}
    }
}

/// The stopped-billing parts and the traffic tiers, as the cost model reads them: one price per
/// thing, a share in (0, 1), rising tier bounds with only the last band open.
fn stopped_and_traffic(e: &mut Errors, p: &PriceSheet) {
    if let Some(share) = p.stopped_compute_share
        && (share <= Decimal::ZERO || share >= Decimal::ONE)
    {
        e.push(
            "price.stopped_compute_share",
            ErrorCode::OutOfRange { allowed: "(0, 1)" },
        );
    }
    opt(e, "price.stopped_hourly", p.stopped_hourly, MAX_HOURLY_PRICE);
    let partial = p.stopped_compute_share.is_some() || p.stopped_hourly.is_some();
    if (p.stopped_compute_share.is_some() && p.stopped_hourly.is_some()) || (partial && !p.stopped_bills_compute) {
        e.push("price.stopped_hourly", ErrorCode::ConflictingPrices);
    }
    for (field, tiers, flat) in [
        ("price.egress_tiers", &p.egress_tiers, p.egress_price_gb),
        ("price.ingress_tiers", &p.ingress_tiers, p.ingress_price_gb),
    ] {
        if tiers.is_empty() {
            continue;
        }
        if !flat.is_zero() {
            e.push(field, ErrorCode::ConflictingPrices);
        }
        if tiers.len() > MAX_FEES {
            e.push(
                field,
                ErrorCode::TooLarge {
                    max: Decimal::from(MAX_FEES),
                },
            );
        }
        let mut previous = Decimal::ZERO;
        for (i, tier) in tiers.iter().enumerate() {
            e.non_negative(field, tier.price_gb, MAX_UNIT_PRICE);
            let open_before_last = tier.up_to_gb.is_none() && i + 1 < tiers.len();
            let falling = tier.up_to_gb.is_some_and(|b| b <= previous || b > MAX_AMOUNT);
            if open_before_last || falling {
                e.push(field, ErrorCode::InvalidTiers);
            }
            previous = tier.up_to_gb.unwrap_or(previous);
        }
    }
}

fn opt(e: &mut Errors, field: &'static str, value: Option<Decimal>, max: Decimal) {
    if let Some(v) = value {
        e.non_negative(field, v, max);
    }
}

fn price(e: &mut Errors, p: &PriceSheet) {
    match p.on_demand_hourly {
        Some(hourly) => e.non_negative("price.on_demand_hourly", hourly, MAX_HOURLY_PRICE),
        None if p.monthly_price.is_none() => e.push("price.on_demand_hourly", ErrorCode::NoPriceOffered),
        None => {}
    }
    stopped_and_traffic(e, p);
    e.non_negative(
        "price.minimum_billable_hours",
        p.minimum_billable_hours,
        MAX_MIN_BILLABLE_HOURS,
    );
    match (p.monthly_price, p.commitment_months) {
        (Some(_), None) => e.push("price.commitment_months", ErrorCode::IncompleteCommitment),
        (None, Some(_)) => e.push("price.monthly_price", ErrorCode::IncompleteCommitment),
        _ => {}
    }
    opt(e, "price.monthly_price", p.monthly_price, MAX_MONTHLY_PRICE);
    if let Some(months) = p.commitment_months {
        e.count("price.commitment_months", months, MAX_COMMITMENT_MONTHS);
    }
    let unit_prices = [
        ("price.disk_price_gb_month", p.disk_price_gb_month),
        ("price.snapshot_price_gb_month", p.snapshot_price_gb_month),
        ("price.egress_price_gb", p.egress_price_gb),
        ("price.ingress_price_gb", p.ingress_price_gb),
        ("price.public_ip_hourly", p.public_ip_hourly),
    ];
    for (field, value) in unit_prices {
        e.non_negative(field, value, MAX_UNIT_PRICE);
    }
    e.non_negative("price.free_egress_gb", p.free_egress_gb, MAX_AMOUNT);
    if p.other_fees.len() > MAX_FEES {
        let max = Decimal::from(MAX_FEES);
        e.push("price.other_fees", ErrorCode::TooLarge { max });
    }
    for fee in &p.other_fees {
        e.required_text("price.other_fees", &fee.label, MAX_SHORT_TEXT);
        if fee.label.contains([';', '=']) {
            e.push("price.other_fees", ErrorCode::ReservedCharacter);
        }
        e.non_negative("price.other_fees", fee.amount, MAX_AMOUNT);
    }
}
