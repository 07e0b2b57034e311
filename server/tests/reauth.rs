//! Changes to one's own account through the router: each asks for the current password (and a
//! code when a second factor is on), ends the user's other sessions where it changes how they
//! sign in, is recorded in the audit chain and mailed to the user; wrong codes are counted by
//! client address too; the administrators' unlock button shows only on locked users.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::{
    common,
    dashboard::fake_smtp,
    second_factor::{code_step, enrol, fresh_step, old_failures, password_step, signed_in},
    throttle::call_from,
};

use app::domain::second_factor::step_of;
use common::{Answer, PASSWORD, TestApp, mailer};
use http::StatusCode;
use server::mail::security_pass;

const NEW_PASSWORD: &str = "purple elephant climbs slowly";

/// A refusal for a reason the form names: 422 with the message's key.
fn assert_refused(res: &Answer, key: &str) {
    assert!(
        res.status == StatusCode::UNPROCESSABLE_ENTITY && res.body.contains(key),
        "wanted 422 {key}: {} {}",
        res.status,
        res.body
    );
}

/// A team with one engineer `email`, signed in; the app, the admin's cookie, the engineer's id
/// and cookie.
async fn engineer(email: &str) -> (TestApp, String, i64, String) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Reauth").await;
    let id = app.create_member(&admin, email, team, "engineer").await;
    let cookie = app.login(email, PASSWORD).await;
    (app, admin, id, cookie)
}

async fn create_token(app: &TestApp, cookie: &str, form: &[(&str, &str)]) -> Answer {
    let mut fields = vec![("name", "ci")];
    fields.extend_from_slice(form);
    app.call("/api/tokens/create", &fields, Some(cookie)).await
}

/// Signs in with the password and the code `code`; the signed-in session's cookie.
async fn sign_in_with_code(app: &TestApp, email: &str, code: &str) -> String {
    let (_, pending) = password_step(app, email).await;
    let res = code_step(app, &pending, code).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    res.session_cookie().unwrap()
}

