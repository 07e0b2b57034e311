//! Issue 14, first load: the sign-in page of a browser without a session is sent without the
//! WASM bundle (prefetch hints instead of the hydration scripts), and its form works as a plain
//! post: errors come back on the page, a right password signs in.

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
    // So does every other page.
    let dashboard = app.get("/", Some(&admin), None).await;
    assert_eq!(dashboard.status, StatusCode::OK);
    assert!(hydrates(&dashboard));
    assert!(!dashboard.body.contains(r#"rel="prefetch""#));
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
