//! First load: pages that only show (sign-in, the dashboard, lists) and pages whose forms save
//! in place through the page's script have no island, so they load no WASM; pages whose forms
//! check as typed have islands. Plain forms work as
//! plain posts: errors come back on the page, a right password signs in, the team switch and
//! sign-out work, a new order opens itself.

use crate::common;

use common::{Answer, PASSWORD, TestApp};
use http::StatusCode;

/// Whether the page has an island: only then does its script load the app's WASM
/// (`app::components::page_scripts`).
fn hydrates(page: &Answer) -> bool {
    page.body.contains("<leptos-island")
}

/// The page names no bundle file in its HTML (no preload, no prefetch, no script tag with a
/// `src`): its one script decides in the browser whether to load it.
fn names_no_bundle(page: &Answer) {
    for hint in ["modulepreload", r#"rel="preload""#, r#"rel="prefetch""#, "<script src"] {
        assert!(!page.body.contains(hint), "{hint}: {}", page.body);
    }
    assert_eq!(
        page.body.matches(r#"<script type="module""#).count(),
        1,
        "one module script, the loader: {}",
        page.body
    );
}

#[tokio::test]
async fn pages_that_only_show_or_save_in_place_have_no_island_and_forms_that_check_as_typed_are_islands() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Islands").await;
    app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let pia = app.login("pia@example.com", PASSWORD).await;
    let workload = app.create_workload(&pia, "Island encode").await;
    let order = app.create_order(&pia, "Island order", workload).await;

    // The sign-in page of a new visitor: no island, no bundle named.
    let login = app.get("/login", None, None).await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.body);
    assert!(!hydrates(&login), "{}", login.body);
    names_no_bundle(&login);
    assert!(login.body.contains(r#"data-testid="login-form""#));

    // Pages that only show: lists, the dashboard, the audit trail.
    for path in ["/", "/quotes", "/runs", "/orders", "/requests"] {
        let page = app.get(path, Some(&pia), None).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        assert!(!hydrates(&page), "{path} has no island: {}", page.body);
        names_no_bundle(&page);
    }
    let audit = app.get("/admin/audit", Some(&admin), None).await;
    assert_eq!(audit.status, StatusCode::OK);
    assert!(!hydrates(&audit), "{}", audit.body);

    // Pages whose forms save in place without an island: the page's script posts a form
    // marked `data-in-place` and shows the server's answer (a list's add form, the rates, the
    // cost comparison's budget, the quote form); no WASM.
    let order_page = format!("/orders/{order}");
    for (path, who) in [
        ("/vendors", &pia),
        ("/workloads", &pia),
        ("/quotes/new", &pia),
        ("/account/tokens", &pia),
        ("/account", &pia),
        ("/rates", &pia),
        ("/tco", &pia),
        ("/admin/users", &admin),
        (order_page.as_str(), &pia),
    ] {
        let page = app.get(path, Some(who), None).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        assert!(!hydrates(&page), "{path} has no island: {}", page.body);
        names_no_bundle(&page);
        if path != "/tco" {
            assert!(page.body.contains("data-in-place"), "{path}: {}", page.body);
        }
    }

    // Pages whose parts check as typed or answer with what only the browser keeps (a file read
    // in the browser, live checks): an island each, the rest of the page plain HTML.
    for path in ["/quotes/import"] {
        let page = app.get(path, Some(&pia), None).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        assert!(hydrates(&page), "{path} has an island: {}", page.body);
        names_no_bundle(&page);
        assert!(
            page.body.find("<leptos-island") > page.body.find("<header"),
            "{path}: the header is outside the islands"
        );
    }

    // The bell, rendered on the server: a disclosure with the count and the list.
    let dashboard = app.get("/", Some(&pia), None).await;
    assert!(
        dashboard
            .body
            .contains(r#"<details data-testid="notifications" class="notifications">"#),
        "{}",
        dashboard.body
    );
    assert!(
        dashboard
            .body
            .contains(r#"data-testid="notify-count" class="badge">1</span>"#),
        "one draft waits: {}",
        dashboard.body
    );
    // Sign-out is a plain form to its server function.
    assert!(dashboard.body.contains(r#"action="/api/logout""#));

    // Signed out, every page sends the browser to sign in with its own answer (there is no
    // router in the browser to do it).
    for path in ["/", &format!("/orders/{order}"), "/quotes/new", "/runs"] {
        let out = app.get(path, None, None).await;
        assert_eq!(out.status, StatusCode::FOUND, "{path}: {}", out.body);
        assert!(out.location().starts_with("/login"), "{path}: {}", out.location());
    }
}

/// A form posted without a script that makes something opens it, as the hydrated form does.
#[tokio::test]
async fn a_new_order_posted_as_a_plain_form_opens_itself() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Plain").await;
    app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let pia = app.login("pia@example.com", PASSWORD).await;
    let workload = app.create_workload(&pia, "Plain encode").await;
    let made = app
        .browser_post(
            "/api/orders/create",
            &[("title", "Plain order"), ("workload_id", &workload.to_string())],
            Some(&pia),
            "/orders",
        )
        .await;
    assert_eq!(made.status, StatusCode::FOUND, "{}", made.body);
    let to = made.location();
    assert!(to.starts_with("/orders/") && to != "/orders/", "{to}");
    let page = app.get(&to, Some(&pia), None).await;
    assert!(page.body.contains("Plain order"), "{}", page.body);
    // The same post from a script gets the id as before.
    let answer = app
        .call(
            "/api/orders/create",
            &[("title", "Script order"), ("workload_id", &workload.to_string())],
            Some(&pia),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body.trim().parse::<i64>().is_ok(), "{}", answer.body);
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
    assert_eq!(switch.location().trim_end_matches('?'), "/");
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
    assert_eq!(out.location().trim_end_matches('?'), "/");
    let after = app.get("/", Some(&cookie), None).await;
    assert_eq!(after.status, StatusCode::FOUND);
    assert!(after.location().starts_with("/login"), "{}", after.location());
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
    let back = wrong.location();
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
        right.location().trim_end_matches('?'),
        "/login",
        "the error left the address"
    );
    let cookie = right.session_cookie().expect("signed in");
    let again = app.get("/login", Some(&cookie), None).await;
    assert_eq!(
        (again.status, again.location().as_str()),
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

/// A user created by a plain post: the users page names them, and its form keeps the team and
/// role for the next person.
#[tokio::test]
async fn a_user_created_by_a_plain_post_is_named_and_the_team_and_role_stay_chosen() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Plain users").await;
    let made = app
        .browser_post(
            "/api/admin/create_user",
            &[
                ("email", "fay@example.com"),
                ("display_name", "Fay Plain"),
                ("password", PASSWORD),
                ("password_confirm", PASSWORD),
                ("team_id", &team.to_string()),
                ("role", "procurement"),
            ],
            Some(&admin),
            "/admin/users",
        )
        .await;
    assert_eq!(made.status, StatusCode::FOUND, "{}", made.body);
    let to = made.location();
    assert!(
        to.starts_with("/admin/users?created=") && to.ends_with(&format!("&team={team}&role=procurement")),
        "{to}"
    );
    let page = app.get(&to, Some(&admin), None).await;
    assert!(
        page.body
            .contains("Created Fay Plain (fay@example.com). The form is ready for the next user."),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains(&format!(r#"<option value="{team}" selected>Plain users</option>"#)),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(r#"<option value="procurement" selected>"#),
        "{}",
        page.body
    );

    // The same e-mail again: back on the page with the error, nothing named.
    let again = app
        .browser_post(
            "/api/admin/create_user",
            &[
                ("email", "fay@example.com"),
                ("display_name", "Fay Again"),
                ("password", PASSWORD),
                ("password_confirm", PASSWORD),
            ],
            Some(&admin),
            "/admin/users",
        )
        .await;
    assert_eq!(again.status, StatusCode::FOUND, "{}", again.body);
    let back = again.location();
    assert!(back.starts_with("/admin/users?") && back.contains("__err="), "{back}");
    let page = app.get(&back, Some(&admin), None).await;
    assert!(page.body.contains(r#"role="alert""#), "{}", page.body);
    assert!(!page.body.contains("user-created"), "{}", page.body);
}

/// The browser bundle has no texts or message keys of its own: every page names its language's
/// texts and the keys, served like a file of the build (kept for a year under a name that holds
/// their hash).
#[tokio::test]
async fn a_page_names_its_languages_texts_which_are_kept_like_the_bundle() {
    let app = TestApp::new().await;
    let login = app.get("/login", None, None).await;
    let (address, json) = app::i18n::texts_for_browser(app::i18n::Locale::En);
    assert!(login.body.contains(&format!("{address:?}")), "{}", login.body);
    let texts = app.get(address, None, None).await;
    assert_eq!(texts.status, StatusCode::OK, "{}", texts.body);
    assert_eq!(&texts.body, json);
    assert_eq!(
        texts.headers.get(http::header::CACHE_CONTROL).unwrap(),
        "public, max-age=31536000, immutable"
    );
    let browser: app::i18n::BrowserTexts = serde_json::from_str(&texts.body).unwrap();
    assert_eq!(browser.texts.len(), app::i18n::Msg::ALL.len());
    assert_eq!(
        browser.keys.len(),
        app::i18n::Msg::ALL.len(),
        "the keys too: the bundle has none"
    );
    // Another build's name, or a language the site does not have: not found, not kept.
    for other in [
        "/pkg/texts/en.0000000000000000000000.json",
        "/pkg/texts/fr.x.json",
        "/pkg/texts/en",
    ] {
        let answer = app.get(other, None, None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{other}");
        assert_ne!(
            answer.headers.get(http::header::CACHE_CONTROL).unwrap(),
            "public, max-age=31536000, immutable",
            "{other}"
        );
    }
}

/// The part of `body` from the form with `testid` to the end of that form.
fn form_part<'a>(body: &'a str, testid: &str) -> &'a str {
    let at = body
        .find(&format!(r#"data-testid="{testid}""#))
        .unwrap_or_else(|| panic!("{testid}: {body}"));
    let end = at + body[at..].find("</form>").expect("the form ends");
    &body[at..end]
}

/// A draft order of a new team's procurement `pia`, its quote chosen by a plain post: the app,
/// pia's cookie, the order's id and its page.
async fn draft_chosen() -> (TestApp, String, String, String) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Fixed cards").await;
    app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let pia = app.login("pia@example.com", PASSWORD).await;
    let workload = app.create_workload(&pia, "Fixed encode").await;
    let quote = app.create_quote(&pia, "FIXED-1").await;
    let order = app.create_order(&pia, "Fixed order", workload).await;
    let (o, q) = (order.to_string(), quote.to_string());
    let here = format!("/orders/{order}");

    // Chosen by a plain post: back at the selection card, not at the top of the page.
    let form = [
        ("order_id", o.as_str()),
        ("quote_id", q.as_str()),
        ("considered[]", q.as_str()),
        ("waiver", "Benchmarked last month."),
    ];
    let chosen = app.browser_post("/api/orders/select", &form, Some(&pia), &here).await;
    assert_eq!(chosen.status, StatusCode::FOUND, "{}", chosen.body);
    assert_eq!(chosen.location(), format!("{here}#order-selection"));

    (app, pia, o, here)
}

/// A draft order has no island: every form is rendered by the server; the selection and the
/// comparison come back at their cards.
#[tokio::test]
async fn a_draft_order_has_no_island_and_its_cards_post_back_to_their_place() {
    let (app, pia, o, here) = draft_chosen().await;
    let page = app.get(&here, Some(&pia), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(!hydrates(&page), "{}", page.body);
    names_no_bundle(&page);
    assert!(page.body.contains("Benchmarked last month."), "{}", page.body);

    // A link that is not a comparison: back to the page with the error at the form.
    let wrong = app
        .browser_post(
            "/api/orders/comparison",
            &[("order_id", &o), ("link", "https://elsewhere.example/x")],
            Some(&pia),
            &here,
        )
        .await;
    assert_eq!(wrong.status, StatusCode::FOUND, "{}", wrong.body);
    assert!(wrong.location().contains("__err"), "{}", wrong.location());
    let shown = app.get(&wrong.location(), Some(&pia), None).await;
    let card = shown.body.find(r#"data-testid="order-comparison""#).expect("the card");
    let card_end = card + shown.body[card..].find("</section>").expect("it ends");
    let error = shown.body[card..card_end].find("This link is not a cost comparison");
    assert!(error.is_some(), "the error is shown at the comparison: {}", shown.body);

    // The default comparison again: back at the comparison card, without the error's marks.
    let saved = app
        .browser_post(
            "/api/orders/comparison",
            &[("order_id", &o), ("link", "")],
            Some(&pia),
            &wrong.location(),
        )
        .await;
    assert_eq!(saved.status, StatusCode::FOUND, "{}", saved.body);
    assert_eq!(saved.location(), format!("{here}#order-comparison"));
}

/// An item's answer, saved or refused, comes back on the page at that item's form only (every
/// item's form posts to the same server function).
#[tokio::test]
async fn an_answer_posted_as_a_page_comes_back_at_its_own_items_form() {
    let (app, pia, o, here) = draft_chosen().await;
    let page = app.get(&here, Some(&pia), None).await;
    let view: serde_json::Value =
        serde_json::from_str(&app.call("/api/orders/get", &[("id", &o)], Some(&pia)).await.body).unwrap();
    let mine: Vec<String> = view["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap().iter())
        .filter(|i| i["can_answer"] == true)
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    let (a, b) = (&mine[0], &mine[1]);
    assert!(form_part(&page.body, &format!("answer-{a}")).contains("data-in-place"));

    // Not applicable without a reason: refused, the message at that item's form only.
    let refused = [
        ("order_id", o.as_str()),
        ("item_id", a.as_str()),
        ("status", "not_applicable"),
        ("status_note", ""),
    ];
    let answer = app
        .browser_post("/api/orders/answer", &refused, Some(&pia), &here)
        .await;
    assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.body);
    let location = answer.location();
    let (address, at) = location.split_once('#').expect("at the item");
    assert!(
        address.starts_with(&format!("{here}?")) && address.contains("__err"),
        "{address}"
    );
    assert_eq!(at, format!("item-{a}"), "back at the item");
    let shown = app.get(address, Some(&pia), None).await;
    let reason = "Give the reason why this item does not apply.";
    assert_eq!(shown.body.matches(reason).count(), 1, "{}", shown.body);
    assert!(form_part(&shown.body, &format!("answer-{a}")).contains(reason));
    assert!(!form_part(&shown.body, &format!("answer-{b}")).contains(reason));

    // With the reason, from the page with the error: back to the page as it was opened, "Saved."
    // at that item's form only, this once.
    let saved = [
        ("order_id", o.as_str()),
        ("item_id", a.as_str()),
        ("status", "not_applicable"),
        ("status_note", "Single node"),
    ];
    let answer = app
        .browser_post("/api/orders/answer", &saved, Some(&pia), address)
        .await;
    assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.body);
    assert_eq!(answer.location(), format!("{here}#item-{a}"), "back at the item");
    let shown = app.get(&here, Some(&pia), None).await;
    let saved_line = r#"data-testid="item-saved" class="form-ok">Saved.</span>"#;
    assert_eq!(shown.body.matches(saved_line).count(), 1, "{}", shown.body);
    assert!(form_part(&shown.body, &format!("answer-{a}")).contains(saved_line));
    assert!(!shown.body.contains(reason));
    let again = app.get(&here, Some(&pia), None).await;
    assert!(!again.body.contains(saved_line), "shown once");

    // The same post from a script gets the item as it now reads.
    let by_script = app.call("/api/orders/answer", &saved, Some(&pia)).await;
    assert_eq!(by_script.status, StatusCode::OK, "{}", by_script.body);
    assert!(by_script.body.contains("Single node"), "{}", by_script.body);
}

/// A submitted order changes only by the manager's decision: the page has no island, the
/// sign-off form saves through the page's script (or as a plain post), an error comes back at
/// its field and a decision opens the order as decided, without the error's marks.
#[tokio::test]
async fn a_submitted_order_has_no_island_and_the_sign_off_saves_through_the_pages_script() {
    let (app, pam, eve) = common::team_of_pam_and_eve().await;
    let admin = app.login("admin@example.com", PASSWORD).await;
    app.create_member(&admin, "max@example.com", 1, "manager").await;
    let max = app.login("max@example.com", PASSWORD).await;
    let token = app.create_token(&eve, "bench").await;
    let (order, _, _) = app.submit_batch_order(&pam, &eve, &token).await;
    let (o, here) = (order.to_string(), format!("/orders/{order}"));

    let page = app.get(&here, Some(&max), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(!hydrates(&page), "{}", page.body);
    names_no_bundle(&page);
    let form = page
        .body
        .find(r#"data-testid="decide-form""#)
        .expect("the sign-off form");
    let tag_start = page.body[..form].rfind("<form").expect("its tag");
    assert!(
        page.body[tag_start..form + 200].contains("data-in-place"),
        "{}",
        &page.body[tag_start..form + 200]
    );

    // Neither approve nor reject chosen: back to the page, the message at the decision.
    let form = [("order_id", o.as_str()), ("password", PASSWORD), ("comment", "")];
    let refused = app.browser_post("/api/orders/decide", &form, Some(&max), &here).await;
    assert_eq!(refused.status, StatusCode::FOUND, "{}", refused.body);
    assert!(refused.location().contains("__err"), "{}", refused.location());
    let shown = app.get(&refused.location(), Some(&max), None).await;
    assert!(shown.body.contains("Choose approve or reject."), "{}", shown.body);
    assert!(shown.body.contains(r#"data-testid="order-state""#) && shown.body.contains("Waiting for sign-off"));

    // Approved from the page with the error: the order again, decided, the error gone.
    let form = [
        ("order_id", o.as_str()),
        ("decision", "approve"),
        ("password", PASSWORD),
        ("comment", ""),
    ];
    let approved = app
        .browser_post("/api/orders/decide", &form, Some(&max), &refused.location())
        .await;
    assert_eq!(approved.status, StatusCode::FOUND, "{}", approved.body);
    assert_eq!(approved.location(), here);
    let page = app.get(&here, Some(&max), None).await;
    assert!(page.body.contains("Approved"), "{}", page.body);
    assert!(!page.body.contains("Choose approve or reject."));
}
