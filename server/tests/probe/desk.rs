//! The probe's test bench: the router served on a port, a team with a token, quote and workload,
//! and the `nodeledger probe` child process with the fake `nvidia-smi` on `PATH` (or none).

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common::{self, TestApp};
use serde_json::Value;
use std::{net::SocketAddr, path::PathBuf, process::Output, time::Duration};
use tokio::{sync::oneshot, task::JoinHandle};

pub const BIN: &str = env!("CARGO_BIN_EXE_nodeledger");
pub const FAKE_BIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/probe/bin");
/// A fake `amd-smi` alone: an AMD node without `nvidia-smi`.
pub const FAKE_AMD_BIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/probe/amd-bin");
pub const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/domain/src/runs/fixtures");
/// Captured on an A100: a warm-up (0 → 96 % over 40 s), then steady for ten minutes.
pub const WARMUP_ROWS: &str = "smi_units_event.csv";
/// Captured on an RTX 4090: steady, with a ten-second stretch held down by the power cap.
pub const THROTTLED_ROWS: &str = "smi_nounits_throttle.csv";

/// The router served on a port of its own.
pub struct Served {
    pub url: String,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

pub async fn serve(app: &TestApp) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    let router = app.router.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    Served {
        url,
        stop: Some(stop),
        task,
    }
}

impl Served {
    /// Stops serving: the port is closed afterwards.
    pub async fn shut_down(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.await.unwrap();
    }
}

/// A team with an engineer's token, a quote and a workload, served, and a scratch folder.
pub struct Desk {
    pub app: TestApp,
    pub served: Option<Served>,
    pub url: String,
    pub token: String,
    pub engineer: String,
    pub quote: i64,
    pub workload: i64,
    pub dir: PathBuf,
}

pub async fn desk(name: &str) -> Desk {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Inference").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let pam = app.login("pam@example.com", common::PASSWORD).await;
    let engineer = app.login("eve@example.com", common::PASSWORD).await;
    let quote = app.create_quote(&pam, "Q-1").await;
    let workload = app.create_workload(&pam, "Qwen2-7B serving").await;
    let token = app.create_token(&engineer, "node probe").await;
    let dir = std::env::temp_dir().join(format!("nl-probe-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let served = serve(&app).await;
    Desk {
        url: served.url.clone(),
        served: Some(served),
        app,
        token,
        engineer,
        quote,
        workload,
        dir,
    }
}

/// Where the fake nvidia-smi is: on `PATH`, or not at all.
#[derive(Clone, Copy)]
pub enum Smi {
    Rows(&'static str),
    /// The fake `amd-smi` printing the capture at this path.
    Amd(&'static str),
    Absent,
}

impl Desk {
    pub fn result(&self) -> PathBuf {
        self.dir.join("out/bench.json")
    }

    /// `sh -c` writing a vLLM result where `--result` expects it, after `then`: the captured
    /// `vllm_serve.json` as if it had run on the node of the captured telemetry (its end time
    /// moved to 612 s after the telemetry's first row, so the run lies inside it).
    pub fn writes_result(&self, then: &str) -> String {
        let source = self.dir.join("vllm_serve.json");
        let captured = std::fs::read_to_string(format!("{FIXTURES}/vllm_serve.json")).unwrap();
        std::fs::write(&source, captured.replace("\"20250611-142233\"", "\"20240501-121013\"")).unwrap();
        let out = self.result();
        format!(
            "mkdir -p {} && {then} && cp {} {}",
            out.parent().unwrap().display(),
            source.display(),
            out.display()
        )
    }

    /// The probe for the desk's quote and workload with `--result`, then `extra`, `-- sh -c script`.
    pub async fn probe(&self, smi: Smi, extra: &[&str], script: &str) -> Output {
        let (q, w) = (self.quote.to_string(), self.workload.to_string());
        let result = self.result();
        let mut args: Vec<&str> = vec!["--server", &self.url, "--quote", &q, "--workload", &w];
        args.extend(["--result", result.to_str().unwrap()]);
        args.extend(extra);
        args.extend(["--", "sh", "-c", script]);
        self.run(smi, &args).await
    }

    pub fn command(&self, smi: Smi, args: &[&str]) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(BIN);
        cmd.arg("probe").arg("--dir").arg(self.dir.join("state")).args(args);
        let path = match smi {
            Smi::Rows(rows) => {
                cmd.env("FAKE_SMI_ROWS", format!("{FIXTURES}/{rows}"));
                format!("{FAKE_BIN}:/usr/bin:/bin")
            }
            Smi::Amd(rows) => {
                cmd.env("FAKE_SMI_ROWS", rows);
                format!("{FAKE_AMD_BIN}:/usr/bin:/bin")
            }
            Smi::Absent => "/usr/bin:/bin".into(),
        };
        cmd.env("PATH", path)
            .env("FAKE_SMI_QUERY", app::domain::runs::PROBE_QUERY_COLUMNS)
            .env("NODELEDGER_TOKEN", &self.token)
            .env("NODELEDGER_LOG", "error")
            .env_remove("NODELEDGER_SERVER")
            .env_remove("NODELEDGER_PROBE_DIR")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        cmd
    }

    pub async fn run(&self, smi: Smi, args: &[&str]) -> Output {
        let out = tokio::time::timeout(Duration::from_secs(120), self.command(smi, args).output())
            .await
            .expect("the probe ends")
            .unwrap();
        self.never_shows_the_token(&out);
        out
    }

    pub fn never_shows_the_token(&self, out: &Output) {
        assert!(!text(&out.stdout).contains(&self.token), "stdout shows the token");
        assert!(!text(&out.stderr).contains(&self.token), "stderr shows the token");
    }

    pub async fn count(&self, table: &str) -> i64 {
        let sql = match table {
            "runs" => "SELECT COUNT(*) FROM runs",
            "run_node_facts" => "SELECT COUNT(*) FROM run_node_facts",
            _ => "SELECT COUNT(*) FROM run_files",
        };
        sqlx::query_scalar(sql).fetch_one(&self.app.db).await.unwrap()
    }

    pub async fn canonical(&self, id: i64) -> String {
        sqlx::query_scalar("SELECT canonical FROM runs WHERE id = ?")
            .bind(id)
            .fetch_one(&self.app.db)
            .await
            .unwrap()
    }

    /// The verdict's reason codes of a stored run.
    pub async fn codes(&self, id: i64) -> Vec<String> {
        let canonical: Value = serde_json::from_str(&self.canonical(id).await).unwrap();
        canonical["verdict"]["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].as_str().unwrap().to_string())
            .collect()
    }

    /// The run folders left under `state/kept` or `state/pending`.
    pub fn left(&self, which: &str) -> Vec<PathBuf> {
        std::fs::read_dir(self.dir.join("state").join(which))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    }
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn says(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// The run id of the probe's `run: URL/runs/N` line.
pub fn run_id(out: &Output, url: &str) -> i64 {
    let stdout = text(&out.stdout);
    let prefix = format!("run: {url}/runs/");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("{}", says(out)));
    line[prefix.len()..].trim().parse().unwrap()
}
