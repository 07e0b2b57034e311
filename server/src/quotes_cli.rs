//! `nodeledger quotes import|export`: quotes from and to CSV, for scripts and bulk loads.

use app::{
    domain::{
        quotes::{self, CsvFormat, ImportDefaults},
        tco::Currency,
    },
    i18n::Locale,
    pages::quotes::text,
    store::{
        self,
        quotes::{PriceConversion, QuoteFilter, QuoteSort},
    },
};
use clap::{Subcommand, ValueEnum};
use std::{path::PathBuf, time::Instant};

/// Quote commands.
#[derive(Subcommand, Debug)]
pub enum QuotesCommand {
    /// Import quotes from a CSV file: NodeLedger's own format or a SkyPilot catalog `vms.csv`.
    /// All or nothing: any bad row stores nothing (every error is listed with line and column).
    Import {
        /// The CSV file.
        file: PathBuf,
        /// Team that receives the quotes.
        #[arg(long)]
        team: String,
        /// Vendor of every quote (required for SkyPilot catalogs, which do not name one).
        #[arg(long)]
        vendor: Option<String>,
        /// File layout.
        #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
        format: FormatArg,
        /// Currency of a SkyPilot catalog's prices.
        #[arg(long, default_value = "USD")]
        currency: String,
        /// Days a SkyPilot catalog price stays valid from today.
        #[arg(long, default_value_t = 30)]
        valid_days: u32,
        /// Check the file and report, store nothing.
        #[arg(long)]
        dry_run: bool,
    },
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

/// `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Detect from the header line.
    Auto,
    /// NodeLedger's CSV format.
    Csv,
    /// SkyPilot catalog `vms.csv`.
    Skypilot,
}

/// Largest file accepted (about 150,000 quotes in our format; larger catalogs: split them).
pub const MAX_IMPORT_BYTES: usize = 32 * 1024 * 1024;

/// Runs a quote command; `Err` is the message for standard error with exit code 2 (bad input)
/// or 1 (anything else).
pub async fn run(db_path: &str, command: QuotesCommand) -> Result<(), (u8, String)> {
    let fail = |e: &dyn std::fmt::Display| (1, e.to_string());
    match command {
        QuotesCommand::Import {
            file,
            team,
            vendor,
            format,
            currency,
            valid_days,
            dry_run,
        } => {
            let started = Instant::now();
            let size = std::fs::metadata(&file)
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
            let bytes = std::fs::read(&file).map_err(|e| (2, format!("{}: {e}", file.display())))?;
            let currency = Currency::parse(&currency).map_err(|_| (2, format!("unknown currency {currency:?}")))?;
            let format = match format {
                FormatArg::Auto => None,
                FormatArg::Csv => Some(CsvFormat::NodeLedger),
                FormatArg::Skypilot => Some(CsvFormat::SkyPilot),
            };
            let mut defaults = ImportDefaults::new(vendor.as_deref().unwrap_or(""), store::today(), valid_days);
            defaults.currency = currency;
            defaults.max_bytes = MAX_IMPORT_BYTES;
            // Messages are the browser preview's, in English; columns as named in the file.
            let preview = quotes::import(&bytes, format, &defaults)
                .map_err(|e| (2, format!("{}: {}", file.display(), text::import_error(Locale::En, &e))))?;
            if preview.format == CsvFormat::SkyPilot && vendor.is_none() {
                return Err((2, "a SkyPilot catalog names no vendor: pass --vendor NAME".into()));
            }
            let mut errors = 0;
            for row in &preview.rows {
                for e in &row.errors {
                    errors += 1;
                    let column = e.column.as_deref().map(|c| format!(", column {c}")).unwrap_or_default();
                    eprintln!(
                        "{}: line {}{column}: {}",
                        file.display(),
                        e.line,
                        text::field_error(Locale::En, &e.code)
                    );
                }
            }
            for (line, reason) in &preview.skipped {
                eprintln!(
                    "{}: line {line}: skipped: {}",
                    file.display(),
                    text::skip_reason(Locale::En, *reason)
                );
            }
            if errors > 0 {
                return Err((2, format!("{errors} error(s); nothing imported")));
            }
            let rows: Vec<(u64, &quotes::QuoteDraft)> = preview
                .rows
                .iter()
                .filter_map(|r| r.draft.as_ref().map(|d| (r.line, d)))
                .collect();
            if dry_run {
                println!(
                    "{}: {} quote(s) OK ({:?} format), {} skipped; dry run, nothing stored",
                    file.display(),
                    rows.len(),
                    preview.format,
                    preview.skipped.len()
                );
                return Ok(());
            }
            let pool = store::connect(db_path).await.map_err(|e| fail(&e))?;
            let team_id = store::teams::id_by_name(&pool, &team)
                .await
                .map_err(|e| fail(&e))?
                .ok_or_else(|| (2, format!("no team called {team:?}")))?;
            let saved = store::quotes::save_import(&pool, team_id, &rows, None)
                .await
                .map_err(|e| match e {
                    store::quotes::SaveImportError::Sql(e) => fail(&e),
                    other => (2, format!("{}: {other}; nothing imported", file.display())),
                })?;
            println!(
                "imported {saved} quote(s) into team {team} in {} ms ({} skipped)",
                started.elapsed().as_millis(),
                preview.skipped.len()
            );
            pool.close().await;
            Ok(())
        }
        QuotesCommand::Export { team, include_expired } => {
            let pool = store::connect(db_path).await.map_err(|e| fail(&e))?;
            let team_id = store::teams::id_by_name(&pool, &team)
                .await
                .map_err(|e| fail(&e))?
                .ok_or_else(|| (2, format!("no team called {team:?}")))?;
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
    }
}
