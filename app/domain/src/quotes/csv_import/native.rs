//! NodeLedger's own format: one row per quote, columns named by dotted field path.

use super::cells::Cells;
use super::choices::{BASES, FORM_FACTORS, INTERCONNECTS, REFUNDS, TRAFFIC_PERIODS};
use super::columns::{self, COLUMNS};
use super::header::Header;
use super::reader::RowFormat;
use super::{CsvFormat, SkipReason};
use crate::quotes::date::Date;
use crate::quotes::draft::QuoteDraft;
use crate::quotes::error::ErrorCode;
use crate::quotes::spec::NodeSpec;
use crate::tco::{BillingIncrement, PriceBasis, PriceSheet, UnstatedPrice};
use rust_decimal::Decimal;

/// Reads NodeLedger rows.
pub(super) struct Native;

impl RowFormat for Native {
    fn format(&self) -> CsvFormat {
        CsvFormat::NodeLedger
    }

    fn missing(&self, header: &Header) -> Vec<&'static str> {
        COLUMNS
            .iter()
            .filter(|c| c.required && !header.has(c.name))
            .map(|c| c.name)
            .collect()
    }

    fn known(&self, lower: &str) -> bool {
        columns::find(lower).is_some()
    }

    fn column_for(&self, field: &str) -> Option<&'static str> {
        if field == "price.currency" {
            return Some("currency");
        }
        columns::find(field).map(|c| c.name)
    }

    fn field_for(&self, column: &str) -> Option<&'static str> {
        if column == "currency" {
            return Some("price.currency");
        }
        columns::find(column).map(|c| c.name)
    }

    fn key_column(&self) -> &'static str {
        "reference"
    }

    fn row(&mut self, c: &mut Cells<'_>) -> Result<QuoteDraft, SkipReason> {
        Ok(QuoteDraft {
            vendor: c.text("vendor"),
            reference: c.text("reference"),
            received_on: c.date("received_on", Date::EPOCH),
            valid_until: c.date("valid_until", Date::EPOCH),
            auto_renewal: c.opt_bool("auto_renewal"),
            early_release: c.text("early_release"),
            nodes_available: c.opt_u32("nodes_available"),
            lead_time_hours: c.opt_hours("lead_time_hours"),
            notes: c.text("notes"),
            spec: spec(c),
            price: price(c),
        })
    }
}

fn spec(c: &mut Cells<'_>) -> NodeSpec {
    let rocm = c.text("spec.rocm");
    NodeSpec {
        gpu_model: c.text("spec.gpu_model"),
        gpus_per_node: c.u32("spec.gpus_per_node"),
        vram_gib: c.decimal("spec.vram_gib"),
        usable_vram_gib: c.opt_decimal("spec.usable_vram_gib"),
        form_factor: c.opt_choice("spec.form_factor", FORM_FACTORS),
        sharing: c.sharing("spec.sharing"),
        interconnect: c.opt_choice("spec.interconnect", INTERCONNECTS),
        network_gbps: c.opt_decimal("spec.network_gbps"),
        rdma: c.opt_bool("spec.rdma"),
        memory_pooling: c.opt_bool("spec.memory_pooling"),
        cpu_model: c.text("spec.cpu_model"),
        vcpus: c.opt_u32("spec.vcpus"),
        ram_gib: c.opt_decimal("spec.ram_gib"),
        system_disk_gb: c.opt_decimal("spec.system_disk_gb"),
        system_disk_type: c.text("spec.system_disk_type"),
        data_disk_gb: c.opt_decimal("spec.data_disk_gb"),
        data_disk_type: c.text("spec.data_disk_type"),
        data_disk_survives_release: c.opt_bool("spec.data_disk_survives_release"),
        temp_disk_wiped: c.opt_bool("spec.temp_disk_wiped"),
        public_bandwidth_mbps: c.opt_decimal("spec.public_bandwidth_mbps"),
        internal_bandwidth_gbps: c.opt_decimal("spec.internal_bandwidth_gbps"),
        region: c.text("spec.region"),
        os: c.text("spec.os"),
        nvidia_driver: c.text("spec.nvidia_driver"),
        cuda: c.text("spec.cuda"),
        cudnn: c.text("spec.cudnn"),
        docker_allowed: c.opt_bool("spec.docker_allowed"),
        root_ssh: c.opt_bool("spec.root_ssh"),
        rocm: (!rocm.is_empty()).then_some(rocm),
        snapshots: c.opt_bool("spec.snapshots"),
        object_storage: c.opt_bool("spec.object_storage"),
    }
}

