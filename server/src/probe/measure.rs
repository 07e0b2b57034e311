//! One probe run: check with the server, record the node, sample and run, then upload.

use super::{
    Failure, ProbeArgs, client, duration, facts,
    live::{self, Live},
    pending::{self, Folder, Upload},
    runner::{self, Ended},
    sampler, upload,
};
use app::domain::{command_line, node_facts::NodeFacts};
use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

/// What the command line asks for, checked before anything starts.
struct Plan {
    upload: Upload,
    result: Option<PathBuf>,
    limit: Option<Duration>,
    /// `--started-at`: when the benchmark began, if not with the command.
    begins: Option<Begins>,
    /// When the command was started: a result file last written before it is not this run's.
    started: Option<std::time::SystemTime>,
}

/// When the measured benchmark began, as `--started-at` says.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Begins {
    /// At this time on the node's clock (canonical form).
    At(String),
    /// This long after the command started.
    After(Duration),
}

/// Reads `--started-at`: `+DURATION` after the command started, else a time on the node's clock.
fn begins(text: &str) -> Result<Begins, Failure> {
    let usage =
        "write a time on the node's clock (2026-12-01 10:00:30) or how long after the command started (+90s, +2m)";
    if let Some(offset) = text.trim().strip_prefix('+') {
        return duration::parse(offset)
            .map(Begins::After)
            .map_err(|m| Failure::new(2, format!("--started-at {text:?}: {}", m.replace("--duration ", ""))));
    }
    app::domain::runs::stated_start(text)
        .map(Begins::At)
        .ok_or_else(|| Failure::new(2, format!("--started-at {text:?} is not a time: {usage}")))
}

/// The benchmark's start on the telemetry's clock: the stated time, or the first sample (when
/// the command started) plus the stated offset.
fn benchmark_start(begins: Option<&Begins>, first_sample: Option<String>) -> Option<String> {
    match begins {
        Some(Begins::At(at)) => Some(at.clone()),
        Some(Begins::After(offset)) => app::domain::runs::later_by(&first_sample?, offset.as_secs()),
        None => first_sample,
    }
}

