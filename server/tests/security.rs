//! Cross-site refusal, foreign `Host` refusal (DNS rebinding), security headers (CSP, HSTS,
//! caching), body limits, time limits, error pages.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{ORIGIN, PASSWORD, TestApp};
use futures_util::StreamExt as _;
use http::StatusCode;
use http_body_util::BodyExt as _;
use server::{
    config::{ServeConfig, TimeLimitConfig},
    timeouts::{self, TimeLimits},
};
use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};
use tower::ServiceExt as _;

#[tokio::test]
async fn cross_site_and_origin_less_posts_are_refused() {
    let app = TestApp::new().await;
    let code = app.setup_code();
    let form = [
        ("setup_code", code.as_str()),
        ("email", "admin@example.com"),
        ("display_name", "A"),
        ("password", PASSWORD),
        ("password_confirm", PASSWORD),
    ];
    let evil = app.post("/api/setup", &form, None, Some("https://evil.example")).await;
    assert_eq!(evil.status, StatusCode::FORBIDDEN);
    let none = app.post("/api/setup", &form, None, None).await;
    assert_eq!(none.status, StatusCode::FORBIDDEN);
    let null = app.post("/api/setup", &form, None, Some("null")).await;
    assert_eq!(null.status, StatusCode::FORBIDDEN);

    let req = http::Request::post("/api/setup")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", ORIGIN)
        .header("sec-fetch-site", "cross-site")
        .header("accept-language", "zh-CN")
        .body(axum::body::Body::from(common::form_urlencoded(&form)))
        .unwrap();
    let forged = app.send(req).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert!(
        forged.body.contains("其他网站"),
        "message in the user's language: {}",
        forged.body
    );

    let lang = app
        .post(
            "/lang",
            &[("lang", "zh-CN"), ("next", "/")],
            None,
            Some("https://evil.example"),
        )
        .await;
    assert_eq!(lang.status, StatusCode::FORBIDDEN, "every mutating route is covered");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing written");

    let referer = http::Request::post("/api/setup")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("referer", format!("{ORIGIN}/setup"))
        .body(axum::body::Body::from(common::form_urlencoded(&form)))
        .unwrap();
    assert_eq!(
        app.send(referer).await.status,
        StatusCode::OK,
        "same-site Referer is enough without Origin"
    );
}

#[tokio::test]
async fn pages_carry_security_headers_and_a_matching_nonce() {
    let app = TestApp::new().await;
    let page = app.get("/setup", None, None).await;
    assert_eq!(page.status, StatusCode::OK);
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .and_then(|s| s.split('\'').next())
        .expect("nonce in CSP");
    assert!(
        page.body.contains(&format!("nonce=\"{nonce}\"")),
        "scripts carry the CSP nonce"
    );
    assert_eq!(page.headers["x-content-type-options"], "nosniff");
    assert_eq!(page.headers["referrer-policy"], "strict-origin-when-cross-origin");
    assert_eq!(page.headers["cache-control"], "no-store");
    let other = app.get("/setup", None, None).await;
    assert_ne!(
        other.headers["content-security-policy"], page.headers["content-security-policy"],
        "fresh nonce per request"
    );
}

