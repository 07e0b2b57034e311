//! The comparison built from loaded data, without a database: the seed's worked example
//! (72 h at 10.00 = 720.00 ranks above 24 h on four GPUs at 35.00 = 840.00) and its variants.

use super::*;
use crate::domain::{
    quotes::{NodeSpec, QuoteDraft, Sharing, WorkloadKind},
    tco::{AssumptionOverrides, BillingIncrement, PriceSheet, TotalWork, on_demand_sheet},
};
use crate::services::tco::{TypedThroughput, scenario_of};
use rust_decimal_macros::dec;

fn date(text: &str) -> Date {
    Date::parse(text).expect("test date")
}

/// A CNY per-node sheet at `hourly`, billed per hour, nothing else (and nothing left unstated).
fn sheet(hourly: Decimal) -> PriceSheet {
    PriceSheet {
        not_stated: Vec::new(),
        ..on_demand_sheet(Currency::CNY, hourly, BillingIncrement::HOUR, false)
    }
}

/// Quote `id`, revision 1: one node of `gpus` × `gpu` with `vram` GiB at `hourly` CNY.
fn quote(id: i64, gpu: &str, gpus: u32, vram: Decimal, hourly: Decimal, valid_until: &str) -> QuoteSummary {
    QuoteSummary {
        quote_id: id,
        revision_id: id * 10,
        revision: 1,
        draft: QuoteDraft {
            vendor: format!("Vendor {id}"),
            reference: format!("R-{id}"),
            received_on: date("2025-04-01"),
            valid_until: date(valid_until),
            spec: NodeSpec::new(gpu, gpus, vram, Sharing::Exclusive),
            price: sheet(hourly),
            auto_renewal: None,
            early_release: String::new(),
            nodes_available: None,
            lead_time_hours: None,
            notes: String::new(),
        },
    }
}

