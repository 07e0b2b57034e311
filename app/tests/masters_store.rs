//! Store tests for a team's reference data — vendors, workloads, exchange rates and the base
//! currency — against real SQLite with the real migrations. Every query is scoped to a team.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::{
        quotes::{SupportScope, Vendor, Workload, WorkloadKind},
        tco::{Currency, ExchangeRate},
    },
    store::{self, Updated},
};
use rust_decimal::Decimal;
use sqlx::SqlitePool;

async fn team(pool: &SqlitePool, name: &str) -> i64 {
    let mut tx = store::begin_write(pool).await.unwrap();
    let id = store::teams::insert(&mut tx, name).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    id
}

fn vendor(name: &str) -> Vendor {
    Vendor {
        name: name.into(),
        website: "https://gpu.example.com".into(),
        contact: "sales@gpu.example.com".into(),
        notes: "Quotes in CNY".into(),
        support_scope: SupportScope {
            provisioning: Some(true),
            troubleshooting: Some(false),
            notes: "7×24".into(),
            ..SupportScope::default()
        },
    }
}

fn workload(name: &str) -> Workload {
    Workload {
        name: name.into(),
        kind: WorkloadKind::Training,
        model: "Qwen2-7B".into(),
        precision: "bf16".into(),
        vram_peak_gib: Decimal::new(185, 1),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 2,
        run_hours: Some(Decimal::from(72)),
        total_work: None,
        data_gb: Decimal::from(120),
        checkpoint_gb: Decimal::from(60),
        headroom_pct: Decimal::from(20),
        gpu_use: app::domain::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

fn rate(from: Currency, to: Currency, rate: &str, date: &str) -> ExchangeRate {
    ExchangeRate {
        from,
        to,
        rate: rate.parse().unwrap(),
        date: date.into(),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn vendors_are_added_edited_and_kept_per_team(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    let id = store::vendors::insert(&mut tx, a, &vendor("GPU Cloud"))
        .await
        .unwrap()
        .unwrap();
    let other = store::vendors::insert(&mut tx, a, &vendor("Node Farm"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        store::vendors::insert(&mut tx, a, &vendor("gpu cloud")).await.unwrap(),
        None,
        "names are unique without regard to case"
    );
    assert!(
        store::vendors::insert(&mut tx, b, &vendor("GPU Cloud"))
            .await
            .unwrap()
            .is_some(),
        "another team may use the name"
    );
    tx.commit().await.unwrap();

    let row = store::vendors::by_id(&pool, a, id).await.unwrap().unwrap();
    assert_eq!(row.vendor(), vendor("GPU Cloud"), "the support scope round-trips");
    assert_eq!(
        store::vendors::by_id(&pool, b, id).await.unwrap(),
        None,
        "team B cannot read team A's vendor"
    );

    let mut changed = vendor("GPU Cloud Ltd");
    changed.support_scope.environment_setup = Some(true);
    let mut tx = store::begin_write(&pool).await.unwrap();
    assert_eq!(
        store::vendors::update(&mut tx, a, id, &changed).await.unwrap(),
        Updated::Done
    );
    assert_eq!(
        store::vendors::update(&mut tx, a, other, &vendor("gpu cloud ltd"))
            .await
            .unwrap(),
        Updated::NameTaken
    );
    assert_eq!(
        store::vendors::update(&mut tx, b, id, &vendor("Stolen")).await.unwrap(),
        Updated::NotFound
    );
    tx.commit().await.unwrap();

    let names: Vec<String> = store::vendors::list(&pool, a)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(names, ["GPU Cloud Ltd", "Node Farm"]);
    assert_eq!(
        store::vendors::by_id(&pool, a, id).await.unwrap().unwrap().vendor(),
        changed
    );
    let b_names: Vec<String> = store::vendors::list(&pool, b)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(b_names, ["GPU Cloud"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_vendor_created_by_an_import_has_no_stated_support(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    let id = store::vendors::id_or_create(&mut tx, a, "Lambda").await.unwrap();
    tx.commit().await.unwrap();
    let v = store::vendors::by_id(&pool, a, id).await.unwrap().unwrap().vendor();
    assert_eq!(
        v,
        Vendor {
            name: "Lambda".into(),
            ..Vendor::default()
        }
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn workloads_are_stored_whole_and_kept_per_team(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    let id = store::workloads::insert(&mut tx, a, &workload("LoRA fine-tune"), None)
        .await
        .unwrap()
        .unwrap();
    let other = store::workloads::insert(&mut tx, a, &workload("Chat service"), None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        store::workloads::insert(&mut tx, a, &workload("lora FINE-tune"), None)
            .await
            .unwrap(),
        None
    );
    tx.commit().await.unwrap();

    let stored = store::workloads::by_id(&pool, a, id).await.unwrap().unwrap();
    assert_eq!((stored.id, stored.record), (id, workload("LoRA fine-tune")));
    assert_eq!(store::workloads::by_id(&pool, b, id).await.unwrap(), None);
    assert!(store::workloads::list(&pool, b).await.unwrap().is_empty());

    let mut changed = workload("LoRA fine-tune v2");
    changed.headroom_pct = Decimal::from(25);
    let mut tx = store::begin_write(&pool).await.unwrap();
    assert_eq!(
        store::workloads::update(&mut tx, a, id, &changed).await.unwrap(),
        Updated::Done
    );
    assert_eq!(
        store::workloads::update(&mut tx, a, other, &workload("LORA fine-tune v2"))
            .await
            .unwrap(),
        Updated::NameTaken
    );
    assert_eq!(
        store::workloads::update(&mut tx, b, id, &workload("X")).await.unwrap(),
        Updated::NotFound
    );
    tx.commit().await.unwrap();

    let list = store::workloads::list(&pool, a).await.unwrap();
    let names: Vec<&str> = list.iter().map(|w| w.record.name.as_str()).collect();
    assert_eq!(names, ["Chat service", "LoRA fine-tune v2"]);
    assert_eq!(list[1].record, changed);
}

#[sqlx::test(migrations = "../migrations")]
async fn rates_are_listed_by_pair_newest_first_and_kept_per_team(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    for r in [
        rate(Currency::USD, Currency::CNY, "7.10", "2026-11-01"),
        rate(Currency::USD, Currency::CNY, "7.21", "2026-11-20"),
        rate(Currency::EUR, Currency::CNY, "7.80", "2026-11-15"),
    ] {
        assert!(store::exchange_rates::insert(&mut tx, a, &r).await.unwrap().is_some());
    }
    let again = rate(Currency::USD, Currency::CNY, "7.30", "2026-11-20");
    assert_eq!(
        store::exchange_rates::insert(&mut tx, a, &again).await.unwrap(),
        None,
        "one rate per pair and date"
    );
    tx.commit().await.unwrap();

    let listed: Vec<(String, String)> = store::exchange_rates::list(&pool, a)
        .await
        .unwrap()
        .into_iter()
        .map(|s| (format!("{}{}", s.record.from, s.record.to), s.record.date))
        .collect();
    let expected = [
        ("EURCNY", "2026-11-15"),
        ("USDCNY", "2026-11-20"),
        ("USDCNY", "2026-11-01"),
    ];
    assert_eq!(listed, expected.map(|(p, d)| (p.to_string(), d.to_string())));
    let newest = &store::exchange_rates::list(&pool, a).await.unwrap()[1].record;
    assert_eq!(newest.rate, Decimal::new(721, 2), "the exact rate comes back");
    assert!(store::exchange_rates::list(&pool, b).await.unwrap().is_empty());

    let same: Result<Option<i64>, _> = async {
        let mut tx = store::begin_write(&pool).await?;
        store::exchange_rates::insert(&mut tx, a, &rate(Currency::CNY, Currency::CNY, "1", "2026-11-20")).await
    }
    .await;
    assert!(same.is_err(), "the table refuses a rate from a currency to itself");
}

#[sqlx::test(migrations = "../migrations")]
async fn each_team_has_its_own_base_currency(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    assert_eq!(
        store::teams::base_currency(&pool, a).await.unwrap(),
        Some(Currency::CNY),
        "CNY by default"
    );
    let mut tx = store::begin_write(&pool).await.unwrap();
    assert!(
        store::teams::set_base_currency(&mut tx, a, Currency::USD)
            .await
            .unwrap()
    );
    assert!(
        !store::teams::set_base_currency(&mut tx, 9999, Currency::USD)
            .await
            .unwrap()
    );
    tx.commit().await.unwrap();
    assert_eq!(
        store::teams::base_currency(&pool, a).await.unwrap(),
        Some(Currency::USD)
    );
    assert_eq!(
        store::teams::base_currency(&pool, b).await.unwrap(),
        Some(Currency::CNY)
    );
    assert_eq!(store::teams::base_currency(&pool, 9999).await.unwrap(), None);
}