/// The plan for `server`, already checked ([`super::server_url`]).
fn plan(args: &ProbeArgs, server: String) -> Result<Plan, Failure> {
    if args.command.is_empty() {
        return Err(Failure::new(
            2,
            "give the command to measure after --, e.g. -- vllm bench serve …",
        ));
    }
    if args.result.is_none() && args.no_telemetry {
        return Err(Failure::new(
            2,
            "--no-telemetry needs --result FILE: there would be nothing to upload",
        ));
    }
    let limit = args
        .duration
        .as_deref()
        .map(duration::parse)
        .transpose()
        .map_err(|m| Failure::new(2, m))?;
    let upload = Upload {
        server,
        quote: args.quote,
        revision: args.revision,
        workload: args.workload,
        node_label: args.node_label.clone(),
        nodes: args.nodes,
        note: args.note.clone(),
        format: args.format.clone(),
        result: None,
        telemetry: !args.no_telemetry,
        reserves_memory: args.reserves_memory,
        gpus: (!args.gpus.is_empty()).then(|| args.gpus.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
        started_at: None,
    };
    Ok(Plan {
        upload,
        result: args.result.clone(),
        limit,
        begins: args.started_at.as_deref().map(begins).transpose()?,
        started: None,
    })
}

/// The server's check before starting: token, role, quote and workload.
async fn check(u: &Upload, token: &str) -> Result<String, Failure> {
    let mut parts = client::fields(u);
    parts.push(client::Part::Text("dry_run", "true".into()));
    let (server, token) = (u.server.clone(), token.to_string());
    let outcome = tokio::task::spawn_blocking(move || client::post_runs(&server, &token, &parts))
        .await
        .map_err(|e| Failure::new(1, e.to_string()))?;
    match outcome {
        client::Outcome::Done(answer) => Ok(answer["workload"].as_str().unwrap_or_default().to_string()),
        client::Outcome::Refused(status, msg) => Err(Failure::new(
            1,
            format!("the server refused the check before starting ({status}): {msg}"),
        )),
        client::Outcome::Unreachable(msg) => Err(Failure::new(
            1,
            format!("cannot check with the server before starting: {msg}"),
        )),
    }
}

fn no_smi() -> Failure {
    Failure::new(
        2,
        "nvidia-smi was not found on PATH, nor amd-smi: install the NVIDIA driver utilities (or ROCm's amd-smi on an AMD node), or run with --no-telemetry to upload the result alone (the server then judges it as any run without telemetry)",
    )
}

/// The GPU sampling tool on `PATH`: `nvidia-smi`, else `amd-smi`.
fn sampling_tool() -> Option<sampler::Tool> {
    facts::find_on_path("nvidia-smi")
        .map(sampler::Tool::Nvidia)
        .or_else(|| facts::find_on_path("amd-smi").map(sampler::Tool::Amd))
}

/// Runs `nodeledger probe … -- COMMAND`.
pub(super) async fn probe(args: &ProbeArgs, server: String, folder: &Folder, token: String) -> Result<u8, Failure> {
    let mut plan = plan(args, server)?;
    let smi = if args.no_telemetry {
        None
    } else {
        Some(sampling_tool().ok_or_else(no_smi)?)
    };
    let workload = check(&plan.upload, &token).await?;
    // The node's GPU facts are read from nvidia-smi; on an AMD node the telemetry names them.
    let smi_for_facts = match &smi {
        Some(sampler::Tool::Nvidia(path)) => Some(path.clone()),
        _ => None,
    };
    let mut node = tokio::task::spawn_blocking(move || facts::collect(smi_for_facts.as_deref()))
        .await
        .map_err(|e| Failure::new(1, e.to_string()))?;
    // Stored and shown to the team: secret-looking values masked, a long line cut.
    node.command = Some(command_line::as_stored(&args.command.join(" ")));
    let dir = folder
        .start()
        .map_err(|e| Failure::new(1, format!("cannot create the probe's folder: {e}")))?;
    tell_plan(&plan, &node, &workload, &dir, args, smi.as_ref());
    plan.started = Some(std::time::SystemTime::now());
    let ended = sample_and_run(&dir, smi.as_ref(), &args.command, plan.limit).await?;
    let telemetry_rows = ended.1;
    finish(&mut plan, args, node, &dir, folder, &token, ended.0, telemetry_rows).await
}

fn tell_plan(
    plan: &Plan,
    node: &NodeFacts,
    workload: &str,
    dir: &Path,
    args: &ProbeArgs,
    tool: Option<&sampler::Tool>,
) {
    let u = &plan.upload;
    let what = match (u.quote, u.node_label.as_deref()) {
        (Some(q), _) => format!(
            "quote {q}{}",
            u.revision.map(|r| format!(" revision {r}")).unwrap_or_default()
        ),
        (None, Some(label)) => format!("node {label:?}"),
        (None, None) => "no quote".into(),
    };
    let workload = if workload.is_empty() {
        "no workload".to_string()
    } else {
        format!("workload {workload:?}")
    };
    eprintln!(
        "nodeledger probe: token accepted by {} for {what}, {workload}",
        u.server
    );
    if !node.gpus.is_empty() {
        eprintln!(
            "nodeledger probe: node: {}, driver {}",
            node.gpu_summary(),
            node.driver_version.as_deref().unwrap_or("?")
        );
    }
    let telemetry = match tool {
        Some(t) if u.telemetry => format!("{} every second", t.name()),
        _ => "no telemetry (--no-telemetry)".to_owned(),
    };
    let stop = plan.limit.map_or_else(
        || "until it ends".to_string(),
        |d| format!("for {}, then stopped", duration::clock(d.as_secs())),
    );
    eprintln!(
        "nodeledger probe: running {:?} {stop}, with {telemetry}",
        command_line::mask(&args.command.join(" "))
    );
    let result = plan
        .result
        .as_ref()
        .map_or_else(|| "no result file".to_string(), |p| format!("result {}", p.display()));
    let then = if args.dry_run {
        "judge it without storing (--dry-run)"
    } else {
        "upload it"
    };
    eprintln!("nodeledger probe: then {then}: {result}; files in {}", dir.display());
}

/// Samples (when `smi` is given) while the command runs; the end and the telemetry lines written.
async fn sample_and_run(
    dir: &Path,
    smi: Option<&sampler::Tool>,
    argv: &[String],
    limit: Option<Duration>,
) -> Result<(Ended, u64), Failure> {
    let live = Arc::new(Mutex::new(Live::default()));
    let csv = dir.join(pending::TELEMETRY);
    let sampler = match smi {
        Some(tool) => Some(
            sampler::start(tool, &csv, live.clone())
                .await
                .map_err(|e| Failure::new(1, format!("cannot start {}: {e}", tool.name())))?,
        ),
        None => None,
    };
    let mut shown = LiveLine::new(csv.clone(), live.clone());
    let ended = runner::run(argv, limit, |elapsed| shown.tick(elapsed.as_secs())).await;
    let rows = match sampler {
        Some(s) => s
            .stop()
            .await
            .map_err(|e| Failure::new(1, format!("cannot write the telemetry: {e}")))?,
        None => 0,
    };
    let ended = ended.map_err(|e| {
        Failure::new(
            1,
            format!("cannot start {:?}: {e}", argv.first().cloned().unwrap_or_default()),
        )
    })?;
    shown.done();
    Ok((ended, rows))
}

/// The live line on standard error: redrawn every second on a terminal, else one line a minute
/// and one at the end.
struct LiveLine {
    csv: PathBuf,
    live: Arc<Mutex<Live>>,
    tty: bool,
    warmup_s: Option<f64>,
    elapsed: u64,
    announced: bool,
}

impl LiveLine {
    fn new(csv: PathBuf, live: Arc<Mutex<Live>>) -> Self {
        Self {
            csv,
            live,
            tty: std::io::stderr().is_terminal(),
            warmup_s: None,
            elapsed: 0,
            announced: false,
        }
    }

    fn tick(&mut self, elapsed: u64) {
        self.elapsed = elapsed;
        if elapsed.is_multiple_of(15) && elapsed > 0 {
            self.warmup_s = std::fs::read(&self.csv).ok().and_then(|b| live::warmup_so_far(&b));
        }
        let line = self.line();
        if self.tty {
            eprint!("\r\x1b[2K{line}");
        } else if elapsed.is_multiple_of(60) && elapsed > 0 {
            eprintln!("{line}");
        }
        if !self.announced
            && let Some(msg) = live::long_enough_message(elapsed, self.warmup_s)
        {
            self.announced = true;
            eprintln!("{}{msg}", if self.tty { "\n" } else { "" });
        }
    }

    fn line(&self) -> String {
        self.live
            .lock()
            .map(|l| l.line(self.elapsed, self.warmup_s))
            .unwrap_or_default()
    }

    fn done(&mut self) {
        self.warmup_s = std::fs::read(&self.csv)
            .ok()
            .and_then(|b| live::warmup_so_far(&b))
            .or(self.warmup_s);
        let line = self.line();
        eprintln!("{}{line}", if self.tty { "\r\x1b[2K" } else { "" });
    }
}

/// The exit code that passes a command's `code` on (never 0 for a failure).
fn passed_on(code: i32) -> u8 {
    u8::try_from(code.rem_euclid(256)).ok().filter(|c| *c != 0).unwrap_or(1)
}

#[expect(clippy::too_many_arguments, reason = "the one place the run's parts come together")]
async fn finish(
    plan: &mut Plan,
    args: &ProbeArgs,
    mut node: NodeFacts,
    dir: &Path,
    folder: &Folder,
    token: &str,
    ended: Ended,
    telemetry_rows: u64,
) -> Result<u8, Failure> {
    let kept = format!("the files are kept in {}", dir.display());
    let failed = match ended {
        Ended::Interrupted => {
            return Err(Failure::new(
                130,
                format!("interrupted: the command and nvidia-smi were stopped and nothing was uploaded; {kept}"),
            ));
        }
        Ended::Exited(code) if code != 0 && !args.keep_failed => {
            return Err(Failure::new(
                passed_on(code),
                format!(
                    "the command exited with code {code}: nothing was uploaded (--keep-failed uploads it marked failed); {kept}"
                ),
            ));
        }
        Ended::Exited(code) => {
            node.exit_code = Some(code);
            (code != 0).then_some(code)
        }
        Ended::StoppedAfterDuration => None,
    };
    if plan.upload.telemetry && telemetry_rows < 2 {
        eprintln!("nodeledger probe: nvidia-smi wrote no samples: the run is sent without telemetry");
        plan.upload.telemetry = false;
    }
    let first_sample = plan
        .upload
        .telemetry
        .then(|| first_sample_time(&dir.join(pending::TELEMETRY)))
        .flatten();
    plan.upload.started_at = benchmark_start(plan.begins.as_ref(), first_sample);
    let fail_code = |c: Option<i32>| c.map_or(1, passed_on);
    if let Some(result) = &plan.result {
        let name = copy_result(result, dir, plan.started)
            .map_err(|m| Failure::new(fail_code(failed), format!("{m}; {kept}")))?;
        plan.upload.result = Some(name);
    } else if !plan.upload.telemetry {
        return Err(Failure::new(
            fail_code(failed),
            format!("nothing to upload: no result file and no telemetry; {kept}"),
        ));
    }
    write_files(dir, &plan.upload, &node)
        .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", dir.display())))?;
    upload::send_and_report(folder, dir, &plan.upload, token, args.dry_run).await?;
    Ok(failed.map_or(0, passed_on))
}

/// The time of the telemetry's first sample as `YYYY-MM-DD HH:MM:SS`: the run's start on the
/// telemetry's own clock (nvidia-smi writes local time, `2026/12/01 10:00:00.123`; the sampler
/// starts just before the command), so a result without a time of its own is placed in it.
fn first_sample_time(csv: &Path) -> Option<String> {
    use std::io::BufRead;
    let file = std::fs::File::open(csv).ok()?;
    let line = std::io::BufReader::new(file).lines().nth(1)?.ok()?;
    sample_time(&line)
}

/// The time of one sample line (`timestamp` is the first column the sampler queries).
fn sample_time(line: &str) -> Option<String> {
    let stamp = line.split(',').next()?.trim();
    let (date, clock) = stamp.split_once(' ')?;
    let clock = clock.split('.').next()?;
    let date = date.replace('/', "-");
    let valid = date.len() == 10
        && clock.len() == 8
        && (date.clone() + clock)
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'-' || b == b':');
    valid.then(|| format!("{date} {clock}"))
}