/// 259.2 M tokens on one GPU with 40 GiB peak (48 GiB with headroom), 30 GB checkpoints.
fn workload() -> Workload {
    Workload {
        name: "qwen-7b-lora".into(),
        kind: WorkloadKind::Training,
        model: "Qwen2-7B".into(),
        precision: "bf16".into(),
        vram_peak_gib: dec!(40),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 1,
        run_hours: None,
        total_work: Some(TotalWork {
            amount: dec!(259_200_000),
            unit: "tokens".into(),
        }),
        data_gb: dec!(0),
        checkpoint_gb: dec!(30),
        headroom_pct: dec!(20),
        gpu_use: crate::domain::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

/// The seed's worked example as quotes: 1 × A100 at 10.00/h (1), 4 × A100 at 35.00/h (2),
/// an expired one at 1.00/h (3), a 24 GiB card too small for the workload (4); budget 800.
fn loaded() -> Loaded {
    let quotes = vec![
        quote(1, "A100 80GB", 1, dec!(80), dec!(10.00), "2025-04-30"),
        quote(2, "A100 80GB", 4, dec!(80), dec!(35.00), "2025-04-30"),
        quote(3, "A100 80GB", 1, dec!(80), dec!(1.00), "2025-04-01"),
        quote(4, "L4", 1, dec!(24), dec!(2.00), "2025-04-30"),
    ];
    Loaded {
        workloads: vec![Stored {
            id: 5,
            record: workload(),
        }],
        base: Currency::CNY,
        rates: Vec::new(),
        stale_rate_days: 30,
        budget: Some((dec!(800), Currency::CNY)),
        today: date("2025-04-15"),
        labels: std::sync::Arc::new(
            quotes
                .iter()
                .map(|q| (q.quote_id, format!("Vendor {}", q.quote_id)))
                .collect(),
        ),
        quotes: std::sync::Arc::new(quotes),
        runs: RunPool::default(),
    }
}

fn built(query: &str) -> Computed {
    build(&CostRequest::from_query(query), loaded(), Locale::En, false)
}

const NO_EXTRAS: &str = "setup_h=0&rerun_pct=0&egress_gb=0";

#[test]
fn seventy_two_hours_at_10_rank_above_twenty_four_hours_on_four_gpus_at_35() {
    let c = built(&format!("{NO_EXTRAS}&tp_1=1000&tp_2=3000"));
    let choice = |id: i64| c.view.quotes.iter().find(|q| q.id == id).cloned().unwrap();
    assert!(choice(1).selected && choice(2).selected);
    assert!(
        !choice(3).selected && choice(3).expired,
        "expired: not compared by default"
    );
    assert!(
        !choice(4).selected && choice(4).fails_requirements,
        "48 GiB needed, 24 GiB offered"
    );
    let totals: Vec<_> = c
        .view
        .rows
        .iter()
        .map(|r| (r.rank, r.quote_id, r.total_exact.as_str()))
        .collect();
    assert_eq!(totals, [(1, 1, "720"), (2, 2, "840")]);
    let (cheap, dear) = (&c.costed[0].ranked.estimate, &c.costed[1].ranked.estimate);
    assert_eq!((cheap.compute_h, dear.compute_h), (dec!(72), dec!(24)));
    assert_eq!(
        cheap.cost_per_unit.as_ref().map(|u| (u.per, u.amount)),
        Some((1_000_000, dec!(2.7778)))
    );
    assert_eq!(
        (cheap.effective_gpu_hour_price, dear.effective_gpu_hour_price),
        (Some(dec!(10.0000)), Some(dec!(8.7500)))
    );
    assert_eq!((c.view.rows[0].over_budget, c.view.rows[1].over_budget), (false, true));
    assert!(c.costed.iter().all(|q| q.throughput_typed && q.runs_used.is_empty()));
    // A typed throughput is stated, not measured: its own group, labelled so on the row.
    assert!(
        c.costed
            .iter()
            .all(|q| q.ranked.group == crate::domain::tco::QuoteGroup::Stated)
    );
    assert!(c.view.rows.iter().all(|r| r.stated && !r.estimated));
    assert!(
        c.view.rows[0]
            .to_measure
            .as_deref()
            .is_some_and(|m| m.starts_with("Stated, not measured"))
    );
    assert_eq!(c.view.query, format!("{NO_EXTRAS}&tp_1=1000&tp_2=3000"));
    let (_, result) = scenario_of(&c, c.rates.clone()).unwrap();
    let rerun: Vec<_> = result.quotes.iter().map(|q| q.estimate.total).collect();
    assert_eq!(
        rerun,
        [dec!(720.00), dec!(840.00)],
        "the exported scenario reproduces the page"
    );
}

#[test]
fn defaults_come_from_the_workload_and_add_setup_and_reruns() {
    let c = built("tp_1=1000");
    let value = |n: &str| c.view.assumptions.iter().find(|f| f.name == n).unwrap().value.clone();
    assert_eq!(
        (value("setup_h"), value("rerun_pct"), value("efficiency_pct")),
        ("1".into(), "10".into(), "90".into())
    );
    assert_eq!(
        (value("egress_gb"), value("ingress_gb"), value("nodes")),
        ("30".into(), "0".into(), String::new())
    );
    let shared = c.shared.clone().unwrap();
    assert_eq!(
        (shared.rerun_share, shared.efficiency, shared.egress_gb),
        (dec!(0.1), dec!(0.9), dec!(30))
    );
    // Quote 1: 1 h setup + 72 h × 1.1 = 80.2 h, billed as 81 whole hours at 10.00.
    let one = &c.costed[0].ranked.estimate;
    assert_eq!(
        (one.busy_h, one.billable_h, one.total),
        (dec!(80.2), dec!(81), dec!(810.00))
    );
    // Quote 2 has no throughput: the workload states no run length, so it cannot be costed.
    assert_eq!(c.view.problems.len(), 1);
    assert_eq!(c.view.problems[0].label, "Vendor 2");
    assert!(
        c.view.problems[0]
            .message
            .starts_with("No valid run measures this quote")
    );
}

#[test]
fn a_bad_quote_input_is_that_quotes_problem_and_a_picked_expired_quote_is_costed_with_a_warning() {
    let c = built(&format!("{NO_EXTRAS}&picked=1&q=1&q=3&tp_1=1000&idle_h_1=x&tp_3=1000"));
    assert_eq!(c.view.problems.len(), 1);
    assert_eq!(c.view.problems[0].label, "Vendor 1");
    assert!(c.view.problems[0].message.ends_with(": Enter a number, e.g. 1.5."));
    assert_eq!(c.view.rows.len(), 1);
    let row = &c.view.rows[0];
    assert_eq!((row.quote_id, row.total_exact.as_str()), (3, "72"));
    assert_eq!(row.warnings[0], Locale::En.t(Msg::TcoWExpired));
}

#[test]
fn bad_shared_assumptions_are_named_and_nothing_is_costed() {
    let c = built("setup_h=-1&rerun_pct=100&efficiency_pct=0&nodes=0&egress_gb=lots&tp_1=1000");
    assert!(c.shared.is_none() && c.costed.is_empty() && c.view.rows.is_empty());
    assert_eq!(c.view.quotes.len(), 4, "the quotes are still offered");
    let field = |n: &str| c.view.assumptions.iter().find(|f| f.name == n).cloned().unwrap();
    assert_eq!(field("setup_h").error.as_deref(), Some("Must not be negative."));
    assert_eq!(
        field("rerun_pct").error.as_deref(),
        Some("Must lie between 0 and 99 %.")
    );
    assert_eq!(
        field("efficiency_pct").error.as_deref(),
        Some("Must lie between 1 and 100 %.")
    );
    assert!(field("nodes").error.unwrap().contains("1 to 64"));
    assert_eq!(
        (field("egress_gb").value.as_str(), field("egress_gb").error.as_deref()),
        ("lots", Some("Enter a number, e.g. 1.5."))
    );
    let ok = built("rerun_pct=25&efficiency_pct=80&nodes=2").shared.unwrap();
    assert_eq!(
        (ok.rerun_share, ok.efficiency, ok.nodes, ok.setup_h),
        (Decimal::new(25, 2), Decimal::new(8, 1), Some(2), Decimal::ONE)
    );
}

#[test]
fn a_request_built_in_code_compares_like_its_query() {
    let request = CostRequest::new(Some(5))
        .with_quotes([1, 2])
        .with_shared(AssumptionOverrides {
            setup_h: Some(Decimal::ZERO),
            rerun_share: Some(Decimal::ZERO),
            egress_gb: Some(Decimal::ZERO),
            ..AssumptionOverrides::default()
        })
        .with_throughput(
            1,
            TypedThroughput {
                per_s: dec!(1000),
                n_run: None,
            },
        )
        .with_throughput(
            2,
            TypedThroughput {
                per_s: dec!(3000),
                n_run: None,
            },
        );
    let coded = build(&request, loaded(), Locale::En, false);
    let read = built(&request.to_query());
    assert_eq!(coded.view.rows, read.view.rows);
    assert_eq!(coded.view.assumptions, read.view.assumptions);
    assert_eq!(coded.view.rows[0].total_exact, "720");
}

#[test]
fn a_budget_in_another_currency_without_a_rate_is_flagged_not_converted_1_to_1() {
    let mut l = loaded();
    l.budget = Some((dec!(100), Currency::parse("USD").unwrap()));
    let c = build(&CostRequest::from_query("tp_1=1000&tp_2=3000"), l, Locale::En, false);
    assert!(c.view.budget_unconverted);
    assert!(c.view.budget_note.unwrap().contains("USD"));
    assert!(c.view.rows.iter().all(|r| !r.over_budget));
}

/// The plan is made only with quotes that pass the workload check and are still valid; it
/// starts at the earliest start or now, whichever is later, with the workload's deadline, the
/// budget in the base currency, and each vendor's stated supply.
#[test]
fn the_plan_file_keeps_the_quotes_that_fit_and_starts_no_earlier_than_now() {
    use crate::domain::{quotes::Deadline, rentals::Instant};
    use crate::services::tco::plan::plan_file;
    let mut data = loaded();
    data.workloads[0].record.deadline = Some(Deadline::HoursFromStart(dec!(48)));
    data.workloads[0].record.earliest_start = Some(1_000);
    std::sync::Arc::make_mut(&mut data.quotes)[1].draft.nodes_available = Some(2);
    std::sync::Arc::make_mut(&mut data.quotes)[1].draft.lead_time_hours = Some(dec!(24));
    let query = format!("{NO_EXTRAS}&picked=1&q=1&q=2&q=3&q=4&tp_1=1000&tp_2=3000&tp_3=1000&tp_4=1000");
    let c = build(&CostRequest::from_query(&query), data, Locale::En, false);
    assert_eq!(c.costed.len(), 4, "every picked quote is costed: {:?}", c.view.problems);
    let (scenario, _) = scenario_of(&c, Vec::new()).expect("a scenario");
    let now = 1_765_000_000;
    let file = plan_file(&c, &scenario, now).expect("a plan file");
    let ids: Vec<&str> = file.scenario.quotes.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["1", "2"], "the expired quote and the card too small are left out");
    let plan = &file.plan;
    assert_eq!(plan.earliest_start, Some(Instant::from_unix(now)));
    assert_eq!((plan.deadline_h, plan.deadline_at), (Some(dec!(48)), None));
    assert_eq!(plan.budget, Some(dec!(800)));
    let supply: Vec<(&str, Option<u32>, Option<Decimal>)> = plan
        .quotes
        .iter()
        .map(|q| (q.id.as_str(), q.capacity_nodes, q.lead_time_h))
        .collect();
    assert_eq!(supply, [("1", None, None), ("2", Some(2), Some(dec!(24)))]);
    let later = plan_file(&c, &scenario, 500).expect("a plan file");
    assert_eq!(
        later.plan.earliest_start,
        Some(Instant::from_unix(1_000)),
        "a later start is kept"
    );
}

/// The plan page, its chart and the export read one cached comparison: its clones share one
/// plan, planned once from the first request's moment.
#[sqlx::test(migrations = "../migrations")]
async fn the_clones_of_one_comparison_share_one_plan(db: crate::store::Db) {
    use crate::services::tco::planned;
    let mut data = loaded();
    data.workloads[0].record.earliest_start = Some(1_000);
    let query = format!("{NO_EXTRAS}&picked=1&q=1&q=2&tp_1=1000&tp_2=3000");
    let c = build(&CostRequest::from_query(&query), data, Locale::En, false);
    let first = planned(&db, 1, &c, 1_765_000_000)
        .await
        .expect("planned")
        .expect("a plan");
    let chart = c.clone();
    let again = planned(&db, 1, &chart, 1_765_000_060)
        .await
        .expect("planned")
        .expect("a plan");
    let start = |p: &crate::services::tco::Planned| p.file.as_ref().and_then(|f| f.plan.earliest_start);
    assert_eq!(
        start(&first),
        start(&again),
        "planned once, from the first request's moment"
    );
    assert_eq!(first.plan, again.plan);
    // A comparison built anew plans anew.
    let fresh = build(&CostRequest::from_query(&query), loaded(), Locale::En, false);
    let later = planned(&db, 1, &fresh, 1_765_000_060)
        .await
        .expect("planned")
        .expect("a plan");
    assert_ne!(start(&first), start(&later));
}

/// A catalogue of 2,500 quotes at distinct prices, in no order of price: the comparison keeps
/// the 1,000 cheapest, ranked 1 to 1,000, and counts the 1,500 it let go; a page shows the first
/// hundred of them and says so.
#[test]
fn a_large_catalogue_keeps_the_thousand_cheapest_ranked_and_counts_the_rest() {
    let mut l = loaded();
    l.quotes = std::sync::Arc::new(
        (0..2_500)
            .map(|i| {
                let cents = 1_000 + (i * 7_919) % 2_500;
                quote(i + 1, "A100 80GB", 1, dec!(80), Decimal::new(cents, 2), "2025-04-30")
            })
            .collect(),
    );
    l.labels = std::sync::Arc::new(
        l.quotes
            .iter()
            .map(|q| (q.quote_id, format!("Q{}", q.quote_id)))
            .collect(),
    );
    l.workloads[0].record.run_hours = Some(dec!(10));
    l.workloads[0].record.total_work = None;
    let c = build(&CostRequest::from_query(NO_EXTRAS), l, Locale::En, false);
    assert_eq!(
        (c.costed.len(), c.view.rows.len(), c.view.rows_not_shown),
        (KEPT_ROWS, KEPT_ROWS, 1_500)
    );
    let prices: Vec<Decimal> = c
        .costed
        .iter()
        .map(|q| q.draft.price.on_demand_hourly.unwrap())
        .collect();
    let cheapest: Vec<Decimal> = (0..1_000).map(|k| Decimal::new(1_000 + k, 2)).collect();
    assert_eq!(prices, cheapest, "the thousand cheapest, cheapest first");
    assert!(c.costed.iter().zip(1..).all(|(q, rank)| q.ranked.rank == rank));
    assert!(
        c.costed.iter().all(|q| q.what_if.is_some()),
        "the kept quotes have their what-if"
    );
    assert_eq!(c.let_go_eligible, 1_500, "every one let go could have been planned");
    let page = c.view.page_view();
    assert_eq!(
        (page.rows.len(), page.rows_not_shown, page.rows_in_exports),
        (100, 2_400, 1_000)
    );
    assert_eq!(page.quotes.len(), 100, "the picker lists the quotes ranked on the page");
    assert_eq!(page.choices_not_shown, 2_400);
}
