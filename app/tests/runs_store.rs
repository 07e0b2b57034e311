//! Store tests for runs and their files against real SQLite with the real migrations: chunked
//! bytes, one run per file, team scoping, clean-up of files no run claimed.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::runs::RunStatus,
    store::{
        self,
        runs::{FileForCreate, RunFilter, RunForCreate, RunJudged},
    },
};
use sqlx::SqlitePool;

async fn team_and_user(pool: &SqlitePool, name: &str) -> (i64, i64) {
    let mut tx = store::begin_write(pool).await.unwrap();
    let team = store::teams::insert(&mut tx, name).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    let user: i64 =
        sqlx::query_scalar("INSERT INTO users (email, display_name, password_hash) VALUES (?, ?, 'x') RETURNING id")
            .bind(format!("{name}@example.com"))
            .bind(name)
            .fetch_one(pool)
            .await
            .unwrap();
    (team, user)
}

async fn file(pool: &SqlitePool, team: i64, user: i64, sha: char, bytes: &[u8]) -> Option<i64> {
    let sha = sha.to_string().repeat(64);
    let mut tx = store::begin_write(pool).await.unwrap();
    let record = FileForCreate {
        sha256: &sha,
        file_name: "r.json",
        size: bytes.len() as i64,
        format: "vllm",
        parsed: "{}",
        uploaded_by: user,
    };
    let id = store::runs::insert_file(&mut tx, team, &record).await.unwrap();
    if let Some(id) = id {
        for (seq, chunk) in bytes.chunks(4).enumerate() {
            store::runs::insert_chunk(&mut tx, id, seq as i64, chunk).await.unwrap();
        }
    }
    tx.commit().await.unwrap();
    id
}

fn run(result: i64) -> RunForCreate<'static> {
    RunForCreate {
        quote_revision_id: None,
        node_label: "box",
        workload_id: None,
        nodes: 1,
        judged: RunJudged {
            result_file_id: Some(result),
            telemetry_file_id: None,
            canonical: "{}",
            status: RunStatus::Warn,
            source_format: "vllm",
            gpu_name: Some("NVIDIA L4"),
            throughput_value: Some(12.5),
            throughput_unit: Some("tokens/s"),
        },
        note: "",
        created_by: 0,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn files_are_chunked_claimed_once_and_kept_per_team(pool: SqlitePool) {
    let (a, ua) = team_and_user(&pool, "a").await;
    let (b, ub) = team_and_user(&pool, "b").await;
    let id = file(&pool, a, ua, 'a', b"0123456789").await.expect("stored");
    assert_eq!(
        file(&pool, a, ua, 'a', b"0123456789").await,
        None,
        "same bytes, same team: refused"
    );
    assert!(
        file(&pool, b, ub, 'a', b"0123456789").await.is_some(),
        "another team keeps its own copy"
    );
    let mut whole = Vec::new();
    let mut seq = 0;
    while let Some(chunk) = store::runs::chunk(&pool, a, id, seq).await.unwrap() {
        whole.extend(chunk);
        seq += 1;
    }
    assert_eq!((whole.as_slice(), seq), (&b"0123456789"[..], 3));
    assert_eq!(
        store::runs::chunk(&pool, b, id, 0).await.unwrap(),
        None,
        "team B cannot read team A's file"
    );

    let mut tx = store::begin_write(&pool).await.unwrap();
    assert_eq!(
        store::runs::insert(
            &mut tx,
            b,
            &RunForCreate {
                created_by: ub,
                ..run(id)
            }
        )
        .await
        .unwrap(),
        None,
        "team B cannot claim it"
    );
    let run_id = store::runs::insert(
        &mut tx,
        a,
        &RunForCreate {
            created_by: ua,
            ..run(id)
        },
    )
    .await
    .unwrap()
    .expect("saved");
    let again = store::runs::insert(
        &mut tx,
        a,
        &RunForCreate {
            created_by: ua,
            ..run(id)
        },
    )
    .await;
    assert!(
        again.is_err_and(|e| store::db::is_unique_violation(&e)),
        "a file belongs to one run"
    );
    tx.commit().await.unwrap();
    let held = store::runs::file_by_sha(&pool, a, &"a".repeat(64))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(held.run_id, Some(run_id));
    let listed = store::runs::list(&pool, a, RunFilter::default(), 10).await.unwrap();
    assert_eq!(
        (listed.len(), listed[0].status, listed[0].throughput_unit.as_deref()),
        (1, RunStatus::Warn, Some("tokens/s"))
    );
    assert!(
        store::runs::list(&pool, b, RunFilter::default(), 10)
            .await
            .unwrap()
            .is_empty()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn only_old_unclaimed_files_are_deleted(pool: SqlitePool) {
    let (a, ua) = team_and_user(&pool, "a").await;
    let claimed = file(&pool, a, ua, 'c', b"claimed").await.unwrap();
    let loose = file(&pool, a, ua, 'l', b"loose").await.unwrap();
    let mut tx = store::begin_write(&pool).await.unwrap();
    store::runs::insert(
        &mut tx,
        a,
        &RunForCreate {
            created_by: ua,
            ..run(claimed)
        },
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        store::runs::delete_unclaimed_files(&mut tx, "2000-01-01T00:00:00Z")
            .await
            .unwrap(),
        0,
        "nothing is that old"
    );
    assert_eq!(
        store::runs::delete_unclaimed_files(&mut tx, "2999-01-01T00:00:00Z")
            .await
            .unwrap(),
        1,
        "only the loose file"
    );
    tx.commit().await.unwrap();
    assert!(store::runs::file_parsed(&pool, a, loose).await.unwrap().is_none());
    assert!(store::runs::file_parsed(&pool, a, claimed).await.unwrap().is_some());
    let chunks: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM run_file_chunks WHERE file_id = ?")
        .bind(loose)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0, "its bytes go with it");
}
