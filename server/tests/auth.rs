//! Sign-in, sign-out, session cycling, throttling, timeouts, first-run set-up.

use crate::common;

use app::auth::AuthConfig;
use common::{PASSWORD, TestApp};
use http::StatusCode;
use server::config::ServeConfig;
use std::time::Duration;

#[tokio::test]
async fn empty_database_sends_everyone_to_setup_and_setup_closes_for_good() {
    let app = TestApp::new().await;
    let home = app.get("/", None, None).await;
    assert_eq!(home.status, StatusCode::FOUND, "{}", home.body);
    assert_eq!(home.headers["location"], "/setup");
    let setup = app.get("/setup", None, Some("zh-CN,zh;q=0.9")).await;
    assert_eq!(setup.status, StatusCode::OK);
    assert!(setup.body.contains("创建第一位管理员"), "setup page in Chinese");
    assert!(setup.body.contains(r#"lang="zh-CN""#));

    let admin = app.setup_admin().await;
    let again = app
        .call(
            "/api/setup",
            &[
                ("email", "eve@example.com"),
                ("display_name", "Eve"),
                ("password", PASSWORD),
                ("password_confirm", PASSWORD),
            ],
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert!(again.body.contains("setup.already_done"));
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(count, 1, "nothing half-written");

    let page = app.get("/setup", Some(&admin), None).await;
    assert_eq!(page.status, StatusCode::FOUND, "set-up page is gone");
    let anon = app.get("/", None, None).await;
    assert_eq!(anon.headers["location"], "/login");
}

/// A set-up form with `code` for the set-up code.
fn setup_form(code: &str) -> [(&'static str, String); 5] {
    [
        ("setup_code", code.to_string()),
        ("email", "eve@example.com".into()),
        ("display_name", "Eve".into()),
        ("password", PASSWORD.into()),
        ("password_confirm", PASSWORD.into()),
    ]
}

async fn post_setup(app: &TestApp, code: Option<&str>) -> common::Answer {
    let form = setup_form(code.unwrap_or_default());
    let form: Vec<(&str, &str)> = form
        .iter()
        .skip(usize::from(code.is_none()))
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    app.call("/api/setup", &form, None).await
}

async fn user_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .expect("count users")
}

/// What `nodeledger user add --role engineer --team Research` writes: a team member, no
/// administrator.
async fn add_engineer_from_the_command_line(app: &TestApp) {
    use app::store::{self, users::UserForCreate};
    let hash = app::auth::password::hash(PASSWORD.into()).await.expect("hash");
    let mut tx = store::begin_write(&app.db).await.expect("begin");
    let user = UserForCreate {
        email: "eng@example.com",
        display_name: "Eng",
        password_hash: &hash,
        is_admin: false,
    };
    let id = store::users::insert(&mut tx, &user)
        .await
        .expect("insert user")
        .expect("new e-mail");
    let team = store::teams::insert(&mut tx, "Research")
        .await
        .expect("insert team")
        .expect("new team");
    store::memberships::upsert(&mut tx, id, team, app::domain::roles::TeamRole::Engineer)
        .await
        .expect("membership");
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn setup_is_closed_once_any_user_exists_even_without_an_administrator() {
    let app = TestApp::new().await;
    let code = app.setup_code();
    add_engineer_from_the_command_line(&app).await;

    let page = app.get("/setup", None, None).await;
    assert_eq!(page.status, StatusCode::FOUND, "no set-up page: {}", page.body);
    let home = app.get("/", None, None).await;
    assert_eq!(home.headers["location"], "/login", "sign-in, not set-up");
    // Even with the code the server printed before the user was added.
    let res = post_setup(&app, Some(&code)).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains("setup.already_done"), "{}", res.body);
    assert_eq!(user_count(&app).await, 1, "no administrator made by a stranger");
    let admins: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE is_admin = 1")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(admins, 0);

    // The next start issues no code and removes the file of the earlier one.
    let db_path = app.setup_code_file().with_file_name("test.db");
    let next = app::auth::setup_code::SetupCode::at_start(&app.db, db_path.to_str().unwrap())
        .await
        .unwrap();
    assert_eq!(next.shown(), None);
    assert!(!app.setup_code_file().exists(), "stale code file removed");
}

#[tokio::test]
async fn setup_needs_the_one_time_code_written_beside_the_database() {
    let app = TestApp::new().await;
    let file = app.setup_code_file();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "readable by the server's account only");
    }
    let code = app.setup_code();
    assert_eq!(code.len(), 23, "four groups of five: {code}");

    for wrong in [None, Some(""), Some("AAAAA-AAAAA-AAAAA-AAAAA"), Some("<b>x</b>")] {
        let res = post_setup(&app, wrong).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{wrong:?}: {}", res.body);
        let body: serde_json::Value = serde_json::from_str(&res.body).unwrap();
        assert_eq!(body["error"], "invalid_fields", "{}", res.body);
        assert_eq!(body["detail"][0]["field"], "setup_code", "{}", res.body);
        assert_eq!(body["detail"][0]["code"], "setup_code_wrong", "{}", res.body);
    }
    assert_eq!(user_count(&app).await, 0);
    let page = app.get("/setup", None, Some("zh-CN")).await;
    assert!(
        page.body.contains(r#"name="setup_code""#) && page.body.contains("初始化代码"),
        "the form asks for it: {}",
        page.body
    );

    // Typed leniently: lower case, spaces instead of dashes.
    let typed = code.to_lowercase().replace('-', " ");
    let res = post_setup(&app, Some(&typed)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(res.session_cookie().is_some());
    assert!(!file.exists(), "the file is deleted once set-up succeeds");
    assert_eq!(user_count(&app).await, 1);
}

#[tokio::test]
async fn setup_rejects_bad_input_with_field_messages() {
    let app = TestApp::new().await;
    let cases = [
        (("not-an-email", PASSWORD, PASSWORD), "email.invalid"),
        // Not "short": that one is on the common-password list, which is checked first.
        (("a@example.com", "xq7#k", "xq7#k"), "password.too_short"),
        (
            ("a@example.com", PASSWORD, "correct horse battery stapler"),
            "password.mismatch",
        ),
    ];
    let setup_code = app.setup_code();
    for ((email, pw, confirm), code) in cases {
        let res = app
            .call(
                "/api/setup",
                &[
                    ("setup_code", &setup_code),
                    ("email", email),
                    ("display_name", "A"),
                    ("password", pw),
                    ("password_confirm", confirm),
                ],
                None,
            )
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{code}: {}", res.body);
        assert!(res.body.contains(code), "{code}: {}", res.body);
    }
    let missing = app
        .call(
            "/api/setup",
            &[("setup_code", &setup_code), ("email", "a@example.com")],
            None,
        )
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", missing.body);
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(count, 0);
}

#[tokio::test]
async fn login_cycles_the_session_id_and_logout_ends_it() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let first = app.login("admin@example.com", PASSWORD).await;
    let res = app
        .call(
            "/api/login",
            &[("email", "ADMIN@example.com"), ("password", PASSWORD)],
            Some(&first),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK);
    let second = res.session_cookie().expect("new cookie");
    assert_ne!(first, second, "session id cycled at sign-in");
    let old = app.call("/api/session", &[], Some(&first)).await;
    assert!(
        old.body.contains(r#""caller":null"#),
        "old id no longer valid: {}",
        old.body
    );
    let now = app.call("/api/session", &[], Some(&second)).await;
    assert!(now.body.contains("admin@example.com"), "{}", now.body);

    let out = app.call("/api/logout", &[], Some(&second)).await;
    assert_eq!(out.status, StatusCode::OK);
    let after = app.call("/api/session", &[], Some(&second)).await;
    assert!(after.body.contains(r#""caller":null"#), "{}", after.body);
    let id = second.trim_start_matches("nl_session=").to_string();
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE id = ?")
        .bind(session_row_key(&id))
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(rows, 0, "flushed from the store");
}

/// The database key of the session whose cookie carries `id`: hex of its SHA-256.
fn session_row_key(id: &str) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(id.as_bytes()))
}

#[tokio::test]
async fn the_database_holds_only_the_hash_of_the_session_id() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let cookie = app.login("admin@example.com", PASSWORD).await;
    let id = cookie.trim_start_matches("nl_session=").to_string();
    assert!(!id.is_empty() && !id.contains('='), "{cookie}");
    let keys: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert!(keys.contains(&session_row_key(&id)), "{keys:?}");
    assert!(
        !keys.iter().any(|k| k.contains(&id)),
        "the cookie's id is not stored: {keys:?}"
    );
    // A stored key presented as a cookie is no session.
    for key in keys {
        let res = app.call("/api/session", &[], Some(&format!("nl_session={key}"))).await;
        assert!(res.body.contains(r#""caller":null"#), "{}", res.body);
    }
    let res = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(res.body.contains("admin@example.com"), "{}", res.body);
}

#[tokio::test]
async fn cookie_is_http_only_and_same_site() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let res = app
        .call(
            "/api/login",
            &[("email", "admin@example.com"), ("password", PASSWORD)],
            None,
        )
        .await;
    let cookie = res
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("nl_session="))
        .unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain-http localhost: {cookie}");
}

#[tokio::test]
async fn wrong_password_and_unknown_user_get_the_same_answer() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let wrong = app
        .call(
            "/api/login",
            &[("email", "admin@example.com"), ("password", "not the password at all")],
            None,
        )
        .await;
    let unknown = app
        .call(
            "/api/login",
            &[("email", "nobody@example.com"), ("password", "not the password at all")],
            None,
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.body, unknown.body);
    assert!(wrong.session_cookie().is_none());
    let empty = app.call("/api/login", &[("email", ""), ("password", "")], None).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn ten_failures_lock_the_account_for_fifteen_minutes() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    for i in 0..10 {
        let res = app
            .call(
                "/api/login",
                &[("email", "admin@example.com"), ("password", "wrong password attempt")],
                None,
            )
            .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {i}");
    }
    let locked = app
        .call(
            "/api/login",
            &[("email", "admin@example.com"), ("password", PASSWORD)],
            None,
        )
        .await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS, "{}", locked.body);
    assert!(locked.body.contains(r#""detail":15"#), "{}", locked.body);
    assert!(locked.session_cookie().is_none());
}

#[tokio::test]
async fn sessions_past_the_absolute_timeout_end() {
    let app = TestApp::with_absolute_timeout(Duration::ZERO).await;
    app.setup_admin().await;
    let cookie = app.login("admin@example.com", PASSWORD).await;
    let res = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(res.body.contains(r#""caller":null"#), "{}", res.body);
}

#[tokio::test]
async fn changing_the_password_ends_other_sessions() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let a = app.login("admin@example.com", PASSWORD).await;
    let b = app.login("admin@example.com", PASSWORD).await;
    let new = "a brand new long passphrase";
    let wrong = app
        .call(
            "/api/change_password",
            &[
                ("current_password", "nope nope nope"),
                ("new_password", new),
                ("new_password_confirm", new),
            ],
            Some(&a),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .call(
            "/api/change_password",
            &[
                ("current_password", PASSWORD),
                ("new_password", new),
                ("new_password_confirm", new),
            ],
            Some(&a),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let a2 = res.session_cookie().expect("this session continues with a new id");
    assert!(
        app.call("/api/session", &[], Some(&b))
            .await
            .body
            .contains(r#""caller":null"#)
    );
    assert!(
        app.call("/api/session", &[], Some(&a2))
            .await
            .body
            .contains("admin@example.com")
    );
    app.login("admin@example.com", new).await;
}

#[tokio::test]
async fn parallel_guesses_cannot_slip_past_the_throttle() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    let guesses: Vec<String> = (0..16).map(|i| format!("wrong password number {i}")).collect();
    let forms: Vec<[(&str, &str); 2]> = guesses
        .iter()
        .map(|p| [("email", "admin@example.com"), ("password", p.as_str())])
        .collect();
    let answers = futures_util::future::join_all(forms.iter().map(|form| app.call("/api/login", form, None))).await;
    let checked = answers.iter().filter(|a| a.status == StatusCode::UNAUTHORIZED).count();
    let refused = answers
        .iter()
        .filter(|a| a.status == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!((checked, refused), (10, 6), "ten guesses are checked, the rest refused");
    let locked = app
        .call(
            "/api/login",
            &[("email", "admin@example.com"), ("password", PASSWORD)],
            None,
        )
        .await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS, "{}", locked.body);
}

#[tokio::test]
async fn a_successful_sign_in_clears_earlier_failures() {
    let app = TestApp::new().await;
    app.setup_admin().await;
    for _ in 0..9 {
        let res = app
            .call(
                "/api/login",
                &[("email", "admin@example.com"), ("password", "wrong password attempt")],
                None,
            )
            .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    app.login("admin@example.com", PASSWORD).await;
    let res = app
        .call(
            "/api/login",
            &[("email", "admin@example.com"), ("password", "wrong password attempt")],
            None,
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::UNAUTHORIZED,
        "the count starts again after a success"
    );
    app.login("admin@example.com", PASSWORD).await;
}

#[tokio::test]
async fn sessions_idle_past_the_idle_timeout_end_and_activity_keeps_them() {
    let auth = AuthConfig {
        idle_timeout: Duration::from_secs(3),
        absolute_timeout: Duration::from_secs(3600),
    };
    let app = TestApp::with_settings(auth, &ServeConfig::for_tests()).await;
    app.setup_admin().await;
    let cookie = app.login("admin@example.com", PASSWORD).await;
    for step in 0..4 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let res = app.call("/api/session", &[], Some(&cookie)).await;
        assert!(
            res.body.contains("admin@example.com"),
            "active after {} s: {}",
            step + 1,
            res.body
        );
    }
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let res = app.call("/api/session", &[], Some(&cookie)).await;
    assert!(res.body.contains(r#""caller":null"#), "{}", res.body);
    assert!(res.body.contains(r#""session_ended":true"#), "{}", res.body);
}

#[tokio::test]
async fn a_page_opened_after_the_session_ended_says_so() {
    let app = TestApp::with_absolute_timeout(Duration::ZERO).await;
    app.setup_admin().await;
    let cookie = app.login("admin@example.com", PASSWORD).await;
    let page = app.get("/", Some(&cookie), None).await;
    assert_eq!(page.status, StatusCode::FOUND, "{}", page.body);
    assert_eq!(page.headers["location"], "/login?ended=1");
    let login = app.get("/login?ended=1", Some(&cookie), Some("zh-CN")).await;
    assert!(login.body.contains("您的会话已结束"), "{}", login.body);
    let anon = app.get("/login", None, Some("en")).await;
    assert!(!anon.body.contains("session-ended"), "no notice without a session");
}

#[tokio::test]
async fn the_session_cookie_is_secure_when_served_over_https() {
    let site = "https://desk.example.com";
    let cfg = ServeConfig {
        public_url: Some(site.into()),
        ..ServeConfig::for_tests()
    };
    let app = TestApp::with_config(Duration::from_secs(3600), &cfg).await;
    let code = app.setup_code();
    let form = [
        ("setup_code", code.as_str()),
        ("email", "admin@example.com"),
        ("display_name", "Ada"),
        ("password", PASSWORD),
        ("password_confirm", PASSWORD),
    ];
    let res = app.post("/api/setup", &form, None, Some(site)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let cookie = res
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("__Host-nl_session="))
        .unwrap();
    assert!(cookie.contains("Secure") && cookie.contains("HttpOnly"), "{cookie}");
    let plain = app
        .post(
            "/api/login",
            &[("email", "admin@example.com"), ("password", PASSWORD)],
            None,
            Some(common::ORIGIN),
        )
        .await;
    assert_eq!(
        plain.status,
        StatusCode::FORBIDDEN,
        "the http origin is another site now"
    );
}

#[tokio::test]
async fn server_functions_that_change_data_refuse_get() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    for path in [
        "/api/login?email=admin%40example.com&password=x",
        "/api/logout",
        "/api/admin/create_team?name=Sneaky",
    ] {
        let res = app.get(path, Some(&admin), None).await;
        assert!(res.status.is_client_error(), "GET {path}: {} {}", res.status, res.body);
    }
    let teams: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM teams")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(teams, 0, "nothing written by a GET");
    let still = app.call("/api/session", &[], Some(&admin)).await;
    assert!(
        still.body.contains("admin@example.com"),
        "a GET did not sign the admin out"
    );
}
