//! The session store and layer: a sign-out sticks (a request still in flight cannot write the
//! session back), sessions are written only when they change (and once a minute to push the idle
//! timeout back), a failing session save keeps the handler's answer, and over https the cookie
//! carries the `__Host-` prefix.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use app::store::sessions::{SqliteSessionStore, TOUCHED_AT_KEY};
use common::{PASSWORD, TestApp};
use http::StatusCode;
use server::config::ServeConfig;
use std::time::Duration;
use time::OffsetDateTime;
use tower_sessions::{
    SessionStore,
    session::{Id, Record},
};

/// The session id in a `name=value` cookie.
fn id_of(cookie: &str) -> Id {
    cookie.split_once('=').unwrap().1.parse().unwrap()
}

async fn session_writes(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM session_writes")
        .fetch_one(&app.db)
        .await
        .unwrap()
}

/// Counts every write of the `sessions` table in `session_writes`.
async fn count_session_writes(app: &TestApp) {
    for sql in [
        "CREATE TABLE session_writes (at INTEGER)",
        "CREATE TRIGGER count_session_updates AFTER UPDATE ON sessions BEGIN INSERT INTO session_writes VALUES (1); END",
        "CREATE TRIGGER count_session_inserts AFTER INSERT ON sessions BEGIN INSERT INTO session_writes VALUES (1); END",
    ] {
        sqlx::query(sql).execute(&app.db).await.unwrap();
    }
}

/// Makes the session look untouched for two minutes, so the next request pushes it back.
async fn age(store: &SqliteSessionStore, cookie: &str) -> Record {
    let mut record = store.load(&id_of(cookie)).await.unwrap().expect("session in the store");
    let two_minutes_ago = app::store::now_unix() - 120;
    record.data.insert(TOUCHED_AT_KEY.into(), two_minutes_ago.into());
    record.expiry_date = OffsetDateTime::now_utc() + time::Duration::minutes(1);
    store.save(&record).await.unwrap();
    record
}

#[tokio::test]
async fn the_store_never_writes_a_deleted_session_back() {
    let app = TestApp::new().await;
    let store = SqliteSessionStore::new(app.db.clone());
    let mut record = Record {
        id: Id::default(),
        data: [("user_id".to_string(), 1.into())].into_iter().collect(),
        expiry_date: OffsetDateTime::now_utc() + time::Duration::hours(1),
    };
    store.create(&mut record).await.unwrap();
    assert!(store.load(&record.id).await.unwrap().is_some());
    store.delete(&record.id).await.unwrap();
    store.save(&record).await.unwrap();
    assert!(
        store.load(&record.id).await.unwrap().is_none(),
        "a save after the delete resurrected the session"
    );
}

#[tokio::test]
async fn a_request_in_flight_during_logout_cannot_bring_the_session_back() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let store = SqliteSessionStore::new(app.db.clone());
    // A slow request loaded the session before the sign-out…
    let in_flight = store.load(&id_of(&admin)).await.unwrap().expect("signed in");
    let out = app.call("/api/logout", &[], Some(&admin)).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    // …and the session layer saves it when that request finishes.
    store.save(&in_flight).await.unwrap();
    let after = app.call("/api/session", &[], Some(&admin)).await;
    assert!(
        after.body.contains(r#""caller":null"#),
        "still signed in: {}",
        after.body
    );
    let page = app.get("/quotes", Some(&admin), None).await;
    assert_eq!(page.status, StatusCode::FOUND, "{}", page.body);
}

#[tokio::test]
async fn requests_that_change_nothing_do_not_write_the_session() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    // The first request after sign-in marks the session touched.
    let first = app.get("/", Some(&admin), None).await;
    assert!(
        first.status.is_success() || first.status.is_redirection(),
        "{}",
        first.status
    );
    count_session_writes(&app).await;
    for path in [
        "/",
        "/admin/teams",
        "/pkg/nodeledger.css",
        "/favicon.svg",
        "/no/such/page",
    ] {
        app.get(path, Some(&admin), None).await;
    }
    app.call("/api/session", &[], Some(&admin)).await;
    assert_eq!(
        session_writes(&app).await,
        0,
        "pages, static files and reads wrote the session"
    );
    let team = app.create_team(&admin, "GPU Team").await;
    assert!(team > 0);
    assert_eq!(
        session_writes(&app).await,
        0,
        "a change of data is no change of the session"
    );
}

