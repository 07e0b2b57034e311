//! The planner's speed goal: 200 quotes × 1–16 nodes × 2 pricings in under 200 ms (release),
//! against the plain comparison of the same quotes (`run_scenario`). Run by `.ci/bench-plan`:
//! `cargo run --release -p app --example plan_bench [QUOTES]`.

use nodeledger_domain::plan::{PlanRequest, PlanScenario, QuoteSupply, RunFigure, plan};
use nodeledger_domain::tco::{
    Assumptions, BillingIncrement, Currency, Demand, Fee, NodeShape, PriceBasis, PriceSheet, Quote, Scenario,
    TotalWork, run_scenario,
};
use rust_decimal::Decimal;
use std::time::{Duration, Instant};

/// A quote `i` of `n`: prices, node sizes, throughputs, capacities and lead times spread
/// deterministically, every sheet with a monthly commitment, every fifth with three runs.
fn quote(i: u32) -> (Quote, QuoteSupply) {
    let gpus = [1u32, 2, 4, 8][(i % 4) as usize];
    let hourly = Decimal::new(i64::from(300 + (i * 37) % 3700), 2);
    let sheet = PriceSheet {
        currency: Currency::CNY,
        basis: PriceBasis::PerGpu,
        on_demand_hourly: Some(hourly),
        billing_increment: BillingIncrement::MINUTE,
        minimum_billable_hours: Decimal::ONE,
        monthly_price: Some(Decimal::from(900 + (i * 53) % 2000)),
        monthly_basis: Some(PriceBasis::PerGpu),
        commitment_months: Some(1),
        package_period: None,
        early_release_refund: None,
        stopped_bills_compute: i.is_multiple_of(2),
        stopped_compute_share: None,
        stopped_hourly: None,
        stopped_bills_disk: true,
        stopped_bills_ip: true,
        disk_price_gb_month: Decimal::new(35, 2),
        snapshot_price_gb_month: Decimal::new(10, 2),
        egress_price_gb: Decimal::new(80, 2),
        free_egress_gb: Decimal::from(100),
        egress_tiers: Vec::new(),
        ingress_tiers: Vec::new(),
        traffic_period: None,
        ingress_price_gb: Decimal::ZERO,
        public_ip_hourly: Decimal::new(5, 2),
        other_fees: vec![Fee {
            label: "setup".into(),
            amount: Decimal::from(500),
        }],
        not_stated: Vec::new(),
    };
    let per_s = Decimal::from(800 * gpus + (i * 91) % 1000);
    let q = Quote {
        id: format!("q{i:03}"),
        label: format!("Vendor {}, {gpus}× GPU", i % 17),
        price_sheet: sheet,
        node_shape: NodeShape {
            gpus_per_node: gpus,
            system_disk_gb: Decimal::from(100),
            data_disk_gb: Decimal::from(500),
        },
        measured_throughput_per_s: Some(per_s),
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    };
    let runs = if i.is_multiple_of(5) {
        vec![
            RunFigure { per_s, nodes: 1 },
            RunFigure {
                per_s: per_s * Decimal::new(9, 1),
                nodes: 1,
            },
            RunFigure {
                per_s: per_s * Decimal::new(17, 1),
                nodes: 2,
            },
        ]
    } else {
        Vec::new()
    };
    let supply = QuoteSupply {
        id: q.id.clone(),
        capacity_nodes: (!i.is_multiple_of(3)).then_some(16),
        lead_time_h: (!i.is_multiple_of(4)).then(|| Decimal::from(i % 72)),
        lead_time_days: None,
        runs,
    };
    (q, supply)
}

fn input(n: u32) -> PlanScenario {
    let (quotes, supply): (Vec<_>, Vec<_>) = (0..n).map(quote).unzip();
    PlanScenario {
        scenario: Scenario {
            title: Some("bench".into()),
            workload: Demand {
                gpu_use: None,
                gpus_needed: 1,
                total_work: Some(TotalWork {
                    amount: Decimal::from(2_000_000_000u64),
                    unit: "tokens".into(),
                }),
                run_hours: None,
            },
            assumptions: Assumptions {
                setup_h: Decimal::from(2),
                data_prep_h: Decimal::ONE,
                rerun_share: Decimal::new(1, 1),
                egress_gb: Decimal::from(200),
                efficiency: Decimal::new(9, 1),
                ..Assumptions::NONE
            },
            quotes,
            compare_currency: None,
            exchange_rates: Vec::new(),
        },
        plan: PlanRequest {
            deadline_h: Some(Decimal::from(120)),
            budget: Some(Decimal::from(60_000)),
            quotes: supply,
            ..PlanRequest::default()
        },
    }
}

/// The median of `rounds` timings of `f`.
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[rounds / 2]
}

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let input = input(n);
    let result = plan(&input).expect("the bench input plans");
    let plans = result.front.len() + result.others.len();
    let planned = median(9, || {
        std::hint::black_box(plan(std::hint::black_box(&input)).expect("plans"));
    });
    let compared = median(9, || {
        std::hint::black_box(run_scenario(std::hint::black_box(&input.scenario)).expect("ranks"));
    });
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "quotes: {n}, plans: {plans} (front {}), node cap 16, 2 pricings",
        result.front.len()
    );
    println!("plan:         {:8.2} ms (median of 9; goal < 200 ms)", ms(planned));
    println!(
        "run_scenario: {:8.2} ms (median of 9, the plain comparison)",
        ms(compared)
    );
    println!("ratio:        {:8.1}×", ms(planned) / ms(compared));
    if let Some(rec) = &result.recommended {
        println!(
            "recommended:  {} × {} {:?}: {} s, {} {}",
            rec.plan.quote_id,
            rec.plan.nodes,
            rec.plan.pricing,
            rec.plan.finish_s,
            rec.plan.compared_total,
            result.compare_currency
        );
    }
    if planned > Duration::from_millis(200) {
        eprintln!("over the 200 ms goal");
        std::process::exit(1);
    }
}
