//! Quote store tests against real SQLite with the real migrations.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::quotes::{self, Date, ImportDefaults, QuoteDraft},
    store::{
        self,
        quotes::{PriceConversion, QuoteFilter, QuoteSort, SaveImportError},
    },
};
use rust_decimal::Decimal;
use sqlx::SqlitePool;

const FIXTURE: &[u8] = include_bytes!("../domain/src/quotes/fixtures/nodeledger_quotes.csv");
const LAMBDA: &[u8] = include_bytes!("../domain/src/quotes/fixtures/lambda_vms.csv");

fn day(s: &str) -> Date {
    Date::parse(s).unwrap()
}

fn drafts(bytes: &[u8]) -> Vec<QuoteDraft> {
    let preview = quotes::import(
        bytes,
        None,
        &ImportDefaults::new("Lambda", day("2026-11-29"), Some(day("2026-12-29"))),
    )
    .unwrap();
    assert!(
        preview.is_clean(),
        "{:?}",
        preview.rows.iter().flat_map(|r| &r.errors).collect::<Vec<_>>()
    );
    preview.rows.into_iter().filter_map(|r| r.draft).collect()
}

async fn team(pool: &SqlitePool, name: &str) -> i64 {
    let mut tx = store::begin_write(pool).await.unwrap();
    let id = store::teams::insert(&mut tx, name).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    id
}

async fn save(pool: &SqlitePool, team_id: i64, drafts: &[QuoteDraft]) -> Result<usize, SaveImportError> {
    let rows: Vec<(u64, &QuoteDraft)> = drafts.iter().enumerate().map(|(i, d)| (i as u64 + 2, d)).collect();
    store::quotes::save_import(pool, team_id, &rows, None).await
}

