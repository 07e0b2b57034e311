//! A flood of sign-ins meets the bounded password-hashing queue: those past
//! the queue are refused at once with 503 and `Retry-After`, none hangs, and a refused attempt
//! is not counted against anyone. Alone in its binary: the queue is one per process.

mod common;

use common::TestApp;
use http::{StatusCode, header};
use std::{
    sync::Arc,
    time::{Duration, Instant},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_sign_ins_past_the_queue_get_503_at_once_and_none_hangs() {
    let app = Arc::new(TestApp::new().await);
    app.setup_admin().await;
    let capacity = app::auth::password::capacity();
    let n = capacity * 4;
    let started = Instant::now();
    let mut flood = tokio::task::JoinSet::new();
    for i in 0..n {
        let app = Arc::clone(&app);
        flood.spawn(async move {
            let email = format!("flood{i}@example.com");
            let t = Instant::now();
            let res = app
                .call(
                    "/api/login",
                    &[("email", &email), ("password", "wrong password attempt")],
                    None,
                )
                .await;
            (res, t.elapsed())
        });
    }
    let answers = flood.join_all().await;
    let total = started.elapsed();
    let busy: Vec<_> = answers
        .iter()
        .filter(|(r, _)| r.status == StatusCode::SERVICE_UNAVAILABLE)
        .collect();
    let checked = answers
        .iter()
        .filter(|(r, _)| r.status == StatusCode::UNAUTHORIZED)
        .count();
    let slowest_checked = answers
        .iter()
        .filter(|(r, _)| r.status == StatusCode::UNAUTHORIZED)
        .map(|(_, e)| *e)
        .max()
        .unwrap_or_default();
    assert_eq!(busy.len() + checked, n, "only 401 or 503");
    assert!(
        !busy.is_empty(),
        "{n} parallel sign-ins against a queue of {capacity}: none refused"
    );
    assert!(checked >= capacity.min(n) / 2, "{checked} checked");
    for (res, elapsed) in &busy {
        assert_eq!(
            res.headers.get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()),
            Some("2"),
            "{}",
            res.body
        );
        assert!(res.body.contains(r#""error":"busy""#), "{}", res.body);
        assert!(
            *elapsed < slowest_checked,
            "refused at once ({elapsed:?}), not after waiting"
        );
    }
    assert!(total < Duration::from_secs(60), "the flood took {total:?}");
    let counted: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM login_attempts WHERE email LIKE 'flood%'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(
        counted,
        i64::try_from(checked).unwrap(),
        "refused attempts are not counted"
    );
    // Once the flood is over, signing in works again.
    tokio::time::sleep(Duration::from_millis(100)).await;
    app.login("admin@example.com", common::PASSWORD).await;
}
