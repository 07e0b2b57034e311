//! `nodeledger backup FILE`, run as an operator would while the server has the database open.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{domain::audit::Action, store};
use serde_json::json;
use sqlx::{ConnectOptions, Connection, sqlite::SqliteConnectOptions};
use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

const BIN: &str = env!("CARGO_BIN_EXE_nodeledger");
const AT: &str = "2026-12-01T09:00:00Z";

/// Runs `nodeledger` with the database named by `NODELEDGER_DB`; fails the test if it takes more
/// than 30 s (a backup that waits for the server's writers is not an online backup).
fn run(db: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .env("NODELEDGER_DB", db)
        .env("NODELEDGER_LOG", "error")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run nodeledger");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("nodeledger {args:?} did not finish in 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nl-backup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A database with 40 teams and one order whose audit chain has three events.
async fn seeded(path: &Path) -> store::Db {
    let pool = store::connect(path.to_str().unwrap()).await.unwrap();
    let mut tx = store::begin_write(&pool).await.unwrap();
    for i in 1..=40 {
        store::teams::insert(&mut tx, &format!("Team {i:02}"))
            .await
            .unwrap()
            .unwrap();
    }
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name, password_hash) VALUES ('a@example.com', 'A', 'x') RETURNING id",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let workload: i64 =
        sqlx::query_scalar("INSERT INTO workloads (team_id, name, body) VALUES (1, 'Train', '{}') RETURNING id")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    let (order, _) = store::orders::insert(&mut tx, 1, "H100", workload, user, "{}")
        .await
        .unwrap()
        .unwrap();
    let events = [
        (Action::Create, json!({ "title": "H100" })),
        (Action::ItemAnswered, json!({ "item": "egress", "answer": "yes" })),
        (Action::Submit, json!({ "revision": 1 })),
    ];
    for (action, data) in events {
        store::audit::append(&mut tx, order, user, AT, action, data)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    pool
}

async fn team_names(copy: &Path) -> Vec<String> {
    let mut conn = SqliteConnectOptions::new()
        .filename(copy)
        .read_only(true)
        .connect()
        .await
        .unwrap();
    let names = sqlx::query_scalar("SELECT name FROM teams ORDER BY name")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    names
}

#[tokio::test]
async fn backup_copies_online_while_a_write_is_open_and_the_copy_verifies() {
    let dir = temp_dir("online");
    let (db, copy) = (dir.join("live.db"), dir.join("copy.db"));
    let pool = seeded(&db).await;
    let head = store::audit::head(&pool).await.unwrap();
    assert_eq!(head.count, 3);

    // The server is in the middle of a write: a BEGIN IMMEDIATE transaction holds the write lock.
    let (opened_tx, opened) = tokio::sync::oneshot::channel();
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let writer = tokio::spawn({
        let pool = pool.clone();
        async move {
            let mut tx = store::begin_write(&pool).await.unwrap();
            store::teams::insert(&mut tx, "Uncommitted").await.unwrap().unwrap();
            opened_tx.send(()).unwrap();
            released.await.unwrap();
            tx.commit().await.unwrap();
        }
    });
    opened.await.unwrap();

    let out = tokio::task::spawn_blocking({
        let (db, copy) = (db.clone(), copy.clone());
        move || run(&db, &["backup", copy.to_str().unwrap()])
    })
    .await
    .unwrap();
    release.send(()).unwrap_or_else(|()| panic!("the writer ended early"));
    writer.await.unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let size = std::fs::metadata(&copy).unwrap().len();
    assert!(
        stdout.contains(&format!("backup written to {}", copy.display()))
            && stdout.contains(&format!("({size} bytes)")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("audit chain in the copy: 3 events, head {}", head.head_hash)),
        "{stdout}"
    );
    assert!(
        !dir.read_dir()
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().contains("partial"))
    );

    // The copy is the database as committed when the backup began: every committed row, not the
    // write that was still open.
    let names = team_names(&copy).await;
    assert_eq!(names.len(), 40, "{names:?}");
    assert_eq!(names.first().map(String::as_str), Some("Team 01"));
    assert!(!names.iter().any(|n| n == "Uncommitted"));
    assert!(
        team_names(&db).await.iter().any(|n| n == "Uncommitted"),
        "the live write committed after"
    );

    let verify = run(&copy, &["audit", "verify"]);
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    assert!(
        text(&verify.stdout).contains(&format!("audit chain OK: 3 events, head {}", head.head_hash)),
        "{}",
        text(&verify.stdout)
    );
    pool.close().await;
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn backup_refuses_to_overwrite_or_invent_a_database() {
    let dir = temp_dir("refuse");
    let (db, copy) = (dir.join("live.db"), dir.join("copy.db"));

    let missing = run(&db, &["backup", copy.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("no database at"),
        "{}",
        text(&missing.stderr)
    );
    assert!(!db.exists() && !copy.exists(), "a backup of nothing creates nothing");

    let pool = seeded(&db).await;
    std::fs::write(&copy, "yesterday's backup").unwrap();
    let kept = run(&db, &["backup", copy.to_str().unwrap()]);
    assert_eq!(kept.status.code(), Some(2));
    assert!(
        text(&kept.stderr).contains("exists: give --force to replace it"),
        "{}",
        text(&kept.stderr)
    );
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), "yesterday's backup");

    let itself = run(&db, &["backup", "--force", db.to_str().unwrap()]);
    assert_eq!(itself.status.code(), Some(2));
    assert!(
        text(&itself.stderr).contains("is the database itself"),
        "{}",
        text(&itself.stderr)
    );

    let in_use = dir.join("in-use.db");
    std::fs::write(&in_use, "").unwrap();
    std::fs::write(dir.join("in-use.db-wal"), "").unwrap();
    let refused = run(&db, &["backup", "--force", in_use.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("looks like a database in use"),
        "{}",
        text(&refused.stderr)
    );

    let forced = run(&db, &["backup", "--force", copy.to_str().unwrap()]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert!(std::fs::read(&copy).unwrap().starts_with(b"SQLite format 3\0"));
    assert_eq!(team_names(&copy).await.len(), 40);
    pool.close().await;
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn backup_is_private_to_its_owner_and_holds_no_session() {
    let dir = temp_dir("private");
    let (db, copy) = (dir.join("live.db"), dir.join("copy.db"));
    let pool = seeded(&db).await;
    // A live session, with a marker in its data that must not reach the copy in any page.
    sqlx::query("INSERT INTO sessions (id, user_id, data, expires_at) VALUES (?, NULL, ?, ?)")
        .bind("f".repeat(64))
        .bind(b"{\"marker\":\"session-marker-7c1e\"}".to_vec())
        .bind(i64::MAX / 2)
        .execute(&pool)
        .await
        .unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&db, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();

    let out = tokio::task::spawn_blocking({
        let (db, copy) = (db.clone(), copy.clone());
        move || run(&db, &["backup", copy.to_str().unwrap()])
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the copy is the owner's only: {mode:o}");
    }
    let mut conn = SqliteConnectOptions::new()
        .filename(&copy)
        .read_only(true)
        .connect()
        .await
        .unwrap();
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    assert_eq!(sessions, 0, "restored sessions are gone");
    let bytes = std::fs::read(&copy).unwrap();
    assert!(
        !bytes.windows(19).any(|w| w == b"session-marker-7c1e"),
        "no session left in a free page of the copy"
    );
    assert_eq!(team_names(&copy).await.len(), 40, "everything else is copied");
    let live: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(live, 1, "the live database keeps its sessions");
    pool.close().await;
    std::fs::remove_dir_all(dir).ok();
}