#[tokio::test]
async fn the_idle_timeout_is_pushed_back_at_most_once_a_minute() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let store = SqliteSessionStore::new(app.db.clone());
    age(&store, &admin).await;
    count_session_writes(&app).await;
    // A server function first (never sent twice by the test client, unlike a stalled page),
    // then pages.
    let page = app.call("/api/session", &[], Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let cookie = page.headers["set-cookie"].to_str().unwrap();
    assert!(cookie.contains("Max-Age=1800"), "the cookie is renewed too: {cookie}");
    let expires_at: i64 = sqlx::query_scalar("SELECT expires_at FROM sessions")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let left = expires_at - app::store::now_unix();
    assert!(
        (1790..=1800).contains(&left),
        "idle timeout pushed back to 30 min: {left} s"
    );
    for _ in 0..3 {
        app.get("/admin/teams", Some(&admin), None).await;
    }
    assert_eq!(
        session_writes(&app).await,
        1,
        "one UPDATE for four requests within the minute"
    );
}

#[tokio::test]
async fn a_session_save_that_fails_after_the_answer_keeps_the_answer() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let store = SqliteSessionStore::new(app.db.clone());
    age(&store, &admin).await;
    // From now on the database refuses every session write, as a locked one would.
    sqlx::query(
        "CREATE TRIGGER sessions_locked BEFORE UPDATE ON sessions \
         BEGIN SELECT RAISE(ABORT, 'database is locked'); END",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let res = app
        .call("/api/admin/create_team", &[("name", "GPU Team")], Some(&admin))
        .await;
    assert_eq!(res.status, StatusCode::OK, "the team was created: {}", res.body);
    let teams: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM teams")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(teams, 1);
    let still = app.call("/api/session", &[], Some(&admin)).await;
    assert!(still.body.contains("admin@example.com"), "{}", still.body);
}

#[tokio::test]
async fn an_https_public_url_in_upper_case_still_gives_secure_cookies() {
    let secure = |url: &str| {
        ServeConfig {
            public_url: Some(url.into()),
            ..ServeConfig::for_tests()
        }
        .secure_cookies()
    };
    assert!(secure("HTTPS://desk.example.com") && secure("Https://desk.example.com"));
    assert!(secure("https://desk.example.com"));
    assert!(!secure("http://desk.example.com") && !secure("HTTP://desk.example.com") && !secure("https:"));

    let site = "HTTPS://Desk.Example.com";
    let cfg = ServeConfig {
        public_url: Some(site.into()),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let code = app.setup_code();
    let form = [
        ("setup_code", code.as_str()),
        ("email", "admin@example.com"),
        ("display_name", "Ada"),
        ("password", PASSWORD),
        ("password_confirm", PASSWORD),
    ];
    let res = app
        .post("/api/setup", &form, None, Some("https://desk.example.com"))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let cookie = res
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.contains("nl_session="))
        .unwrap();
    assert!(
        cookie.starts_with("__Host-nl_session=") && cookie.contains("Secure"),
        "{cookie}"
    );
}

#[tokio::test]
async fn over_https_the_session_cookie_is_host_prefixed() {
    let site = "https://desk.example.com";
    let cfg = ServeConfig {
        public_url: Some(site.into()),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let code = app.setup_code();
    let form = [
        ("setup_code", code.as_str()),
        ("email", "admin@example.com"),
        ("display_name", "Ada"),
        ("password", PASSWORD),
        ("password_confirm", PASSWORD),
    ];
    let res = app.post("/api/setup", &form, None, Some(site)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let set = res
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.contains("nl_session="))
        .unwrap();
    assert!(set.starts_with("__Host-nl_session="), "{set}");
    assert!(set.contains("Secure") && set.contains("Path=/"), "{set}");
    assert!(!set.contains("Domain"), "a __Host- cookie has no Domain: {set}");
    let cookie = set.split(';').next().unwrap().to_string();
    let me = app.post("/api/session", &[], Some(&cookie), Some(site)).await;
    assert!(me.body.contains("admin@example.com"), "{}", me.body);
    let out = app.post("/api/logout", &[], Some(&cookie), Some(site)).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    let ended = app.post("/api/session", &[], Some(&cookie), Some(site)).await;
    assert!(
        ended.body.contains(r#""session_ended":true"#),
        "the ended session is recognised under the __Host- name: {}",
        ended.body
    );
}
