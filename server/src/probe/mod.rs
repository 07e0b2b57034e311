//! `nodeledger probe` (issue 16): measure a rented node with the team's own workload in one
//! command. It checks the token, quote and workload with the server first (a dry run without
//! files), records the node ([`facts`]), samples `nvidia-smi` for the whole run ([`sampler`])
//! while the command runs with its output passed through ([`runner`]) and a live line shows how
//! far it is ([`live`]), then uploads result, telemetry and node facts to `/api/v1/runs` and
//! prints the verdict and the run's URL ([`upload`]). Files wait in a local folder when an
//! upload fails ([`pending`]).
//!
//! Exit codes: 0 uploaded (or judged, with `--dry-run`); the command's own code when it failed;
//! 1 when the run could not be uploaded or the result is missing; 2 bad usage (no token, no
//! `nvidia-smi` without `--no-telemetry`, a bad `--duration`); 130 interrupted.

pub mod client;
pub mod duration;
pub mod facts;
pub mod live;
mod measure;
pub mod pending;
pub mod runner;
pub mod sampler;
mod upload;

use std::{path::PathBuf, process::ExitCode};

/// `nodeledger probe`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The API token is read from NODELEDGER_TOKEN, never from the command line.\n\nExample:\n  nodeledger probe --server https://nodeledger.example --quote 17 --workload 3 \\\n    --result out/bench.json -- vllm bench serve --model Qwen2-7B --save-result --result-filename out/bench.json"
)]
pub struct ProbeArgs {
    /// The NodeLedger server, e.g. https://nodeledger.example.
    #[arg(long, env = "NODELEDGER_SERVER")]
    pub server: Option<String>,
    /// The quote the node was rented under (its id on the site).
    #[arg(long)]
    pub quote: Option<i64>,
    /// The quote's revision (default: the latest).
    #[arg(long)]
    pub revision: Option<i64>,
    /// The workload measured (its id on the site).
    #[arg(long)]
    pub workload: Option<i64>,
    /// A label for the node, needed without --quote.
    #[arg(long)]
    pub node_label: Option<String>,
    /// Nodes the run used (default 1).
    #[arg(long)]
    pub nodes: Option<i64>,
    /// A note stored with the run.
    #[arg(long)]
    pub note: Option<String>,
    /// The result file the command writes (e.g. vLLM's --result-filename).
    #[arg(long)]
    pub result: Option<PathBuf>,
    /// The result's format (default: detected), as `nodeledger bench parse` names them.
    #[arg(long)]
    pub format: Option<String>,
    /// Run a command that does not end by itself for this long, then stop it (20m, 1h30m, 90s).
    #[arg(long)]
    pub duration: Option<String>,
    /// The measured server reserves GPU memory at start (vLLM's --gpu-memory-utilization,
    /// SGLang's --mem-fraction-static): the memory seen is not the workload's need.
    #[arg(long)]
    pub reserves_memory: bool,
    /// The GPUs the command uses, as nvidia-smi numbers them (`0` or `0,1`); default: the
    /// cards that worked during the run.
    #[arg(long, value_delimiter = ',')]
    pub gpus: Vec<u32>,
    /// Judge the run without storing it (nothing is saved on the server).
    #[arg(long)]
    pub dry_run: bool,
    /// Upload the run, marked failed, when the command exits non-zero (default: upload nothing).
    #[arg(long)]
    pub keep_failed: bool,
    /// Do not sample nvidia-smi: upload the result alone (judged as any run without telemetry).
    #[arg(long)]
    pub no_telemetry: bool,
    /// Upload the runs kept after failed uploads, then exit.
    #[arg(long, conflicts_with_all = ["quote", "workload", "result", "duration", "dry_run", "keep_failed", "no_telemetry", "reserves_memory", "gpus"])]
    pub upload_pending: bool,
    /// The probe's folder of kept and pending runs (default: NODELEDGER_PROBE_DIR, else
    /// ~/.local/state/nodeledger/probe).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The command to measure, after `--`.
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// A message for standard error and the exit code that goes with it.
pub struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

/// The API token from `NODELEDGER_TOKEN` (never from the command line; never printed).
fn token() -> Result<String, Failure> {
    match std::env::var("NODELEDGER_TOKEN") {
        Ok(t) if !t.trim().is_empty() => Ok(t.trim().to_string()),
        _ => Err(Failure::new(
            2,
            "set NODELEDGER_TOKEN to an API token of your team (the site's API tokens page): it is never read from the command line",
        )),
    }
}

/// Runs `nodeledger probe`.
pub async fn run(args: ProbeArgs) -> ExitCode {
    let folder = pending::Folder::new(args.dir.clone());
    let result = match token() {
        Err(e) => Err(e),
        Ok(token) if args.upload_pending => upload::pending(&folder, &token, args.server.as_deref()).await,
        Ok(token) => measure::probe(&args, &folder, token).await,
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("nodeledger probe: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
