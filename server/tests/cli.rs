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
