//! Sending a run folder to `/api/v1/runs` and saying what came of it: the verdict with its
//! reasons and the run's URL; on a network or server failure the folder waits in `pending/`.

use super::{
    Failure,
    client::{self, Outcome, Part},
    pending::{self, Folder, Upload},
};
use serde_json::Value;
use std::path::Path;

/// The parts of a run folder's upload: fields, result, telemetry, node facts. Only the folder's
/// own files are read ([`pending::read_own`]): `upload.json` may have been edited.
fn parts(dir: &Path, u: &Upload, dry_run: bool) -> Result<Vec<Part<'static>>, String> {
    let mut parts = client::fields(u);
    if let Some(name) = &u.result {
        parts.push(Part::File("result", name.clone(), pending::read_own(dir, name)?));
    }
    if u.telemetry {
        let bytes = pending::read_own(dir, pending::TELEMETRY)?;
        parts.push(Part::File("telemetry", pending::TELEMETRY.into(), bytes));
    }
    if std::fs::symlink_metadata(dir.join(pending::NODE)).is_ok() {
        let node = pending::read_own(dir, pending::NODE)?;
        parts.push(Part::Text("node", String::from_utf8_lossy(&node).into_owned()));
    }
    if dry_run {
        parts.push(Part::Text("dry_run", "true".into()));
    }
    Ok(parts)
}

/// Posts `parts` to `server` with the token.
async fn send(server: &str, token: &str, parts: Vec<Part<'static>>) -> Outcome {
    let (server, token) = (server.to_string(), token.to_string());
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
    let parts =
        parts(dir, u, dry_run).map_err(|m| Failure::new(1, format!("{m}\nthe files are kept in {}", dir.display())))?;
    match send(&u.server, token, parts).await {
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

/// A pending run folder as it will be sent to `server`: its `upload.json` and its own files. The
/// server is always the one named for this invocation, never the one `upload.json` records.
fn pending_parts(dir: &Path, server: &str) -> Result<(Upload, Vec<Part<'static>>), String> {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Err("it is a symbolic link, not a run folder the probe made".into());
    }
    let mut u = pending::read_upload(dir).map_err(|e| format!("cannot read {}: {e}", pending::UPLOAD))?;
    if u.server != server {
        eprintln!(
            "nodeledger probe: {} was recorded for {:?}: it goes to {server} as asked",
            dir.display(),
            u.server
        );
        server.clone_into(&mut u.server);
    }
    let parts = parts(dir, &u, false)?;
    Ok((u, parts))
}

/// `--upload-pending`: sends every pending run folder to `server` (the one named for this
/// invocation); a folder that cannot be sent as it is stays, with the problem said. Exit 0 when
/// all were stored, 1 when some are still pending or were refused.
pub(super) async fn pending(folder: &Folder, token: &str, server: &str) -> Result<u8, Failure> {
    let dirs = folder.pending();
    if dirs.is_empty() {
        eprintln!("nodeledger probe: no runs are pending");
        return Ok(0);
    }
    let mut left = 0;
    for dir in dirs {
        let (u, parts) = match pending_parts(&dir, server) {
            Ok(ready) => ready,
            Err(problem) => {
                eprintln!("nodeledger probe: {} is left in place: {problem}", dir.display());
                left += 1;
                continue;
            }
        };
        eprintln!("nodeledger probe: uploading {}", dir.display());
        match send(server, token, parts).await {
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
