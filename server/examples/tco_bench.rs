//! Benchmark of the cost comparison's core: the TCO engine plus its database read for 10,000
//! quotes, against the bare SQL read of the same rows, in one run (goal: at most 3×).
//!
//! `cargo run --release -p server --example tco_bench [QUOTES]`

use app::{
    domain::{
        quotes::{Date, NodeSpec, QuoteDraft, Sharing, Workload, WorkloadKind},
        tco::{Assumptions, BillingIncrement, Currency, Fee, PriceBasis, PriceSheet, TotalWork, estimate},
    },
    store,
};
use rust_decimal::Decimal;
use std::time::{Duration, Instant};

fn draft(i: usize) -> QuoteDraft {
    let gpus = [1u32, 2, 4, 8][i % 4];
    let (model, vram) = [
        ("A10 24GB", 24),
        ("L40S 48GB", 48),
        ("A100 80GB", 80),
        ("H100 80GB", 80),
    ][i % 4];
    QuoteDraft {
        vendor: format!("Vendor {}", i % 5),
        reference: format!("Q-{i:05}"),
        received_on: Date::new(2026, 11, 1).expect("date"),
        valid_until: Date::new(2099, 12, 31).expect("date"),
        spec: NodeSpec::new(model, gpus, Decimal::from(vram), Sharing::Exclusive),
        price: PriceSheet {
            currency: Currency::parse("CNY").expect("CNY"),
            basis: PriceBasis::PerGpu,
            on_demand_hourly: Some(Decimal::new(150 + (i as i64 * 37) % 3850, 2)),
            billing_increment: BillingIncrement::MINUTE,
            minimum_billable_hours: Decimal::ONE,
            monthly_price: i.is_multiple_of(3).then(|| Decimal::from(9000 + i as i64 % 5000)),
            monthly_basis: None,
            commitment_months: i.is_multiple_of(3).then_some(1),
            package_period: None,
            early_release_refund: None,
            stopped_bills_compute: i.is_multiple_of(2),
            stopped_compute_share: None,
            stopped_hourly: None,
            stopped_bills_disk: true,
            stopped_bills_ip: true,
            disk_price_gb_month: Decimal::new(35, 2),
            snapshot_price_gb_month: Decimal::new(12, 2),
            egress_price_gb: Decimal::new(80, 2),
            free_egress_gb: Decimal::from(100),
            egress_tiers: Vec::new(),
            ingress_tiers: Vec::new(),
            traffic_period: None,
            ingress_price_gb: Decimal::ZERO,
            public_ip_hourly: Decimal::new(2, 2),
            other_fees: vec![Fee {
                label: "setup".into(),
                amount: Decimal::from(500),
            }],
            not_stated: Vec::new(),
        },
        auto_renewal: None,
        early_release: String::new(),
        nodes_available: None,
        lead_time_hours: None,
        notes: String::new(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let count: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let dir = std::env::temp_dir().join(format!("nl-tco-bench-{}", std::process::id()));
    let db = store::connect(dir.join("bench.db").to_str().expect("utf-8 path"))
        .await
        .expect("database");
    let mut tx = store::begin_write(&db).await.expect("tx");
    let team = store::teams::insert(&mut tx, "Bench")
        .await
        .expect("team")
        .expect("new team");
    tx.commit().await.expect("commit");
    let drafts: Vec<QuoteDraft> = (0..count).map(draft).collect();
    let rows: Vec<(u64, &QuoteDraft)> = drafts.iter().enumerate().map(|(i, d)| (i as u64 + 2, d)).collect();
    store::quotes::save_import(&db, team, &rows, None)
        .await
        .expect("import");

    let workload = Workload {
        gpus_needed: 4,
        total_work: Some(TotalWork {
            amount: Decimal::from(50_000_000),
            unit: "tokens".into(),
        }),
        ..workload_record()
    }
    .to_tco();
    let assumptions = Assumptions {
        setup_h: Decimal::ONE,
        data_prep_h: Decimal::new(5, 1),
        download_h: Decimal::new(5, 1),
        export_h: Decimal::new(5, 1),
        idle_h: Decimal::ONE,
        stopped_h: Decimal::from(8),
        rerun_share: Decimal::new(1, 1),
        egress_gb: Decimal::from(160),
        ingress_gb: Decimal::from(200),
        snapshot_gb: Decimal::from(60),
        snapshot_months: Decimal::ONE,
        nodes: None,
        efficiency: Decimal::new(9, 1),
        measured_throughput_per_s: Some(Decimal::from(120)),
        n_run: None,
        efficiency_by_nodes: Vec::new(),
    };

    let bare_sql = "SELECT r.quote_id, r.id, r.revision, r.body FROM quote_revisions r
         JOIN quotes q ON q.id = r.quote_id AND r.revision = q.latest_revision
         WHERE r.team_id = ? ORDER BY r.node_hourly_micros, r.id";
    let (mut bare, mut engine) = (Duration::MAX, Duration::MAX);
    let (mut n_bare, mut n_engine) = (0, 0);
    for _ in 0..5 {
        let t = Instant::now();
        let rows: Vec<(i64, i64, i64, String)> =
            sqlx::query_as(bare_sql).bind(team).fetch_all(&db).await.expect("read");
        n_bare = rows.iter().filter(|r| !r.3.is_empty()).count();
        bare = bare.min(t.elapsed());

        let t = Instant::now();
        let quotes = store::quotes::latest_all(&db, team).await.expect("read");
        n_engine = quotes
            .iter()
            .filter(|q| estimate(&q.draft.price, &q.draft.spec.shape(), &workload, &assumptions).is_ok())
            .count();
        engine = engine.min(t.elapsed());
    }
    let ratio = engine.as_secs_f64() / bare.as_secs_f64();
    println!("quotes: {n_bare} read, {n_engine} costed");
    println!("bare SQL read:               {:>8.1} ms", bare.as_secs_f64() * 1e3);
    println!(
        "read + decode + TCO engine:  {:>8.1} ms ({:.1} µs per quote)",
        engine.as_secs_f64() * 1e3,
        engine.as_secs_f64() * 1e6 / count as f64
    );
    println!(
        "ratio: {ratio:.2}× (goal ≤ 3×): {}",
        if ratio <= 3.0 { "PASS" } else { "MISS" }
    );
    whole_comparison(&db, team, &workload_record()).await;
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The workload the whole comparison is for: 20 GiB on one GPU for 72 hours.
fn workload_record() -> Workload {
    Workload {
        name: "bench".into(),
        kind: WorkloadKind::Training,
        model: String::new(),
        precision: String::new(),
        vram_peak_gib: Decimal::from(20),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 1,
        run_hours: Some(Decimal::from(72)),
        total_work: None,
        data_gb: Decimal::from(200),
        checkpoint_gb: Decimal::from(60),
        headroom_pct: Decimal::from(20),
        gpu_use: app::domain::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

/// This process's memory in MiB: `VmRSS` now or `VmHWM` at its peak.
fn memory_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            l.strip_prefix(field)?
                .strip_prefix(':')?
                .split_whitespace()
                .next()?
                .parse::<f64>()
                .ok()
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The comparison as the cost and plan pages compute it (read, cost, rank, the page's rows,
/// then the rental plan), three times, with its time and the memory it holds.
async fn whole_comparison(db: &store::Db, team: i64, workload: &Workload) {
    let mut tx = store::begin_write(db).await.expect("tx");
    let id = store::workloads::insert(&mut tx, team, workload, None)
        .await
        .expect("workload")
        .expect("a new workload");
    tx.commit().await.expect("commit");
    let before = memory_mib("VmRSS");
    let mut kept = Vec::new();
    for i in 0..3 {
        let request = app::services::tco::CostRequest::from_query(&format!("workload={id}&setup_h={i}"));
        let t = Instant::now();
        let c = app::services::tco::compare(db, team, &request, app::i18n::Locale::En, false)
            .await
            .expect("comparison");
        let compared = t.elapsed();
        let planned = app::services::tco::planned(db, team, &c, 1_796_000_000)
            .await
            .expect("plan");
        println!(
            "whole comparison: {} rows in {:.0} ms, plan {} in {:.0} ms more; holding {:.0} MiB (peak {:.0} MiB)",
            c.view.rows.len(),
            compared.as_secs_f64() * 1e3,
            if planned.is_some() { "made" } else { "none" },
            (t.elapsed() - compared).as_secs_f64() * 1e3,
            memory_mib("VmRSS") - before,
            memory_mib("VmHWM"),
        );
        kept.push(c);
    }
}
