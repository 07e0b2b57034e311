//! API tokens through the router: each expires (7/30/90/365 days, 90 by default) and the API
//! says so when it has; changing the password or being disabled revokes every token of the user
//! for good; last use is recorded at most once a minute.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::Value;

/// An admin and eve, an engineer of one team, both signed in.
async fn desk() -> (TestApp, String, i64, String) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    let eve_id = app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    (app, admin, eve_id, eve)
}

/// What the scripts' API answers the token: 401 with its message, or another status (the token
/// was accepted; the empty upload itself is refused).
async fn api(app: &TestApp, token: &str) -> (StatusCode, String) {
    let res = app
        .multipart("/api/v1/runs", &[("dry_run", None, b"true")], None, Some(token))
        .await;
    let message = serde_json::from_str::<Value>(&res.body)
        .map(|v| v["message"].to_string())
        .unwrap_or_default();
    (res.status, message)
}

async fn tokens(app: &TestApp, cookie: &str) -> Vec<Value> {
    let res = app.call("/api/tokens", &[], Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    serde_json::from_str::<Value>(&res.body)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

async fn sql(app: &TestApp, statement: &'static str) {
    sqlx::query(statement).execute(&app.db).await.unwrap();
}

async fn scalar(app: &TestApp, query: &'static str) -> Option<String> {
    sqlx::query_scalar(query).fetch_one(&app.db).await.unwrap()
}

#[tokio::test]
async fn a_token_lives_the_days_chosen_and_the_api_says_when_it_has_expired() {
    let (app, _, _, eve) = desk().await;
    let default = app.create_token(&eve, "default").await;
    let week = app
        .call(
            "/api/tokens/create",
            &[("name", "week"), ("expires_in_days", "7"), ("password", PASSWORD)],
            Some(&eve),
        )
        .await;
    assert_eq!(week.status, StatusCode::OK, "{}", week.body);
    let odd = app
        .call(
            "/api/tokens/create",
            &[("name", "odd"), ("expires_in_days", "1000"), ("password", PASSWORD)],
            Some(&eve),
        )
        .await;
    assert_eq!(
        odd.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "only 7/30/90/365: {}",
        odd.body
    );

    let lives = "SELECT group_concat(CAST(round(julianday(expires_at) - julianday(created_at)) AS INTEGER), ',')
                 FROM (SELECT * FROM api_tokens ORDER BY id)";
    assert_eq!(
        scalar(&app, lives).await.as_deref(),
        Some("90,7"),
        "default, then a week"
    );
    let listed = tokens(&app, &eve).await;
    assert_eq!(listed.len(), 2);
    assert!(
        listed
            .iter()
            .all(|t| t["expires_at"].is_string() && t["expired"] == false),
        "{listed:?}"
    );

    assert_ne!(
        api(&app, &default).await.0,
        StatusCode::UNAUTHORIZED,
        "live token accepted"
    );
    sql(
        &app,
        "UPDATE api_tokens SET expires_at = '2026-01-02T03:04:05Z' WHERE name = 'default'",
    )
    .await;
    let (status, message) = api(&app, &default).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message.contains("expired on 2026-01-02 03:04 UTC"), "{message}");
    let listed = tokens(&app, &eve).await;
    assert_eq!(listed.iter().filter(|t| t["expired"] == true).count(), 1, "{listed:?}");
}

#[tokio::test]
async fn changing_the_password_revokes_every_token_of_the_user() {
    let (app, _, _, eve) = desk().await;
    let ci = app.create_token(&eve, "ci").await;
    let laptop = app.create_token(&eve, "laptop").await;
    assert_ne!(api(&app, &ci).await.0, StatusCode::UNAUTHORIZED);
    let new = "a brand new long passphrase";
    let changed = app
        .call(
            "/api/change_password",
            &[
                ("current_password", PASSWORD),
                ("new_password", new),
                ("new_password_confirm", new),
            ],
            Some(&eve),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    for token in [ci, laptop] {
        let (status, message) = api(&app, &token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{message}");
        assert!(message.contains("revoked"), "{message}");
    }
    let eve = app.login("eve@example.com", new).await;
    let listed = tokens(&app, &eve).await;
    assert!(
        listed
            .iter()
            .all(|t| t["revoked_reason"] == "password_changed" && t["revoked_at"].is_string()),
        "{listed:?}"
    );
}

#[tokio::test]
async fn a_disabled_users_tokens_stay_revoked_when_they_are_enabled_again() {
    let (app, admin, eve_id, eve) = desk().await;
    let ci = app.create_token(&eve, "ci").await;
    let id = eve_id.to_string();
    for disabled in ["true", "false"] {
        let res = app
            .call(
                "/api/admin/set_user_disabled",
                &[("user_id", &id), ("disabled", disabled)],
                Some(&admin),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }
    assert_eq!(
        api(&app, &ci).await.0,
        StatusCode::UNAUTHORIZED,
        "enabled again, token still revoked"
    );
    let eve = app.login("eve@example.com", PASSWORD).await;
    assert_eq!(tokens(&app, &eve).await[0]["revoked_reason"], "user_disabled");
}

#[tokio::test]
async fn leaving_the_team_or_a_role_change_revokes_the_users_tokens_there_for_good() {
    let (app, admin, eve_id, eve) = desk().await;
    let team: i64 = sqlx::query_scalar("SELECT id FROM teams WHERE name = 'GPU Team'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let ci = app.create_token(&eve, "ci").await;
    assert_ne!(api(&app, &ci).await.0, StatusCode::UNAUTHORIZED);
    let (team_s, eve_s) = (team.to_string(), eve_id.to_string());
    let removed = app
        .call(
            "/api/admin/remove_member",
            &[("team_id", &team_s), ("user_id", &eve_s)],
            Some(&admin),
        )
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    // Back in the team with the role the token was made with: the token stays dead.
    app.set_role(&admin, team, eve_id, "engineer").await;
    assert_eq!(api(&app, &ci).await.0, StatusCode::UNAUTHORIZED, "no resurrection");

    // A role change revokes too, even when the old role comes back.
    let eve = app.login("eve@example.com", PASSWORD).await;
    let laptop = app.create_token(&eve, "laptop").await;
    assert_ne!(api(&app, &laptop).await.0, StatusCode::UNAUTHORIZED);
    app.set_role(&admin, team, eve_id, "manager").await;
    app.set_role(&admin, team, eve_id, "engineer").await;
    assert_eq!(api(&app, &laptop).await.0, StatusCode::UNAUTHORIZED);

    let eve = app.login("eve@example.com", PASSWORD).await;
    let listed = tokens(&app, &eve).await;
    assert!(
        listed.len() == 2
            && listed
                .iter()
                .all(|t| t["revoked_reason"] == "role_changed" && t["revoked_at"].is_string()),
        "{listed:?}"
    );
    // Audited with the event that caused it.
    let counts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT action, json_extract(data, '$.tokens_revoked') FROM audit_events
         WHERE action IN ('member_removed', 'role_set') AND json_extract(data, '$.tokens_revoked') IS NOT NULL
         ORDER BY seq",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(
        counts,
        [
            ("member_removed".to_string(), 1),
            ("role_set".to_string(), 0),
            ("role_set".to_string(), 1),
            ("role_set".to_string(), 0),
        ]
    );
}

#[tokio::test]
async fn last_use_is_written_at_most_once_a_minute() {
    let (app, _, _, eve) = desk().await;
    let ci = app.create_token(&eve, "ci").await;
    let used = "SELECT last_used_at FROM api_tokens WHERE name = 'ci'";
    assert_eq!(scalar(&app, used).await, None);
    api(&app, &ci).await;
    assert!(scalar(&app, used).await.is_some(), "first use recorded");

    sql(
        &app,
        "UPDATE api_tokens SET last_used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-30 seconds')",
    )
    .await;
    let recent = scalar(&app, used).await;
    api(&app, &ci).await;
    assert_eq!(scalar(&app, used).await, recent, "used 30 s ago: not written again");

    sql(&app, "UPDATE api_tokens SET last_used_at = '2026-01-01T00:00:00Z'").await;
    api(&app, &ci).await;
    let now = scalar(&app, used).await.unwrap();
    assert!(
        now.as_str() > "2026-01-01T00:00:00Z",
        "a minute or more: written ({now})"
    );
    let listed = tokens(&app, &eve).await;
    assert_eq!(listed[0]["last_used_at"], Value::String(now));
}

/// A token made by the page's form (posted as a page): the answer goes back to the tokens page,
/// which shows the token and its `curl` line with the site's address that one time; the token
/// is never in an address; the next load of the page, a reload included, shows it no more.
#[tokio::test]
async fn a_token_made_by_the_page_s_form_is_shown_on_the_page_it_goes_back_to_and_only_once() {
    let (app, _, _, eve) = desk().await;
    let made = app
        .browser_post(
            "/api/tokens/create",
            &[("name", "nightly"), ("expires_in_days", "30"), ("password", PASSWORD)],
            Some(&eve),
            "/account/tokens",
        )
        .await;
    assert_eq!(made.status, StatusCode::FOUND, "{}", made.body);
    let back = made.location();
    assert_eq!(back, "/account/tokens?saved=/api/tokens/create");
    assert!(!made.body.contains("nlt_"), "{}", made.body);

    // A request that is not a page load (a prefetch, a script's data) leaves it waiting.
    let listed = tokens(&app, &eve).await;
    assert_eq!(listed.len(), 1);

    let page = app.get(&back, Some(&eve), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let token = page
        .body
        .split(r#"data-testid="new-token""#)
        .nth(1)
        .and_then(|rest| rest.split('>').nth(1))
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default()
        .to_owned();
    assert!(token.starts_with("nlt_") && token.len() > 40, "{}", page.body);
    assert!(
        page.body.contains("http://127.0.0.1:3000/api/v1/runs"),
        "the curl line names the site: {}",
        page.body
    );
    let (status, _) = api(&app, &token).await;
    assert_ne!(status, StatusCode::UNAUTHORIZED, "the token shown works");

    let again = app.get(&back, Some(&eve), None).await;
    assert_eq!(again.status, StatusCode::OK);
    assert!(!again.body.contains(&token), "a reload shows it no more");
    assert!(!again.body.contains("new-token"), "{}", again.body);

    // A token made while another page was loaded first: that page load drops it.
    let second = app
        .browser_post(
            "/api/tokens/create",
            &[("name", "second"), ("password", PASSWORD)],
            Some(&eve),
            "/account/tokens",
        )
        .await;
    assert_eq!(second.status, StatusCode::FOUND, "{}", second.body);
    let _ = app.get("/", Some(&eve), None).await;
    let later = app.get(&second.location(), Some(&eve), None).await;
    assert!(!later.body.contains("new-token"), "{}", later.body);

    // A wrong password: back with the error, nothing made.
    let wrong = app
        .browser_post(
            "/api/tokens/create",
            &[("name", "third"), ("password", "not it")],
            Some(&eve),
            "/account/tokens",
        )
        .await;
    let page = app.get(&wrong.location(), Some(&eve), None).await;
    assert!(page.body.contains(r#"role="alert""#), "{}", page.body);
    assert_eq!(tokens(&app, &eve).await.len(), 2);
}
