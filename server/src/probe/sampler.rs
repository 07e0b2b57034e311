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

/// The tool that samples the GPUs: NVIDIA's, else AMD's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `nvidia-smi` at this path.
    Nvidia(std::path::PathBuf),
    /// `amd-smi` at this path (ROCm), found when there is no `nvidia-smi`.
    Amd(std::path::PathBuf),
}

impl Tool {
    /// The program to run.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::Nvidia(p) | Self::Amd(p) => p,
        }
    }

    /// Its name, as the probe tells what it samples with.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Nvidia(_) => "nvidia-smi",
            Self::Amd(_) => "amd-smi",
        }
    }

    /// The arguments it samples with: every field the server's parser reads, once a second.
    /// `amd-smi metric --watch` stamps each sample itself (epoch seconds) and with `--throttle`
    /// reports the violation statuses of MI300 and later.
    #[must_use]
    pub fn args(&self) -> Vec<String> {
        match self {
            Self::Nvidia(_) => vec![
                format!("--query-gpu={PROBE_QUERY_COLUMNS}"),
                "--format=csv,nounits".into(),
                "-lms".into(),
                "1000".into(),
            ],
            Self::Amd(_) => AMD_ARGS.iter().map(|a| (*a).to_owned()).collect(),
        }
    }
}

/// `amd-smi metric` sampling once a second until stopped, as CSV.
pub const AMD_ARGS: [&str; 9] = [
    "metric",
    "--usage",
    "--power",
    "--temperature",
    "--mem-usage",
    "--throttle",
    "--csv",
    "--watch",
    "1",
];

/// A running sampler.
pub struct Sampler {
    child: Child,
    copier: JoinHandle<std::io::Result<u64>>,
}

/// Starts the sampling tool writing into `out` (created 0600) and feeding `live`.
///
/// # Errors
/// When the tool cannot be started or `out` created.
pub async fn start(tool: &Tool, out: &Path, live: Arc<Mutex<Live>>) -> std::io::Result<Sampler> {
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(out)
        .await?;
    let mut child = Command::new(tool.path())
        .args(tool.args())
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
