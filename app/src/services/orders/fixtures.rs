//! Loaded rows for the pure builders' tests: a two-GPU training workload, an A10 quote, runs
//! and order revisions as the store gives them.

use crate::{
    domain::{
        orders::OrderState,
        quotes::{self, Date, NodeSpec, QuoteDraft, Sharing, Workload, WorkloadKind},
        runs::RunStatus,
        tco::{BillingIncrement, Currency, PriceSheet, on_demand_sheet},
    },
    store::orders::OrderRow,
    views::RunSummary,
};

use rust_decimal_macros::dec;

/// A fine-tune on two GPUs (so the multi-GPU items apply).
pub(super) fn workload() -> Workload {
    Workload {
        name: "vision fine-tune".into(),
        kind: WorkloadKind::Training,
        model: "ViT-L".into(),
        precision: "bf16".into(),
        vram_peak_gib: dec!(20),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 2,
        run_hours: Some(dec!(72)),
        total_work: None,
        data_gb: dec!(50),
        checkpoint_gb: dec!(30),
        headroom_pct: dec!(20),
        gpu_use: crate::domain::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

/// Two A10 per node, valid until `valid_until`.
pub(super) fn quote(valid_until: &str) -> QuoteDraft {
    let mut spec = NodeSpec::new("A10", 2, dec!(24), Sharing::Exclusive);
    spec.form_factor = Some(quotes::FormFactor::Pcie);
    QuoteDraft {
        vendor: "Acme".into(),
        reference: "A10-2".into(),
        received_on: Date::parse("2026-11-01").expect("date"),
        valid_until: Date::parse(valid_until).expect("date"),
        spec,
        price: PriceSheet {
            not_stated: Vec::new(),
            ..on_demand_sheet(Currency::CNY, dec!(9.50), BillingIncrement::MINUTE, false)
        },
        auto_renewal: None,
        early_release: String::new(),
        nodes_available: None,
        lead_time_hours: None,
        notes: String::new(),
    }
}

/// A run of quote `quote_id` with its verdict.
pub(super) fn run(id: i64, quote_id: Option<i64>, status: RunStatus) -> RunSummary {
    RunSummary {
        id,
        quote_id,
        revision: quote_id.map(|_| 1),
        quote_label: quote_id.map(|q| format!("Acme · Q-{q}")),
        node_label: "node-a".into(),
        workload_id: Some(3),
        workload_name: Some("vision fine-tune".into()),
        nodes: 1,
        status,
        source_format: "nvidia_smi".into(),
        gpu_name: Some("NVIDIA A10".into()),
        gpu_count: Some(2),
        gpus_used: None,
        has_telemetry: true,
        throughput_value: None,
        throughput_unit: None,
        concurrency: None,
        latencies: std::collections::BTreeMap::new(),
        total_tokens_per_s: None,
        on_curve: status != RunStatus::Invalid,
        created_by: "Eng".into(),
        created_at: "2026-11-02T09:00:00Z".into(),
    }
}

/// Revision `revision` of order 42 ("GPU nodes for Q3", workload 3) in `state`, created by
/// user 1; submitted by user 1 unless a draft.
pub(super) fn order_row(revision: i64, state: OrderState) -> OrderRow {
    let submitted = state != OrderState::Draft;
    let decided = matches!(state, OrderState::Approved | OrderState::Rejected);
    OrderRow {
        id: 42,
        title: "GPU nodes for Q3".into(),
        workload_id: 3,
        created_by: 1,
        revision_id: 100 + revision,
        revision,
        state,
        content: r#"{"workload_id":3}"#.into(),
        submitted_by: submitted.then_some(1),
        submitted_at: submitted.then(|| "2026-11-03T10:00:00Z".into()),
        decided_by: decided.then_some(2),
        decided_at: decided.then(|| "2026-11-04T11:00:00Z".into()),
        decision_comment: if decided { "within budget".into() } else { String::new() },
        content_hash: (state == OrderState::Approved).then(|| "c".repeat(64)),
    }
}