/// Copies the result into the run folder; the message names the path when it is missing, or
/// when it was last written before `started` (a file left by an earlier run is not this run's
/// measurement; one second of slack for file systems with coarse times).
fn copy_result(result: &Path, dir: &Path, started: Option<std::time::SystemTime>) -> Result<String, String> {
    let shown = std::path::absolute(result).unwrap_or_else(|_| result.to_path_buf());
    if !result.is_file() {
        return Err(format!(
            "the result file {} does not exist: the command did not write it (check its --result-filename / output option)",
            shown.display()
        ));
    }
    let written = std::fs::metadata(result).and_then(|m| m.modified()).ok();
    if let (Some(written), Some(started)) = (written, started)
        && written + Duration::from_secs(1) < started
    {
        return Err(format!(
            "the result file {} was last written before this run started: it is an earlier run's, not this one's (delete it, or check the command's output option)",
            shown.display()
        ));
    }
    // A plain name, as `--upload-pending` accepts: no `\` (a separator elsewhere) either.
    let name = result
        .file_name()
        .map_or_else(|| "result".into(), |n| n.to_string_lossy().replace('\\', "_"));
    pending::copy_private(result, &dir.join(&name))
        .map_err(|e| format!("cannot copy the result file {}: {e}", shown.display()))?;
    Ok(name)
}

