//! The command line, run as a user would: `nodeledger` as a child process.

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

const BIN: &str = env!("CARGO_BIN_EXE_nodeledger");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/src/domain/quotes/fixtures");

fn run(db: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .arg("--db")
        .arg(db)
        .args(args)
        .env("NODELEDGER_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nodeledger");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_db(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("nl-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    (dir.join("cli.db"), dir)
}

#[test]
fn user_add_reads_the_password_from_stdin_and_checks_it() {
    let (db, dir) = temp_db("user");
    let short = run(&db, &["user", "add", "--email", "a@example.com", "--role", "admin"], "short\n");
    assert_eq!(short.status.code(), Some(2), "{}", text(&short.stderr));
    assert!(text(&short.stderr).contains("at least 12 characters"));
    let ok = run(&db, &["user", "add", "--email", "a@example.com", "--role", "admin"], "a long enough passphrase\n");
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let dup = run(&db, &["user", "add", "--email", "A@example.com", "--role", "admin"], "a long enough passphrase\n");
    assert_eq!(dup.status.code(), Some(2));
    let no_team = run(&db, &["user", "add", "--email", "e@example.com", "--role", "engineer"], "a long enough passphrase\n");
    assert_eq!(no_team.status.code(), Some(2));
    let eng = run(&db, &["user", "add", "--email", "e@example.com", "--role", "engineer", "--team", "Training"], "a long enough passphrase\n");
    assert!(eng.status.success(), "{}", text(&eng.stderr));
    assert!(text(&eng.stdout).contains("engineer in team Training"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn quotes_import_is_all_or_nothing_and_export_round_trips() {
    let (db, dir) = temp_db("quotes");
    let team = run(&db, &["user", "add", "--email", "p@example.com", "--role", "procurement", "--team", "GPU"], "a long enough passphrase\n");
    assert!(team.status.success(), "{}", text(&team.stderr));

    let bad = run(&db, &["quotes", "import", &format!("{FIXTURES}/nodeledger_one_bad_row.csv"), "--team", "GPU"], "");
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    let err = text(&bad.stderr);
    assert!(err.contains("line ") && err.contains("nothing imported"), "{err}");

    let semicolon = run(&db, &["quotes", "import", &format!("{FIXTURES}/semicolon.csv"), "--team", "GPU"], "");
    assert_eq!(semicolon.status.code(), Some(2));

    let dry = run(&db, &["quotes", "import", &format!("{FIXTURES}/nodeledger_quotes.csv"), "--team", "GPU", "--dry-run"], "");
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let empty = run(&db, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert_eq!(text(&empty.stdout).lines().count(), 1, "dry run stored nothing: header only");

    let good = run(&db, &["quotes", "import", &format!("{FIXTURES}/nodeledger_quotes.csv"), "--team", "GPU"], "");
    assert!(good.status.success(), "{}", text(&good.stderr));
    assert!(text(&good.stdout).contains("imported 3 quote(s)"), "{}", text(&good.stdout));
    let again = run(&db, &["quotes", "import", &format!("{FIXTURES}/nodeledger_quotes.csv"), "--team", "GPU"], "");
    assert_eq!(again.status.code(), Some(2), "duplicate references");

    let sky_no_vendor = run(&db, &["quotes", "import", &format!("{FIXTURES}/lambda_vms.csv"), "--team", "GPU"], "");
    assert_eq!(sky_no_vendor.status.code(), Some(2));
    assert!(text(&sky_no_vendor.stderr).contains("--vendor"));
    let sky = run(&db, &["quotes", "import", &format!("{FIXTURES}/lambda_vms.csv"), "--team", "GPU", "--vendor", "Lambda"], "");
    assert!(sky.status.success(), "{}", text(&sky.stderr));

    let export = run(&db, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert!(export.status.success());
    let csv_path = dir.join("export.csv");
    std::fs::write(&csv_path, &export.stdout).unwrap();
    let (db2, dir2) = temp_db("quotes2");
    run(&db2, &["user", "add", "--email", "p@example.com", "--role", "procurement", "--team", "GPU"], "a long enough passphrase\n");
    let reimport = run(&db2, &["quotes", "import", csv_path.to_str().unwrap(), "--team", "GPU"], "");
    assert!(reimport.status.success(), "{}", text(&reimport.stderr));
    let export2 = run(&db2, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert_eq!(text(&export.stdout), text(&export2.stdout), "export → import → export is stable");
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(dir2).ok();
}

const RUN_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/src/domain/runs/fixtures");

fn run_plain(args: &[&str]) -> Output {
    let (db, _dir) = temp_db("plain");
    run(&db, args, "")
}

#[test]
fn bench_parse_prints_the_canonical_run_or_a_clear_error() {
    let ok = run_plain(&["bench", "parse", &format!("{RUN_FIXTURES}/vllm_serve.json")]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let run: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(run["schema"], "nodeledger.run/v1");
    assert_eq!(run["source_format"], "vllm");
    assert!(run["throughput"]["value"].as_f64().unwrap() > 0.0);

    let dir = std::env::temp_dir().join(format!("nl-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.json");
    std::fs::write(&truncated, "{\n  \"date\": \"2026-01-01\",\n  \"backend\": ").unwrap();
    let bad = run_plain(&["bench", "parse", truncated.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("line 3"), "{}", text(&bad.stderr));
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(run_plain(&["bench", "parse", empty.to_str().unwrap()]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tco_runs_the_example_scenario_and_names_bad_fields() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/src/domain/tco/example-scenario.json");
    let ok = run_plain(&["tco", example]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let result: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    // Seed 002: 72 h × 10.00 = 720.00 beats 24 h × 35.00 = 840.00.
    assert_eq!(result["quotes"][0]["id"], "a");
    assert_eq!(result["quotes"][0]["estimate"]["total"], "720.00");
    assert_eq!(result["quotes"][1]["estimate"]["total"], "840.00");

    let dir = std::env::temp_dir().join(format!("nl-tco-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    let mut scenario: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    scenario["assumptions"]["efficiency"] = serde_json::json!("1.5");
    std::fs::write(&bad, scenario.to_string()).unwrap();
    let out = run_plain(&["tco", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("efficiency"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(dir).ok();
}
