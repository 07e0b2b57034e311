//! SkyPilot catalog `vms.csv` rows (schema v5+): columns found by name, in any order.
//!
//! `Price` is the on-demand price of the whole instance per hour; per-GPU VRAM comes from
//! `GpuInfo` (or `GPUInfo`); `AvailabilityZone` may be absent (Lambda-style catalogs).
//! Rows without an accelerator are skipped. A fractional `AcceleratorCount` (e.g. `0.5`)
//! becomes one GPU shared [`Sharing::Fractional`]ly. A blank `Price` means the instance is
//! not offered on demand in that region (spot only): the row is skipped and said so.

use super::cells::{Cells, parse_decimal};
use super::gpu_info::parse_gpu_info;
use super::header::Header;
use super::reader::RowFormat;
use super::{CsvFormat, ImportDefaults, SkipReason};
use crate::quotes::draft::QuoteDraft;
use crate::quotes::error::ErrorCode;
use crate::quotes::spec::{FormFactor, NodeSpec, Sharing};
use crate::tco::on_demand_sheet;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// Columns a SkyPilot catalog must have (lower case), with their documented spelling.
const REQUIRED: &[(&str, &str)] = &[
    ("instancetype", "InstanceType"),
    ("acceleratorname", "AcceleratorName"),
    ("acceleratorcount", "AcceleratorCount"),
    ("price", "Price"),
    ("region", "Region"),
    ("gpuinfo", "GpuInfo"),
];

/// Columns read when present.
const OPTIONAL: &[&str] = &["vcpus", "memorygib", "spotprice", "availabilityzone"];

/// Draft field ↔ catalog column.
const FIELDS: &[(&str, &str)] = &[
    ("reference", "instancetype"),
    ("spec.gpu_model", "acceleratorname"),
    ("spec.gpus_per_node", "acceleratorcount"),
    ("spec.sharing", "acceleratorcount"),
    ("spec.vram_gib", "gpuinfo"),
    ("spec.vcpus", "vcpus"),
    ("spec.ram_gib", "memorygib"),
    ("price.on_demand_hourly", "price"),
    ("spec.region", "region"),
    ("valid_until", "valid_until"),
];

/// Reads SkyPilot rows with the caller's defaults.
pub(super) struct SkyPilot<'a> {
    defaults: &'a ImportDefaults,
}

impl<'a> SkyPilot<'a> {
    pub(super) const fn new(defaults: &'a ImportDefaults) -> Self {
        SkyPilot { defaults }
    }
}

impl RowFormat for SkyPilot<'_> {
    fn format(&self) -> CsvFormat {
        CsvFormat::SkyPilot
    }

    fn missing(&self, header: &Header) -> Vec<&'static str> {
        REQUIRED
            .iter()
            .filter(|(lower, _)| !header.has(lower))
            .map(|(_, name)| *name)
            .collect()
    }

    fn known(&self, lower: &str) -> bool {
        REQUIRED.iter().any(|(l, _)| *l == lower) || OPTIONAL.contains(&lower)
    }

    fn column_for(&self, field: &str) -> Option<&'static str> {
        FIELDS.iter().find(|(f, _)| *f == field).map(|(_, c)| *c)
    }

    fn field_for(&self, column: &str) -> Option<&'static str> {
        FIELDS.iter().find(|(_, c)| *c == column).map(|(f, _)| *f)
    }

    fn key_column(&self) -> &'static str {
        "instancetype"
    }

    fn row(&mut self, c: &mut Cells<'_>) -> Result<QuoteDraft, SkipReason> {
        let model = c.text("acceleratorname");
        let count_cell = c.raw("acceleratorcount");
        let count = parse_decimal(count_cell);
        if model.is_empty() || count_cell.is_empty() || count.is_some_and(|n| n.is_zero()) {
            return Err(SkipReason::NoAccelerator);
        }
        if c.raw("price").is_empty() {
            // pandas writes a missing on-demand price as an empty cell; SkyPilot's own catalog
            // code treats it as "no on-demand price found", never as 0.
            return Err(SkipReason::NotOfferedOnDemand);
        }
        let (gpus_per_node, sharing) = gpus(c, count);
        let instance = c.text("instancetype");
        if instance.is_empty() {
            // GCP-style rows price an attachable accelerator, not a whole instance.
            c.fail("instancetype", ErrorCode::Required);
        }
        let region = c.text("region");
        let zone = c.raw("availabilityzone");
        let mut reference = format!("{instance}@{region}");
        if !zone.is_empty() {
            reference = format!("{reference}/{zone}");
        }
        let mut spec = NodeSpec::new(&model, gpus_per_node, vram(c), sharing);
        spec.form_factor = form_factor(&instance, &model);
        spec.vcpus = c.opt_u32("vcpus");
        spec.ram_gib = c.opt_decimal("memorygib");
        spec.region = region;
        let spot = c.raw("spotprice");
        let notes = if spot.is_empty() || parse_decimal(spot).is_none() {
            String::new()
        } else {
            format!("spot_price={spot}")
        };
        let d = self.defaults;
        Ok(QuoteDraft {
            vendor: d.vendor.clone(),
            reference,
            received_on: d.today,
            // Without a date the preview says so (`valid_until_missing`); today is a placeholder.
            valid_until: d.valid_until.unwrap_or(d.today),
            spec,
            price: on_demand_sheet(
                d.currency,
                // A bare 0 needs the word "free", as on NodeLedger's own sheet.
                c.opt_price_or_free("price").unwrap_or(Decimal::ZERO),
                d.billing_increment,
                d.stopped_bills_compute,
            ),
            auto_renewal: None,
            early_release: String::new(),
            nodes_available: None,
            lead_time_hours: None,
            notes,
        })
    }
}

/// Whole GPUs (exclusive), or one GPU shared fractionally for a count in (0, 1).
fn gpus(c: &mut Cells<'_>, count: Option<Decimal>) -> (u32, Sharing) {
    match count {
        Some(n) if n > Decimal::ZERO && n < Decimal::ONE => (1, Sharing::Fractional { share: n }),
        Some(n) if n.fract().is_zero() => match n.to_u32() {
            Some(whole) => (whole, Sharing::Exclusive),
            None => {
                c.fail("acceleratorcount", ErrorCode::InvalidInteger);
                (1, Sharing::Exclusive)
            }
        },
        _ => {
            c.fail("acceleratorcount", ErrorCode::InvalidInteger);
            (1, Sharing::Exclusive)
        }
    }
}

/// Per-GPU VRAM from `GpuInfo`; a failure when the cell is unreadable or silent on memory.
fn vram(c: &mut Cells<'_>) -> Decimal {
    match parse_gpu_info(c.raw("gpuinfo")) {
        Ok(info) => info.memory_per_gpu_gib().unwrap_or_else(|| {
            c.fail("gpuinfo", ErrorCode::Required);
            Decimal::ZERO
        }),
        Err(e) => {
            let code = if c.raw("gpuinfo").is_empty() {
                ErrorCode::Required
            } else {
                ErrorCode::InvalidGpuInfo { offset: e.offset }
            };
            c.fail("gpuinfo", code);
            Decimal::ZERO
        }
    }
}

/// The form factor the vendor's own names state (`…_sxm4`, `…-PCIe`), else unknown.
fn form_factor(instance: &str, model: &str) -> Option<FormFactor> {
    let names = format!("{instance} {model}").to_ascii_lowercase();
    if names.contains("sxm") {
        Some(FormFactor::Sxm)
    } else if names.contains("pcie") {
        Some(FormFactor::Pcie)
    } else {
        None
    }
}
