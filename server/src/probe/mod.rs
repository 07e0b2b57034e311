//! `nodeledger probe`: measure a rented node with the team's own workload in one
//! command. It checks the token, quote and workload with the server first (a dry run without
//! files), records the node ([`facts`]), samples `nvidia-smi` for the whole run ([`sampler`])
//! while the command runs with its output passed through ([`runner`]) and a live line shows how
//! far it is ([`live`]), then uploads result, telemetry and node facts to `/api/v1/runs` and
//! prints the verdict and the run's URL ([`upload`]). Files wait in a local folder when an
//! upload fails ([`pending`]).
//!
//! The token only travels encrypted: the server must be `https://` unless it is this machine
//! (`--insecure-http` lifts that), and no program the probe starts inherits it. What is recorded
//! stays the engineer's: the folders are 0700 and their files 0600, the command line is stored
//! with secret-looking values masked, and pending runs go only to the server named when they are
//! sent, with only their own folder's files.
//!
//! Exit codes: 0 uploaded (or judged, with `--dry-run`); the command's own code when it failed;
//! 1 when the run could not be uploaded or the result is missing; 2 bad usage (no token, no
//! server or a plain `http://` one, no `nvidia-smi` without `--no-telemetry`, a bad
//! `--duration`); 130 interrupted.

pub mod client;
pub mod duration;
pub mod facts;
pub mod live;
mod measure;
pub mod pending;
pub mod runner;
pub mod sampler;
mod upload;

use std::{net::IpAddr, path::PathBuf, process::ExitCode};

/// Where the API token is read from. Removed from the environment of every program the probe
/// starts: the measured command has no use for it.
pub const TOKEN_ENV: &str = "NODELEDGER_TOKEN";

/// `nodeledger probe`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The API token is read from NODELEDGER_TOKEN, never from the command line.\n\nExample:\n  nodeledger probe --server https://nodeledger.example --quote 17 --workload 3 \\\n    --result out/bench.json -- vllm bench serve --model Qwen2-7B --save-result --result-filename out/bench.json"
)]
pub struct ProbeArgs {
    /// The NodeLedger server, e.g. https://nodeledger.example (http:// only for this machine,
    /// unless --insecure-http).
    #[arg(long, env = "NODELEDGER_SERVER")]
    pub server: Option<String>,
    /// Send the token over plain http:// to a server that is not this machine (a trusted
    /// network only: anyone on the way can read the token).
    #[arg(long)]
    pub insecure_http: bool,
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
    /// When the measured benchmark started, for a result that states no time of its own
    /// (SGLang, llama-bench): a time on the node's clock (`YYYY-MM-DD HH:MM[:SS]`), or `+90s`,
    /// `+2m` after the command started (a server's start-up first, then the benchmark). Default:
    /// when the command started. The start-up before it is then not taken for warm-up.
    #[arg(long, allow_hyphen_values = true)]
    pub started_at: Option<String>,
    /// Judge the run without storing it (nothing is saved on the server).
    #[arg(long)]
    pub dry_run: bool,
    /// Upload the run, marked failed, when the command exits non-zero (default: upload nothing).
    #[arg(long)]
    pub keep_failed: bool,
    /// Do not sample nvidia-smi: upload the result alone (judged as any run without telemetry).
    #[arg(long)]
    pub no_telemetry: bool,
    /// Upload the runs kept after failed uploads to --server, then exit.
    #[arg(long, conflicts_with_all = ["quote", "workload", "result", "duration", "started_at", "dry_run", "keep_failed", "no_telemetry", "reserves_memory", "gpus"])]
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
    match std::env::var(TOKEN_ENV) {
        Ok(t) if !t.trim().is_empty() => Ok(t.trim().to_string()),
        _ => Err(Failure::new(
            2,
            "set NODELEDGER_TOKEN to an API token of your team (the site's API tokens page): it is never read from the command line",
        )),
    }
}

