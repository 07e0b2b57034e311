//! `nodeledger probe` end to end: the real router over a real database served on a
//! real port, the real `nodeledger` binary as the engineer runs it on the node, a fake
//! `nvidia-smi` on `PATH` that prints telemetry captured on real nodes (`tests/probe/bin`), and
//! `sh -c …` as the workload. Also the API's side: the check before starting and the `node` part.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

#[path = "probe/desk.rs"]
mod desk;
#[path = "probe/hardening.rs"]
mod hardening;

use common::TestApp;
use desk::{Desk, FIXTURES, Smi, THROTTLED_ROWS, WARMUP_ROWS, desk, run_id, says, serve, text};
use http::StatusCode;
use serde_json::Value;
use std::{path::PathBuf, time::Duration};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_command_measures_the_node_and_stores_result_telemetry_and_node_facts() {
    let d = desk("full").await;
    let out = d
        .probe(
            Smi::Rows(WARMUP_ROWS),
            &[],
            &d.writes_result("echo bench-output && sleep 1"),
        )
        .await;
    assert!(out.status.success(), "{}", says(&out));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("bench-output"),
        "the command's output passes through: {stdout}"
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("token accepted by"), "{stderr}");
    assert!(
        stderr.contains("workload \"Qwen2-7B serving\""),
        "it says what it will do: {stderr}"
    );
    assert!(
        stderr.contains("1× NVIDIA A100-SXM4-80GB (81920 MiB), driver 550.54.15"),
        "{stderr}"
    );
    assert!(
        stderr.contains("GPU 92 % · VRAM 60.3/80.0 GiB · SM 1410 MHz"),
        "the live line: {stderr}"
    );
    let id = run_id(&out, &d.url);
    let (status, result_file, telemetry_file): (String, i64, i64) =
        sqlx::query_as("SELECT status, result_file_id, telemetry_file_id FROM runs WHERE id = ?")
            .bind(id)
            .fetch_one(&d.app.db)
            .await
            .unwrap();
    assert!(stdout.contains(&format!("verdict: {status}")), "{stdout}");
    let canonical: Value = serde_json::from_str(&d.canonical(id).await).unwrap();
    let codes: Vec<&str> = canonical["verdict"]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"gpu_name_mismatch"),
        "the quoted L4 is not the A100 seen: {codes:?}"
    );
    let warmup = canonical["warmup_s"].as_f64().unwrap();
    assert!(
        (30.0..=60.0).contains(&warmup),
        "the captured warm-up is left out: {warmup}"
    );
    let file = |f: i64| format!("/runs/{id}/files/{f}");
    let raw = d.app.get(&file(result_file), Some(&d.engineer), None).await;
    assert_eq!(
        raw.body,
        std::fs::read_to_string(d.dir.join("vllm_serve.json")).unwrap()
    );
    let raw = d.app.get(&file(telemetry_file), Some(&d.engineer), None).await;
    assert_eq!(
        raw.body,
        std::fs::read_to_string(format!("{FIXTURES}/{WARMUP_ROWS}")).unwrap()
    );
    node_facts_are_stored_and_shown(&d, id).await;
    assert_eq!(
        d.left("kept"),
        Vec::<PathBuf>::new(),
        "an uploaded run's files are not left behind"
    );
}

