//! The command line, run as a user would: `nodeledger` as a child process.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use serde_json::{Value, json};
use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

const BIN: &str = env!("CARGO_BIN_EXE_nodeledger");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/domain/src/quotes/fixtures");

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
    let short = run(
        &db,
        &["user", "add", "--email", "a@example.com", "--role", "admin"],
        "xq7#k\n",
    );
    assert_eq!(short.status.code(), Some(2), "{}", text(&short.stderr));
    assert!(text(&short.stderr).contains("at least 12 characters"));
    let ok = run(
        &db,
        &["user", "add", "--email", "a@example.com", "--role", "admin"],
        "a long enough passphrase\n",
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let setup_done = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let pool = app::store::connect(db.to_str().unwrap()).await.unwrap();
        app::store::site::setup_completed(&pool).await.unwrap()
    });
    assert!(
        setup_done,
        "an administrator added from the command line closes the first-run page"
    );
    let dup = run(
        &db,
        &["user", "add", "--email", "A@example.com", "--role", "admin"],
        "a long enough passphrase\n",
    );
    assert_eq!(dup.status.code(), Some(2));
    let no_team = run(
        &db,
        &["user", "add", "--email", "e@example.com", "--role", "engineer"],
        "a long enough passphrase\n",
    );
    assert_eq!(no_team.status.code(), Some(2));
    let eng = run(
        &db,
        &[
            "user",
            "add",
            "--email",
            "e@example.com",
            "--role",
            "engineer",
            "--team",
            "Training",
        ],
        "a long enough passphrase\n",
    );
    assert!(eng.status.success(), "{}", text(&eng.stderr));
    assert!(text(&eng.stdout).contains("engineer in team Training"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
fn quotes_import_is_all_or_nothing_and_export_round_trips() {
    let (db, dir) = temp_db("quotes");
    let team = run(
        &db,
        &[
            "user",
            "add",
            "--email",
            "p@example.com",
            "--role",
            "procurement",
            "--team",
            "GPU",
        ],
        "a long enough passphrase\n",
    );
    assert!(team.status.success(), "{}", text(&team.stderr));

    let bad = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_one_bad_row.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    let err = text(&bad.stderr);
    assert!(err.contains("line ") && err.contains("nothing imported"), "{err}");

    let semicolon = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/semicolon.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert_eq!(semicolon.status.code(), Some(2));

    let gbk = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/gbk_encoded.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert_eq!(gbk.status.code(), Some(2));
    assert!(text(&gbk.stderr).contains("UTF-8"), "{}", text(&gbk.stderr));

    // A 50 MB file is refused before it is read.
    let big = dir.join("big.csv");
    std::fs::File::create(&big).unwrap().set_len(50_000_000).unwrap();
    let too_big = run(&db, &["quotes", "import", big.to_str().unwrap(), "--team", "GPU"], "");
    assert_eq!(too_big.status.code(), Some(2));
    assert!(text(&too_big.stderr).contains("limit"), "{}", text(&too_big.stderr));

    // A forced format: our CSV read as a SkyPilot catalog is refused, naming the missing columns.
    let forced = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_quotes.csv"),
            "--team",
            "GPU",
            "--format",
            "skypilot",
            "--vendor",
            "X",
            "--dry-run",
        ],
        "",
    );
    assert_eq!(forced.status.code(), Some(2), "{}", text(&forced.stdout));
    assert!(
        text(&forced.stderr).contains("InstanceType"),
        "{}",
        text(&forced.stderr)
    );
    let as_csv = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_quotes.csv"),
            "--team",
            "GPU",
            "--format",
            "csv",
            "--dry-run",
        ],
        "",
    );
    assert!(as_csv.status.success(), "{}", text(&as_csv.stderr));
    let vast = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/vast_vms.csv"),
            "--team",
            "GPU",
            "--format",
            "skypilot",
            "--vendor",
            "Vast",
            "--valid-until",
            "2099-12-31",
            "--dry-run",
        ],
        "",
    );
    assert!(vast.status.success(), "{}", text(&vast.stderr));

    let dry = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_quotes.csv"),
            "--team",
            "GPU",
            "--dry-run",
        ],
        "",
    );
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let empty = run(&db, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert_eq!(
        text(&empty.stdout).lines().count(),
        1,
        "dry run stored nothing: header only"
    );

    let good = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_quotes.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert!(good.status.success(), "{}", text(&good.stderr));
    assert!(
        text(&good.stdout).contains("imported 3 quote(s)"),
        "{}",
        text(&good.stdout)
    );
    let again = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/nodeledger_quotes.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert_eq!(again.status.code(), Some(2), "duplicate references");

    let sky_no_vendor = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/lambda_vms.csv"),
            "--team",
            "GPU",
        ],
        "",
    );
    assert_eq!(sky_no_vendor.status.code(), Some(2));
    assert!(text(&sky_no_vendor.stderr).contains("--vendor"));
    let sky = run(
        &db,
        &[
            "quotes",
            "import",
            &format!("{FIXTURES}/lambda_vms.csv"),
            "--team",
            "GPU",
            "--vendor",
            "Lambda",
            "--valid-until",
            "2099-12-31",
        ],
        "",
    );
    assert!(sky.status.success(), "{}", text(&sky.stderr));

    let export = run(&db, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert!(export.status.success());
    let csv_path = dir.join("export.csv");
    std::fs::write(&csv_path, &export.stdout).unwrap();
    let (db2, dir2) = temp_db("quotes2");
    run(
        &db2,
        &[
            "user",
            "add",
            "--email",
            "p@example.com",
            "--role",
            "procurement",
            "--team",
            "GPU",
        ],
        "a long enough passphrase\n",
    );
    let reimport = run(
        &db2,
        &["quotes", "import", csv_path.to_str().unwrap(), "--team", "GPU"],
        "",
    );
    assert!(reimport.status.success(), "{}", text(&reimport.stderr));
    let export2 = run(&db2, &["quotes", "export", "--team", "GPU", "--include-expired"], "");
    assert_eq!(
        text(&export.stdout),
        text(&export2.stdout),
        "export → import → export is stable"
    );
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(dir2).ok();
}