/// The price sheet of a row. A monthly price is on the basis `price.monthly_basis` names, or
/// on the price basis when that cell is empty (a file written before the column existed reads
/// its monthly price on the price basis, as the form does). An empty on-demand price is "not
/// offered" (a sheet of packages only), never 0: a free offer is written `free`.
fn price(c: &mut Cells<'_>) -> PriceSheet {
    let currency = c.currency("currency");
    let basis = c.choice("price.basis", BASES, PriceBasis::PerNode);
    let on_demand_hourly = c.opt_price_or_free("price.on_demand_hourly");
    let billing_increment = c.opt_increment("price.billing_increment");
    if c.raw("price.billing_increment").is_empty() {
        c.fail("price.billing_increment", ErrorCode::Required);
    }
    let minimum_billable_hours = c.opt_duration_hours("price.minimum_billable_hours").unwrap_or_default();
    let monthly_price = c.opt_decimal("price.monthly_price");
    let monthly_basis = c.opt_choice("price.monthly_basis", BASES);
    if on_demand_hourly.is_none() && monthly_price.is_none() && c.raw("price.on_demand_hourly").is_empty() {
        c.fail("price.on_demand_hourly", ErrorCode::NoPriceOffered);
    }
    // A usage price left blank is not stated, not free: 0 stands in and the sheet says so.
    let mut not_stated = Vec::new();
    let mut usage = |c: &mut Cells<'_>, col: &'static str, which: UnstatedPrice| {
        c.opt_decimal(col).unwrap_or_else(|| {
            not_stated.push(which);
            Decimal::ZERO
        })
    };
    let disk_price_gb_month = usage(c, "price.disk_price_gb_month", UnstatedPrice::Disk);
    let snapshot_price_gb_month = usage(c, "price.snapshot_price_gb_month", UnstatedPrice::Snapshot);
    let egress_tiers = c.tiers("price.egress_tiers");
    let ingress_tiers = c.tiers("price.ingress_tiers");
    // Tiers state the traffic price: the flat cell beside them may stay empty.
    let egress_price_gb = if egress_tiers.is_empty() {
        usage(c, "price.egress_price_gb", UnstatedPrice::Egress)
    } else {
        c.amount("price.egress_price_gb")
    };
    let ingress_price_gb = if ingress_tiers.is_empty() {
        usage(c, "price.ingress_price_gb", UnstatedPrice::Ingress)
    } else {
        c.amount("price.ingress_price_gb")
    };
    // Blank is neither yes nor no: the sheet says it is not stated, false stands in.
    let stopped_bills_compute = c.opt_bool("price.stopped_bills_compute").unwrap_or_else(|| {
        not_stated.push(UnstatedPrice::StoppedCompute);
        false
    });
    PriceSheet {
        currency,
        basis,
        on_demand_hourly,
        billing_increment: billing_increment.unwrap_or(BillingIncrement::HOUR),
        minimum_billable_hours,
        monthly_price,
        monthly_basis: monthly_price.map(|_| monthly_basis.unwrap_or(basis)),
        commitment_months: c.opt_u32("price.commitment_months"),
        package_period: c.opt_increment("price.package_period"),
        early_release_refund: c.opt_choice("price.early_release_refund", REFUNDS),
        stopped_bills_compute,
        stopped_compute_share: c.opt_share("price.stopped_compute_share"),
        stopped_hourly: c.opt_decimal("price.stopped_hourly"),
        // Blank: billed while stopped, as every sheet written before these columns read.
        stopped_bills_disk: c.opt_bool("price.stopped_bills_disk").unwrap_or(true),
        stopped_bills_ip: c.opt_bool("price.stopped_bills_ip").unwrap_or(true),
        disk_price_gb_month,
        snapshot_price_gb_month,
        egress_price_gb,
        free_egress_gb: c.opt_gb("price.free_egress_gb").unwrap_or_default(),
        egress_tiers,
        ingress_tiers,
        traffic_period: c.opt_choice("price.traffic_period", TRAFFIC_PERIODS),
        ingress_price_gb,
        public_ip_hourly: c.amount("price.public_ip_hourly"),
        other_fees: c.fees("price.other_fees"),
        not_stated,
    }
}
