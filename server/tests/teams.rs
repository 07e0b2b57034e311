//! Administration, roles and team isolation.

use crate::common;

use common::{PASSWORD, TestApp};
use http::StatusCode;

#[tokio::test]
async fn admin_creates_teams_and_members_and_members_see_only_their_team() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team_a = app.create_team(&admin, "Training A").await;
    let team_b = app.create_team(&admin, "Inference B").await;
    let dup = app
        .call("/api/admin/create_team", &[("name", "training a")], Some(&admin))
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT, "{}", dup.body);
    app.create_member(&admin, "ann@example.com", team_a, "engineer").await;
    app.create_member(&admin, "bob@example.com", team_b, "procurement")
        .await;

    let bob = app.login("bob@example.com", PASSWORD).await;
    let switch = app
        .call("/api/switch_team", &[("team_id", &team_a.to_string())], Some(&bob))
        .await;
    assert_eq!(switch.status, StatusCode::FORBIDDEN, "not a member of team A");
    let members = app.call("/api/team_members", &[], Some(&bob)).await;
    assert_eq!(members.status, StatusCode::OK);
    assert!(
        members.body.contains("bob@example.com") && !members.body.contains("ann@example.com"),
        "{}",
        members.body
    );
    for path in ["/api/admin/teams", "/api/admin/users"] {
        assert_eq!(
            app.call(path, &[], Some(&bob)).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    let detail = app
        .call("/api/admin/team", &[("team_id", &team_a.to_string())], Some(&bob))
        .await;
    assert_eq!(detail.status, StatusCode::FORBIDDEN);
    let page = app.get(&format!("/admin/teams/{team_a}"), Some(&bob), None).await;
    assert!(
        !page.body.contains("ann@example.com"),
        "team A's members never reach bob"
    );
    assert!(page.body.contains("permission"), "a forbidden message instead");
    let zh = app
        .get(&format!("/admin/teams/{team_a}"), Some(&bob), Some("zh-CN,zh;q=0.9"))
        .await;
    assert!(
        zh.body.contains("没有执行此操作的权限"),
        "the forbidden message in Chinese"
    );

    let anon = app.call("/api/team_members", &[], None).await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_user_in_two_teams_switches_the_active_team() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let a = app.create_team(&admin, "A").await;
    let b = app.create_team(&admin, "B").await;
    let ann = app.create_member(&admin, "ann@example.com", a, "engineer").await;
    app.set_role(&admin, b, ann, "manager").await;
    let bad = app
        .call(
            "/api/admin/set_role",
            &[
                ("team_id", &b.to_string()),
                ("user_id", &ann.to_string()),
                ("role", "owner"),
            ],
            Some(&admin),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let cookie = app.login("ann@example.com", PASSWORD).await;
    let info = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(
        info.body.contains(&format!(r#""active_team":{a}"#)),
        "first team by name: {}",
        info.body
    );
    let res = app
        .call("/api/switch_team", &[("team_id", &b.to_string())], Some(&cookie))
        .await;
    assert_eq!(res.status, StatusCode::OK);
    let info = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(info.body.contains(&format!(r#""active_team":{b}"#)), "{}", info.body);
    let page = app.get("/", Some(&cookie), None).await;
    assert!(
        page.body.contains("Manager"),
        "dashboard for the role in the active team"
    );
}

#[tokio::test]
async fn disabling_a_user_ends_their_sessions_at_once() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    let ann = app.create_member(&admin, "ann@example.com", team, "engineer").await;
    let cookie = app.login("ann@example.com", PASSWORD).await;
    let res = app
        .call(
            "/api/admin/set_user_disabled",
            &[("user_id", &ann.to_string()), ("disabled", "true")],
            Some(&admin),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(
        app.call("/api/session", &[], Some(&cookie))
            .await
            .body
            .contains(r#""caller":null"#)
    );
    let again = app
        .call(
            "/api/login",
            &[("email", "ann@example.com"), ("password", PASSWORD)],
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::FORBIDDEN, "{}", again.body);
    assert!(again.body.contains("login.disabled"));
    let me = app.call("/api/admin/users", &[], Some(&admin)).await;
    let admin_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'admin@example.com'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert!(me.body.contains("ann@example.com"));
    let own = app
        .call(
            "/api/admin/set_user_disabled",
            &[("user_id", &admin_id.to_string()), ("disabled", "true")],
            Some(&admin),
        )
        .await;
    assert_eq!(own.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn creating_users_validates_and_writes_nothing_on_failure() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "A").await;
    let t = team.to_string();
    let base = |email: &'static str, pw: &'static str, team: &'static str, role: &'static str| {
        vec![
            ("email", email),
            ("display_name", "X"),
            ("password", pw),
            ("password_confirm", pw),
            ("team_id", team),
            ("role", role),
        ]
    };
    let short = app
        .call(
            "/api/admin/create_user",
            &base("x@example.com", "xq7#k", "", "engineer"),
            Some(&admin),
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(short.body.contains("password.too_short"));
    let no_team = app
        .call(
            "/api/admin/create_user",
            &base("x@example.com", PASSWORD, "999", "engineer"),
            Some(&admin),
        )
        .await;
    assert_eq!(no_team.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", no_team.body);
    let mut form = base("x@example.com", PASSWORD, "", "engineer");
    form[4] = ("team_id", &t);
    form[5] = ("role", "janitor");
    let bad_role = app.call("/api/admin/create_user", &form, Some(&admin)).await;
    assert_eq!(bad_role.status, StatusCode::UNPROCESSABLE_ENTITY);
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(count, 1, "only the admin");
    app.create_member(&admin, "x@example.com", team, "engineer").await;
    let dup = app
        .call(
            "/api/admin/create_user",
            &base("X@Example.com", PASSWORD, "", "engineer"),
            Some(&admin),
        )
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.body.contains("email.taken"));
}

#[tokio::test]
async fn the_user_list_shows_each_users_teams_and_roles_and_who_has_none() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let gpu = app.create_team(&admin, "GPU Team").await;
    let infra = app.create_team(&admin, "Infra").await;
    let mia = app.create_member(&admin, "mia@example.com", gpu, "manager").await;
    app.set_role(&admin, infra, mia, "engineer").await;
    let list = app.call("/api/admin/users", &[], Some(&admin)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    let rows: serde_json::Value = serde_json::from_str(&list.body).unwrap();
    let row = |email: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["user"]["email"] == email)
            .cloned()
            .unwrap_or_else(|| panic!("{email} listed: {rows}"))
    };
    let mia_row = row("mia@example.com");
    assert_eq!(mia_row["user"]["id"], mia);
    let teams: Vec<(&str, &str)> = mia_row["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["team_name"].as_str().unwrap(), m["role"].as_str().unwrap()))
        .collect();
    assert_eq!(teams, [("GPU Team", "manager"), ("Infra", "engineer")], "by team name");
    assert_eq!(
        row("admin@example.com")["teams"],
        serde_json::json!([]),
        "the admin is in no team"
    );
}
