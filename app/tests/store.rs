//! Store tests against real SQLite with the real migrations (`#[sqlx::test]`).

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use app::{
    domain::roles::TeamRole,
    store::{self, sessions::SqliteSessionStore, users::UserForCreate},
};
use sqlx::SqlitePool;
use time::{Duration, OffsetDateTime};
use tower_sessions::{
    ExpiredDeletion, SessionStore,
    session::{Id, Record},
};

async fn user(pool: &SqlitePool, email: &str, admin: bool) -> i64 {
    let mut tx = store::begin_write(pool).await.unwrap();
    let new = UserForCreate {
        email,
        display_name: email,
        password_hash: "x",
        is_admin: admin,
    };
    let id = store::users::insert(&mut tx, &new).await.unwrap().expect("new e-mail");
    tx.commit().await.unwrap();
    id
}

async fn team(pool: &SqlitePool, name: &str) -> i64 {
    let mut tx = store::begin_write(pool).await.unwrap();
    let id = store::teams::insert(&mut tx, name).await.unwrap().expect("new team");
    tx.commit().await.unwrap();
    id
}

#[sqlx::test(migrations = "../migrations")]
async fn emails_are_unique_without_regard_to_case(pool: SqlitePool) {
    user(&pool, "ann@example.com", false).await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    let again = UserForCreate {
        email: "ANN@example.com",
        display_name: "A",
        password_hash: "x",
        is_admin: false,
    };
    assert_eq!(store::users::insert(&mut tx, &again).await.unwrap(), None);
    assert!(
        store::users::by_email(&mut *tx, "Ann@Example.com")
            .await
            .unwrap()
            .is_some()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn setup_completes_once(pool: SqlitePool) {
    assert!(!store::site::setup_completed(&pool).await.unwrap());
    let mut tx = store::begin_write(&pool).await.unwrap();
    assert!(store::site::complete_setup(&mut tx).await.unwrap());
    assert!(
        !store::site::complete_setup(&mut tx).await.unwrap(),
        "second time is refused"
    );
    tx.commit().await.unwrap();
    assert!(store::site::setup_completed(&pool).await.unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn memberships_hold_one_role_per_team(pool: SqlitePool) {
    let ann = user(&pool, "ann@example.com", false).await;
    let bob = user(&pool, "bob@example.com", false).await;
    let a = team(&pool, "Alpha").await;
    let b = team(&pool, "Beta").await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    store::memberships::upsert(&mut tx, ann, a, TeamRole::Engineer)
        .await
        .unwrap();
    store::memberships::upsert(&mut tx, ann, a, TeamRole::Manager)
        .await
        .unwrap();
    store::memberships::upsert(&mut tx, ann, b, TeamRole::Procurement)
        .await
        .unwrap();
    store::memberships::upsert(&mut tx, bob, b, TeamRole::Engineer)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let teams = store::memberships::of_user(&pool, ann).await.unwrap();
    let got: Vec<_> = teams.iter().map(|m| (m.team_name.as_str(), m.role)).collect();
    assert_eq!(got, [("Alpha", TeamRole::Manager), ("Beta", TeamRole::Procurement)]);
    let alpha = store::memberships::of_team(&pool, a).await.unwrap();
    assert_eq!(alpha.len(), 1, "team isolation: only Alpha's members");
    assert_eq!(alpha[0].email, "ann@example.com");

    let bad = sqlx::query("INSERT INTO memberships (user_id, team_id, role) VALUES (?, ?, 'owner')")
        .bind(bob)
        .bind(a)
        .execute(&pool)
        .await;
    assert!(bad.is_err(), "the role CHECK constraint holds");
    let orphan = sqlx::query("INSERT INTO memberships (user_id, team_id, role) VALUES (999, ?, 'engineer')")
        .bind(a)
        .execute(&pool)
        .await;
    assert!(orphan.is_err(), "foreign keys are enforced");

    let mut tx = store::begin_write(&pool).await.unwrap();
    assert!(store::memberships::remove(&mut tx, ann, a).await.unwrap());
    assert!(!store::memberships::remove(&mut tx, ann, a).await.unwrap());
    tx.commit().await.unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn disabling_and_password_changes_bump_the_epoch(pool: SqlitePool) {
    let id = user(&pool, "ann@example.com", false).await;
    let mut tx = store::begin_write(&pool).await.unwrap();
    store::users::set_password(&mut tx, id, "new").await.unwrap();
    assert!(store::users::set_disabled(&mut tx, id, true).await.unwrap());
    assert!(!store::users::set_disabled(&mut tx, 999, true).await.unwrap());
    tx.commit().await.unwrap();
    let u = store::users::by_id(&pool, id).await.unwrap().unwrap();
    assert_eq!((u.auth_epoch, u.disabled, u.password_hash.as_str()), (2, true, "new"));
    let mut tx = store::begin_write(&pool).await.unwrap();
    store::users::set_disabled(&mut tx, id, false).await.unwrap();
    tx.commit().await.unwrap();
    let u = store::users::by_id(&pool, id).await.unwrap().unwrap();
    assert_eq!(u.auth_epoch, 2, "re-enabling does not revive old sessions");
}

#[sqlx::test(migrations = "../migrations")]
async fn login_attempts_count_failures_since_the_last_success(pool: SqlitePool) {
    let now = 1_000_000;
    for t in [now - 3000, now - 100, now - 50] {
        store::login_attempts::reserve(&pool, "a@x.io", t).await.unwrap();
    }
    let recent = store::login_attempts::recent_failures(&pool, "A@x.io", now)
        .await
        .unwrap();
    assert_eq!(recent, [now - 100, now - 50], "old ones fall out of the look-back");
    let success = store::login_attempts::reserve(&pool, "a@x.io", now - 40).await.unwrap();
    store::login_attempts::succeeded(&pool, success).await.unwrap();
    store::login_attempts::reserve(&pool, "a@x.io", now - 30).await.unwrap();
    assert_eq!(
        store::login_attempts::recent_failures(&pool, "a@x.io", now)
            .await
            .unwrap(),
        [now - 30]
    );
    assert_eq!(store::login_attempts::prune(&pool, now - 60).await.unwrap(), 2);
}

fn record(user: Option<i64>, expires_in: Duration) -> Record {
    let mut data = std::collections::HashMap::new();
    if let Some(u) = user {
        data.insert("user_id".to_string(), serde_json::json!(u));
    }
    Record {
        id: Id::default(),
        data,
        expiry_date: OffsetDateTime::now_utc() + expires_in,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn session_store_round_trips_expires_and_ends_a_users_sessions(pool: SqlitePool) {
    let store = SqliteSessionStore::new(pool.clone());
    let mut live = record(Some(7), Duration::hours(1));
    store.create(&mut live).await.unwrap();
    let loaded = store.load(&live.id).await.unwrap().expect("stored");
    assert_eq!(loaded.data, live.data);
    assert_eq!(loaded.expiry_date.unix_timestamp(), live.expiry_date.unix_timestamp());

    live.data.insert("active_team".into(), serde_json::json!(3));
    store.save(&live).await.unwrap();
    assert_eq!(store.load(&live.id).await.unwrap().unwrap().data["active_team"], 3);

    let mut expired = record(Some(7), Duration::seconds(-5));
    store.create(&mut expired).await.unwrap();
    assert!(
        store.load(&expired.id).await.unwrap().is_none(),
        "expired records do not load"
    );
    store.delete_expired().await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 1);

    let mut other = record(Some(8), Duration::hours(1));
    store.create(&mut other).await.unwrap();
    let mut anon = record(None, Duration::hours(1));
    store.create(&mut anon).await.unwrap();
    assert_eq!(store.delete_for_user(7).await.unwrap(), 1);
    assert!(store.load(&live.id).await.unwrap().is_none());
    assert!(store.load(&other.id).await.unwrap().is_some());

    let mut clash = record(None, Duration::hours(1));
    clash.id = other.id;
    store.create(&mut clash).await.unwrap();
    assert_ne!(clash.id, other.id, "a colliding id is replaced, never overwritten");
    assert_eq!(store.load(&other.id).await.unwrap().unwrap().data["user_id"], 8);

    store.delete(&other.id).await.unwrap();
    assert!(store.load(&other.id).await.unwrap().is_none());
}