#[test]
fn a_skypilot_catalog_is_imported_only_with_the_valid_until_date_given() {
    let (db, dir) = temp_db("valid-until");
    run(
        &db,
        &[
            "user",
            "add",
            "--email",
            "p@example.com",
            "--role",
            "procurement",
            "--team",
            "GPU",
        ],
        "a long enough passphrase\n",
    );
    let lambda = format!("{FIXTURES}/lambda_vms.csv");
    let import = |extra: &[&str]| {
        let mut args = vec!["quotes", "import", &lambda, "--team", "GPU", "--vendor", "Lambda"];
        args.extend_from_slice(extra);
        run(&db, &args, "")
    };
    let exported = || text(&run(&db, &["quotes", "export", "--team", "GPU", "--include-expired"], "").stdout);

    let undated = import(&[]);
    assert_eq!(undated.status.code(), Some(2));
    let why = text(&undated.stderr);
    assert!(
        why.contains("no validity date") && why.contains("--valid-until YYYY-MM-DD"),
        "{why}"
    );
    assert_eq!(exported().lines().count(), 1, "nothing stored: {}", exported());
    let dry = import(&["--dry-run"]);
    assert_eq!(dry.status.code(), Some(2), "a dry run says so too");

    let unreadable = import(&["--valid-until", "31/12/2099"]);
    assert_eq!(unreadable.status.code(), Some(2));
    assert!(
        text(&unreadable.stderr).contains("YYYY-MM-DD"),
        "{}",
        text(&unreadable.stderr)
    );
    let past = import(&["--valid-until", "2001-01-31"]);
    assert_eq!(past.status.code(), Some(2));
    assert!(text(&past.stderr).contains("before today"), "{}", text(&past.stderr));

    let dated = import(&["--valid-until", "2099-06-30"]);
    assert!(dated.status.success(), "{}", text(&dated.stderr));
    assert!(
        text(&dated.stdout).contains("imported 8 quote(s)"),
        "{}",
        text(&dated.stdout)
    );
    let csv = exported();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 8, "{csv}");
    assert!(
        rows.iter().all(|r| r.contains(",2099-06-30")),
        "every quote holds the date given: {csv}"
    );
    std::fs::remove_dir_all(dir).ok();
}

const RUN_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/domain/src/runs/fixtures");

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
    assert_eq!(
        run_plain(&["bench", "parse", empty.to_str().unwrap()]).status.code(),
        Some(2)
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tco_runs_the_example_scenario_and_names_bad_fields() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../app/domain/src/tco/example-scenario.json"
    );
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

