//! Cross-site refusal, security headers, body limits, error pages.

mod common;

use common::{ORIGIN, PASSWORD, TestApp};
use http::StatusCode;

#[tokio::test]
async fn cross_site_and_origin_less_posts_are_refused() {
    let app = TestApp::new().await;
    let form = [
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