#[tokio::test]
async fn oversized_bodies_get_413() {
    let app = TestApp::new().await;
    let big = "x".repeat(3 * 1024 * 1024);
    let res = app
        .call("/api/login", &[("email", &big), ("password", "x")], None)
        .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn unknown_pages_get_a_friendly_404_in_the_users_language() {
    let app = TestApp::new().await;
    let en = app.get("/no/such/page", None, Some("en-US")).await;
    assert_eq!(en.status, StatusCode::NOT_FOUND);
    assert!(en.body.contains("Page not found"), "{}", en.body);
    let zh = app.get("/no/such/page", None, Some("zh-CN")).await;
    assert_eq!(zh.status, StatusCode::NOT_FOUND);
    assert!(zh.body.contains("页面不存在"));
}

#[tokio::test]
async fn language_switch_sets_a_cookie_and_returns_to_the_page() {
    let app = TestApp::new().await;
    let res = app
        .call("/lang", &[("lang", "zh-CN"), ("next", "/login?x=1")], None)
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    assert_eq!(res.headers["location"], "/login?x=1");
    let cookie = res.headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("nl_lang=zh-CN"), "{cookie}");
    let page = app.get("/setup", Some("nl_lang=zh-CN"), Some("en")).await;
    assert!(page.body.contains("创建第一位管理员"), "cookie beats Accept-Language");
    let open = app
        .call("/lang", &[("lang", "en"), ("next", "//evil.example")], None)
        .await;
    assert_eq!(open.headers["location"], "/", "no open redirect");
    let bad = app.call("/lang", &[("lang", "klingon"), ("next", "/")], None).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// A first-admin set-up as a DNS rebinding page sends it: its own name as `Host` and `Origin`.
fn setup_from(app: &TestApp, host: &str, origin: &str) -> http::Request<axum::body::Body> {
    let code = app.setup_code();
    let form = [
        ("setup_code", code.as_str()),
        ("email", "eve@example.com"),
        ("display_name", "Eve"),
        ("password", PASSWORD),
        ("password_confirm", PASSWORD),
    ];
    http::Request::post("/api/setup")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("host", host)
        .header("origin", origin)
        .body(axum::body::Body::from(common::form_urlencoded(&form)))
        .unwrap()
}

async fn users(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_rebound_host_cannot_set_up_the_first_admin() {
    // No public URL configured: the site is http://127.0.0.1:3000, reached as localhost too.
    let app = TestApp::new().await;
    let rebound = app
        .send(setup_from(&app, "rebound.example:3000", "http://rebound.example:3000"))
        .await;
    assert_eq!(rebound.status, StatusCode::MISDIRECTED_REQUEST, "{}", rebound.body);
    let page = app
        .send(
            http::Request::get("/setup")
                .header("host", "rebound.example:3000")
                .header("accept-language", "zh-CN")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(
        page.status,
        StatusCode::MISDIRECTED_REQUEST,
        "the set-up page is not shown"
    );
    assert!(
        page.body.contains("管理员提供的地址"),
        "in the user's language: {}",
        page.body
    );
    assert_eq!(users(&app).await, 0, "nobody set up");
    let local = app
        .send(setup_from(&app, "localhost:3000", "http://localhost:3000"))
        .await;
    assert_eq!(
        local.status,
        StatusCode::OK,
        "a loopback alias still works: {}",
        local.body
    );
    assert_eq!(users(&app).await, 1);
}

#[tokio::test]
async fn with_a_public_url_only_it_and_loopback_names_are_served() {
    let site = "https://desk.example.com";
    let cfg = ServeConfig {
        public_url: Some(site.into()),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let foreign = app
        .send(setup_from(&app, "rebound.example", "https://rebound.example"))
        .await;
    assert_eq!(foreign.status, StatusCode::MISDIRECTED_REQUEST, "{}", foreign.body);
    let health = app
        .send(
            http::Request::get("/healthz")
                .header("host", "10.0.0.7:3000")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(health.status, StatusCode::OK, "health checks by address still answer");
    assert_eq!(users(&app).await, 0);
    let public = app.send(setup_from(&app, "desk.example.com", site)).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    assert_eq!(users(&app).await, 1);
}

#[tokio::test]
async fn https_sites_send_hsts_and_plain_http_ones_do_not() {
    let cfg = ServeConfig {
        public_url: Some("https://desk.example.com".into()),
        ..ServeConfig::for_tests()
    };
    let https = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    for path in ["/setup", "/healthz", "/no/such/page"] {
        let res = https.get(path, None, None).await;
        assert_eq!(
            res.headers
                .get("strict-transport-security")
                .map(|v| v.to_str().unwrap()),
            Some("max-age=63072000; includeSubDomains"),
            "{path}"
        );
    }
    let http = TestApp::new().await;
    let res = http.get("/setup", None, None).await;
    assert!(
        !res.headers.contains_key("strict-transport-security"),
        "HSTS over plain http would lock localhost out"
    );
}

/// Captures log lines written while it is the thread's default subscriber.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    fn capture(&self) -> tracing::subscriber::DefaultGuard {
        let logs = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || logs.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::WARN)
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[tokio::test]
async fn a_request_that_does_not_answer_in_time_gets_503_and_is_logged() {
    let logs = Logs::default();
    let _guard = logs.capture();
    let cfg = ServeConfig {
        time_limits: TimeLimitConfig {
            request_timeout_s: 1,
            stall_timeout_s: 1,
        },
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    // A sign-in whose body never finishes arriving: the handler waits for it.
    let trickle = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from("email=a"))])
        .chain(futures_util::stream::pending());
    let req = http::Request::post("/api/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("host", "127.0.0.1:3000")
        .header("origin", ORIGIN)
        .body(axum::body::Body::from_stream(trickle))
        .unwrap();
    let started = Instant::now();
    let res = tokio::time::timeout(Duration::from_secs(10), app.router.clone().oneshot(req))
        .await
        .expect("answered, not hanging")
        .unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() >= Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(
        logs.text().contains("POST /api/login"),
        "log names the route: {}",
        logs.text()
    );
}

#[tokio::test]
async fn a_streaming_answer_that_stalls_is_cut_and_logged_with_its_route() {
    let logs = Logs::default();
    let _guard = logs.capture();
    let limits = TimeLimits {
        answer: Duration::from_secs(5),
        stall: Duration::from_millis(300),
    };
    // A page that sends its shell, then waits forever on a `Suspense` that never resolves.
    let stalling = axum::routing::get(|| async {
        let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from("<html>"))])
            .chain(futures_util::stream::pending());
        axum::body::Body::from_stream(chunks)
    });
    let router = axum::Router::new()
        .route("/quotes/report", stalling)
        .layer(axum::middleware::from_fn_with_state(limits, timeouts::limit_time));
    let res = router
        .oneshot(
            http::Request::get("/quotes/report")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "the head went out");
    let body = tokio::time::timeout(Duration::from_secs(10), res.into_body().collect())
        .await
        .expect("cut, not hanging");
    assert!(
        body.is_err(),
        "the stalled body ends with an error, not as a complete page"
    );
    let text = logs.text();
    assert!(
        text.contains("response stalled") && text.contains("GET /quotes/report"),
        "log names the route: {text}"
    );
}