fn write_files(dir: &Path, upload: &Upload, node: &NodeFacts) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(node).map_err(std::io::Error::other)?;
    pending::write_private(&dir.join(pending::NODE), &json)?;
    pending::write_upload(dir, upload)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nvidia-smi's `timestamp` as `--format=csv,nounits` prints it (`YYYY/MM/DD HH:MM:SS.mmm`,
    /// local time; nvidia-smi's documentation of `--query-gpu=timestamp`).
    #[test]
    fn the_run_starts_at_the_first_sample_on_the_telemetry_clock() {
        let dir = std::env::temp_dir().join(format!("nl-probe-start-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("telemetry.csv");
        let text = format!(
            "{}\n2026/12/01 10:00:00.123, 0, GPU-1, NVIDIA H100 80GB HBM3, 0, 1, 81559\n2026/12/01 10:00:01.124, 0, GPU-1, NVIDIA H100 80GB HBM3, 97, 70000, 81559\n",
            app::domain::runs::PROBE_QUERY_COLUMNS
        );
        std::fs::write(&csv, text).unwrap();
        assert_eq!(first_sample_time(&csv).as_deref(), Some("2026-12-01 10:00:00"));
        assert_eq!(sample_time("[Not Supported], 0"), None);
        assert_eq!(sample_time("2026/12/01 10:00, 0"), None, "no seconds: not nvidia-smi's");
        std::fs::write(&csv, format!("{}\n", app::domain::runs::PROBE_QUERY_COLUMNS)).unwrap();
        assert_eq!(first_sample_time(&csv), None, "no sample");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `--started-at` places a result without its own time (SGLang's JSONL) as the bench parse
    /// and the upload form do: a time on the node's clock, or an offset after the command started
    /// (the first sample), so a server's start-up is not taken for the benchmark's warm-up.
    #[test]
    fn the_benchmark_start_is_stated_as_a_time_or_an_offset_after_the_command() {
        let first = Some("2026-12-01 10:00:00".to_string());
        assert_eq!(
            benchmark_start(None, first.clone()).as_deref(),
            Some("2026-12-01 10:00:00")
        );
        let after = begins("+2m30s").unwrap_or_else(|_| panic!("offset"));
        assert_eq!(after, Begins::After(Duration::from_secs(150)));
        assert_eq!(
            benchmark_start(Some(&after), first.clone()).as_deref(),
            Some("2026-12-01T10:02:30")
        );
        assert_eq!(
            benchmark_start(Some(&after), None),
            None,
            "no telemetry: nothing to offset from"
        );
        let at = begins("2026-12-01 10:05").unwrap_or_else(|_| panic!("time"));
        assert_eq!(
            benchmark_start(Some(&at), first).as_deref(),
            Some("2026-12-01T10:05:00")
        );
        for bad in ["+soon", "10 minutes in", "+0s"] {
            let Err(e) = begins(bad) else { panic!("{bad} read") };
            assert_eq!(e.code, 2, "{bad}");
            assert!(e.message.starts_with(&format!("--started-at {bad:?}")), "{}", e.message);
        }
    }

    #[test]
    fn a_failed_command_s_code_is_passed_on_and_never_becomes_success() {
        assert_eq!(passed_on(3), 3);
        assert_eq!(passed_on(130), 130);
        assert_eq!(passed_on(256), 1);
        assert_eq!(passed_on(-1), 255);
    }

    #[test]
    fn a_missing_result_names_its_path() {
        let dir = std::env::temp_dir();
        let msg = copy_result(Path::new("/nonexistent/out/bench.json"), &dir, None).unwrap_err();
        assert!(
            msg.starts_with("the result file /nonexistent/out/bench.json does not exist"),
            "{msg}"
        );
    }

    #[test]
    fn a_result_file_older_than_the_run_is_refused_and_a_fresh_one_is_copied() {
        let base = std::env::temp_dir().join(format!("nl-probe-stale-{}", std::process::id()));
        let (from, to) = (base.join("from"), base.join("to"));
        std::fs::create_dir_all(&from).unwrap();
        std::fs::create_dir_all(&to).unwrap();
        let old = from.join("bench.json");
        std::fs::write(&old, "{}").unwrap();
        let later = std::time::SystemTime::now() + Duration::from_secs(60);
        let msg = copy_result(&old, &to, Some(later)).unwrap_err();
        assert!(msg.contains("was last written before this run started"), "{msg}");
        assert!(!to.join("bench.json").exists(), "nothing copied");
        let just_now = std::time::SystemTime::now();
        assert_eq!(copy_result(&old, &to, Some(just_now)).unwrap(), "bench.json");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