#[test]
fn plan_picks_the_four_card_node_for_a_48_hour_deadline_and_names_bad_fields() {
    // The seed's worked example as `nodeledger plan` prints it: exact decimals, whole seconds.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../app/domain/src/plan/example-plan.json");
    let ok = run_plain(&["plan", example]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let result: Value = serde_json::from_slice(&ok.stdout).unwrap();
    let rec = &result["recommended"]["plan"];
    assert_eq!(
        (rec["quote_id"].as_str(), rec["nodes"].as_u64()),
        (Some("big"), Some(1))
    );
    assert_eq!(
        (rec["compared_total"].as_str(), rec["finish_s"].as_u64()),
        (Some("840.00"), Some(86_400))
    );
    assert_eq!(rec["finish_at"], "2026-12-14T08:00:00Z");
    assert_eq!(
        result["recommended"]["cheapest"]["reasons"],
        json!([{ "code": "late", "by_s": 86_400 }, { "code": "capacity_reached", "capacity": 1 }])
    );

    let dir = std::env::temp_dir().join(format!("nl-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    file["plan"]["deadline_at"] = json!("2026-12-15T00:00:00Z");
    std::fs::write(&bad, file.to_string()).unwrap();
    let out = run_plain(&["plan", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("plan.deadline_at") && err.contains("not both"), "{err}");
    file["plan"]["deadline"] = json!("48");
    std::fs::write(&bad, file.to_string()).unwrap();
    let out = run_plain(&["plan", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown field `deadline`"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The cost page's JSON export of two quotes for one workload, as the router answers it.
async fn exported_comparison() -> Value {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Nightly batch").await;
    app.create_quote(&pam, "L4-ONE").await;
    app.create_quote(&pam, "L4-TWO").await;
    let q = format!("workload={workload}&setup_h=0&rerun_pct=0&efficiency_pct=100&egress_gb=0&ingress_gb=0");
    let res = app.get(&format!("/tco/export.json?{q}"), Some(&pam), None).await;
    assert_eq!(res.status, http::StatusCode::OK, "{}", res.body);
    serde_json::from_str(&res.body).unwrap()
}

fn totals(result: &Value) -> Vec<(String, String)> {
    result["quotes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (q["label"].as_str().unwrap().to_owned(), q["compared_total"].to_string()))
        .collect()
}

#[tokio::test]
async fn tco_reruns_the_cost_pages_export_as_it_is_and_says_whether_the_stored_result_holds() {
    let exported = exported_comparison().await;
    assert_eq!(totals(&exported["result"]).len(), 2, "{exported}");
    let dir = std::env::temp_dir().join(format!("nl-tco-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, body: &Value| {
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_string_pretty(body).unwrap()).unwrap();
        path
    };

    // The export as downloaded: same totals, and the stored result is confirmed.
    let export = file("cost-comparison.json", &exported);
    let run = server::tools_cli::tco(&export).unwrap();
    let rerun: Value = serde_json::from_str(&run.json).unwrap();
    assert_eq!(totals(&rerun), totals(&exported["result"]));
    assert_eq!(rerun, exported["result"]);
    assert_eq!(run.stored, Some(Vec::new()), "nothing differs");
    let out = run_plain(&["tco", export.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("equals the recomputed"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        exported["result"]
    );

    // A stored figure changed after the export: the rerun names the quote and both totals.
    let mut edited = exported.clone();
    let id = edited["result"]["quotes"][0]["id"].as_str().unwrap().to_owned();
    edited["result"]["quotes"][0]["compared_total"] = json!("1.00");
    let edited = file("edited.json", &edited);
    let differences = server::tools_cli::tco(&edited).unwrap().stored.unwrap();
    assert_eq!(differences.len(), 1, "{differences:?}");
    assert!(
        differences[0].contains(&format!("quote {id}")) && differences[0].contains("(stored: rank 1 total 1.00)"),
        "{differences:?}"
    );
    let out = run_plain(&["tco", edited.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("differs"), "{}", text(&out.stderr));

    // The bare scenario still runs, with the same totals and no stored result to check.
    let bare = file("scenario.json", &exported["scenario"]);
    let run = server::tools_cli::tco(&bare).unwrap();
    assert_eq!(run.stored, None);
    assert_eq!(
        totals(&serde_json::from_str(&run.json).unwrap()),
        totals(&exported["result"])
    );

    // Neither: the message says what was expected.
    for (name, body) in [("list.json", json!([1, 2])), ("other.json", json!({ "quote": "x" }))] {
        let err = server::tools_cli::tco(&file(name, &body)).unwrap_err();
        assert!(
            err.contains("expected a scenario") && err.contains("JSON export (an object with scenario and result)"),
            "{err}"
        );
    }
    let empty = file("empty-export.json", &json!({ "scenario": null, "result": null }));
    assert!(
        server::tools_cli::tco(&empty)
            .unwrap_err()
            .contains("holds no scenario")
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tco_help_names_both_files_it_reads() {
    let help = run_plain(&["tco", "--help"]);
    assert!(help.status.success());
    let help = text(&help.stdout);
    assert!(
        help.contains("cost page's JSON export") && help.contains("bare scenario"),
        "{help}"
    );
}

/// An approved order in a fresh database file: events 1–4 (create, item answered, submit,
/// approve pinning revision 1's content hash). Returns the order's exported record.
async fn audited_db(path: &Path) -> serde_json::Value {
    use app::{
        domain::audit::{Action, OrderState, canonical_json, sha256_hex},
        services::audit,
        store,
    };
    use serde_json::json;
    const AT: &str = "2026-12-01T09:00:00Z";
    let pool = store::connect(path.to_str().unwrap()).await.unwrap();
    let team: i64 = sqlx::query_scalar("INSERT INTO teams (name) VALUES ('Audit') RETURNING id")
        .fetch_one(&pool)
        .await
        .unwrap();
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name, password_hash) VALUES ('a@example.com', 'A', 'x') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let workload: i64 =
        sqlx::query_scalar("INSERT INTO workloads (team_id, name, body) VALUES (?, 'Train', '{}') RETURNING id")
            .bind(team)
            .fetch_one(&pool)
            .await
            .unwrap();
    let text = canonical_json(&json!({ "checklist": { "egress": "yes" }, "runs": [5, 8] })).unwrap();
    let hash = sha256_hex(&text);
    let mut tx = store::begin_write(&pool).await.unwrap();
    let (order, rev) = store::orders::insert(&mut tx, team, "H100", workload, user, &text)
        .await
        .unwrap()
        .unwrap();
    let events = [
        (Action::Create, json!({ "title": "H100" })),
        (Action::ItemAnswered, json!({ "item": "egress", "answer": "yes" })),
        (Action::Submit, json!({ "revision": 1 })),
        (Action::Approve, json!({ "revision": 1, "content_hash": hash })),
    ];
    for (action, data) in events {
        store::audit::append(&mut tx, order, user, AT, action, data)
            .await
            .unwrap();
    }
    assert!(
        store::orders::set_state(
            &mut tx,
            rev,
            OrderState::Draft,
            OrderState::Approved,
            user,
            AT,
            "",
            Some(&hash)
        )
        .await
        .unwrap()
    );
    tx.commit().await.unwrap();
    let export = serde_json::to_value(audit::export_order(&pool, order).await.unwrap().unwrap()).unwrap();
    pool.close().await;
    export
}

async fn tamper(path: &Path, sql: &'static str) {
    let pool = app::store::connect(path.to_str().unwrap()).await.unwrap();
    sqlx::query("DROP TRIGGER IF EXISTS audit_events_are_append_only_update")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query(sql).execute(&pool).await.unwrap();
    pool.close().await;
}

#[tokio::test]
async fn audit_verify_reports_the_head_and_names_a_tampered_event() {
    let (db, dir) = temp_db("audit");
    let missing = run(&db, &["audit", "verify"], "");
    assert_eq!(missing.status.code(), Some(2), "no database: cannot verify");
    assert!(!db.exists(), "verifying does not create a database");

    let export = audited_db(&db).await;
    let head = export["events"][3]["hash"].as_str().unwrap().to_owned();
    let ok = run(&db, &["audit", "verify"], "");
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout).trim(),
        format!("audit chain OK: 4 events, head {head}, 1 approved revisions checked")
    );

    let file = dir.join("order.json");
    std::fs::write(&file, serde_json::to_string_pretty(&export).unwrap()).unwrap();
    let file_arg = file.to_str().unwrap();
    let matches = run(&db, &["audit", "verify", "--export", file_arg], "");
    assert!(matches.status.success(), "{}", text(&matches.stderr));
    assert!(
        text(&matches.stdout).contains("audit export OK: order 1, 4 events and 1 revisions match the database"),
        "{}",
        text(&matches.stdout)
    );

    let mut altered = export.clone();
    altered["events"][1]["data"]["answer"] = serde_json::json!("no");
    let altered_file = dir.join("altered.json");
    std::fs::write(&altered_file, altered.to_string()).unwrap();
    let refused = run(
        &db,
        &["audit", "verify", "--export", altered_file.to_str().unwrap()],
        "",
    );
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("exported event 2: hash does not match"),
        "{}",
        text(&refused.stderr)
    );

    let not_json = dir.join("not.json");
    std::fs::write(&not_json, "{").unwrap();
    assert_eq!(
        run(&db, &["audit", "verify", "--export", not_json.to_str().unwrap()], "")
            .status
            .code(),
        Some(2)
    );

    tamper(
        &db,
        "UPDATE audit_events SET data = replace(data, 'yes', 'yeS') WHERE seq = 2",
    )
    .await;
    let broken = run(&db, &["audit", "verify"], "");
    assert_eq!(broken.status.code(), Some(1), "{}", text(&broken.stderr));
    assert!(text(&broken.stdout).is_empty());
    assert_eq!(
        text(&broken.stderr).trim(),
        "audit chain BROKEN: audit event 2: bad hash: stored hash does not match the event"
    );
    let stale = run(&db, &["audit", "verify", "--export", file_arg], "");
    assert_eq!(
        stale.status.code(),
        Some(1),
        "the export no longer matches the database"
    );
    assert!(
        text(&stale.stderr).contains("exported event 2: differs from the database's event 2 (data)"),
        "{}",
        text(&stale.stderr)
    );
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn audit_verify_names_the_order_whose_approved_content_changed() {
    let (db, dir) = temp_db("audit-content");
    audited_db(&db).await;
    let pool = app::store::connect(db.to_str().unwrap()).await.unwrap();
    sqlx::query("DROP TRIGGER approved_order_revisions_are_locked")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE order_revisions SET content = replace(content, '[5,8]', '[5,9]')")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let broken = run(&db, &["audit", "verify"], "");
    assert_eq!(broken.status.code(), Some(1), "{}", text(&broken.stderr));
    assert!(
        text(&broken.stderr).contains("audit chain BROKEN: order 1 revision 1: approved content changed"),
        "{}",
        text(&broken.stderr)
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Starts `nodeledger serve` on `db` (any free port) and reads its standard error until a line
/// contains `until`; returns the lines read, then stops the server.
fn serve_until(db: &Path, until: &str) -> Vec<String> {
    use std::io::BufRead as _;
    let site = db.with_file_name("site");
    let mut child = Command::new(BIN)
        .arg("--db")
        .arg(db)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("NODELEDGER_LOG", "info")
        .env("LEPTOS_SITE_ROOT", &site)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nodeledger serve");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(until);
                lines.push(line);
                if done {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines.iter().any(|l| l.contains(until)),
        "no {until:?} on standard error:\n{}",
        lines.join("\n")
    );
    lines
}

#[test]
fn serve_prints_a_setup_code_on_an_empty_database_and_keeps_it_beside_the_database() {
    let (db, dir) = temp_db("setup-code");
    let lines = serve_until(&db, "NodeLedger listening");
    let file = dir.join("setup-code");
    let code = std::fs::read_to_string(&file).expect("setup-code beside the database");
    let code = code.trim();
    assert_eq!(code.len(), 23, "{code}");
    assert!(
        lines.iter().any(|l| l.trim() == code),
        "the code on a line of its own:\n{}",
        lines.join("\n")
    );
    assert!(
        lines.iter().any(|l| l.contains("setup code") && l.contains(code)),
        "and in the log"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }

    // A team member added from the command line closes set-up: no code, the old file removed.
    let eng = run(
        &db,
        &[
            "user",
            "add",
            "--email",
            "e@example.com",
            "--role",
            "engineer",
            "--team",
            "Research",
        ],
        "a long enough passphrase\n",
    );
    assert!(eng.status.success(), "{}", text(&eng.stderr));
    let lines = serve_until(&db, "NodeLedger listening");
    assert!(!lines.iter().any(|l| l.contains("setup code")), "{}", lines.join("\n"));
    assert!(!file.exists(), "stale code file removed");
    let _ = std::fs::remove_dir_all(dir);
}
