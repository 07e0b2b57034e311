//! Valid inputs that tests change one field of.

use crate::quotes::{Date, ImportDefaults, NodeSpec, QuoteDraft, Sharing, Workload, WorkloadKind};
use rust_decimal_macros::dec;

/// A date from a literal known to be valid.
pub(super) fn date(text: &str) -> Date {
    Date::parse(text).expect("test date")
}

pub(super) use crate::tco::test_fixtures::sheet;

/// An exclusive node with `gpus` GPUs of 80 GiB, nothing else stated.
pub(super) fn spec(gpus: u32) -> NodeSpec {
    NodeSpec::new("A100 80GB", gpus, dec!(80), Sharing::Exclusive)
}

/// A valid quote: 8 × A100 80GB at 220.00 CNY per node-hour, valid for April 2025.
pub(super) fn draft() -> QuoteDraft {
    QuoteDraft {
        vendor: "德讯电讯".into(),
        reference: "DX-2025-0412".into(),
        received_on: date("2025-04-01"),
        valid_until: date("2025-04-30"),
        spec: spec(8),
        price: sheet(dec!(220.00)),
        auto_renewal: None,
        early_release: String::new(),
        nodes_available: None,
        lead_time_hours: None,
        notes: String::new(),
    }
}

/// A measured training workload: 40 GiB peak, 20 % headroom, one GPU, 72 hours.
pub(super) fn workload() -> Workload {
    Workload {
        name: "qwen-7b-lora".into(),
        kind: WorkloadKind::Training,
        model: "Qwen2-7B".into(),
        precision: "bf16".into(),
        vram_peak_gib: dec!(40),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 1,
        run_hours: Some(dec!(72)),
        total_work: None,
        data_gb: dec!(50),
        checkpoint_gb: dec!(30),
        headroom_pct: dec!(20),
        gpu_use: crate::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

/// Import defaults for vendor `vendor` on 2025-05-01, catalog prices valid until 2025-05-31.
pub(super) fn defaults(vendor: &str) -> ImportDefaults {
    ImportDefaults::new(vendor, date("2025-05-01"), Some(date("2025-05-31")))
}