/// The server's base URL (no trailing `/`) when the token may be sent to it: `https://`;
/// `http://` only to this machine (`localhost`, 127.0.0.0/8, `::1`) or with `--insecure-http`.
/// The host is read from the very URL the upload is posted to, by the parser the client uses.
fn server_url(given: Option<&str>, insecure_http: bool, upload_pending: bool) -> Result<String, Failure> {
    let Some(given) = given else {
        return Err(Failure::new(
            2,
            if upload_pending {
                "--upload-pending needs --server URL (or NODELEDGER_SERVER): pending runs go only to the server you name, never to one read from their folder"
            } else {
                "--server URL is needed (or NODELEDGER_SERVER)"
            },
        ));
    };
    let base = given.trim().trim_end_matches('/');
    let uri = format!("{base}/api/v1/runs").parse::<http::Uri>().ok();
    let host = uri.as_ref().and_then(http::Uri::host).unwrap_or_default();
    match uri.as_ref().and_then(http::Uri::scheme_str) {
        Some("https") if !host.is_empty() => Ok(base.to_string()),
        Some("http") if !host.is_empty() && (insecure_http || is_this_machine(host)) => Ok(base.to_string()),
        Some("http") if !host.is_empty() => Err(Failure::new(
            2,
            format!(
                "--server {given:?} would send the API token unencrypted to {host}: use https://, or add --insecure-http if the network to it is trusted (plain http:// is accepted without it only for this machine: localhost, 127.0.0.1, ::1)"
            ),
        )),
        _ => Err(Failure::new(
            2,
            format!("--server {given:?} must be a URL starting with https://, e.g. https://nodeledger.example"),
        )),
    }
}

/// `localhost`, or a loopback address (127.0.0.0/8, `::1`, also IPv4-mapped).
fn is_this_machine(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

/// Runs `nodeledger probe`.
pub async fn run(args: ProbeArgs) -> ExitCode {
    let folder = pending::Folder::new(args.dir.clone());
    let checked = token().and_then(|token| {
        server_url(args.server.as_deref(), args.insecure_http, args.upload_pending).map(|server| (token, server))
    });
    let result = match checked {
        Err(e) => Err(e),
        Ok((token, server)) if args.upload_pending => upload::pending(&folder, &token, &server).await,
        Ok((token, server)) => measure::probe(&args, server, &folder, token).await,
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("nodeledger probe: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(given: &str, insecure: bool) -> String {
        match server_url(Some(given), insecure, false) {
            Ok(url) => panic!("{given} accepted as {url}"),
            Err(f) => {
                assert_eq!(f.code, 2, "a usage error: {}", f.message);
                f.message
            }
        }
    }

    #[test]
    fn the_token_goes_over_plain_http_only_to_this_machine_or_when_asked() {
        for ok in [
            "https://nodeledger.example/",
            "https://10.0.0.5:8443",
            "http://127.0.0.1:3000",
            "http://127.8.9.1",
            "http://localhost:3000/",
            "http://LOCALHOST",
            "http://[::1]:3000",
            "http://[::ffff:127.0.0.1]:3000",
        ] {
            let url = server_url(Some(ok), false, false).unwrap_or_else(|f| panic!("{ok}: {}", f.message));
            assert_eq!(url, ok.trim_end_matches('/'));
        }
        let msg = refused("http://nodeledger.example", false);
        assert!(msg.contains("use https://"), "{msg}");
        assert!(msg.contains("--insecure-http"), "{msg}");
        for sneaky in [
            "http://10.0.0.5:3000",
            "http://localhost@evil.example",
            "http://127.0.0.1.evil.example",
            "http://localhost.evil.example",
            "http://[::2]",
            "http://0x7f.1",
        ] {
            let _ = refused(sneaky, false);
        }
        assert!(server_url(Some("http://nodeledger.example"), true, false).is_ok());
        assert!(server_url(Some("http://10.0.0.5:3000"), true, false).is_ok());
    }

    #[test]
    fn what_is_not_an_http_url_is_refused_even_with_insecure_http() {
        for bad in [
            "nodeledger.example",
            "ftp://nodeledger.example",
            "file:///etc/passwd",
            "https://",
            "http://evil.example\\@localhost",
        ] {
            let msg = refused(bad, true);
            assert!(msg.contains("must be a URL starting with https://"), "{bad}: {msg}");
        }
    }

    #[test]
    fn upload_pending_needs_the_server_named_on_its_command_line() {
        let f = server_url(None, false, true).err().map(|f| (f.code, f.message));
        let (code, msg) = f.unwrap_or_default();
        assert_eq!(code, 2);
        assert!(msg.starts_with("--upload-pending needs --server URL"), "{msg}");
    }
}
