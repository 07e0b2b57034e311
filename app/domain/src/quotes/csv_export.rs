//! Writes drafts in NodeLedger's own CSV format (all of [`COLUMNS`], in order).

use super::csv_import::COLUMNS;
use super::csv_import::choices::{BASES, FORM_FACTORS, INTERCONNECTS, REFUNDS, TRAFFIC_PERIODS};
use super::csv_import::parse_duration_hours;
use super::draft::QuoteDraft;
use super::spec::Sharing;
use crate::csv_cell;
use crate::tco::{BillingIncrement, PriceSheet, TrafficTier, UnstatedPrice};
use rust_decimal::Decimal;

/// The drafts as CSV text: a header line, then one line per draft (`\n` line ends).
/// [`super::import`] reads it back into equal drafts.
pub fn export(drafts: &[QuoteDraft]) -> String {
    let mut out = String::with_capacity(64 * COLUMNS.len() * (drafts.len() + 1));
    let header: Vec<String> = COLUMNS.iter().map(|c| c.name.to_owned()).collect();
    line(&mut out, &header);
    for d in drafts {
        let cells: Vec<String> = COLUMNS.iter().map(|c| cell(d, c.name)).collect();
        line(&mut out, &cells);
    }
    out
}

/// One line of cells, each quoted and neutralised against formulas ([`csv_cell::field`]).
fn line(out: &mut String, cells: &[String]) {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&csv_cell::field(cell));
    }
    out.push('\n');
}