/// The node facts of run `id`: stored with the run, shown on its page in both languages.
async fn node_facts_are_stored_and_shown(d: &Desk, id: i64) {
    let (facts, exit): (String, Option<i64>) =
        sqlx::query_as("SELECT facts, exit_code FROM run_node_facts WHERE run_id = ?")
            .bind(id)
            .fetch_one(&d.app.db)
            .await
            .unwrap();
    let facts: Value = serde_json::from_str(&facts).unwrap();
    assert_eq!(exit, Some(0));
    assert_eq!(facts["gpus"][0]["name"], "NVIDIA A100-SXM4-80GB");
    assert_eq!(facts["cuda_version"], "12.4");
    assert!(facts["cpu_count"].as_u64().unwrap() >= 1, "{facts}");
    assert!(
        facts["command"].as_str().unwrap().starts_with("sh -c mkdir -p"),
        "{facts}"
    );
    let page = d.app.get(&format!("/runs/{id}"), Some(&d.engineer), None).await;
    assert!(page.body.contains("Node as the probe recorded it"), "{}", page.body);
    assert!(page.body.contains("1× NVIDIA A100-SXM4-80GB (81920 MiB)"));
    let page = d
        .app
        .get(&format!("/runs/{id}"), Some(&d.engineer), Some("zh-CN"))
        .await;
    assert!(page.body.contains("探测工具记录的节点信息"), "{}", page.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_command_uploads_nothing_and_its_exit_code_is_passed_on() {
    let d = desk("failed").await;
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], &d.writes_result("exit 3")).await;
    assert_eq!(out.status.code(), Some(3), "{}", says(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the command exited with code 3: nothing was uploaded (--keep-failed"),
        "{stderr}"
    );
    assert_eq!(d.count("runs").await, 0);
    let kept = d.left("kept");
    assert_eq!(kept.len(), 1, "the files are kept");
    assert!(kept[0].join("telemetry.csv").is_file());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_failed_uploads_the_run_marked_failed_and_still_passes_the_code_on() {
    let d = desk("keep-failed").await;
    let script = format!("{} && exit 4", d.writes_result("true"));
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &["--keep-failed"], &script).await;
    assert_eq!(out.status.code(), Some(4), "{}", says(&out));
    let id = run_id(&out, &d.url);
    assert!(
        d.codes(id).await.contains(&"command_failed".to_string()),
        "{:?}",
        d.codes(id).await
    );
    let status: String = sqlx::query_scalar("SELECT status FROM runs WHERE id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(status, "invalid", "a failed run is never valid");
    let page = d.app.get(&format!("/runs/{id}"), Some(&d.engineer), None).await;
    assert!(page.body.contains("The command exited with code 4"), "{}", page.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_stops_the_command_and_the_sampler_and_keeps_the_files() {
    let d = desk("ctrl-c").await;
    let (stopped, ready) = (d.dir.join("stopped"), d.dir.join("ready"));
    // The command says when its trap is set, so a loaded machine cannot interrupt it before.
    let script = format!(
        "trap 'echo stopped > {}; exit 0' INT; touch {}; while true; do sleep 0.1; done",
        stopped.display(),
        ready.display()
    );
    let (q, w) = (d.quote.to_string(), d.workload.to_string());
    let args = [
        "--server",
        &d.url,
        "--quote",
        &q,
        "--workload",
        &w,
        "--",
        "sh",
        "-c",
        &script,
    ];
    let child = d.command(Smi::Rows(WARMUP_ROWS), &args).spawn().unwrap();
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id().unwrap()).unwrap());
    let kept = d.dir.join("state/kept");
    for _ in 0..100 {
        let sampled = std::fs::read_dir(&kept)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| std::fs::metadata(e.path().join("telemetry.csv")).is_ok_and(|m| m.len() > 1000));
        if sampled && ready.is_file() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", says(&out));
    assert!(
        text(&out.stderr).contains("interrupted: the command and nvidia-smi were stopped"),
        "{}",
        says(&out)
    );
    assert!(stopped.is_file(), "the command got the interrupt");
    let left = d.left("kept");
    assert_eq!(left.len(), 1);
    let telemetry = std::fs::read_to_string(left[0].join("telemetry.csv")).unwrap();
    assert_eq!(
        telemetry,
        std::fs::read_to_string(format!("{FIXTURES}/{WARMUP_ROWS}")).unwrap()
    );
    assert_eq!(d.count("runs").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_file_the_command_did_not_write_is_named() {
    let d = desk("missing").await;
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], "true").await;
    assert_eq!(out.status.code(), Some(1), "{}", says(&out));
    let expected = format!("the result file {} does not exist", d.result().display());
    assert!(text(&out.stderr).contains(&expected), "{}", says(&out));
    assert_eq!(d.count("runs").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_server_down_the_files_wait_until_upload_pending_sends_them() {
    let mut d = desk("pending").await;
    let (started, go) = (d.dir.join("started"), d.dir.join("go"));
    let wait = format!(
        "touch {} && while [ ! -f {} ]; do sleep 0.1; done",
        started.display(),
        go.display()
    );
    let script = d.writes_result(&wait);
    let (q, w, result) = (d.quote.to_string(), d.workload.to_string(), d.result());
    let args = [
        "--server",
        &d.url,
        "--quote",
        &q,
        "--workload",
        &w,
        "--result",
        result.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &script,
    ];
    let child = d.command(Smi::Rows(THROTTLED_ROWS), &args).spawn().unwrap();
    while !started.exists() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    d.served.take().unwrap().shut_down().await;
    std::fs::write(&go, b"").unwrap();
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", says(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("the upload failed: cannot reach"), "{stderr}");
    assert!(stderr.contains("nodeledger probe --upload-pending"), "{stderr}");
    assert_eq!(d.left("pending").len(), 1, "{stderr}");
    assert_eq!(d.count("runs").await, 0);

    let served = serve(&d.app).await;
    let out = d.run(Smi::Absent, &["--upload-pending", "--server", &served.url]).await;
    assert!(out.status.success(), "{}", says(&out));
    let id = run_id(&out, &served.url);
    let codes = d.codes(id).await;
    assert!(
        codes.contains(&"power_capped".to_string()),
        "the captured power-cap stretch is judged: {codes:?}"
    );
    assert_eq!(d.left("pending"), Vec::<PathBuf>::new());
    let facts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM run_node_facts WHERE run_id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(facts, 1, "the node facts travel with the pending run");
    let again = d.run(Smi::Absent, &["--upload-pending", "--server", &served.url]).await;
    assert!(text(&again.stderr).contains("no runs are pending"), "{}", says(&again));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_nvidia_smi_it_says_so_and_no_telemetry_uploads_the_result_alone() {
    let d = desk("no-smi").await;
    let out = d.probe(Smi::Absent, &[], &d.writes_result("true")).await;
    assert_eq!(out.status.code(), Some(2), "{}", says(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("nvidia-smi was not found on PATH"), "{stderr}");
    assert!(stderr.contains("--no-telemetry"), "{stderr}");
    assert_eq!(d.left("kept"), Vec::<PathBuf>::new(), "nothing was started");

    let out = d
        .probe(Smi::Absent, &["--no-telemetry"], &d.writes_result("true"))
        .await;
    assert!(out.status.success(), "{}", says(&out));
    let id = run_id(&out, &d.url);
    assert!(d.codes(id).await.contains(&"telemetry_missing".to_string()));
    let telemetry: Option<i64> = sqlx::query_scalar("SELECT telemetry_file_id FROM runs WHERE id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    assert_eq!(telemetry, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duration_stops_a_command_that_does_not_end_and_dry_run_stores_nothing() {
    let d = desk("duration").await;
    let script = format!(
        "trap '{}; exit 0' INT; while true; do sleep 0.1; done",
        d.writes_result("true")
    );
    let out = d
        .probe(Smi::Rows(WARMUP_ROWS), &["--duration", "5s", "--dry-run"], &script)
        .await;
    assert!(out.status.success(), "{}", says(&out));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("(dry run: nothing was stored)"), "{stdout}");
    assert!(
        !stdout.lines().any(|l| l.starts_with("run: ")),
        "no run to link to: {stdout}"
    );
    assert_eq!((d.count("runs").await, d.count("run_files").await), (0, 0));
    assert_eq!(d.left("kept").len(), 1, "a dry run's files are kept to upload for real");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_or_another_team_s_quote_stops_it_before_the_command_starts() {
    let mut d = desk("refused").await;
    let marker = d.dir.join("ran");
    let script = format!("touch {}", marker.display());
    let real = std::mem::replace(&mut d.token, "nl_0000000000000000000000000000000000000000".into());
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], &script).await;
    assert_eq!(out.status.code(), Some(1), "{}", says(&out));
    assert!(
        text(&out.stderr).contains("the server refused the check before starting (401)"),
        "{}",
        says(&out)
    );
    d.token = real;
    d.quote += 1000;
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], &script).await;
    assert!(text(&out.stderr).contains("(404)"), "{}", says(&out));
    assert!(!marker.exists(), "the command never ran");
    let mut cmd = d.command(Smi::Rows(WARMUP_ROWS), &["--server", &d.url, "--", "true"]);
    let out = cmd.env_remove("NODELEDGER_TOKEN").output().await.unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("set NODELEDGER_TOKEN"), "{}", says(&out));
}

/// The API's side: `dry_run` without files checks and stores nothing; `node` is refused with
/// its line and column when it is not JSON.
#[tokio::test]
async fn the_check_before_starting_and_bad_node_facts_are_answered_without_storing() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Inference").await;
    let other = app.create_team(&admin, "Training").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    app.create_member(&admin, "oli@example.com", other, "procurement").await;
    let pam = app.login("pam@example.com", common::PASSWORD).await;
    let oli = app.login("oli@example.com", common::PASSWORD).await;
    let eve = app.login("eve@example.com", common::PASSWORD).await;
    let quote = app.create_quote(&pam, "Q-1").await.to_string();
    let workload = app.create_workload(&pam, "Qwen2-7B serving").await.to_string();
    let theirs = app.create_workload(&oli, "Their job").await.to_string();
    let token = app.create_token(&eve, "probe").await;
    let check = |w: String| {
        let (quote, token) = (quote.clone(), token.clone());
        let app = &app;
        async move {
            let parts = [
                ("quote", None, quote.as_bytes()),
                ("workload", None, w.as_bytes()),
                ("dry_run", None, b"true".as_slice()),
            ];
            app.multipart("/api/v1/runs", &parts, None, Some(&token)).await
        }
    };
    let ok = check(workload.clone()).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    let body: Value = serde_json::from_str(&ok.body).unwrap();
    assert_eq!(
        (body["ready"].as_bool(), body["workload"].as_str()),
        (Some(true), Some("Qwen2-7B serving"))
    );
    assert_eq!(
        check(theirs).await.status,
        StatusCode::NOT_FOUND,
        "another team's workload"
    );
    let without_dry_run = app
        .multipart("/api/v1/runs", &[("quote", None, quote.as_bytes())], None, Some(&token))
        .await;
    assert_eq!(
        without_dry_run.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no file and no dry run"
    );

    let run = common::l4_run();
    let bad = app
        .multipart(
            "/api/v1/runs",
            &[
                ("result", Some("r.json"), run.as_bytes()),
                ("quote", None, quote.as_bytes()),
                ("node", None, b"{\n  \"cpu_count\": \"many\"\n}"),
            ],
            None,
            Some(&token),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    let body: Value = serde_json::from_str(&bad.body).unwrap();
    assert_eq!(body["fields"][0]["field"], "node");
    assert_eq!(
        body["fields"][0]["message"],
        "The node facts (field node) are not valid JSON at line:column 2:21."
    );
    let stored: (i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM run_files), (SELECT COUNT(*) FROM run_node_facts)",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(stored, (0, 0, 0), "nothing half-saved");
}

/// An `amd-smi metric --csv --watch` capture of two MI300X from 2024-05-01 11:59 to 12:11 UTC,
/// covering the desk's vLLM result (12:00:01–12:10:13): the header before every sample, as
/// amd-smi writes it, with the `--throttle` violation statuses.
fn amd_capture(dir: &std::path::Path) -> &'static str {
    let header = "timestamp,gpu,gfx_activity,umc_activity,socket_power,throttle_status,hotspot,mem,total_vram,used_vram,free_vram,prochot_violation_status,ppt_violation_status,socket_thermal_violation_status,vr_thermal_violation_status,hbm_thermal_violation_status";
    let mut csv = String::from("'CTRL' + 'C' to stop watching output:\n");
    for i in 0..=144u32 {
        csv.push_str(header);
        csv.push('\n');
        for gpu in 0..2 {
            let t = 1_714_564_740 + i * 5;
            csv.push_str(&format!(
                "{t},{gpu},96,40,690,N/A,78,60,196592,170000,26592,FALSE,FALSE,FALSE,FALSE,FALSE\n"
            ));
        }
    }
    let path = dir.join("amd-smi.csv");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&path, csv).unwrap();
    Box::leak(path.to_str().unwrap().to_owned().into_boxed_str())
}

/// On an AMD node (amd-smi on PATH, no nvidia-smi) the probe samples with amd-smi: it says so,
/// shows the live line, and the run is stored with its AMD telemetry, judged for utilisation,
/// memory and throttling as an NVIDIA run is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_amd_node_the_probe_samples_with_amd_smi() {
    let d = desk("amd").await;
    let rows = amd_capture(&d.dir.join("capture"));
    let out = d.probe(Smi::Amd(rows), &[], &d.writes_result("sleep 1")).await;
    assert!(out.status.success(), "{}", says(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("with amd-smi every second"), "{stderr}");
    assert!(
        stderr.contains("GPU 96 % · VRAM 332.0/384.0 GiB"),
        "the live line: {stderr}"
    );
    let id = run_id(&out, &d.url);
    let canonical: Value = serde_json::from_str(&d.canonical(id).await).unwrap();
    assert_eq!(canonical["node"]["gpu_count"], 2, "{canonical}");
    let codes = d.codes(id).await;
    assert!(
        !codes.contains(&"telemetry_missing".to_string()),
        "throttling and memory were watched: {codes:?}"
    );
    assert!(
        codes.contains(&"run_window".to_string()),
        "placed in its telemetry: {codes:?}"
    );
}