#[tokio::test]
async fn private_answers_are_never_stored_and_static_files_keep_their_caching() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let workload = app.create_workload(&pam, "Batch").await;
    let quote = app.create_quote(&pam, "L4-1").await;
    let pdf: &[u8] = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
    let up = app
        .multipart(
            &format!("/quotes/{quote}/documents"),
            &[("revision", None, b"1"), ("file", Some("quote.pdf"), pdf)],
            Some(&pam),
            None,
        )
        .await;
    assert_eq!(up.status, StatusCode::SEE_OTHER, "{}", up.body);
    let document: i64 = sqlx::query_scalar("SELECT id FROM quote_documents")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let token = app.create_token(&eve, "ci").await;
    let run = app.upload_valid_l4_run(&token, quote, workload).await;
    let run_file: i64 = sqlx::query_scalar("SELECT result_file_id FROM runs")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let order = app.create_order(&pam, "L4 for batch", workload).await;
    let private = [
        ("/quotes".to_string(), &pam),
        (format!("/quotes/{quote}"), &pam),
        ("/quotes/export.csv".to_string(), &pam),
        (format!("/tco/export.csv?workload={workload}"), &pam),
        (format!("/tco/export.json?workload={workload}"), &pam),
        (format!("/orders/{order}/export.json"), &pam),
        (format!("/documents/{document}"), &pam),
        (format!("/runs/{run}/files/{run_file}"), &pam),
        (format!("/runs/{run}/telemetry.svg"), &pam),
        ("/admin/users".to_string(), &admin),
    ];
    for (path, who) in &private {
        let res = app.get(path, Some(who), None).await;
        assert!(res.status.is_success(), "{path}: {} {}", res.status, res.body);
        assert_eq!(res.headers["cache-control"], "no-store", "{path}");
    }
    let answer = app.call("/api/session", &[], Some(&pam)).await;
    assert_eq!(answer.headers["cache-control"], "no-store", "server functions");
    let api = app.get("/api/v1/schema/run.json", None, None).await;
    assert_eq!(api.headers["cache-control"], "no-store", "/api/*");
    for path in ["/pkg/nodeledger.css", "/favicon.svg"] {
        let res = app.get(path, None, None).await;
        assert_ne!(res.headers["cache-control"], "no-store", "{path} is a static asset");
    }
}