fn name<T: PartialEq>(choices: &[(&'static str, T)], value: &T) -> String {
    choices
        .iter()
        .find(|(_, v)| v == value)
        .map_or("", |(n, _)| *n)
        .to_owned()
}

fn dec(v: Option<Decimal>) -> String {
    v.map(|d| d.to_string()).unwrap_or_default()
}

fn flag(v: Option<bool>) -> String {
    v.map(|b| b.to_string()).unwrap_or_default()
}

/// The text of one field (`column`, [`super::QUOTE_FIELDS`]) of a quote as the CSV writes it:
/// empty when the vendor did not state it.
#[must_use]
pub fn cell(d: &QuoteDraft, column: &str) -> String {
    let (s, p) = (&d.spec, &d.price);
    match column {
        "vendor" => d.vendor.clone(),
        "reference" => d.reference.clone(),
        "received_on" => d.received_on.to_string(),
        "valid_until" => d.valid_until.to_string(),
        "auto_renewal" => flag(d.auto_renewal),
        "early_release" => d.early_release.clone(),
        "nodes_available" => d.nodes_available.map(|n| n.to_string()).unwrap_or_default(),
        "lead_time_hours" => d.lead_time_hours.map(|h| h.normalize().to_string()).unwrap_or_default(),
        "notes" => d.notes.clone(),
        "spec.gpu_model" => s.gpu_model.clone(),
        "spec.gpus_per_node" => s.gpus_per_node.to_string(),
        "spec.vram_gib" => s.vram_gib.to_string(),
        "spec.usable_vram_gib" => dec(s.usable_vram_gib),
        "spec.form_factor" => s.form_factor.map(|f| name(FORM_FACTORS, &f)).unwrap_or_default(),
        "spec.sharing" => sharing(&s.sharing),
        "spec.interconnect" => s.interconnect.map(|i| name(INTERCONNECTS, &i)).unwrap_or_default(),
        "spec.network_gbps" => dec(s.network_gbps),
        "spec.rdma" => flag(s.rdma),
        "spec.memory_pooling" => flag(s.memory_pooling),
        "spec.cpu_model" => s.cpu_model.clone(),
        "spec.vcpus" => s.vcpus.map(|v| v.to_string()).unwrap_or_default(),
        "spec.ram_gib" => dec(s.ram_gib),
        "spec.system_disk_gb" => dec(s.system_disk_gb),
        "spec.system_disk_type" => s.system_disk_type.clone(),
        "spec.data_disk_gb" => dec(s.data_disk_gb),
        "spec.data_disk_type" => s.data_disk_type.clone(),
        "spec.data_disk_survives_release" => flag(s.data_disk_survives_release),
        "spec.temp_disk_wiped" => flag(s.temp_disk_wiped),
        "spec.public_bandwidth_mbps" => dec(s.public_bandwidth_mbps),
        "spec.internal_bandwidth_gbps" => dec(s.internal_bandwidth_gbps),
        "spec.region" => s.region.clone(),
        "spec.os" => s.os.clone(),
        "spec.nvidia_driver" => s.nvidia_driver.clone(),
        "spec.cuda" => s.cuda.clone(),
        "spec.cudnn" => s.cudnn.clone(),
        "spec.docker_allowed" => flag(s.docker_allowed),
        "spec.root_ssh" => flag(s.root_ssh),
        "spec.rocm" => s.rocm.clone().unwrap_or_default(),
        "spec.snapshots" => flag(s.snapshots),
        "spec.object_storage" => flag(s.object_storage),
        "currency" => p.currency.code().to_owned(),
        "price.basis" => name(BASES, &p.basis),
        "price.on_demand_hourly" => on_demand(p.on_demand_hourly),
        "price.billing_increment" => increment(p.billing_increment),
        "price.minimum_billable_hours" => duration_hours(p.minimum_billable_hours),
        "price.monthly_price" => dec(p.monthly_price),
        // Written whenever there is a monthly price, so that a record without `monthly_basis`
        // (per node) is not read back on a per-GPU price basis.
        "price.monthly_basis" => p
            .monthly_price
            .map(|_| name(BASES, &p.monthly_price_basis()))
            .unwrap_or_default(),
        "price.commitment_months" => p.commitment_months.map(|m| m.to_string()).unwrap_or_default(),
        "price.package_period" => p.package_period.map(increment).unwrap_or_default(),
        "price.early_release_refund" => p.early_release_refund.map(|r| name(REFUNDS, &r)).unwrap_or_default(),
        "price.stopped_compute_share" => dec(p.stopped_compute_share),
        "price.stopped_hourly" => dec(p.stopped_hourly),
        "price.stopped_bills_disk" => p.stopped_bills_disk.to_string(),
        "price.stopped_bills_ip" => p.stopped_bills_ip.to_string(),
        "price.stopped_bills_compute" if p.not_stated.contains(&UnstatedPrice::StoppedCompute) => String::new(),
        "price.stopped_bills_compute" => p.stopped_bills_compute.to_string(),
        // A price the vendor did not state stays an empty cell (not 0).
        "price.disk_price_gb_month" => usage(p, UnstatedPrice::Disk, p.disk_price_gb_month),
        "price.snapshot_price_gb_month" => usage(p, UnstatedPrice::Snapshot, p.snapshot_price_gb_month),
        "price.egress_price_gb" if !p.egress_tiers.is_empty() => String::new(),
        "price.egress_price_gb" => usage(p, UnstatedPrice::Egress, p.egress_price_gb),
        "price.egress_tiers" => tiers(&p.egress_tiers),
        "price.ingress_tiers" => tiers(&p.ingress_tiers),
        "price.traffic_period" => p.traffic_period.map(|t| name(TRAFFIC_PERIODS, &t)).unwrap_or_default(),
        "price.ingress_price_gb" if !p.ingress_tiers.is_empty() => String::new(),
        "price.free_egress_gb" => p.free_egress_gb.to_string(),
        "price.ingress_price_gb" => usage(p, UnstatedPrice::Ingress, p.ingress_price_gb),
        "price.public_ip_hourly" => p.public_ip_hourly.to_string(),
        "price.other_fees" => p
            .other_fees
            .iter()
            .map(|f| format!("{}={}", f.label, f.amount))
            .collect::<Vec<_>>()
            .join(";"),
        _ => String::new(),
    }
}

/// An on-demand price: empty when not offered, `free` for 0 (a bare 0 is not read back).
fn on_demand(price: Option<Decimal>) -> String {
    match price {
        None => String::new(),
        Some(p) if p.is_zero() => "free".to_owned(),
        Some(p) => p.to_string(),
    }
}

/// An increment: its old name (`second`, `minute`, `hour`) where it has one, else as people
/// write it (`10 min`, `per day`), which [`BillingIncrement::parse`] reads back.
fn increment(inc: BillingIncrement) -> String {
    match inc.seconds() {
        1 | 60 | 3_600 => inc.wire(),
        _ => inc.describe(),
    }
}

/// A minimum in hours, or in minutes or seconds when hours would need a long fraction
/// (10 minutes is 0.1666… h). The short form is written only when it reads back as exactly the
/// same hours; otherwise every digit of the hours is (an import gives back what was exported).
fn duration_hours(hours: Decimal) -> String {
    let hours = hours.normalize();
    if hours.scale() <= 4 {
        return hours.to_string();
    }
    let short = in_minutes_or_seconds(hours);
    match short {
        Some(text) if parse_duration_hours(&text) == Some(hours) => text,
        _ => hours.to_string(),
    }
}

/// `hours` as whole minutes (`10 min`) or as seconds to the millisecond (`90.5 s`).
fn in_minutes_or_seconds(hours: Decimal) -> Option<String> {
    let seconds = hours.checked_mul(Decimal::from(3_600))?.round_dp(3).normalize();
    let minutes = (seconds / Decimal::from(60)).normalize();
    Some(if minutes.fract().is_zero() {
        format!("{minutes} min")
    } else {
        format!("{seconds} s")
    })
}

/// Tiers as `UP_TO:PRICE; …; *:PRICE`.
fn tiers(tiers: &[TrafficTier]) -> String {
    tiers
        .iter()
        .map(|t| match t.up_to_gb {
            Some(bound) => format!("{}:{}", bound.normalize(), t.price_gb),
            None => format!("*:{}", t.price_gb),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A usage price as a cell: empty when the vendor did not state it.
fn usage(p: &PriceSheet, which: UnstatedPrice, amount: Decimal) -> String {
    if p.not_stated.contains(&which) {
        String::new()
    } else {
        amount.to_string()
    }
}

fn sharing(s: &Sharing) -> String {
    match s {
        Sharing::Exclusive => "exclusive".to_owned(),
        Sharing::Vgpu => "vgpu".to_owned(),
        Sharing::Mig { profile } => format!("mig:{profile}"),
        Sharing::Fractional { share } => format!("fractional:{share}"),
    }
}
