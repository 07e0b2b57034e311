//! `nodeledger audit verify [--export FILE] [--anchor FILE]`: checks the tamper-evident audit
//! trail; `nodeledger audit head`: prints the chain's head as an anchor line (`AT COUNT HASH`, see
//! `app::domain::audit::anchor`) to keep elsewhere. The checks themselves are
//! `app::services::audit` (also used by the web app); this only reads files and prints. Exit
//! status: 0 verified, 1 a fault was found, 2 the check could not run (database missing or
//! failing, unreadable export or anchor file).

use app::{
    domain::audit::{Anchor, ExportFault, anchor_line, parse_anchors},
    services::audit::{self, AnchorFault, AuditStatus, ExportMismatch},
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
        /// An append-only file of heads recorded earlier (`nodeledger audit head >> FILE`, one
        /// `TIME COUNT HASH` line each): exit 1 naming the first head today's chain no longer
        /// extends (event COUNT has another hash, or the chain is shorter). Keep it on another
        /// machine or WORM storage: it catches a database rewritten and rehashed as a whole.
        #[arg(long, value_name = "FILE")]
        anchor: Option<PathBuf>,
    },
    /// Print the chain's head as one line `TIME COUNT HASH` (time now in UTC, number of events,
    /// hash of the last event) and change nothing. Append it to an anchor file kept elsewhere:
    /// `nodeledger audit head >> anchors.txt`.
    Head,
}

/// Runs an audit command against the database at `db_path`.
pub async fn run(db_path: &str, command: AuditCommand) -> ExitCode {
    match command {
        AuditCommand::Verify { export, anchor } => match verify(db_path, export, anchor).await {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("nodeledger: {msg}");
                ExitCode::from(2)
            }
        },
        AuditCommand::Head => match head(db_path).await {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("nodeledger: {msg}");
                ExitCode::from(2)
            }
        },
    }
}

/// Fails unless a database file is there: reading must not create an empty one that would then
/// "verify".
fn database_exists(db_path: &str) -> Result<(), String> {
    if !db_path.starts_with("sqlite:") && !std::path::Path::new(db_path).is_file() {
        return Err(format!("no database at {db_path}"));
    }
    Ok(())
}

/// The anchor line of the chain's head now.
async fn head(db_path: &str) -> Result<String, String> {
    database_exists(db_path)?;
    let db = store::connect(db_path).await.map_err(|e| e.to_string())?;
    let head = store::audit::head(&db)
        .await
        .map_err(|e| format!("database error: {e}"));
    db.close().await;
    Ok(anchor_line(&app::clock::now_stamp(), &head?))
}

/// The anchors of an anchor file.
fn read_anchors(path: &std::path::Path) -> Result<Vec<Anchor>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_anchors(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks the anchors after the chain verified; prints what held.
async fn verify_anchors(db: &store::Db, anchors: &[Anchor]) -> Result<ExitCode, sqlx::Error> {
    Ok(match audit::check_anchors(db, anchors).await? {
        Ok(s) => {
            println!(
                "audit anchors OK: {} recorded heads are still part of the chain ({} events)",
                s.anchors, s.chain.events
            );
            ExitCode::SUCCESS
        }
        Err(AnchorFault::Database(fault)) => {
            eprintln!("audit chain BROKEN: {fault}");
            ExitCode::FAILURE
        }
        Err(AnchorFault::Anchor(m)) => {
            eprintln!("audit anchor MISMATCH: {m}");
            ExitCode::FAILURE
        }
    })
}

fn chain_ok(s: &AuditStatus) -> String {
    format!(
        "audit chain OK: {} events, head {}, {} approved revisions checked",
        s.events, s.head_hash, s.approved_revisions
    )
}

async fn verify(db_path: &str, export: Option<PathBuf>, anchor: Option<PathBuf>) -> Result<ExitCode, String> {
    database_exists(db_path)?;
    let anchors = anchor.as_deref().map(read_anchors).transpose()?;
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
    let code = match anchors {
        Some(anchors) if code == ExitCode::SUCCESS => verify_anchors(&db, &anchors).await.map_err(sql)?,
        _ => code,
    };
    db.close().await;
    Ok(code)
}
