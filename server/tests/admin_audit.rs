//! Administrators' actions are events of the audit chain: the router's admin calls, a user's
//! token and password changes, the first set-up and the command line's `user add` each append one,
//! in the same transaction; the audit page lists them for administrators only, and the whole
//! chain (orders' events and these) still verifies.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;
use serde_json::Value;

async fn log(app: &TestApp, cookie: &str) -> (StatusCode, Value) {
    let res = app.call("/api/admin/audit", &[], Some(cookie)).await;
    (res.status, serde_json::from_str(&res.body).unwrap_or(Value::Null))
}

/// The site events, oldest first: (action, actor id, data).
async fn site_events(app: &TestApp) -> Vec<(String, i64, Value)> {
    let rows: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT action, actor_id, data FROM audit_events WHERE order_id = 0 ORDER BY seq")
            .fetch_all(&app.db)
            .await
            .unwrap();
    rows.into_iter()
        .map(|(a, actor, d)| (a, actor, serde_json::from_str(&d).unwrap()))
        .collect()
}

/// The set-up admin creates a team and eve (engineer) in it, makes her manager (twice: the second
/// changes nothing), eve makes and revokes a token, the admin removes her from the team, disables
/// and enables her. Returns the app, the admin's session, the team and eve's id.
async fn everything_an_admin_does() -> (TestApp, String, i64, i64) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    let eve_id = app.create_member(&admin, "eve@example.com", team, "engineer").await;
    for role in ["manager", "manager"] {
        app.set_role(&admin, team, eve_id, role).await;
    }
    let (t, u) = (team.to_string(), eve_id.to_string());
    let eve = app.login("eve@example.com", PASSWORD).await;
    let _token = app.create_token(&eve, "ci").await;
    let token_id: i64 = sqlx::query_scalar("SELECT id FROM api_tokens")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let revoked = app
        .call("/api/tokens/revoke", &[("id", &token_id.to_string())], Some(&eve))
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.body);
    let removed = app
        .call(
            "/api/admin/remove_member",
            &[("team_id", &t), ("user_id", &u)],
            Some(&admin),
        )
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    for disabled in ["true", "false"] {
        let res = app
            .call(
                "/api/admin/set_user_disabled",
                &[("user_id", &u), ("disabled", disabled)],
                Some(&admin),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    }

    (app, admin, team, eve_id)
}

#[tokio::test]
async fn every_admin_action_appends_a_verified_event_the_audit_page_lists() {
    let (app, admin, team, eve_id) = everything_an_admin_does().await;
    let events = site_events(&app).await;
    let actions: Vec<&str> = events.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        [
            "user_created",
            "team_created",
            "user_created",
            "role_set",
            "token_created",
            "token_revoked",
            "member_removed",
            "user_disabled",
            "user_enabled",
        ],
        "the second, unchanged role records nothing"
    );
    let admin_id = events[0].1;
    assert_eq!(events[0].2["via"], "setup");
    assert_eq!(events[1].2["name"], "GPU Team");
    assert_eq!(
        (events[2].1, &events[2].2["team_id"], &events[2].2["role"]),
        (admin_id, &team.into(), &"engineer".into())
    );
    assert_eq!(
        (&events[3].2["previous"], &events[3].2["role"]),
        (&"engineer".into(), &"manager".into())
    );
    assert_eq!(events[4].1, eve_id, "the owner made the token");
    assert!(events[4].2["expires_at"].is_string());
    assert_eq!(events[6].2["role"], "manager");
    assert_eq!(events[7].2["tokens_revoked"], 0, "the one token was revoked already");

    let status = app::services::audit::verify(&app.db).await.unwrap().unwrap();
    assert_eq!(
        status.events, 9,
        "site events are part of the one chain, and it verifies"
    );

    let (code, page) = log(&app, &admin).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(page["events"], 9);
    assert_eq!(page["head_hash"], status.head_hash);
    let listed: Vec<&str> = page["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(listed.first(), Some(&"user_enabled"), "newest first");
    assert_eq!(listed.len(), 9);
    assert_eq!(page["entries"][8]["actor"], "Ada Admin <admin@example.com>");
    assert_eq!(page["entries"][2]["user"], "eve@example.com");
    assert_eq!(page["entries"][2]["team"], "GPU Team");

    let eve = app.login("eve@example.com", PASSWORD).await;
    assert_eq!(log(&app, &eve).await.0, StatusCode::FORBIDDEN, "administrators only");
    assert_eq!(log(&app, "").await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_password_change_is_recorded_with_the_tokens_it_revoked() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "GPU Team").await;
    let eve_id = app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    app.create_token(&eve, "a").await;
    app.create_token(&eve, "b").await;
    let new = "another long passphrase here";
    let res = app
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
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let (action, actor, data) = site_events(&app).await.pop().unwrap();
    assert_eq!((action.as_str(), actor), ("password_changed", eve_id));
    assert_eq!(data["tokens_revoked"], 2);
}

#[test]
fn user_add_on_the_command_line_is_recorded_as_the_command_lines() {
    let dir = std::env::temp_dir().join(format!("nl-admin-audit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("cli.db");
    let add = |args: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nodeledger"))
            .arg("--db")
            .arg(&db)
            .args(["user", "add"])
            .args(args)
            .env("NODELEDGER_LOG", "error")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"a long enough passphrase\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    add(&["--email", "root@example.com", "--role", "admin"]);
    add(&["--email", "eve@example.com", "--role", "engineer", "--team", "Infra"]);
    let rows: Vec<(String, i64, String)> = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let pool = app::store::connect(db.to_str().unwrap()).await.unwrap();
        let rows = sqlx::query_as("SELECT action, actor_id, data FROM audit_events ORDER BY seq")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert!(app::services::audit::verify(&pool).await.unwrap().is_ok());
        pool.close().await;
        rows
    });
    let actions: Vec<(&str, i64)> = rows.iter().map(|(a, actor, _)| (a.as_str(), *actor)).collect();
    assert_eq!(actions, [("user_created", 0), ("team_created", 0), ("user_created", 0)]);
    assert!(
        rows[0].2.contains("\"is_admin\":true") && rows[0].2.contains("\"via\":\"cli\""),
        "{}",
        rows[0].2
    );
    assert!(rows[2].2.contains("\"role\":\"engineer\""), "{}", rows[2].2);
    std::fs::remove_dir_all(dir).ok();
}
