//! `nodeledger audit verify [--export FILE]`: checks the tamper-evident audit trail. The checks
//! themselves are `app::services::audit` (also used by the web app); this only reads files and
//! prints. Exit status: 0 verified, 1 a fault was found, 2 the check could not run (database
//! missing or failing, unreadable export file).

use app::{
    domain::audit::ExportFault,
    services::audit::{self, AuditStatus, ExportMismatch},
    store,
};
use clap::Subcommand;
use std::{path::PathBuf, process::ExitCode};

/// Audit commands.
#[derive(Subcommand, Debug)]
pub enum AuditCommand {
    /// Verify the audit hash chain and every approved order revision against the content hash
    /// its approval pinned; with --export, also check an exported order record against the
    /// database. Exit 0 when everything verifies, 1 on the first fault (named on stderr), 2 when
    /// the check cannot run.
    Verify {
        /// An order's audit record exported by the app (JSON: order_id, events, revisions).
        #[arg(long, value_name = "FILE")]
        export: Option<PathBuf>,
    },
}

/// Runs an audit command against the database at `db_path`.
pub async fn run(db_path: &str, command: AuditCommand) -> ExitCode {
    match command {
        AuditCommand::Verify { export } => match verify(db_path, export).await {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("nodeledger: {msg}");
                ExitCode::from(2)
            }
        },
    }
}

fn chain_ok(s: &AuditStatus) -> String {
    format!(
        "audit chain OK: {} events, head {}, {} approved revisions checked",
        s.events, s.head_hash, s.approved_revisions
    )
}

async fn verify(db_path: &str, export: Option<PathBuf>) -> Result<ExitCode, String> {
    // Verifying must not create an empty database that would then "verify".
    if !db_path.starts_with("sqlite:") && !std::path::Path::new(db_path).is_file() {
        return Err(format!("no database at {db_path}"));
    }
    let export = match export {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
            Some(value)
        }
    };
    let db = store::connect(db_path).await.map_err(|e| e.to_string())?;
    let sql = |e: sqlx::Error| format!("database error: {e}");
    let code = match export {
        None => match audit::verify(&db).await.map_err(sql)? {
            Ok(status) => {
                println!("{}", chain_ok(&status));
                ExitCode::SUCCESS
            }
            Err(fault) => {
                eprintln!("audit chain BROKEN: {fault}");
                ExitCode::FAILURE
            }
        },
        Some(value) => match audit::check_export(&db, &value).await.map_err(sql)? {
            Ok(s) => {
                println!(
                    "audit export OK: order {}, {} events and {} revisions match the database",
                    s.order_id, s.events, s.revisions
                );
                println!("{}", chain_ok(&s.chain));
                ExitCode::SUCCESS
            }
            Err(ExportMismatch::Export(f @ ExportFault::Malformed { .. })) => {
                db.close().await;
                return Err(f.to_string());
            }
            Err(ExportMismatch::Export(f)) => {
                eprintln!("audit export MISMATCH: {f}");
                ExitCode::FAILURE
            }
            Err(ExportMismatch::Database(fault)) => {
                eprintln!("audit chain BROKEN: {fault}");
                ExitCode::FAILURE
            }
        },
    };
    db.close().await;
    Ok(code)
}
