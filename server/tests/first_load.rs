//! First load: the sign-in page of a browser without a session, and the dashboard of a
//! browser that has not been sent this build's bundle, come without the WASM bundle (prefetch
//! hints instead of the hydration scripts); their forms work as plain posts: errors come back on
//! the page, a right password signs in, the team switch and sign-out work.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{Answer, PASSWORD, TestApp};
use http::StatusCode;

/// Whether the page loads the app's WASM (Leptos' hydration module script).
fn hydrates(page: &Answer) -> bool {
    page.body.contains(r#"<script type="module""#)
}

/// The `Location` a redirect answer sends the browser to, without the origin.
fn location(res: &Answer) -> String {
    let to = res
        .headers
        .get(http::header::LOCATION)
        .expect("a redirect")
        .to_str()
        .unwrap();
    to.strip_prefix(common::ORIGIN).unwrap_or(to).to_string()
}

#[tokio::test]
async fn a_new_visitor_gets_the_sign_in_page_without_wasm_and_everyone_else_the_app() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;

    let page = app.get("/login", None, None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(!hydrates(&page), "no hydration script for a new visitor: {}", page.body);
    assert!(
        page.body.contains(r#"<body data-hydrated="static""#),
        "marked ready by the server"
    );
    assert!(
        page.body.contains(r#"data-testid="login-form""#),
        "the form is on the page"
    );
    // The bundle is named for later (unhashed names here: the tests build no site).
    let prefetched: Vec<&str> = page
        .body
        .split(r#"<link rel="prefetch" href=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(
        prefetched
            .iter()
            .any(|h| h.starts_with("/pkg/nodeledger") && h.ends_with(".js"))
            && prefetched
                .iter()
                .any(|h| h.starts_with("/pkg/nodeledger") && h.ends_with(".wasm")),
        "{prefetched:?}"
    );

    // A browser with a session cookie (here a dead one: its session timed out) gets the app.
    let stale = app.get("/login", Some("nl_session=gone"), None).await;
    assert_eq!(stale.status, StatusCode::OK);
    assert!(hydrates(&stale), "{}", stale.body);
    assert!(!stale.body.contains("data-hydrated=\"static\""));
    // So does every other page (here one a browser that has the bundle asks for).
    let dashboard = app.get("/", Some(&with_bundle(&admin)), None).await;
    assert_eq!(dashboard.status, StatusCode::OK);
    assert!(hydrates(&dashboard));
    assert!(!dashboard.body.contains(r#"rel="prefetch""#));
}

/// `cookie` plus the bundle cookie of a browser that was sent this build's bundle (`dev`: the
/// tests build no hashed site).
fn with_bundle(cookie: &str) -> String {
    format!("{cookie}; nl_bundle=dev")
}

/// The bundle cookie an answer sets, whole (`nl_bundle=…; Path=/; …`), if it sets one.
fn bundle_cookie_set(res: &Answer) -> Option<String> {
    res.headers
        .get_all(http::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("nl_bundle="))
        .map(str::to_string)
}

#[tokio::test]
async fn the_dashboard_comes_without_wasm_until_the_browser_was_sent_the_bundle() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Cold Cache").await;
    app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let pia = app.login("pia@example.com", PASSWORD).await;
    let workload = app.create_workload(&pia, "Cold encode").await;
    app.create_order(&pia, "Cold order", workload).await;

    // A browser that never loaded a hydrating page: the dashboard whole, without WASM.
    let cold = app.get("/", Some(&pia), None).await;
    assert_eq!(cold.status, StatusCode::OK, "{}", cold.body);
    assert!(!hydrates(&cold), "{}", cold.body);
    assert!(cold.body.contains(r#"<body data-hydrated="static""#));
    assert!(cold.body.contains(r#"rel="prefetch""#), "the bundle is named for later");
    assert!(
        bundle_cookie_set(&cold).is_none(),
        "not sent the bundle, so not told it has it"
    );
    for part in [
        r#"data-testid="dashboard-title""#,
        r#"data-testid="dashboard-counts""#,
        r#"data-testid="dashboard-todo""#,
        "Cold order (draft)",
    ] {
        assert!(cold.body.contains(part), "{part} is on the page: {}", cold.body);
    }
    // The bell, rendered on the server: a disclosure with the count and the list.
    assert!(
        cold.body
            .contains(r#"<details data-testid="notifications" class="notifications">"#),
        "{}",
        cold.body
    );
    assert!(
        cold.body
            .contains(r#"data-testid="notify-count" class="badge">1</span>"#),
        "one draft waits: {}",
        cold.body
    );
    // Sign-out is a plain form to its server function.
    assert!(cold.body.contains(r#"action="/api/logout""#));

    // Any page sent with the hydration scripts tells the browser it has this bundle…
    let quotes = app.get("/quotes", Some(&pia), None).await;
    assert_eq!(quotes.status, StatusCode::OK);
    assert!(hydrates(&quotes));
    let set = bundle_cookie_set(&quotes).expect("the hydrating page sets the bundle cookie");
    assert_eq!(set, "nl_bundle=dev; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
    // … once: a browser whose cookie names it is not told again.
    let again = app.get("/quotes", Some(&with_bundle(&pia)), None).await;
    assert!(hydrates(&again));
    assert!(bundle_cookie_set(&again).is_none());

    // Then the dashboard hydrates, the bell from the browser as on every other page.
    let warm = app.get("/", Some(&with_bundle(&pia)), None).await;
    assert_eq!(warm.status, StatusCode::OK);
    assert!(hydrates(&warm));
    assert!(!warm.body.contains(r#"data-hydrated="static""#));
    assert!(!warm.body.contains(r#"<details data-testid="notifications""#));
    // A new build has another bundle: an old cookie gets the page without WASM again.
    let stale = app
        .get("/", Some(&format!("{pia}; nl_bundle=Bi_ErVCd7rH4dm52RMlvpQ")), None)
        .await;
    assert!(!hydrates(&stale));

    // Signed out, the dashboard sends the browser to sign in, with or without the bundle.
    for cookie in [None, Some("nl_bundle=dev")] {
        let out = app.get("/", cookie, None).await;
        assert_eq!(
            (out.status, location(&out).as_str()),
            (StatusCode::FOUND, "/login"),
            "{cookie:?}"
        );
    }
    // A redirect from a hydrating page loads no bundle: it does not claim the browser has it
    // (the sign-in page sending a signed-in browser on, a guard sending a stranger to sign in).
    for (path, cookie) in [("/login", Some(pia.as_str())), ("/quotes", None)] {
        let hop = app.get(path, cookie, None).await;
        assert_eq!(hop.status, StatusCode::FOUND, "{path}");
        assert!(bundle_cookie_set(&hop).is_none(), "{path}: {:?}", hop.headers);
    }
}

#[tokio::test]
async fn the_team_switch_and_sign_out_work_as_plain_posts_from_the_dashboard() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "Alpha desk").await;
    let b = app.create_team(&admin, "Beta desk").await;
    let ann = app.create_member(&admin, "ann@example.com", a, "engineer").await;
    app.set_role(&admin, b, ann, "manager").await;
    let cookie = app.login("ann@example.com", PASSWORD).await;

    let page = app.get("/", Some(&cookie), None).await;
    assert!(!hydrates(&page));
    assert!(page.body.contains(r#"action="/api/switch_team""#), "{}", page.body);
    assert!(
        page.body
            .contains(r#"<h1 data-testid="dashboard-title">Alpha desk</h1>"#)
    );

    // The switch, posted by the browser itself: back to the dashboard, now of the other team.
    let switch = app
        .browser_post("/api/switch_team", &[("team_id", &b.to_string())], Some(&cookie), "/")
        .await;
    assert_eq!(switch.status, StatusCode::FOUND, "{}", switch.body);
    assert_eq!(location(&switch).trim_end_matches('?'), "/");
    let page = app.get("/", Some(&cookie), None).await;
    assert!(
        page.body
            .contains(r#"<h1 data-testid="dashboard-title">Beta desk</h1>"#),
        "{}",
        page.body
    );
    assert!(page.body.contains("Manager"));

    // Sign-out, posted the same way: the session ends, the dashboard sends the browser to sign in.
    let out = app.browser_post("/api/logout", &[], Some(&cookie), "/").await;
    assert_eq!(out.status, StatusCode::FOUND, "{}", out.body);
    assert_eq!(location(&out).trim_end_matches('?'), "/");
    let after = app.get("/", Some(&cookie), None).await;
    assert_eq!(after.status, StatusCode::FOUND);
    assert!(location(&after).starts_with("/login"), "{}", location(&after));
    let session = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(session.body.contains(r#""caller":null"#), "{}", session.body);
}

#[tokio::test]
async fn a_plain_post_of_the_sign_in_form_shows_errors_on_the_page_and_signs_in() {
    let app = TestApp::new().await;
    app.setup_admin().await;

    let wrong = app
        .browser_post(
            "/api/login",
            &[("email", "admin@example.com"), ("password", "not the password")],
            None,
            "/login",
        )
        .await;
    assert_eq!(wrong.status, StatusCode::FOUND, "{}", wrong.body);
    assert!(wrong.session_cookie().is_none(), "no session for a wrong password");
    let back = location(&wrong);
    assert!(back.starts_with("/login?") && back.contains("__err="), "{back}");
    let page = app.get(&back, None, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Wrong e-mail or password."), "{}", page.body);
    assert!(!hydrates(&page), "still without WASM");

    // The right password, posted from that page: the error leaves the address, a session starts.
    let right = app
        .browser_post(
            "/api/login",
            &[("email", "admin@example.com"), ("password", PASSWORD)],
            None,
            &back,
        )
        .await;
    assert_eq!(right.status, StatusCode::FOUND, "{}", right.body);
    assert_eq!(
        location(&right).trim_end_matches('?'),
        "/login",
        "the error left the address"
    );
    let cookie = right.session_cookie().expect("signed in");
    let again = app.get("/login", Some(&cookie), None).await;
    assert_eq!(
        (again.status, location(&again).as_str()),
        (StatusCode::FOUND, "/"),
        "signed in, the sign-in page sends the browser on"
    );
    let home = app.get("/", Some(&cookie), None).await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.body.contains(r#"data-testid="dashboard-title""#), "{}", home.body);
}

/// `__err` as Leptos writes it: URL-safe base64 with padding.
fn url_error(json: &serde_json::Value) -> String {
    let mut text = app::domain::tokens::base64url(json.to_string().as_bytes());
    while !text.len().is_multiple_of(4) {
        text.push('=');
    }
    text
}

#[tokio::test]
async fn a_crafted_error_link_to_the_sign_in_page_shows_only_our_own_messages() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let bait = "Your account is locked. Call 555 0100 now";
    let crafted = serde_json::json!({ "error": "unreadable",
        "detail": { "code": "truncated_json", "args": [["line", bait], ["column", "1"]] } });
    let query = common::form_urlencoded(&[("__path", "/api/login"), ("__err", &url_error(&crafted))]);
    let page = app.get(&format!("/login?{query}"), None, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        !page.body.contains("555 0100"),
        "no text of the link's author: {}",
        page.body
    );
    assert!(
        page.body.contains("The file could not be read."),
        "our own message instead: {}",
        page.body
    );

    // What the server itself sends back (a wrong password) is still shown as it is.
    let ours = serde_json::json!({ "error": "bad_credentials" });
    let query = common::form_urlencoded(&[("__path", "/api/login"), ("__err", &url_error(&ours))]);
    let page = app.get(&format!("/login?{query}"), None, None).await;
    assert!(page.body.contains("Wrong e-mail or password."), "{}", page.body);
}
