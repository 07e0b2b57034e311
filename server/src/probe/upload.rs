//! Sending a run folder to `/api/v1/runs` and saying what came of it: the verdict with its
//! reasons and the run's URL; on a network or server failure the folder waits in `pending/`.

use super::{
    Failure,
    client::{self, Outcome, Part},
    pending::{self, Folder, Upload},
};
use serde_json::Value;
use std::path::Path;

/// The parts of a run folder's upload: fields, result, telemetry, node facts.
fn parts(dir: &Path, u: &Upload, dry_run: bool) -> std::io::Result<Vec<Part<'static>>> {
    let mut parts = client::fields(u);
    if let Some(name) = &u.result {
        parts.push(Part::File("result", name.clone(), std::fs::read(dir.join(name))?));
    }
    if u.telemetry {
        let bytes = std::fs::read(dir.join(pending::TELEMETRY))?;
        parts.push(Part::File("telemetry", pending::TELEMETRY.into(), bytes));
    }
    if let Ok(node) = std::fs::read_to_string(dir.join(pending::NODE)) {
        parts.push(Part::Text("node", node));
    }
    if dry_run {
        parts.push(Part::Text("dry_run", "true".into()));
    }
    Ok(parts)
}

async fn send(dir: &Path, u: &Upload, token: &str, dry_run: bool) -> Outcome {
    let parts = match parts(dir, u, dry_run) {
        Ok(p) => p,
        Err(e) => return Outcome::Refused(0, format!("cannot read the files in {}: {e}", dir.display())),
    };
    let (server, token) = (u.server.clone(), token.to_string());
    tokio::task::spawn_blocking(move || client::post_runs(&server, &token, &parts))
        .await
        .unwrap_or_else(|e| Outcome::Unreachable(e.to_string()))
}

/// Prints the verdict (status and each reason) and, for a stored run, its URL on standard output.
fn print_verdict(server: &str, answer: &Value) {
    let status = answer["status"].as_str().unwrap_or("?");
    if answer["dry_run"].as_bool() == Some(true) {
        println!("verdict: {status} (dry run: nothing was stored)");
    } else if answer["duplicate"].as_bool() == Some(true) {
        println!("already uploaded as run {}", answer["id"]);
    } else {
        println!("verdict: {status}");
    }
    for r in answer["reasons"].as_array().into_iter().flatten() {
        println!(
            "  {}: {}",
            r["severity_label"].as_str().unwrap_or_default(),
            r["message"].as_str().unwrap_or_default()
        );
    }
    if let Some(url) = answer["url"].as_str() {
        println!("run: {server}{url}");
    }
}

/// Uploads a just-measured run folder; deletes it once stored, keeps it otherwise (in
/// `pending/` when the network or the server failed).
pub(super) async fn send_and_report(
    folder: &Folder,
    dir: &Path,
    u: &Upload,
    token: &str,
    dry_run: bool,
) -> Result<(), Failure> {
    match send(dir, u, token, dry_run).await {
        Outcome::Done(answer) => {
            print_verdict(&u.server, &answer);
            if dry_run {
                eprintln!("nodeledger probe: the files are kept in {}", dir.display());
            } else {
                let _ = std::fs::remove_dir_all(dir);
            }
            Ok(())
        }
        Outcome::Refused(status, msg) => Err(Failure::new(
            1,
            format!(
                "the server refused the run ({status}): {msg}\nthe files are kept in {}",
                dir.display()
            ),
        )),
        Outcome::Unreachable(msg) => {
            let at = folder.to_pending(dir).unwrap_or_else(|_| dir.to_path_buf());
            Err(Failure::new(
                1,
                format!(
                    "the upload failed: {msg}\nthe files are kept in {}; upload them later with: nodeledger probe --upload-pending",
                    at.display()
                ),
            ))
        }
    }
}

/// `--upload-pending`: sends every pending run folder (to `server` when given, else where it was
/// meant to go); exit 0 when all were stored, 1 when some are still pending or were refused.
pub(super) async fn pending(folder: &Folder, token: &str, server: Option<&str>) -> Result<u8, Failure> {
    let dirs = folder.pending();
    if dirs.is_empty() {
        eprintln!("nodeledger probe: no runs are pending");
        return Ok(0);
    }
    let mut left = 0;
    for dir in dirs {
        let mut u = match pending::read_upload(&dir) {
            Ok(u) => u,
            Err(e) => {
                eprintln!(
                    "nodeledger probe: {}: cannot read {}: {e}",
                    dir.display(),
                    pending::UPLOAD
                );
                left += 1;
                continue;
            }
        };
        if let Some(s) = server {
            s.trim_end_matches('/').clone_into(&mut u.server);
        }
        eprintln!("nodeledger probe: uploading {}", dir.display());
        match send(&dir, &u, token, false).await {
            Outcome::Done(answer) => {
                print_verdict(&u.server, &answer);
                let _ = std::fs::remove_dir_all(&dir);
            }
            Outcome::Refused(status, msg) => {
                eprintln!(
                    "nodeledger probe: the server refused {} ({status}): {msg}",
                    dir.display()
                );
                left += 1;
            }
            Outcome::Unreachable(msg) => {
                eprintln!("nodeledger probe: still pending, {msg}");
                left += 1;
            }
        }
    }
    Ok(u8::from(left > 0))
}
