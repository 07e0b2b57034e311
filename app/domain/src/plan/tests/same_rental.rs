//! One cost for one rental: the plan prices a rental on n nodes as the cost engine prices the
//! same scenario with its node count set to n (the figure the cost page shows and the order
//! freezes).

use crate::plan::{PlanRequest, PlanScenario, plan};
use crate::runs::GpuUse;
use crate::tco::{
    Assumptions, Demand, NodeShape, Pricing, Quote, Scenario, TotalWork, run_scenario, test_fixtures::sheet,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn quote(id: &str, gpus: u32, hourly: Decimal, per_s: Option<Decimal>) -> Quote {
    Quote {
        id: id.to_owned(),
        label: id.to_owned(),
        price_sheet: sheet(hourly),
        node_shape: NodeShape {
            gpus_per_node: gpus,
            system_disk_gb: Decimal::ZERO,
            data_disk_gb: Decimal::ZERO,
        },
        measured_throughput_per_s: per_s,
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    }
}

/// One cost for one rental: for a grid of workloads (GPU use × measured or stated) × quotes ×
/// node counts, the plan's on-demand plan on n nodes has the total and hours the cost engine
/// gives the same scenario with the node count set to n — the figure the cost page shows and
/// the order freezes.
#[test]
fn the_plan_and_the_cost_page_price_the_same_rental_alike() {
    let quotes = vec![
        quote("one-gpu", 1, dec!(10.00), Some(dec!(100))),
        quote("eight-gpu", 8, dec!(70.00), Some(dec!(720))),
        quote("four-gpu-estimated", 4, dec!(38.00), None),
    ];
    let mut compared = 0;
    for gpu_use in [GpuUse::TaskPerGpu, GpuUse::OneJob] {
        for measured in [true, false] {
            let workload = Demand {
                gpus_needed: 2,
                total_work: measured.then(|| TotalWork {
                    amount: dec!(8_640_000),
                    unit: "tokens".to_owned(),
                }),
                run_hours: Some(dec!(30)),
                gpu_use: Some(gpu_use),
            };
            let scenario = Scenario {
                title: None,
                workload,
                assumptions: Assumptions {
                    setup_h: dec!(1.5),
                    rerun_share: dec!(0.1),
                    nodes: None,
                    efficiency: dec!(0.85),
                    ..Assumptions::NONE
                },
                quotes: quotes.clone(),
                compare_currency: None,
                exchange_rates: Vec::new(),
            };
            let planned = plan(&PlanScenario {
                scenario: scenario.clone(),
                plan: PlanRequest {
                    gpu_use,
                    max_nodes: Some(4),
                    ..PlanRequest::default()
                },
            })
            .expect("planned");
            let every = planned.front.iter().chain(&planned.others);
            for p in every.filter(|p| p.pricing == Pricing::OnDemand) {
                let mut page = scenario.clone();
                page.assumptions.nodes = Some(p.nodes);
                page.quotes.retain(|q| q.id == p.quote_id);
                let costed = run_scenario(&page).expect("costed");
                let e = &costed.quotes[0].estimate;
                let at = format!("{gpu_use:?}, measured {measured}, {} × {}", p.quote_id, p.nodes);
                assert_eq!(e.total, p.total, "{at}");
                assert_eq!(e.busy_h, p.busy_h, "{at}");
                compared += 1;
            }
        }
    }
    // 2 GPU uses × 2 kinds of work × (2–4 one-GPU nodes + 1–4 of each other node).
    assert_eq!(compared, 2 * 2 * (3 + 4 + 4));
}
