//! The quote import use case (`services::quote_import`, behind the import page and the CLI)
//! against real SQLite with the real migrations: what is imported, what is refused and why, and
//! that a refused file leaves nothing behind.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::{
        quotes::{Date, ErrorCode},
        tco::Currency,
    },
    i18n::Locale,
    services::quote_import::{self, ImportSettings, ProblemKind, RowProblem},
    store::{
        self,
        quotes::{PriceConversion, QuoteFilter, QuoteSort, SaveImportError},
    },
};
use sqlx::SqlitePool;

const CLEAN: &[u8] = include_bytes!("../domain/src/quotes/fixtures/nodeledger_quotes.csv");
const ONE_BAD_ROW: &[u8] = include_bytes!("../domain/src/quotes/fixtures/nodeledger_one_bad_row.csv");
const LAMBDA: &[u8] = include_bytes!("../domain/src/quotes/fixtures/lambda_vms.csv");

fn today() -> Date {
    Date::parse("2026-11-29").unwrap()
}

fn settings(vendor: Option<&str>) -> ImportSettings {
    ImportSettings {
        format: None,
        vendor: vendor.map(str::to_owned),
        currency: Currency::USD,
        valid_until: Some(Date::parse("2026-12-29").unwrap()),
        max_bytes: 1 << 20,
    }
}

async fn team(pool: &SqlitePool, name: &str) -> i64 {
    let mut tx = store::begin_write(pool).await.unwrap();
    let id = store::teams::insert(&mut tx, name).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    id
}

/// How many quotes the team holds (expired ones too).
async fn stored(pool: &SqlitePool, team_id: i64) -> i64 {
    let filter = QuoteFilter {
        include_expired: true,
        ..QuoteFilter::default()
    };
    let (_, total) = store::quotes::list(
        pool,
        team_id,
        &filter,
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        today(),
        0,
        50,
    )
    .await
    .unwrap();
    total
}

/// Checks `bytes` and saves them into the team; panics if the file has a row in error.
async fn import(pool: &SqlitePool, team_id: i64, bytes: &[u8], vendor: Option<&str>) -> Result<usize, SaveImportError> {
    let file = quote_import::check(bytes, &settings(vendor), today()).unwrap();
    let rows = file.ready_to_save().expect("a file without errors");
    quote_import::save(pool, team_id, &rows, None).await
}

#[sqlx::test(migrations = "../migrations")]
async fn every_row_of_a_clean_file_is_imported_with_its_vendors(pool: SqlitePool) {
    let gpu = team(&pool, "GPU").await;
    assert_eq!(import(&pool, gpu, CLEAN, None).await.unwrap(), 3);
    assert_eq!(stored(&pool, gpu).await, 3);
    let vendors: Vec<String> = store::vendors::list(&pool, gpu)
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(vendors.len(), 3, "{vendors:?}");
    assert!(vendors.iter().any(|v| v == "德讯电讯"), "{vendors:?}");

    // A SkyPilot catalog: every accelerator row becomes a quote of the vendor given.
    let lambda = quote_import::check(LAMBDA, &settings(Some("Lambda")), today()).unwrap();
    let rows = lambda.ready_to_save().unwrap();
    assert_eq!(
        quote_import::save(&pool, gpu, &rows, None).await.unwrap(),
        lambda.rows()
    );
    assert_eq!(stored(&pool, gpu).await, 3 + i64::try_from(lambda.rows()).unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_file_with_a_bad_row_is_refused_with_the_row_and_its_reason(pool: SqlitePool) {
    let gpu = team(&pool, "GPU").await;
    let file = quote_import::check(ONE_BAD_ROW, &settings(None), today()).unwrap();
    assert_eq!((file.ready(), file.bad_rows()), (2, 1));
    let problems = file.problems();
    assert_eq!(
        problems,
        vec![RowProblem {
            line: 3,
            column: Some("spec.vram_gib".into()),
            kind: ProblemKind::Invalid(ErrorCode::InvalidNumber),
        }]
    );
    assert_eq!(
        problems[0].message(Locale::En),
        "Not a number: use digits and a dot, e.g. 1234.50."
    );
    // The two good rows cannot be saved without the bad one: nothing reaches the database.
    assert!(file.ready_to_save().is_none());
    assert_eq!(stored(&pool, gpu).await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_row_the_database_refuses_leaves_nothing_half_written(pool: SqlitePool) {
    let gpu = team(&pool, "GPU").await;
    // The clean file's second quote (line 3) alone is stored first.
    let text = std::str::from_utf8(CLEAN).unwrap();
    let mut lines = text.lines();
    let second_only = format!("{}\n{}\n", lines.next().unwrap(), lines.nth(1).unwrap());
    assert_eq!(import(&pool, gpu, second_only.as_bytes(), None).await.unwrap(), 1);
    let vendors_before = store::vendors::list(&pool, gpu).await.unwrap().len();

    // The whole file: line 2 is new, line 3 is already stored. Line 2 is not kept either, and
    // the vendor it would have created is not left behind.
    let again = import(&pool, gpu, CLEAN, None).await;
    assert!(
        matches!(again, Err(SaveImportError::DuplicateReference { line: 3 })),
        "{again:?}"
    );
    assert_eq!(stored(&pool, gpu).await, 1);
    assert_eq!(store::vendors::list(&pool, gpu).await.unwrap().len(), vendors_before);
}
