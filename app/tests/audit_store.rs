//! The audit trail against real SQLite with the real migrations: appending builds a chain that
//! verifies; the triggers refuse changes to events and approved revisions; with the triggers
//! dropped, tampering with an event's data or hash or with approved content is found and named;
//! an exported order record checks out until the export or the database is altered.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::audit::{Action, AuditEvent, ExportFault, OrderState, canonical_json, sha256_hex},
    services::audit::{self, AuditFault, ExportMismatch},
    store,
};
use serde_json::{Value, json};
use sqlx::SqlitePool;

const AT: &str = "2026-12-01T09:00:00Z";

/// A team, a user and a workload, inserted with plain SQL.
async fn seed(pool: &SqlitePool) -> (i64, i64, i64) {
    let team: i64 = sqlx::query_scalar("INSERT INTO teams (name) VALUES ('Audit') RETURNING id")
        .fetch_one(pool)
        .await
        .unwrap();
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name, password_hash) VALUES ('a@example.com', 'A', 'x') RETURNING id",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let workload: i64 =
        sqlx::query_scalar("INSERT INTO workloads (team_id, name, body) VALUES (?, 'Train', '{}') RETURNING id")
            .bind(team)
            .fetch_one(pool)
            .await
            .unwrap();
    (team, user, workload)
}

async fn append(pool: &SqlitePool, order: i64, actor: i64, action: Action, data: Value) -> AuditEvent {
    let mut tx = store::begin_write(pool).await.unwrap();
    let event = store::audit::append(&mut tx, order, actor, AT, action, data)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    event
}

fn content() -> Value {
    json!({ "quote_revision": 3, "checklist": { "vram": "measured 71 GiB", "egress": "yes" }, "runs": [5, 8] })
}

/// An approved order: events seq 1–4 (create, item answered, submit, approve pinning revision 1's
/// content hash) and revision 1 moved to approved while it was a draft. Returns `(order, events)`.
async fn approved_order(pool: &SqlitePool) -> (i64, Vec<AuditEvent>) {
    let (team, user, workload) = seed(pool).await;
    let content = content();
    let text = canonical_json(&content).unwrap();
    let mut tx = store::begin_write(pool).await.unwrap();
    let (order, rev) = store::orders::insert(&mut tx, team, "4× H100, 72 h", workload, user, &text)
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    let hash = sha256_hex(&text);
    let events = vec![
        append(pool, order, user, Action::Create, json!({ "title": "4× H100, 72 h" })).await,
        append(
            pool,
            order,
            user,
            Action::ItemAnswered,
            json!({ "item": "egress", "answer": "yes" }),
        )
        .await,
        append(pool, order, user, Action::Submit, json!({ "revision": 1 })).await,
        append(
            pool,
            order,
            user,
            Action::Approve,
            json!({ "revision": 1, "content_hash": hash }),
        )
        .await,
    ];
    let mut tx = store::begin_write(pool).await.unwrap();
    assert!(
        store::orders::set_state(
            &mut tx,
            rev,
            OrderState::Draft,
            OrderState::Approved,
            user,
            AT,
            "ok",
            Some(&hash)
        )
        .await
        .unwrap()
    );
    tx.commit().await.unwrap();
    (order, events)
}

async fn exec(pool: &SqlitePool, sql: &'static str) -> Result<(), sqlx::Error> {
    sqlx::query(sql).execute(pool).await.map(|_| ())
}

async fn broken(pool: &SqlitePool) -> AuditFault {
    audit::verify(pool).await.unwrap().expect_err("tampering must be found")
}

