//! Password throttling through the router: by client address across
//! accounts, the manager's sign-off and the password change counted like sign-in, the trusted
//! proxy header; and the password rules wherever a password is set.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::{body::Body, extract::ConnectInfo};
use common::{Answer, ORIGIN, PASSWORD, TestApp, form_urlencoded};
use http::{HeaderName, Request, StatusCode, header};
use server::config::ServeConfig;
use std::{net::SocketAddr, time::Duration};

/// POSTs a form to a server function from the TCP peer `peer`, with extra headers.
pub(crate) async fn call_from(
    app: &TestApp,
    peer: &str,
    path: &str,
    form: &[(&str, &str)],
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let body = form_urlencoded(form);
    let peer = SocketAddr::new(peer.parse().unwrap(), 40000);
    let mut req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, ORIGIN)
        .header(header::CONTENT_LENGTH, body.len())
        .extension(ConnectInfo(peer));
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    app.send(req.body(Body::from(body)).unwrap()).await
}

async fn login_from(app: &TestApp, peer: &str, email: &str, password: &str) -> Answer {
    call_from(
        app,
        peer,
        "/api/login",
        &[("email", email), ("password", password)],
        None,
        &[],
    )
    .await
}

/// A refusal for too many failures: 429, `Retry-After` in seconds (15 minutes), the minutes in
/// the body for the page to say when to try again.
fn assert_throttled(res: &Answer) {
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{}", res.body);
    assert_eq!(
        res.headers.get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()),
        Some("900"),
        "Retry-After"
    );
    assert!(res.body.contains(r#""detail":15"#), "{}", res.body);
    assert!(res.session_cookie().is_none());
}

async fn stored_addresses(app: &TestApp) -> Vec<Option<String>> {
    sqlx::query_scalar("SELECT address FROM login_attempts ORDER BY id")
        .fetch_all(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn thirty_failures_from_one_address_across_accounts_lock_that_address() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let attacker = "203.0.113.5";
    for i in 0..30 {
        // Fewer than ten per account: no account lock would ever stop this.
        let res = login_from(
            &app,
            attacker,
            &format!("user{}@example.com", i % 4),
            "wrong password attempt",
        )
        .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {i}: {}", res.body);
        if i == 15 {
            // A success (the attacker's own account) does not clear the address's count.
            let ok = login_from(&app, attacker, "admin@example.com", PASSWORD).await;
            assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
        }
    }
    assert_throttled(&login_from(&app, attacker, "admin@example.com", PASSWORD).await);
    let elsewhere = login_from(&app, "198.51.100.7", "admin@example.com", PASSWORD).await;
    assert_eq!(elsewhere.status, StatusCode::OK, "another address is not locked");
    let addresses = stored_addresses(&app).await;
    assert!(addresses.iter().filter(|a| a.as_deref() == Some(attacker)).count() >= 30);
    assert!(addresses.contains(&Some("198.51.100.7".into())));
}

#[tokio::test]
async fn ipv6_clients_are_counted_by_their_64_prefix() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    for i in 0..30 {
        // A new address of the same /64 for every guess, as any IPv6 host can pick.
        let peer = format!("2001:db8:1:2::{:x}", i + 1);
        let res = login_from(
            &app,
            &peer,
            &format!("user{}@example.com", i % 4),
            "wrong password attempt",
        )
        .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {i}: {}", res.body);
    }
    assert_throttled(&login_from(&app, "2001:db8:1:2:ffff::9", "admin@example.com", PASSWORD).await);
    let other = login_from(&app, "2001:db8:1:3::1", "admin@example.com", PASSWORD).await;
    assert_eq!(
        other.status,
        StatusCode::OK,
        "another /64 is not locked: {}",
        other.body
    );
    let v4 = login_from(&app, "203.0.113.5", "admin@example.com", PASSWORD).await;
    assert_eq!(v4.status, StatusCode::OK, "{}", v4.body);
    let addresses = stored_addresses(&app).await;
    assert!(addresses.contains(&Some("2001:db8:1:2::/64".into())), "{addresses:?}");
    assert!(addresses.contains(&Some("203.0.113.5".into())), "IPv4 stays exact");
}

#[tokio::test]
async fn wrong_setup_codes_are_throttled_by_address_like_passwords() {
    let app = TestApp::new().await;
    let code = app.setup_code();
    let setup = |peer: &'static str, code: String| {
        let app = &app;
        async move {
            let form = [
                ("setup_code", code.as_str()),
                ("email", "admin@example.com"),
                ("display_name", "Ada Admin"),
                ("password", PASSWORD),
                ("password_confirm", PASSWORD),
            ];
            call_from(app, peer, "/api/setup", &form, None, &[]).await
        }
    };
    for i in 0..30 {
        let res = setup("203.0.113.5", format!("guess-{i}")).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "attempt {i}: {}",
            res.body
        );
    }
    assert_throttled(&setup("203.0.113.5", code.clone()).await);
    // The guesses count for sign-in from that address too.
    assert_throttled(&login_from(&app, "203.0.113.5", "admin@example.com", PASSWORD).await);
    let operator = setup("198.51.100.7", code).await;
    assert_eq!(operator.status, StatusCode::OK, "{}", operator.body);
}

