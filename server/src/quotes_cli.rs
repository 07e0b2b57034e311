//! `nodeledger quotes import|export`: quotes from and to CSV, for scripts and bulk loads. The
//! import is the same use case as the import page ([`app::services::quote_import`]).

use crate::cli_args;
use app::{
    domain::{
        quotes::{self, CsvFormat, Date},
        tco::Currency,
    },
    i18n::Locale,
    services::quote_import::{self, CatalogValidity, CheckedFile, ImportSettings, Refusal},
    store::{
        self,
        quotes::{PriceConversion, QuoteFilter, QuoteSort, SaveImportError},
    },
    texts::quotes as text,
};
use clap::{Args, Subcommand};
use std::{
    path::{Path, PathBuf},
    time::Instant,
};

/// Quote commands.
#[derive(Subcommand, Debug)]
pub enum QuotesCommand {
    /// Import quotes from a CSV file: NodeLedger's own format or a SkyPilot catalog `vms.csv`.
    /// All or nothing: any bad row stores nothing (every error is listed with line and column).
    Import(ImportArgs),
    /// Export the team's current quotes (latest revisions) as CSV in NodeLedger's format.
    Export {
        /// The team.
        #[arg(long)]
        team: String,
        /// Include expired quotes.
        #[arg(long)]
        include_expired: bool,
    },
}

/// `quotes import`: the file and how to read it.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The CSV file.
    pub file: PathBuf,
    /// Team that receives the quotes.
    #[arg(long)]
    pub team: String,
    /// Vendor of every quote (required for SkyPilot catalogs, which do not name one).
    #[arg(long)]
    pub vendor: Option<String>,
    /// File layout.
    #[arg(long, default_value = cli_args::AUTO,
          value_parser = cli_args::named_or(cli_args::AUTO, CsvFormat::ALL, CsvFormat::as_str))]
    pub format: cli_args::Choice<CsvFormat>,
    /// Currency of a SkyPilot catalog's prices.
    #[arg(long, default_value = "USD")]
    pub currency: String,
    /// Last day a SkyPilot catalog's prices hold, YYYY-MM-DD (required for SkyPilot catalogs,
    /// which state no validity date; our own CSV format carries its dates row by row).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    pub valid_until: Option<Date>,
    /// Check the file and report, store nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Largest file accepted (about 150,000 quotes in our format; larger catalogs: split them).
pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

/// Runs a quote command; `Err` is the message for standard error with exit code 2 (bad input)
/// or 1 (anything else).
pub async fn run(db_path: &str, command: QuotesCommand) -> Result<(), (u8, String)> {
    match command {
        QuotesCommand::Import(args) => import(db_path, args).await,
        QuotesCommand::Export { team, include_expired } => export(db_path, &team, include_expired).await,
    }
}

/// An error of the database or the file system: exit code 1.
fn fail(e: &dyn std::fmt::Display) -> (u8, String) {
    (1, e.to_string())
}