#[tokio::test]
async fn enrolling_a_second_factor_needs_the_current_password() {
    let (app, _, _, eve) = engineer("eve@example.com").await;
    for page in ["/account", "/account/tokens"] {
        let html = app.get(page, Some(&eve), None).await;
        assert_eq!(html.status, StatusCode::OK, "{page}");
        assert!(
            html.body.contains("data-testid=\"reauth-password\"") && html.body.contains("Current password"),
            "{page} asks for the password: {}",
            &html.body[..html.body.len().min(400)]
        );
    }
    let res = app.call("/api/second_factor/start", &[], Some(&eve)).await;
    assert_refused(&res, "reauth.password_needed");
    let res = app
        .call(
            "/api/second_factor/start",
            &[("password", "not my password")],
            Some(&eve),
        )
        .await;
    assert_refused(&res, "password.current_wrong");
    let res = app
        .call("/api/second_factor/start", &[("password", PASSWORD)], Some(&eve))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

#[tokio::test]
async fn a_token_needs_the_password_and_with_a_second_factor_a_code() {
    let (app, _, _, eve) = engineer("eve@example.com").await;
    assert_refused(&create_token(&app, &eve, &[]).await, "reauth.password_needed");
    assert_refused(
        &create_token(&app, &eve, &[("password", "not my password")]).await,
        "password.current_wrong",
    );
    assert_eq!(
        create_token(&app, &eve, &[("password", PASSWORD)]).await.status,
        StatusCode::OK
    );

    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &eve, s - 1).await;
    let res = create_token(&app, &eve, &[("password", PASSWORD)]).await;
    assert_refused(&res, "reauth.code_needed");
    let res = create_token(&app, &eve, &[("password", PASSWORD), ("code", "000000")]).await;
    assert_refused(&res, "second_factor.code_wrong");
    let res = create_token(&app, &eve, &[("password", PASSWORD), ("code", &totp.code(s))]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let res = app
        .call(
            "/api/second_factor/recovery_codes",
            &[("code", &totp.code(s + 1))],
            Some(&eve),
        )
        .await;
    assert_refused(&res, "reauth.password_needed");
}

#[tokio::test]
async fn a_stolen_session_cannot_guess_the_password_without_bound() {
    let (app, _, _, eve) = engineer("eve@example.com").await;
    for n in 1..=10 {
        let res = create_token(&app, &eve, &[("password", &format!("guess number {n}"))]).await;
        assert_refused(&res, "password.current_wrong");
    }
    let res = create_token(&app, &eve, &[("password", PASSWORD)]).await;
    assert_eq!(
        res.status,
        StatusCode::TOO_MANY_REQUESTS,
        "counted with sign-in's: {}",
        res.body
    );
}

#[tokio::test]
async fn switching_the_second_factor_on_or_off_ends_the_other_sessions_only() {
    let (app, _, _, here) = engineer("eve@example.com").await;
    let elsewhere = app.login("eve@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &here, s - 1).await;
    assert!(signed_in(&app, &here).await, "the session that enrolled stays");
    assert!(!signed_in(&app, &elsewhere).await, "another session ends");

    let elsewhere = sign_in_with_code(&app, "eve@example.com", &totp.code(s)).await;
    let form = [("password", PASSWORD), ("code", &totp.code(s + 1))];
    let res = app.call("/api/second_factor/disable", &form, Some(&here)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert!(signed_in(&app, &here).await);
    assert!(!signed_in(&app, &elsewhere).await);
}

#[tokio::test]
async fn changing_the_password_with_a_second_factor_needs_a_code_and_ends_the_other_sessions() {
    let (app, _, _, here) = engineer("eve@example.com").await;
    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &here, s - 1).await;
    let elsewhere = sign_in_with_code(&app, "eve@example.com", &totp.code(s)).await;
    let mut form = vec![
        ("current_password", PASSWORD),
        ("new_password", NEW_PASSWORD),
        ("new_password_confirm", NEW_PASSWORD),
    ];
    let res = app.call("/api/change_password", &form, Some(&here)).await;
    assert_refused(&res, "reauth.code_needed");
    let code = totp.code(s + 1);
    form.push(("code", &code));
    let res = app.call("/api/change_password", &form, Some(&here)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let here = res.session_cookie().expect("this session continues under a new id");
    assert!(signed_in(&app, &here).await);
    assert!(!signed_in(&app, &elsewhere).await);
}

#[tokio::test]
async fn wrong_codes_from_one_address_across_accounts_lock_that_address() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Guessed").await;
    let (guesser, other) = ("198.51.100.7", "203.0.113.5");
    let mut pending = Vec::new();
    for email in ["ann@example.com", "ben@example.com"] {
        app.create_member(&admin, email, team, "engineer").await;
        let cookie = app.login(email, PASSWORD).await;
        let s = fresh_step().await;
        let (totp, _) = enrol(&app, &cookie, s - 1).await;
        pending.push((totp, password_step(&app, email).await.1));
    }
    // Four wrong codes each: under the five that lock one account's code check.
    for (_, cookie) in &pending {
        for n in 0..4 {
            let code = format!("{:06}", 200_000 + n);
            let res = call_from(&app, guesser, "/api/login/code", &[("code", &code)], Some(cookie), &[]).await;
            assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
        }
    }
    let counted: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM login_attempts WHERE address = ? AND email = '(second factor)'")
            .bind(guesser)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(counted, 8, "wrong codes are counted by address");
    // The address guessed passwords before: with the codes, 30 failures in 15 minutes.
    for _ in 0..22 {
        sqlx::query("INSERT INTO login_attempts (email, address, at, succeeded) VALUES ('x@example.com', ?, ?, 0)")
            .bind(guesser)
            .bind(app::store::now_unix())
            .execute(&app.db)
            .await
            .unwrap();
    }
    let (ann, ann_pending) = &pending[0];
    let s = step_of(app::store::now_unix());
    let res = call_from(
        &app,
        guesser,
        "/api/login/code",
        &[("code", &ann.code(s))],
        Some(ann_pending),
        &[],
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the address is locked, even for a right code: {}",
        res.body
    );
    let res = call_from(
        &app,
        other,
        "/api/login/code",
        &[("code", &ann.code(s))],
        Some(ann_pending),
        &[],
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "the account itself is not locked: {}",
        res.body
    );
}

async fn notices(app: &TestApp, user_id: i64) -> Vec<String> {
    app::store::security_mail::actions_of(&app.db, user_id).await.unwrap()
}

async fn audited(app: &TestApp, user_id: i64) -> Vec<(String, i64)> {
    sqlx::query_as(
        "SELECT action, actor_id FROM audit_events
         WHERE json_extract(data, '$.user_id') = ? AND action NOT IN ('user_created', 'role_set')
         ORDER BY seq",
    )
    .bind(user_id)
    .fetch_all(&app.db)
    .await
    .unwrap()
}

/// Each change in turn, with the notice it adds.
async fn every_change(app: &TestApp, admin: &str, ned: i64, cookie: &str) {
    let s = fresh_step().await;
    let (totp, _) = enrol(app, cookie, s - 1).await;
    let form = [("password", PASSWORD), ("code", &totp.code(s))];
    let res = app.call("/api/second_factor/recovery_codes", &form, Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let codes: Vec<String> = serde_json::from_str(&res.body).unwrap();
    let res = create_token(app, cookie, &[("password", PASSWORD), ("code", &codes[0])]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    old_failures(app, ned, 19).await;
    let (_, pending) = password_step(app, "ned@example.com").await;
    assert_eq!(
        code_step(app, &pending, "000000").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let id = ned.to_string();
    let res = app
        .call("/api/admin/unlock_second_factor", &[("user_id", &id)], Some(admin))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let form = [("password", PASSWORD), ("code", &codes[1])];
    let res = app.call("/api/second_factor/disable", &form, Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let form = [
        ("current_password", PASSWORD),
        ("new_password", NEW_PASSWORD),
        ("new_password_confirm", NEW_PASSWORD),
    ];
    let res = app.call("/api/change_password", &form, Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

#[tokio::test]
async fn every_change_to_ones_account_security_is_audited_and_mailed_in_the_users_language() {
    let (app, admin, ned, cookie) = engineer("ned@example.com").await;
    every_change(&app, &admin, ned, &cookie).await;
    let expected = [
        "second_factor_enrolled",
        "recovery_codes_regenerated",
        "recovery_code_used",
        "token_created",
        "second_factor_locked",
        "second_factor_unlocked",
        "recovery_code_used",
        "second_factor_disabled",
        "password_changed",
    ];
    assert_eq!(notices(&app, ned).await, expected);
    let events = audited(&app, ned).await;
    let actions: Vec<&str> = events.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(actions, expected, "the same, in the audit chain");
    let unlocked = events.iter().find(|(a, _)| a == "second_factor_unlocked").unwrap();
    assert_ne!(unlocked.1, ned, "the unlock is the administrator's");
    let verify = app::services::audit::verify(&app.db).await.unwrap();
    assert!(verify.is_ok(), "the chain still verifies: {verify:?}");

    sqlx::query(
        "INSERT INTO user_locales (user_id, locale) VALUES (?, 'zh-CN')
         ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
    )
    .bind(ned)
    .execute(&app.db)
    .await
    .unwrap();
    let (port, inbox) = fake_smtp::fake_smtp().await;
    assert_eq!(security_pass(&mailer(port), &app.db).await.unwrap(), expected.len());
    assert_eq!(security_pass(&mailer(port), &app.db).await.unwrap(), 0, "each once");
    let mails = inbox.lock().unwrap().clone();
    assert!(mails.iter().all(|(to, _)| to == &["ned@example.com"]));
    let locked = fake_smtp::decoded(&mails[4].1);
    assert!(
        locked.contains("连续 20 次输入错误的验证码") && !locked.contains("wrong codes"),
        "{locked}"
    );
    assert!(locked.contains("https://desk.example.com/account"), "{locked}");
}

#[tokio::test]
async fn a_notice_to_a_user_whose_language_is_unknown_is_in_both() {
    let (app, _, ola, cookie) = engineer("ola@example.com").await;
    sqlx::query("DELETE FROM user_locales").execute(&app.db).await.unwrap();
    let res = create_token(&app, &cookie, &[("password", PASSWORD)]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(notices(&app, ola).await, ["token_created"]);
    let (port, inbox) = fake_smtp::fake_smtp().await;
    assert_eq!(security_pass(&mailer(port), &app.db).await.unwrap(), 1);
    let mail = fake_smtp::decoded(&inbox.lock().unwrap()[0].1);
    assert!(
        mail.contains("An API token “ci” was created") && mail.contains("创建了 API 令牌“ci”"),
        "{mail}"
    );
}

#[tokio::test]
async fn the_unlock_button_shows_only_on_users_whose_factor_is_locked() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Locks").await;
    let ugo = app.create_member(&admin, "ugo@example.com", team, "engineer").await;
    app.create_member(&admin, "eli@example.com", team, "engineer").await;
    old_failures(&app, ugo, 20).await;
    let buttons = |body: &str| body.matches("data-testid=\"unlock-second-factor\"").count();
    let page = app.get("/admin/users", Some(&admin), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("eli@example.com"), "the list is rendered");
    assert_eq!(buttons(&page.body), 1, "ugo's row only");
    let id = ugo.to_string();
    let res = app
        .call("/api/admin/unlock_second_factor", &[("user_id", &id)], Some(&admin))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let page = app.get("/admin/users", Some(&admin), None).await;
    assert_eq!(buttons(&page.body), 0, "unlocked: no button");
}
