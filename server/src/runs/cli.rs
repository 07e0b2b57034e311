//! `nodeledger runs rejudge`: every stored run judged again with today's rules.

use app::{domain::runs::RunStatus, services::runs::rejudge_all, store};
use clap::Subcommand;
use std::process::ExitCode;

/// `nodeledger runs …`.
#[derive(Subcommand, Debug)]
pub enum RunsCommand {
    /// Judge every stored run's canonical record again with today's rules (against its quote
    /// revision and workload) and store the new verdicts and statuses in one transaction.
    /// Prints each run whose status changed.
    Rejudge,
}

pub(crate) const fn word(s: RunStatus) -> &'static str {
    match s {
        RunStatus::Valid => "valid",
        RunStatus::Warn => "warn",
        RunStatus::Invalid => "invalid",
    }
}

/// Runs a `runs` command; exit code 2 on failure.
pub async fn run(db_path: &str, command: RunsCommand) -> ExitCode {
    match command {
        RunsCommand::Rejudge => match rejudge(db_path).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("nodeledger: {msg}");
                ExitCode::from(2)
            }
        },
    }
}

async fn rejudge(db_path: &str) -> Result<(), String> {
    // Re-judging must not create an empty database.
    if !db_path.starts_with("sqlite:") && !std::path::Path::new(db_path).is_file() {
        return Err(format!("no database at {db_path}"));
    }
    let pool = store::connect(db_path).await.map_err(|e| e.to_string())?;
    let done = rejudge_all(&pool)
        .await
        .map_err(|e| format!("re-judging failed, nothing changed: {e}"))?;
    pool.close().await;
    for (id, before, now) in &done.changed {
        println!("run {id}: {} -> {}", word(*before), word(*now));
    }
    println!("re-judged {} runs; {} changed status", done.runs, done.changed.len());
    Ok(())
}