/// Checks the file and, unless `--dry-run`, saves it all or nothing; every problem goes to
/// standard error with its line.
async fn import(db_path: &str, args: ImportArgs) -> Result<(), (u8, String)> {
    let started = Instant::now();
    let shown = args.file.display().to_string();
    let bytes = read_limited(&args.file)?;
    let currency = Currency::parse(&args.currency).map_err(|_| (2, format!("unknown currency {:?}", args.currency)))?;
    let settings = ImportSettings {
        format: args.format.0,
        vendor: args.vendor,
        currency,
        valid_until: args.valid_until,
        max_bytes: MAX_IMPORT_BYTES,
    };
    let file = quote_import::check(&bytes, &settings, store::today()).map_err(|refusal| match refusal {
        // Messages are the browser preview's, in English; columns as named in the file.
        Refusal::File(e) => (2, format!("{shown}: {}", text::import_error(Locale::En, &e))),
        Refusal::VendorRequired => (2, "a SkyPilot catalog names no vendor: pass --vendor NAME".into()),
    })?;
    report_problems(&shown, &file);
    match file.validity() {
        CatalogValidity::Missing => {
            return Err((
                2,
                format!(
                    "{shown}: a SkyPilot catalog states no validity date: pass --valid-until YYYY-MM-DD \
                     (the last day its prices hold); nothing imported"
                ),
            ));
        }
        CatalogValidity::BeforeToday(d) => {
            return Err((
                2,
                format!("{shown}: --valid-until {d} is before today: expired prices are not imported"),
            ));
        }
        CatalogValidity::InFile | CatalogValidity::Given(_) => {}
    }
    let Some(rows) = file.ready_to_save() else {
        return Err((2, format!("{} error(s); nothing imported", file.error_count())));
    };
    if args.dry_run {
        println!(
            "{shown}: {} quote(s) OK ({:?} format), {} skipped; dry run, nothing stored",
            rows.len(),
            file.format(),
            file.skipped()
        );
        return Ok(());
    }
    let pool = store::connect(db_path).await.map_err(|e| fail(&e))?;
    let team_id = team_id(&pool, &args.team).await?;
    let saved = quote_import::save(&pool, team_id, &rows, None)
        .await
        .map_err(|e| match e {
            SaveImportError::Sql(e) => fail(&e),
            other => (2, format!("{shown}: {other}; nothing imported")),
        })?;
    println!(
        "imported {saved} quote(s) into team {} in {} ms ({} skipped)",
        args.team,
        started.elapsed().as_millis(),
        file.skipped()
    );
    pool.close().await;
    Ok(())
}

/// `--valid-until`: a calendar date written YYYY-MM-DD.
fn parse_date(text: &str) -> Result<Date, String> {
    Date::parse(text).map_err(|_| format!("{text:?} is not a date: use YYYY-MM-DD"))
}

/// The file's bytes, refused with exit code 2 when it is over [`MAX_IMPORT_BYTES`].
fn read_limited(file: &Path) -> Result<Vec<u8>, (u8, String)> {
    let size = std::fs::metadata(file)
        .map_err(|e| (2, format!("{}: {e}", file.display())))?
        .len();
    if size > MAX_IMPORT_BYTES as u64 {
        return Err((
            2,
            format!(
                "{}: {size} bytes is over the {} MiB limit; split the file",
                file.display(),
                MAX_IMPORT_BYTES >> 20
            ),
        ));
    }
    std::fs::read(file).map_err(|e| (2, format!("{}: {e}", file.display())))
}

/// Every error (`file: line N, column C: why`), then every skipped row, on standard error.
fn report_problems(shown: &str, file: &CheckedFile) {
    for p in file.problems() {
        let message = p.message(Locale::En);
        if p.is_error() {
            let column = p.column.as_deref().map(|c| format!(", column {c}")).unwrap_or_default();
            eprintln!("{shown}: line {}{column}: {message}", p.line);
        } else {
            eprintln!("{shown}: line {}: skipped: {message}", p.line);
        }
    }
}

/// The id of the team called `name`; exit code 2 when there is none.
async fn team_id(pool: &store::Db, name: &str) -> Result<i64, (u8, String)> {
    store::teams::id_by_name(pool, name)
        .await
        .map_err(|e| fail(&e))?
        .ok_or_else(|| (2, format!("no team called {name:?}")))
}

/// Prints the team's current quotes as CSV on standard output.
async fn export(db_path: &str, team: &str, include_expired: bool) -> Result<(), (u8, String)> {
    let pool = store::connect(db_path).await.map_err(|e| fail(&e))?;
    let team_id = team_id(&pool, team).await?;
    let drafts = store::quotes::latest_drafts(
        &pool,
        team_id,
        &QuoteFilter {
            include_expired,
            ..QuoteFilter::default()
        },
        &PriceConversion::AsQuoted,
        QuoteSort::PriceAsc,
        store::today(),
    )
    .await
    .map_err(|e| fail(&e))?;
    print!("{}", quotes::export(&drafts));
    pool.close().await;
    Ok(())
}
