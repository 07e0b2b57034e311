//! The telemetry sampler: `nvidia-smi --query-gpu=<PROBE_QUERY_COLUMNS> --format=csv,nounits
//! -lms 1000` for the whole run, each line written to `telemetry.csv` (the CSV the server parses)
//! and fed to the live line.

use super::live::Live;
use app::domain::runs::PROBE_QUERY_COLUMNS;
use std::{
    path::Path,
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    process::{Child, Command},
    task::JoinHandle,
};

/// The arguments the sampler runs `nvidia-smi` with.
#[must_use]
pub fn args() -> [String; 4] {
    [
        format!("--query-gpu={PROBE_QUERY_COLUMNS}"),
        "--format=csv,nounits".into(),
        "-lms".into(),
        "1000".into(),
    ]
}

/// A running sampler.
pub struct Sampler {
    child: Child,
    copier: JoinHandle<std::io::Result<u64>>,
}

/// Starts `nvidia-smi` writing into `out` (created 0600) and feeding `live`.
///
/// # Errors
/// When `nvidia-smi` cannot be started or `out` created.
pub async fn start(smi: &Path, out: &Path, live: Arc<Mutex<Live>>) -> std::io::Result<Sampler> {
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(out)
        .await?;
    let mut child = Command::new(smi)
        .args(args())
        .env_remove(super::TOKEN_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| std::io::Error::other("nvidia-smi has no output"))?;
    let copier = tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        let mut rows = 0;
        while let Some(line) = lines.next_line().await? {
            file.write_all(line.as_bytes()).await?;
            file.write_all(b"\n").await?;
            if let Ok(mut live) = live.lock() {
                live.feed(&line);
            }
            rows += 1;
        }
        file.flush().await?;
        Ok(rows)
    });
    Ok(Sampler { child, copier })
}

impl Sampler {
    /// Stops `nvidia-smi` (SIGTERM, then SIGKILL after 5 s) and waits for the last line to be
    /// written; returns the lines written.
    ///
    /// # Errors
    /// When the file could not be written.
    pub async fn stop(mut self) -> std::io::Result<u64> {
        if let Some(pid) = self.child.id() {
            super::runner::signal_group(pid, nix::sys::signal::Signal::SIGTERM);
        }
        if tokio::time::timeout(Duration::from_secs(5), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
        self.copier.await.map_err(std::io::Error::other)?
    }
}
