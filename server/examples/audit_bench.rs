//! Benchmark of audit verification (`nodeledger audit verify`): builds a temporary database with
//! EVENTS audit events (default 100,000) over 100 orders, the last 100 being approvals that pin
//! each order's approved revision, then times `services::audit::verify` (whole chain plus the 100
//! approved revisions), best of 3.
//!
//! Events are built with `domain::audit::next_event` (what `store::audit::append` does) and
//! inserted in one transaction; the verification then checks they form a valid chain.
//!
//! `cargo run --release -p server --example audit_bench [EVENTS]`

use app::{
    domain::audit::{Action, ChainHead, OrderState, canonical_json, next_event, sha256_hex},
    services::audit,
    store,
};
use serde_json::json;
use std::time::{Duration, Instant};

const ORDERS: usize = 100;
const AT: &str = "2026-12-01T09:00:00Z";

#[tokio::main(flavor = "current_thread")]
#[expect(clippy::too_many_lines, reason = "one benchmark, read top to bottom")]
async fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000)
        .max(ORDERS);
    let dir = std::env::temp_dir().join(format!("nl-audit-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = store::connect(dir.join("bench.db").to_str().expect("utf-8 path"))
        .await
        .expect("database");

    let started = Instant::now();
    let team: i64 = sqlx::query_scalar("INSERT INTO teams (name) VALUES ('Bench') RETURNING id")
        .fetch_one(&db)
        .await
        .expect("team");
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name, password_hash) VALUES ('b@example.com', 'B', 'x') RETURNING id",
    )
    .fetch_one(&db)
    .await
    .expect("user");
    let workload: i64 =
        sqlx::query_scalar("INSERT INTO workloads (team_id, name, body) VALUES (?, 'Bench', '{}') RETURNING id")
            .bind(team)
            .fetch_one(&db)
            .await
            .expect("workload");
    let mut tx = store::begin_write(&db).await.expect("tx");
    let mut orders = Vec::with_capacity(ORDERS);
    for i in 0..ORDERS {
        let content = canonical_json(
            &json!({ "quote_revision": i, "checklist": { "egress": "yes", "vram": "measured" }, "runs": [i, i + 1] }),
        )
        .expect("canonical");
        let (order, rev) = store::orders::insert(&mut tx, team, &format!("Order {i}"), workload, user, &content)
            .await
            .expect("order")
            .expect("workload of the team");
        orders.push((order, rev, sha256_hex(&content)));
    }
    let mut head = ChainHead::genesis();
    for i in 0..count {
        let approvals_from = count - ORDERS;
        let (order, _, hash) = &orders[i % ORDERS];
        let (action, data) = if i >= approvals_from {
            (Action::Approve, json!({ "revision": 1, "content_hash": hash }))
        } else {
            (
                Action::ItemAnswered,
                json!({ "item": "egress", "answer": "yes", "n": i }),
            )
        };
        let event = next_event(&head, *order, user, AT, action, data).expect("event");
        sqlx::query("INSERT INTO audit_events (seq, order_id, actor_id, at, action, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(event.seq)
            .bind(event.order_id)
            .bind(event.actor_id)
            .bind(&event.at)
            .bind(event.action.as_str())
            .bind(canonical_json(&event.data).expect("canonical"))
            .bind(&event.prev_hash)
            .bind(&event.hash)
            .execute(&mut *tx)
            .await
            .expect("insert");
        head = ChainHead {
            count: head.count + 1,
            head_hash: event.hash,
        };
    }
    for (_, rev, hash) in &orders {
        store::orders::set_state(
            &mut tx,
            *rev,
            OrderState::Draft,
            OrderState::Approved,
            user,
            AT,
            "",
            Some(hash),
        )
        .await
        .expect("approve");
    }
    tx.commit().await.expect("commit");
    store::db::optimize(&db).await.expect("optimize");
    println!(
        "built {count} events over {ORDERS} orders in {} ms",
        started.elapsed().as_millis()
    );

    let mut best = Duration::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let status = audit::verify(&db).await.expect("database").expect("chain verifies");
        best = best.min(t.elapsed());
        assert_eq!(
            (status.events, status.head_hash.as_str(), status.approved_revisions),
            (count as u64, head.head_hash.as_str(), ORDERS as u64)
        );
    }
    let secs = best.as_secs_f64();
    println!(
        "audit verify: {count} events + {ORDERS} approved revisions in {:.1} ms (best of 3), {:.0} events/s",
        secs * 1000.0,
        count as f64 / secs
    );
    db.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