fn all() -> QuoteFilter {
    QuoteFilter {
        include_expired: true,
        ..QuoteFilter::default()
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn imports_are_all_or_nothing_and_team_scoped(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    let quotes = drafts(FIXTURE);
    assert_eq!(save(&pool, a, &quotes).await.unwrap(), quotes.len());

    // The same file again: the first row duplicates a stored quote, nothing more is written.
    let again = save(&pool, a, &quotes).await;
    assert!(
        matches!(again, Err(SaveImportError::DuplicateReference { line: 2 })),
        "{again:?}"
    );
    let (_, total) = store::quotes::list(
        &pool,
        a,
        &all(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    assert_eq!(total as usize, quotes.len());

    // Team B sees none of team A's quotes and can import the same references.
    let (b_rows, b_total) = store::quotes::list(
        &pool,
        b,
        &all(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    assert_eq!((b_rows.len(), b_total), (0, 0));
    save(&pool, b, &quotes).await.unwrap();
    let vendors = store::vendors::list(&pool, a).await.unwrap();
    assert!(!vendors.is_empty(), "vendors created on import");
}

#[sqlx::test(migrations = "../migrations")]
async fn revisions_append_and_are_immutable(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let b = team(&pool, "B").await;
    let mut quote = drafts(FIXTURE).remove(0);
    save(&pool, a, std::slice::from_ref(&quote)).await.unwrap();
    let (rows, _) = store::quotes::list(
        &pool,
        a,
        &all(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    let first = rows.into_iter().find(|r| r.draft.reference == quote.reference).unwrap();
    assert_eq!(first.revision, 1);

    quote.price.on_demand_hourly = Some(Decimal::new(19900, 2));
    let mut tx = store::begin_write(&pool).await.unwrap();
    let (rev, rev_id) = store::quotes::add_revision(&mut tx, a, first.quote_id, &quote, None)
        .await
        .unwrap()
        .unwrap();
    assert!(
        store::quotes::add_revision(&mut tx, b, first.quote_id, &quote, None)
            .await
            .unwrap()
            .is_none(),
        "another team's quote"
    );
    tx.commit().await.unwrap();
    assert_eq!(rev, 2);

    let old = store::quotes::revision(&pool, a, first.revision_id)
        .await
        .unwrap()
        .unwrap();
    assert_ne!(
        old.draft.price.on_demand_hourly,
        Some(Decimal::new(19900, 2)),
        "the old revision stays readable as it was"
    );
    let new = store::quotes::revision(&pool, a, rev_id).await.unwrap().unwrap();
    assert_eq!(new.draft.price.on_demand_hourly, Some(Decimal::new(19900, 2)));
    assert!(
        store::quotes::revision(&pool, b, rev_id).await.unwrap().is_none(),
        "team isolation"
    );

    let (rows, _) = store::quotes::list(
        &pool,
        a,
        &all(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    let listed = rows.iter().find(|r| r.quote_id == first.quote_id).unwrap();
    assert_eq!(listed.revision, 2, "the list shows the latest revision");

    let edit = sqlx::query("UPDATE quote_revisions SET body = '{}' WHERE id = ?")
        .bind(first.revision_id)
        .execute(&pool)
        .await;
    assert!(edit.unwrap_err().to_string().contains("immutable"));
}

#[sqlx::test(migrations = "../migrations")]
async fn filters_sort_and_pages(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let catalog = drafts(LAMBDA);
    save(&pool, a, &catalog).await.unwrap();
    let today = day("2026-11-29");
    let list = |f: QuoteFilter, sort: QuoteSort, page: u32, per: u32| {
        let pool = pool.clone();
        async move {
            store::quotes::list(&pool, a, &f, &PriceConversion::AsQuoted, sort, today, page, per)
                .await
                .unwrap()
        }
    };

    let (rows, total) = list(QuoteFilter::default(), QuoteSort::PriceAsc, 0, 100).await;
    assert_eq!(total as usize, catalog.len(), "valid for 30 days from today");
    let prices: Vec<Decimal> = rows.iter().map(|r| r.draft.hourly_per_node().unwrap()).collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "cheapest first: {prices:?}");
    let (desc, _) = list(QuoteFilter::default(), QuoteSort::PriceDesc, 0, 100).await;
    assert_eq!(desc.first().unwrap().draft.hourly_per_node(), prices.last().copied());

    let (a100, n) = list(
        QuoteFilter {
            gpu_model: Some("a100".into()),
            ..Default::default()
        },
        QuoteSort::PriceAsc,
        0,
        100,
    )
    .await;
    assert!(
        n > 0
            && a100
                .iter()
                .all(|r| r.draft.spec.gpu_model.to_lowercase().contains("a100"))
    );
    let (big, _) = list(
        QuoteFilter {
            min_vram_gib: Some(80),
            ..Default::default()
        },
        QuoteSort::VramDesc,
        0,
        100,
    )
    .await;
    assert!(big.iter().all(|r| r.draft.spec.vram_gib >= Decimal::from(80)));
    let cap = prices[prices.len() / 2];
    let (cheap, _) = list(
        QuoteFilter {
            max_node_hourly: Some(cap),
            ..Default::default()
        },
        QuoteSort::PriceAsc,
        0,
        100,
    )
    .await;
    assert!(!cheap.is_empty() && cheap.iter().all(|r| r.draft.hourly_per_node().unwrap() <= cap));

    let (p0, _) = list(QuoteFilter::default(), QuoteSort::PriceAsc, 0, 2).await;
    let (p1, _) = list(QuoteFilter::default(), QuoteSort::PriceAsc, 1, 2).await;
    assert_eq!(p0.len(), 2);
    assert_ne!(p0[0].revision_id, p1[0].revision_id, "pages do not overlap");

    let later = day("2027-06-01");
    let (current, n) = store::quotes::list(
        &pool,
        a,
        &QuoteFilter::default(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        later,
        0,
        100,
    )
    .await
    .unwrap();
    assert_eq!((current.len(), n), (0, 0), "expired quotes are excluded by default");
}

#[sqlx::test(migrations = "../migrations")]
async fn vendor_gpu_count_region_expiry_and_date_sorts(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let quotes = drafts(FIXTURE);
    save(&pool, a, &quotes).await.unwrap();
    let today = day("2026-11-29");
    let list = |f: QuoteFilter, sort: QuoteSort| {
        let pool = pool.clone();
        async move {
            store::quotes::list(&pool, a, &f, &PriceConversion::AsQuoted, sort, today, 0, 100)
                .await
                .unwrap()
        }
    };
    let count = |pred: &dyn Fn(&QuoteDraft) -> bool| quotes.iter().filter(|d| pred(d)).count() as i64;

    let vendor = quotes[1].vendor.clone();
    let (rows, n) = list(
        QuoteFilter {
            vendor: Some(vendor.clone()),
            ..all()
        },
        QuoteSort::PriceAsc,
    )
    .await;
    assert!(
        n > 0 && n < quotes.len() as i64 && n == count(&|d| d.vendor == vendor),
        "{n}"
    );
    assert!(rows.iter().all(|r| r.draft.vendor == vendor));

    let (rows, n) = list(
        QuoteFilter {
            gpus_per_node: Some(8),
            ..all()
        },
        QuoteSort::PriceAsc,
    )
    .await;
    assert!(n > 0 && n == count(&|d| d.spec.gpus_per_node == 8));
    assert!(rows.iter().all(|r| r.draft.spec.gpus_per_node == 8));

    let (rows, n) = list(
        QuoteFilter {
            region: Some("上海".into()),
            ..all()
        },
        QuoteSort::PriceAsc,
    )
    .await;
    assert!(n > 0 && n == count(&|d| d.spec.region.contains("上海")));
    assert!(rows.iter().all(|r| r.draft.spec.region.contains("上海")));

    // Every quote in the file has expired by `today`: hidden by default, listed on request.
    let (_, hidden) = list(QuoteFilter::default(), QuoteSort::PriceAsc).await;
    assert_eq!(hidden, 0);
    let (rows, shown) = list(all(), QuoteSort::ReceivedDesc).await;
    assert_eq!(shown, quotes.len() as i64);
    assert!(
        rows.windows(2)
            .all(|w| w[0].draft.received_on >= w[1].draft.received_on),
        "newest first"
    );
    let (rows, _) = list(all(), QuoteSort::ValidUntilAsc).await;
    assert!(
        rows.windows(2)
            .all(|w| w[0].draft.valid_until <= w[1].draft.valid_until),
        "soonest to expire first"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn price_filter_and_sort_compare_in_the_base_currency(pool: SqlitePool) {
    use app::domain::tco::{Currency, ExchangeRate};
    let a = team(&pool, "A").await;
    let template = drafts(FIXTURE).remove(0);
    let quote = |reference: &str, currency: Currency, price: &str| {
        let mut d = template.clone();
        d.reference = reference.into();
        d.valid_until = day("2099-12-31");
        d.price.currency = currency;
        d.price.basis = app::domain::tco::PriceBasis::PerNode;
        d.price.on_demand_hourly = Some(price.parse().unwrap());
        d
    };
    let quotes = [
        quote("cny-10", Currency::CNY, "10.00"),
        quote("usd-1", Currency::USD, "1.00"),
        quote("usd-2", Currency::USD, "2.00"),
        quote("eur-1", Currency::EUR, "1.00"),
    ];
    save(&pool, a, &quotes).await.unwrap();
    let rate = ExchangeRate {
        from: Currency::USD,
        to: Currency::CNY,
        rate: "7.2".parse().unwrap(),
        date: "2026-11-20".into(),
    };
    let basis = PriceConversion::new(Some(Currency::CNY), std::slice::from_ref(&rate));
    let refs = |f: QuoteFilter, sort: QuoteSort| {
        let (pool, basis) = (pool.clone(), basis.clone());
        async move {
            let (rows, _) = store::quotes::list(&pool, a, &f, &basis, sort, day("2026-11-29"), 0, 50)
                .await
                .unwrap();
            rows.into_iter().map(|r| r.draft.reference).collect::<Vec<_>>()
        }
    };
    let max = |v: &str| QuoteFilter {
        max_node_hourly: Some(v.parse().unwrap()),
        ..QuoteFilter::default()
    };
    assert_eq!(
        refs(max("8"), QuoteSort::PriceAsc).await,
        ["usd-1"],
        "$1 = ¥7.20 ≤ ¥8; ¥10 is not; EUR has no rate"
    );
    assert_eq!(
        refs(max("7.20"), QuoteSort::PriceAsc).await,
        ["usd-1"],
        "exactly at the limit"
    );
    assert!(refs(max("7.19"), QuoteSort::PriceAsc).await.is_empty());
    assert_eq!(
        refs(max("14.40"), QuoteSort::PriceAsc).await,
        ["usd-1", "cny-10", "usd-2"]
    );
    assert_eq!(
        refs(QuoteFilter::default(), QuoteSort::PriceAsc).await,
        ["usd-1", "cny-10", "usd-2", "eur-1"],
        "no rate: last"
    );
    assert_eq!(
        refs(QuoteFilter::default(), QuoteSort::PriceDesc).await,
        ["usd-2", "cny-10", "usd-1", "eur-1"]
    );

    // The same rate stated the other way round ("1 CNY = 0.125 USD", i.e. $1 = ¥8).
    let inverse = ExchangeRate {
        from: Currency::CNY,
        to: Currency::USD,
        rate: "0.125".parse().unwrap(),
        date: "2026-11-21".into(),
    };
    let basis = PriceConversion::new(Some(Currency::CNY), &[rate, inverse]);
    let (rows, _) = store::quotes::list(
        &pool,
        a,
        &max("8"),
        &basis,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    assert_eq!(rows.len(), 1, "the latest rate of the pair is used: $1 = ¥8 ≤ ¥8");
    assert_eq!(
        store::quotes::unconvertible_currencies(&pool, a, &basis).await.unwrap(),
        ["EUR"]
    );
    assert!(
        store::quotes::unconvertible_currencies(&pool, a, &PriceConversion::AsQuoted)
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn yes_no_facts_keep_not_stated_through_the_store(pool: SqlitePool) {
    let a = team(&pool, "A").await;
    let mut quotes = drafts(FIXTURE);
    // The fixture's first row says RDMA 是 (yes) and nothing about memory pooling.
    assert_eq!((quotes[0].spec.rdma, quotes[0].spec.memory_pooling), (Some(true), None));
    quotes[1].spec.rdma = None;
    quotes[1].spec.memory_pooling = Some(false);
    save(&pool, a, &quotes[..2]).await.unwrap();
    let (rows, _) = store::quotes::list(
        &pool,
        a,
        &all(),
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        day("2026-11-29"),
        0,
        50,
    )
    .await
    .unwrap();
    for q in &quotes[..2] {
        let stored = rows.iter().find(|r| r.draft.reference == q.reference).unwrap();
        let read = store::quotes::revision(&pool, a, stored.revision_id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (read.draft.spec.rdma, read.draft.spec.memory_pooling),
            (q.spec.rdma, q.spec.memory_pooling),
            "{}",
            q.reference
        );
        assert_eq!(read.draft, *q);
    }
    // Not stated is NULL inside the stored body, never `false`.
    let body: String = sqlx::query_scalar(
        "SELECT body FROM quote_revisions r JOIN quotes q ON q.id = r.quote_id WHERE q.reference = ?",
    )
    .bind(&quotes[1].reference)
    .fetch_one(&pool)
    .await
    .unwrap();
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (json["spec"]["rdma"].clone(), json["spec"]["memory_pooling"].clone()),
        (serde_json::Value::Null, serde_json::Value::Bool(false))
    );
}
