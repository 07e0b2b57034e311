//! Vendor quotes for GPU nodes: the node spec, the draft quote and its validation, the
//! workload-vs-node requirement check, and CSV import/export.
//!
//! Pure logic, as for the rest of `domain`: parsers take bytes, today's date is passed in,
//! money is an exact [`rust_decimal::Decimal`], and every error is a code plus the field it
//! concerns ([`ErrorCode`], [`FieldError`], [`ImportError`], [`RowError`]) for the UI to
//! translate. Prices reuse the cost model's [`crate::tco::PriceSheet`].
//!
//! What a quote states: the GPU (model, VRAM, PCIe or not, sliced or not), the software (OS,
//! driver, CUDA, cuDNN, Docker, SSH, ROCm), storage and network (disks, snapshots, object storage,
//! bandwidth), billing (auto-renewal, early release), what the node really offers (usable VRAM,
//! memory pooling, interconnect, cross-node network, RDMA) and the vendor's support scope; a
//! workload needs its measured VRAM peak plus 15–25 % headroom.
//!
//! # NodeLedger CSV format
//!
//! UTF-8 (a byte-order mark is allowed), comma-separated, one header line, one row per quote.
//! Columns are matched by header name (case ignored, any order); unknown columns are listed in
//! [`ImportPreview::ignored_columns`]. Cells are trimmed. An empty optional cell means “not
//! stated” (`None`), or 0 for a price. Every optional yes/no column is three-state: empty =
//! not stated, otherwise `true/false/yes/no/1/0/是/否`; the export writes `true`, `false` or
//! an empty cell, so “not stated” round-trips. Dates: `YYYY-MM-DD`. Decimals: `1234.50`.
//! Enumerations are snake case.
//!
//! | Column | Req. | Content |
//! |---|---|---|
//! | `vendor` | yes | vendor name |
//! | `reference` | yes | quote number / instance type; unique per vendor within a file |
//! | `received_on`, `valid_until` | yes | dates; `valid_until` ≥ `received_on` |
//! | `auto_renewal` | | boolean |
//! | `early_release`, `notes` | | text (≤ 4000 characters) |
//! | `nodes_available` | | nodes the vendor can provide at once, 1–10,000 (empty = not stated: asked as a vendor question) |
//! | `lead_time_hours` | | hours until the nodes are ready, ≤ 8,760; `3 d` and `3 天` read as 72 (empty = not stated: asked as a vendor question) |
//! | `spec.gpu_model` | yes | free text, e.g. `A100 80GB` |
//! | `spec.gpus_per_node` | yes | 1–64 |
//! | `spec.vram_gib` | yes | per GPU, (0, 1024] |
//! | `spec.usable_vram_gib` | | ≤ `spec.vram_gib` |
//! | `spec.form_factor` | | `pcie`, `sxm`, `other` |
//! | `spec.sharing` | yes | `exclusive`, `vgpu`, `mig:<profile>`, `fractional:<share in (0,1)>` |
//! | `spec.interconnect` | | `none`, `pcie`, `nvlink`, `nvswitch` |
//! | `spec.network_gbps` | | cross-node Gbit/s |
//! | `spec.rdma`, `spec.memory_pooling` | | boolean (empty = not stated) |
//! | `spec.cpu_model` | | text |
//! | `spec.vcpus` | | whole number |
//! | `spec.ram_gib` | | GiB |
//! | `spec.system_disk_gb`, `spec.data_disk_gb` | | GB |
//! | `spec.system_disk_type`, `spec.data_disk_type` | | text |
//! | `spec.data_disk_survives_release`, `spec.temp_disk_wiped` | | boolean |
//! | `spec.public_bandwidth_mbps` | | Mbit/s |
//! | `spec.internal_bandwidth_gbps` | | Gbit/s |
//! | `spec.region`, `spec.os`, `spec.nvidia_driver`, `spec.cuda`, `spec.cudnn`, `spec.rocm` | | text |
//! | `spec.docker_allowed`, `spec.root_ssh`, `spec.snapshots`, `spec.object_storage` | | boolean |
//! | `currency` | yes | ISO 4217 code, e.g. `CNY` |
//! | `price.basis` | yes | `per_node`, `per_gpu` |
//! | `price.on_demand_hourly` | yes | ≥ 0, ≤ 1,000,000 |
//! | `price.billing_increment` | yes | `second`, `minute`, `hour` |
//! | `price.minimum_billable_hours` | | hours (empty = 0) |
//! | `price.monthly_price`, `price.commitment_months` | | both or neither; term 1–120 months |
//! | `price.monthly_basis` | | `per_node`, `per_gpu`; empty = the monthly price is on `price.basis` (1,200 on `per_gpu` = 1,200 per GPU-month). Export writes it with every monthly price, so a quote stored before the column existed (monthly price per node) keeps its meaning |
//! | `price.stopped_bills_compute` | | boolean (empty = not stated: stopped hours are costed as not billing compute and flagged, the total is a lower bound, and it becomes a question for the vendor) |
//! | `price.disk_price_gb_month`, `price.snapshot_price_gb_month` | | per GB-month (empty = not stated: costed at 0 and flagged, the total is a lower bound) |
//! | `price.egress_price_gb`, `price.ingress_price_gb` | | per GB (empty = not stated, as above) |
//! | `price.free_egress_gb` | | GB (empty = 0) |
//! | `price.public_ip_hourly` | | per node-hour (empty = 0) |
//! | `price.other_fees` | | `label=amount;label=amount` (labels without `;` or `=`) |
//!
//! [`COLUMNS`] lists the same columns with their required flag; [`export`] writes all of them
//! in that order. SkyPilot catalogs are described in `csv_import/skypilot.rs`: `Price` is per
//! node-hour; VRAM per GPU comes from `GpuInfo`; reference = `InstanceType@Region[/Zone]`.

mod check;
mod csv_export;
mod csv_import;
mod date;
mod draft;
mod error;
mod fields;
mod gpu_models;
mod input;
mod limits;
mod rules;
mod spec;
mod validate;
mod vendor;
mod workload;

#[cfg(test)]
mod tests;

pub use check::{
    Figure, LOW_CONCURRENCY_MAX, Note, Requirement, RequirementKind, RequirementStatus, Unstated, check,
    price_questions, supply_questions, vendor_questions,
};
pub use csv_export::{cell as field_text, export};
pub use csv_import::{
    COLUMNS, Column, CsvFormat, DEFAULT_MAX_BYTES, GpuInfo, GpuInfoEntry, GpuInfoError, ImportDefaults, ImportError,
    ImportPreview, ImportRow, MAX_ROWS, RowError, SkipReason, detect_format, import, is_free_word, parse_gpu_info,
    parse_hours,
};
pub use date::{Date, is_expired};
pub use draft::{QuoteDraft, hourly_equivalent_per_node, hourly_per_gpu, hourly_per_node};
pub use error::{ErrorCode, FieldError};
pub use fields::{QUOTE_FIELDS, is_quote_field};
pub use gpu_models::{GpuSuggestion, gpu_model_suggestions, suggested_vram_gib};
pub use input::QuoteInput;
pub use limits::*;
pub use spec::{FormFactor, Interconnect, NodeSpec, Sharing, VramSource, mig_profile_gib};
pub use validate::{validate, validate_vendor};
pub use vendor::{SupportScope, Vendor};
pub use workload::{Deadline, SCHEDULE_RANGE, Workload, WorkloadKind};