#[sqlx::test(migrations = "../migrations")]
async fn appending_builds_a_chain_that_verifies(pool: SqlitePool) {
    let empty = audit::verify(&pool).await.unwrap().unwrap();
    assert_eq!((empty.events, empty.head_hash.as_str()), (0, "0".repeat(64).as_str()));

    let (_, events) = approved_order(&pool).await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    let mut last = None;
    for i in 0..20 {
        last = Some(
            store::audit::append(&mut tx, 99, 1, AT, Action::ItemAnswered, json!({ "item": i }))
                .await
                .unwrap(),
        );
    }
    tx.commit().await.unwrap();
    let last = last.unwrap();

    let status = audit::verify(&pool).await.unwrap().expect("chain verifies");
    assert_eq!(status.events, 24);
    assert_eq!(status.head_hash, last.hash);
    assert_eq!(status.approved_revisions, 1);
    let head = store::audit::head(&pool).await.unwrap();
    assert_eq!((head.count, head.head_hash), (24, last.hash.clone()));
    assert_eq!(last.seq, 24);
    assert_eq!(events[0].prev_hash, "0".repeat(64));
    for pair in events.windows(2) {
        assert_eq!(pair[1].prev_hash, pair[0].hash, "each event links to the previous one");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn triggers_keep_events_append_only_and_approved_revisions_locked(pool: SqlitePool) {
    let (order, _) = approved_order(&pool).await;
    let update = exec(&pool, "UPDATE audit_events SET data = '{}' WHERE seq = 2")
        .await
        .unwrap_err();
    assert!(update.to_string().contains("append-only"), "{update}");
    let delete = exec(&pool, "DELETE FROM audit_events WHERE seq = 4").await.unwrap_err();
    assert!(delete.to_string().contains("append-only"), "{delete}");
    let locked = exec(
        &pool,
        "UPDATE order_revisions SET content = '{\"runs\":[]}' WHERE revision = 1",
    )
    .await
    .unwrap_err();
    assert!(locked.to_string().contains("locked"), "{locked}");
    let state = exec(&pool, "UPDATE order_revisions SET state = 'draft' WHERE revision = 1")
        .await
        .unwrap_err();
    assert!(state.to_string().contains("locked"), "{state}");

    let (team,): (i64,) = sqlx::query_as("SELECT team_id FROM orders WHERE id = ?")
        .bind(order)
        .fetch_one(&pool)
        .await
        .unwrap();
    let mut tx = store::begin_write(&pool).await.unwrap();
    let draft = store::orders::add_revision(&mut tx, team, order, 2, "{}")
        .await
        .unwrap();
    assert!(
        store::orders::set_content(&mut tx, draft, "{\"runs\":[9]}")
            .await
            .unwrap(),
        "a draft can still be edited"
    );
    tx.commit().await.unwrap();
    let latest = store::orders::latest(&pool, team, order).await.unwrap().unwrap();
    assert_eq!((latest.revision, latest.content.as_str()), (2, "{\"runs\":[9]}"));
    assert!(audit::verify(&pool).await.unwrap().is_ok(), "nothing was changed");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_changed_byte_of_event_data_is_named_by_seq(pool: SqlitePool) {
    approved_order(&pool).await;
    exec(&pool, "DROP TRIGGER audit_events_are_append_only_update")
        .await
        .unwrap();
    exec(
        &pool,
        "UPDATE audit_events SET data = replace(data, 'yes', 'yeS') WHERE seq = 2",
    )
    .await
    .unwrap();
    assert_eq!(
        broken(&pool).await,
        AuditFault::Chain {
            seq: 2,
            fault: "bad hash: stored hash does not match the event".into()
        }
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_changed_byte_of_an_event_hash_is_named_by_seq(pool: SqlitePool) {
    approved_order(&pool).await;
    exec(&pool, "DROP TRIGGER audit_events_are_append_only_update")
        .await
        .unwrap();
    exec(&pool, "UPDATE audit_events SET hash = substr(hash, 1, 63) || CASE substr(hash, 64) WHEN '0' THEN '1' ELSE '0' END WHERE seq = 3")
        .await
        .unwrap();
    let fault = broken(&pool).await;
    assert!(matches!(fault, AuditFault::Chain { seq: 3, .. }), "{fault}");
    assert!(fault.to_string().starts_with("audit event 3: bad hash"), "{fault}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_changed_byte_of_approved_content_is_named_by_order_and_revision(pool: SqlitePool) {
    let (order, events) = approved_order(&pool).await;
    exec(&pool, "DROP TRIGGER approved_order_revisions_are_locked")
        .await
        .unwrap();
    exec(
        &pool,
        "UPDATE order_revisions SET content = replace(content, '71', '17') WHERE revision = 1",
    )
    .await
    .unwrap();
    let AuditFault::ApprovedContentChanged {
        order_id,
        revision,
        pinned,
        actual,
    } = broken(&pool).await
    else {
        panic!("content change not named")
    };
    assert_eq!((order_id, revision), (order, 1));
    assert_eq!(Some(pinned.as_str()), events[3].data["content_hash"].as_str());
    assert_ne!(pinned, actual);
}

async fn export(pool: &SqlitePool, order: i64) -> Value {
    let export = audit::export_order(pool, order)
        .await
        .unwrap()
        .expect("the order has a record");
    // Through text, as a file would be.
    serde_json::from_str(&serde_json::to_string_pretty(&export).unwrap()).unwrap()
}

async fn mismatch(pool: &SqlitePool, export: &Value) -> ExportMismatch {
    audit::check_export(pool, export)
        .await
        .unwrap()
        .expect_err("mismatch must be found")
}

#[sqlx::test(migrations = "../migrations")]
async fn an_untouched_export_checks_out(pool: SqlitePool) {
    let (order, events) = approved_order(&pool).await;
    let value = export(&pool, order).await;
    assert_eq!(value["order_id"], order);
    assert_eq!(value["events"].as_array().unwrap().len(), 4);
    assert_eq!(value["events"][3]["action"], "approve");
    assert_eq!(value["revisions"][0]["state"], "approved");
    assert_eq!(value["revisions"][0]["content"], content());
    let status = audit::check_export(&pool, &value)
        .await
        .unwrap()
        .expect("export matches");
    assert_eq!((status.order_id, status.events, status.revisions), (order, 4, 1));
    assert_eq!(status.chain.head_hash, events[3].hash);

    // Events of other orders appended later do not invalidate an older export.
    append(&pool, order + 1, 1, Action::Create, json!({})).await;
    assert!(audit::check_export(&pool, &value).await.unwrap().is_ok());
    assert!(audit::export_order(&pool, order + 2).await.unwrap().is_none());
}

#[sqlx::test(migrations = "../migrations")]
async fn an_altered_export_is_refused(pool: SqlitePool) {
    let (order, _) = approved_order(&pool).await;
    let value = export(&pool, order).await;

    let mut data = value.clone();
    data["events"][1]["data"]["answer"] = json!("no");
    assert_eq!(
        mismatch(&pool, &data).await,
        ExportMismatch::Export(ExportFault::EventHash { seq: 2 })
    );

    // Rehashing the altered event does not help: the next event no longer links to it.
    let mut rehashed = data.clone();
    let event: AuditEvent = serde_json::from_value(rehashed["events"][1].clone()).unwrap();
    rehashed["events"][1]["hash"] = json!(event.compute_hash().unwrap());
    assert_eq!(
        mismatch(&pool, &rehashed).await,
        ExportMismatch::Export(ExportFault::BrokenLink { seq: 3 })
    );

    let mut content = value.clone();
    content["revisions"][0]["content"]["runs"] = json!([5]);
    let fault = mismatch(&pool, &content).await;
    assert!(
        matches!(
            fault,
            ExportMismatch::Export(ExportFault::ContentHash { revision: 1, .. })
        ),
        "{fault}"
    );

    // Leaving an event out is consistent on its own (seq 1 and 3 are not consecutive), but the
    // database still has it.
    let mut dropped = value.clone();
    dropped["events"].as_array_mut().unwrap().remove(1);
    assert_eq!(
        mismatch(&pool, &dropped).await,
        ExportMismatch::Export(ExportFault::EventOmitted { seq: 2 })
    );

    let fault = mismatch(&pool, &json!({ "order_id": order })).await;
    assert!(
        matches!(fault, ExportMismatch::Export(ExportFault::Malformed { .. })),
        "{fault}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_export_is_refused_once_the_database_was_altered(pool: SqlitePool) {
    let (order, _) = approved_order(&pool).await;
    let value = export(&pool, order).await;
    exec(&pool, "DROP TRIGGER audit_events_are_append_only_update")
        .await
        .unwrap();
    exec(
        &pool,
        "UPDATE audit_events SET data = replace(data, 'yes', 'yeS') WHERE seq = 2",
    )
    .await
    .unwrap();
    assert_eq!(
        mismatch(&pool, &value).await,
        ExportMismatch::Export(ExportFault::EventDiffers {
            seq: 2,
            field: "data".into()
        })
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_export_is_refused_once_approved_content_was_altered(pool: SqlitePool) {
    let (order, _) = approved_order(&pool).await;
    let value = export(&pool, order).await;
    exec(&pool, "DROP TRIGGER approved_order_revisions_are_locked")
        .await
        .unwrap();
    exec(
        &pool,
        "UPDATE order_revisions SET content = replace(content, '71', '17') WHERE revision = 1",
    )
    .await
    .unwrap();
    let fault = mismatch(&pool, &value).await;
    assert!(
        matches!(
            fault,
            ExportMismatch::Export(ExportFault::RevisionDiffers { revision: 1, .. })
        ),
        "{fault}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_export_is_refused_when_the_database_chain_is_broken_elsewhere(pool: SqlitePool) {
    let (order, _) = approved_order(&pool).await;
    append(&pool, order + 1, 1, Action::Create, json!({ "title": "other" })).await;
    let value = export(&pool, order).await;
    exec(&pool, "DROP TRIGGER audit_events_are_append_only_update")
        .await
        .unwrap();
    exec(
        &pool,
        "UPDATE audit_events SET data = replace(data, 'other', 'Other') WHERE seq = 5",
    )
    .await
    .unwrap();
    let fault = mismatch(&pool, &value).await;
    assert!(
        matches!(fault, ExportMismatch::Database(AuditFault::Chain { seq: 5, .. })),
        "{fault}"
    );
}