#[tokio::test]
async fn the_forwarded_header_is_ignored_unless_configured() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    for i in 0..30 {
        // Each request claims another address; the server believes its socket.
        let forged = format!("198.51.100.{i}");
        let res = call_from(
            &app,
            "203.0.113.5",
            "/api/login",
            &[
                ("email", &format!("user{}@example.com", i % 4)),
                ("password", "wrong password attempt"),
            ],
            None,
            &[("x-forwarded-for", &forged)],
        )
        .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {i}");
    }
    assert_throttled(&login_from(&app, "203.0.113.5", "admin@example.com", PASSWORD).await);
    let addresses = stored_addresses(&app).await;
    assert!(
        addresses.iter().all(|a| a.as_deref() == Some("203.0.113.5")),
        "{addresses:?}"
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_last_forwarded_hop_is_the_client() {
    let cfg = ServeConfig {
        trusted_proxy_header: Some(HeaderName::from_static("x-forwarded-for")),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    app.setup_admin().await;
    let proxy = "10.0.0.1";
    for i in 0..30 {
        // The client forged the first entry; the proxy appended the real address.
        let chain = format!("192.0.2.{i}, 203.0.113.5");
        let res = call_from(
            &app,
            proxy,
            "/api/login",
            &[
                ("email", &format!("user{}@example.com", i % 4)),
                ("password", "wrong password attempt"),
            ],
            None,
            &[("x-forwarded-for", &chain)],
        )
        .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {i}");
    }
    let login = [("email", "admin@example.com"), ("password", PASSWORD)];
    let same = call_from(
        &app,
        proxy,
        "/api/login",
        &login,
        None,
        &[("x-forwarded-for", "203.0.113.5")],
    )
    .await;
    assert_throttled(&same);
    let other = call_from(
        &app,
        proxy,
        "/api/login",
        &login,
        None,
        &[("x-forwarded-for", "203.0.113.6")],
    )
    .await;
    assert_eq!(
        other.status,
        StatusCode::OK,
        "another client behind the same proxy: {}",
        other.body
    );
    assert!(stored_addresses(&app).await.contains(&Some("203.0.113.5".into())));
}

#[tokio::test]
async fn eleven_wrong_sign_off_passwords_throttle_the_eleventh_even_with_the_right_one() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "max@example.com", team, "manager").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let max = app.login("max@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Batch job").await.to_string();
    let order = app
        .call(
            "/api/orders/create",
            &[("title", "Nodes"), ("workload_id", &workload)],
            Some(&pam),
        )
        .await;
    assert_eq!(order.status, StatusCode::OK, "{}", order.body);
    let order = order.body.trim().to_string();
    let decide = |password: &'static str| {
        let (app, max, order) = (&app, &max, &order);
        async move {
            let form = [
                ("order_id", order.as_str()),
                ("decision", "approve"),
                ("password", password),
                ("comment", ""),
            ];
            call_from(app, "203.0.113.9", "/api/orders/decide", &form, Some(max), &[]).await
        }
    };
    for i in 0..10 {
        let res = decide("not my password at all").await;
        assert_ne!(res.status, StatusCode::TOO_MANY_REQUESTS, "attempt {i}: {}", res.body);
        assert_ne!(res.status, StatusCode::OK, "attempt {i}");
    }
    assert_throttled(&decide(PASSWORD).await);
    // The same secret: the sign-off guesses count for sign-in too.
    assert_throttled(&login_from(&app, "198.51.100.7", "max@example.com", PASSWORD).await);
}

#[tokio::test]
async fn eleven_wrong_current_passwords_throttle_the_password_change() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let change = |current: &'static str| {
        let (app, admin) = (&app, &admin);
        async move {
            let form = [
                ("current_password", current),
                ("new_password", "walnut kettle orbit lantern"),
                ("new_password_confirm", "walnut kettle orbit lantern"),
            ];
            call_from(app, "203.0.113.9", "/api/change_password", &form, Some(admin), &[]).await
        }
    };
    for i in 0..10 {
        let res = change("not my password at all").await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "attempt {i}: {}",
            res.body
        );
        assert!(res.body.contains("password.current_wrong"), "{}", res.body);
    }
    assert_throttled(&change(PASSWORD).await);
    // The same secret: the guesses count for sign-in too.
    assert_throttled(&login_from(&app, "198.51.100.7", "admin@example.com", PASSWORD).await);
}

/// `(email, display_name, password)` for the set-up form.
async fn setup_with(app: &TestApp, password: &str) -> Answer {
    let code = app.setup_code();
    app.call(
        "/api/setup",
        &[
            ("setup_code", &code),
            ("email", "admin@example.com"),
            ("display_name", "Ada Admin"),
            ("password", password),
            ("password_confirm", password),
        ],
        None,
    )
    .await
}

#[tokio::test]
async fn common_and_guessable_passwords_are_refused_with_the_reason_wherever_a_password_is_set() {
    let app = TestApp::new().await;
    for common in ["password1", "Password1", "123123qweqwe", "01telemike01"] {
        let res = setup_with(&app, common).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{common}: {}", res.body);
        assert!(res.body.contains(r#""error":"weak_password""#), "{}", res.body);
        assert!(res.body.contains("pw_quality.common"), "{common}: {}", res.body);
    }
    let res = setup_with(&app, "adaadminadaadmin").await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("pw_quality.s_"), "with a suggestion: {}", res.body);
    // A strong passphrase is accepted.
    let admin = app.setup_admin().await;

    let team = app.create_team(&admin, "A").await.to_string();
    let res = app
        .call(
            "/api/admin/create_user",
            &[
                ("email", "eve@example.com"),
                ("display_name", "Eve"),
                ("password", "aaaaaaaaaaaaaaaa"),
                ("password_confirm", "aaaaaaaaaaaaaaaa"),
                ("team_id", &team),
                ("role", "engineer"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("pw_quality.w_repeats_aaa"), "{}", res.body);

    let res = app
        .call(
            "/api/change_password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "qwertyuiop123"),
                ("new_password_confirm", "qwertyuiop123"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(res.body.contains("pw_quality."), "{}", res.body);
    let res = app
        .call(
            "/api/change_password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "walnut kettle orbit lantern"),
                ("new_password_confirm", "walnut kettle orbit lantern"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "a strong passphrase: {}", res.body);
}
