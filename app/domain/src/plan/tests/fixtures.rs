//! Plan inputs: the buying guide's example file, and small quotes built in code.

use crate::plan::{PlanKey, PlanResult, PlanScenario, QuoteSupply, plan};
use crate::tco::{Assumptions, Demand, NodeShape, Pricing, Quote, Scenario, TotalWork};
use rust_decimal::Decimal;

pub(super) use crate::tco::test_fixtures::sheet;

/// The example file: the buying guide's two quotes (72 h on one card, 24 h on four), 48 h deadline from 2026-12-13T08:00Z, one node each.
pub(super) const EXAMPLE: &str = include_str!("../example-plan.json");

/// The example file, read.
pub(super) fn example() -> PlanScenario {
    serde_json::from_str(EXAMPLE).expect("the example file reads")
}

/// A quote `id` for a `gpus`-GPU node at `hourly` CNY per node-hour, measured at `per_s`.
pub(super) fn quote(id: &str, hourly: Decimal, gpus: u32, per_s: Decimal) -> Quote {
    Quote {
        id: id.to_owned(),
        label: format!("Vendor {id}"),
        price_sheet: sheet(hourly),
        node_shape: NodeShape {
            gpus_per_node: gpus,
            system_disk_gb: Decimal::ZERO,
            data_disk_gb: Decimal::ZERO,
        },
        measured_throughput_per_s: Some(per_s),
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    }
}

/// `amount` tokens on one GPU, no overheads, efficiency `efficiency`, over `quotes`.
pub(super) fn scenario(amount: Decimal, efficiency: Decimal, quotes: Vec<Quote>) -> PlanScenario {
    PlanScenario {
        scenario: Scenario {
            title: None,
            workload: Demand {
                gpu_use: None,
                gpus_needed: 1,
                total_work: Some(TotalWork {
                    amount,
                    unit: "tokens".to_owned(),
                }),
                run_hours: None,
            },
            assumptions: Assumptions {
                efficiency,
                ..Assumptions::NONE
            },
            quotes,
            compare_currency: None,
            exchange_rates: Vec::new(),
        },
        plan: Default::default(),
    }
}

/// Supply facts for quote `id`: capacity and lead time in hours.
pub(super) fn supply(id: &str, capacity: Option<u32>, lead_h: Option<Decimal>) -> QuoteSupply {
    QuoteSupply {
        id: id.to_owned(),
        capacity_nodes: capacity,
        lead_time_h: lead_h,
        ..QuoteSupply::default()
    }
}

/// The key of quote `id` on `nodes` nodes on demand.
pub(super) fn on_demand(id: &str, nodes: u32) -> PlanKey {
    PlanKey {
        quote_id: id.to_owned(),
        nodes,
        pricing: Pricing::OnDemand,
    }
}

/// Plans `s` (panics on an error).
pub(super) fn run(s: &PlanScenario) -> PlanResult {
    plan(s).expect("valid plan input")
}

/// Every plan of the result, front and others.
pub(super) fn all(r: &PlanResult) -> impl Iterator<Item = &crate::plan::Plan> {
    r.front.iter().chain(r.others.iter())
}
