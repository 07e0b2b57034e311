//! `nodeledger audit head` and `audit verify --anchor FILE`, run as an operator would: a head
//! recorded elsewhere catches a database file whose chain was rewritten, even when the whole
//! chain after the rewrite was recomputed so that plain `audit verify` passes.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::audit::{Action, NO_ORDER, verify_chain},
    services, store,
};
use serde_json::json;
use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

const BIN: &str = env!("CARGO_BIN_EXE_nodeledger");
const AT: &str = "2026-12-01T09:00:00Z";

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("--db")
        .arg(db)
        .args(args)
        .env("NODELEDGER_LOG", "error")
        .output()
        .expect("run nodeledger")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nl-anchor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A database with `n` site events (teams created by user 0), each appended as the app does.
async fn chain_of(path: &Path, n: i64, from: i64) {
    let pool = store::connect(path.to_str().unwrap()).await.unwrap();
    let mut tx = store::begin_write(&pool).await.unwrap();
    for i in from..from + n {
        let data = json!({ "team_id": i, "name": format!("Team {i}") });
        store::audit::append(&mut tx, NO_ORDER, 0, AT, Action::TeamCreated, data)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    pool.close().await;
}

/// `audit head >> file`, as cron would.
fn record_head(db: &Path, anchors: &Path) -> String {
    let head = run(db, &["audit", "head"]);
    assert!(head.status.success(), "{}", text(&head.stderr));
    let line = text(&head.stdout);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(anchors)
        .unwrap();
    std::io::Write::write_all(&mut file, line.as_bytes()).unwrap();
    line
}

/// Rewrites event `seq`'s data directly in the file, then (when `rehash`) recomputes that event's
/// hash and every later one so the chain is consistent again: what someone holding the database
/// file can do.
async fn rewrite(path: &Path, seq: i64, rehash: bool) {
    let pool = store::connect(path.to_str().unwrap()).await.unwrap();
    sqlx::query("DROP TRIGGER audit_events_are_append_only_update")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE audit_events SET data = replace(data, 'Team', 'Tеam') WHERE seq = ?")
        .bind(seq)
        .execute(&pool)
        .await
        .unwrap();
    if rehash {
        let rows = store::audit::page(&pool, 0, 1000).await.unwrap();
        let mut prev = app::domain::audit::GENESIS_HASH.to_string();
        for row in rows {
            let mut e = store::audit::decode(row).unwrap();
            e.prev_hash = prev.clone();
            e.hash = e.compute_hash().unwrap();
            sqlx::query("UPDATE audit_events SET prev_hash = ?, hash = ? WHERE seq = ?")
                .bind(&e.prev_hash)
                .bind(&e.hash)
                .bind(e.seq)
                .execute(&pool)
                .await
                .unwrap();
            prev = e.hash;
        }
        let all = store::audit::page(&pool, 0, 1000).await.unwrap();
        assert!(
            verify_chain(all.into_iter().filter_map(store::audit::decode)).is_ok(),
            "rehashed consistently"
        );
    }
    pool.close().await;
}

#[tokio::test]
async fn head_prints_an_anchor_line_and_appends_nothing() {
    let dir = temp_dir("head");
    let db = dir.join("a.db");
    assert_eq!(
        run(&db, &["audit", "head"]).status.code(),
        Some(2),
        "no database: nothing to print"
    );
    assert!(!db.exists(), "head does not create a database");
    chain_of(&db, 3, 1).await;
    let pool = store::connect(db.to_str().unwrap()).await.unwrap();
    let head = store::audit::head(&pool).await.unwrap();
    pool.close().await;

    let line = record_head(&db, &dir.join("anchors.txt"));
    let fields: Vec<&str> = line.trim().split(' ').collect();
    assert_eq!(fields.len(), 3, "{line}");
    assert!(app::domain::audit::is_rfc3339_utc(fields[0]), "{line}");
    assert_eq!(fields[1], "3");
    assert_eq!(fields[2], head.head_hash);
    let again = run(&db, &["audit", "head"]);
    assert_eq!(
        text(&again.stdout).trim().split(' ').nth(2),
        Some(fields[2]),
        "nothing appended: same head"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn an_anchor_catches_a_rewrite_even_when_the_whole_chain_was_rehashed() {
    let dir = temp_dir("rewrite");
    let (db, anchors) = (dir.join("a.db"), dir.join("anchors.txt"));
    let anchor_arg = anchors.to_str().unwrap();
    chain_of(&db, 3, 1).await;
    record_head(&db, &anchors);
    chain_of(&db, 2, 4).await;
    record_head(&db, &anchors);
    let ok = run(&db, &["audit", "verify", "--anchor", anchor_arg]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(
        text(&ok.stdout).contains("audit anchors OK: 2 recorded heads are still part of the chain (5 events)"),
        "{}",
        text(&ok.stdout)
    );

    // Event 2 rewritten in place: plain verify already sees it, and so does the anchor check.
    let copy = dir.join("b.db");
    std::fs::copy(&db, &copy).unwrap();
    rewrite(&copy, 2, false).await;
    let plain = run(&copy, &["audit", "verify"]);
    assert_eq!(plain.status.code(), Some(1));
    let anchored = run(&copy, &["audit", "verify", "--anchor", anchor_arg]);
    assert_eq!(anchored.status.code(), Some(1), "{}", text(&anchored.stderr));
    assert!(
        text(&anchored.stderr).contains("audit event 2: bad hash"),
        "{}",
        text(&anchored.stderr)
    );

    // Event 2 rewritten and every hash recomputed: plain verify passes, the first anchor fails.
    rewrite(&db, 2, true).await;
    let plain = run(&db, &["audit", "verify"]);
    assert!(
        plain.status.success(),
        "a consistent rewrite fools the chain alone: {}",
        text(&plain.stderr)
    );
    let anchored = run(&db, &["audit", "verify", "--anchor", anchor_arg]);
    assert_eq!(anchored.status.code(), Some(1), "{}", text(&anchored.stdout));
    let err = text(&anchored.stderr);
    assert!(err.starts_with("audit anchor MISMATCH: anchor line 1 ("), "{err}");
    assert!(err.contains(" 3 ") && err.contains("event 3 now has hash"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn a_shortened_chain_or_a_bad_anchor_file_is_named() {
    let dir = temp_dir("short");
    let (db, anchors) = (dir.join("a.db"), dir.join("anchors.txt"));
    chain_of(&db, 2, 1).await;
    std::fs::write(
        &anchors,
        format!("# kept on the backup host\n2026-12-01T09:00:00Z 7 {}\n", "a".repeat(64)),
    )
    .unwrap();
    let short = run(&db, &["audit", "verify", "--anchor", anchors.to_str().unwrap()]);
    assert_eq!(short.status.code(), Some(1));
    assert!(
        text(&short.stderr).contains("anchor line 2 (") && text(&short.stderr).contains("only 2 events"),
        "{}",
        text(&short.stderr)
    );

    std::fs::write(&anchors, "2026-12-01T09:00:00Z 7\n").unwrap();
    let bad = run(&db, &["audit", "verify", "--anchor", anchors.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2), "an unreadable anchor file: cannot check");
    assert!(
        text(&bad.stderr).contains("anchor line 1: expected three fields"),
        "{}",
        text(&bad.stderr)
    );
    let missing = run(
        &db,
        &["audit", "verify", "--anchor", dir.join("none.txt").to_str().unwrap()],
    );
    assert_eq!(missing.status.code(), Some(2));

    let pool = store::connect(db.to_str().unwrap()).await.unwrap();
    let anchors = app::domain::audit::parse_anchors(&format!("2026-12-01T09:00:00Z 0 {}", "0".repeat(64))).unwrap();
    let held = services::audit::check_anchors(&pool, &anchors).await.unwrap();
    assert_eq!(
        held.map(|s| s.anchors),
        Ok(1),
        "the empty chain's head is a prefix of every chain"
    );
    pool.close().await;
    std::fs::remove_dir_all(dir).ok();
}
