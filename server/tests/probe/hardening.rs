//! What the probe keeps to the engineer: the token only over https:// (or to this machine) and
//! never to the measured command; pending runs sent only with their own folder's files and only
//! to the server named; its folders the owner's only; the command line stored masked and cut.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use super::desk::{Desk, FIXTURES, Smi, WARMUP_ROWS, desk, run_id, says, text};
use serde_json::Value;
use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
};

/// The stored node facts' command of run `id`.
async fn stored_command(d: &Desk, id: i64) -> String {
    let facts: String = sqlx::query_scalar("SELECT facts FROM run_node_facts WHERE run_id = ?")
        .bind(id)
        .fetch_one(&d.app.db)
        .await
        .unwrap();
    let facts: Value = serde_json::from_str(&facts).unwrap();
    facts["command"].as_str().unwrap().to_string()
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_to_another_host_is_refused_before_anything_starts() {
    let d = desk("plain-http").await;
    let marker = d.dir.join("ran");
    let script = format!("touch {}", marker.display());
    let (q, w) = (d.quote.to_string(), d.workload.to_string());
    let run = ["--quote", &q, "--workload", &w, "--", "sh", "-c", &script];
    let mut args = vec!["--server", "http://nodeledger.example"];
    args.extend(run);
    let out = d.run(Smi::Rows(WARMUP_ROWS), &args).await;
    assert_eq!(out.status.code(), Some(2), "{}", says(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "would send the API token unencrypted to nodeledger.example: use https://, or add --insecure-http"
        ),
        "{stderr}"
    );
    let mut from_env = d.command(Smi::Rows(WARMUP_ROWS), &run);
    let out = from_env
        .env("NODELEDGER_SERVER", "http://10.1.2.3:3000")
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "NODELEDGER_SERVER too: {}", says(&out));
    assert!(!marker.exists(), "the command never ran");
    assert_eq!(d.left("kept"), Vec::<PathBuf>::new(), "nothing was started");

    let out = d
        .run(
            Smi::Absent,
            &["--upload-pending", "--server", "http://nodeledger.example"],
        )
        .await;
    assert_eq!(out.status.code(), Some(2), "{}", says(&out));
    assert!(text(&out.stderr).contains("--insecure-http"), "{}", says(&out));
    let out = d.run(Smi::Absent, &["--upload-pending"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", says(&out));
    assert!(
        text(&out.stderr).contains("--upload-pending needs --server URL (or NODELEDGER_SERVER)"),
        "{}",
        says(&out)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_measured_command_does_not_inherit_the_token() {
    let d = desk("no-token-env").await;
    let script = d.writes_result("echo \"token:${NODELEDGER_TOKEN:-absent}\"");
    // `run` fails the test when the token shows on standard output.
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], &script).await;
    assert!(out.status.success(), "{}", says(&out));
    assert!(text(&out.stdout).contains("token:absent"), "{}", says(&out));
}

/// The files of run folder `from` copied into `state/pending/<name>`, with `edit` applied to its
/// `upload.json`.
fn pending_copy(d: &Desk, from: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let to = d.dir.join("state/pending").join(name);
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let mut upload: Value = serde_json::from_slice(&std::fs::read(to.join("upload.json")).unwrap()).unwrap();
    edit(&mut upload);
    std::fs::write(to.join("upload.json"), upload.to_string()).unwrap();
    to
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_pending_sends_only_the_folder_s_own_files_and_only_to_the_server_named() {
    let d = desk("tampered").await;
    let out = d
        .probe(Smi::Rows(WARMUP_ROWS), &["--dry-run"], &d.writes_result("true"))
        .await;
    assert!(out.status.success(), "{}", says(&out));
    let kept = d.left("kept").pop().unwrap();
    let secret = d.dir.join("secret.txt");
    std::fs::write(&secret, "SECRET-CONTENT").unwrap();
    let elsewhere = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    elsewhere.set_nonblocking(true).unwrap();
    let elsewhere_url = format!("http://{}", elsewhere.local_addr().unwrap());

    // The redirected copy carries the captured telemetry itself: on a loaded machine the short
    // dry run may end before the fake nvidia-smi wrote a sample, and the count below would then
    // depend on timing.
    let redirected = pending_copy(&d, &kept, "1-redirected", |u| {
        u["server"] = elsewhere_url.clone().into();
        u["telemetry"] = true.into();
    });
    std::fs::copy(format!("{FIXTURES}/{WARMUP_ROWS}"), redirected.join("telemetry.csv")).unwrap();
    let dotdot = pending_copy(&d, &kept, "2-dotdot", |u| {
        u["result"] = "../../../secret.txt".into();
    });
    let absolute = pending_copy(&d, &kept, "3-absolute", |u| {
        u["result"] = secret.to_str().unwrap().into();
    });
    // The copy always names the telemetry: on a loaded machine the short dry run may end
    // before the fake nvidia-smi wrote two samples, and the probe then sends no telemetry.
    let linked = pending_copy(&d, &kept, "4-symlink", |u| {
        u["telemetry"] = true.into();
    });
    let _ = std::fs::remove_file(linked.join("telemetry.csv"));
    std::os::unix::fs::symlink(&secret, linked.join("telemetry.csv")).unwrap();

    let out = d.run(Smi::Absent, &["--upload-pending"]).await;
    assert_eq!(out.status.code(), Some(2), "no server from the folder: {}", says(&out));
    let out = d.run(Smi::Absent, &["--upload-pending", "--server", &d.url]).await;
    assert_eq!(out.status.code(), Some(1), "some are left: {}", says(&out));
    let stderr = text(&out.stderr);
    for (dir, problem) in [
        (&dotdot, "\"../../../secret.txt\" is not a plain file name".to_string()),
        (
            &absolute,
            format!("{:?} is not a plain file name", secret.to_str().unwrap()),
        ),
        (&linked, "\"telemetry.csv\" is a symbolic link".to_string()),
    ] {
        let line = format!("{} is left in place: {problem}", dir.display());
        assert!(stderr.contains(&line), "{line}\n{stderr}");
        assert!(dir.join("upload.json").is_file(), "{} stays", dir.display());
    }
    assert!(
        stderr.contains(&format!(
            "was recorded for {elsewhere_url:?}: it goes to {} as asked",
            d.url
        )),
        "{stderr}"
    );
    assert!(run_id(&out, &d.url) > 0);
    assert!(!redirected.exists(), "the redirected run went to the server named");
    assert_eq!(d.left("pending").len(), 3);
    assert!(
        elsewhere.accept().is_err(),
        "nothing connected to the server upload.json named"
    );
    assert_eq!((d.count("runs").await, d.count("run_files").await), (1, 2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_s_folders_and_files_are_the_owner_s_only() {
    let d = desk("modes").await;
    let out = d
        .probe(Smi::Rows(WARMUP_ROWS), &["--dry-run"], &d.writes_result("true"))
        .await;
    assert!(out.status.success(), "{}", says(&out));
    let run = d.left("kept").pop().unwrap();
    for dir in [d.dir.join("state"), d.dir.join("state/kept"), run.clone()] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
    let files: Vec<PathBuf> = std::fs::read_dir(&run).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(files.len(), 4, "telemetry, node facts, result, upload.json: {files:?}");
    for f in files {
        assert_eq!(mode(&f), 0o600, "{}", f.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_on_the_command_line_are_masked_in_what_is_stored_and_shown() {
    let d = desk("masked").await;
    let script = d.writes_result("HF_TOKEN=hf_secret1 true --api-key sk-secret2");
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
        "sh",
        "-H",
        "Authorization: Bearer sk-secret3",
        "--token=secret4",
    ];
    let out = d.run(Smi::Rows(WARMUP_ROWS), &args).await;
    assert!(out.status.success(), "{}", says(&out));
    let id = run_id(&out, &d.url);
    let stored = stored_command(&d, id).await;
    assert!(stored.contains("HF_TOKEN=*** true --api-key *** &&"), "{stored}");
    assert!(
        stored.ends_with(" sh -H Authorization: Bearer *** --token=***"),
        "{stored}"
    );
    let page = d.app.get(&format!("/runs/{id}"), Some(&d.engineer), None).await;
    assert!(page.body.contains("--api-key ***"), "shown masked");
    for secret in ["hf_secret1", "sk-secret2", "sk-secret3", "secret4"] {
        assert!(!stored.contains(secret), "stored: {stored}");
        assert!(!page.body.contains(secret), "shown: {secret}");
        assert!(!text(&out.stderr).contains(secret), "said: {}", says(&out));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_line_over_512_characters_is_stored_cut_with_a_mark() {
    let d = desk("long-command").await;
    let flags = "--max-num-seqs 256 --gpu-memory-utilization 0.9 ".repeat(20);
    let script = d.writes_result(&format!("true {flags}"));
    assert!(script.len() > 900);
    let out = d.probe(Smi::Rows(WARMUP_ROWS), &[], &script).await;
    assert!(out.status.success(), "{}", says(&out));
    let stored = stored_command(&d, run_id(&out, &d.url)).await;
    assert_eq!(stored.chars().count(), 512, "{stored}");
    assert!(stored.starts_with("sh -c mkdir -p"), "{stored}");
    assert!(stored.ends_with(" …[truncated]"), "{stored}");
}

/// The server's side, for a probe that does not cut: a long command is cut and masked the same
/// way instead of the whole upload being refused; the part itself stays bounded.
#[tokio::test]
async fn the_api_cuts_and_masks_a_long_command_instead_of_refusing_the_run() {
    let d = desk("api-long-command").await;
    let command = format!(
        "vllm serve Qwen/Qwen2.5-7B-Instruct --api-key sk-abc {}",
        "--max-num-seqs 256 ".repeat(100)
    );
    let node = serde_json::json!({ "command": command, "exit_code": 0 }).to_string();
    let (run, quote) = (crate::common::l4_run(), d.quote.to_string());
    let parts = [
        ("result", Some("r.json"), run.as_bytes()),
        ("quote", None, quote.as_bytes()),
        ("node", None, node.as_bytes()),
    ];
    let answer = d.app.multipart("/api/v1/runs", &parts, None, Some(&d.token)).await;
    assert!(answer.status.is_success(), "{} {}", answer.status, answer.body);
    let id = serde_json::from_str::<Value>(&answer.body).unwrap()["id"]
        .as_i64()
        .unwrap();
    let stored = stored_command(&d, id).await;
    assert_eq!(stored.chars().count(), 512);
    assert!(
        stored.starts_with("vllm serve Qwen/Qwen2.5-7B-Instruct --api-key *** --max-num-seqs 256"),
        "{stored}"
    );
    assert!(stored.ends_with(" …[truncated]"), "{stored}");
}
