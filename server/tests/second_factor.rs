//! The second factor through the router: enrolment, the sign-in's second step (pending until
//! the code; wrong codes throttled; a code accepted once; recovery codes once), the site setting
//! that requires it for managers and administrators, and the code at a manager's sign-off.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use app::domain::second_factor::{STEP_SECS, code_at, secret_from_base32, step_of};
use common::{Answer, PASSWORD, TestApp};
use http::StatusCode;
use serde_json::Value;

pub(crate) fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn now() -> i64 {
    app::store::now_unix()
}

/// The current time step, waiting out the last 3 s of a step so that a test's codes of steps
/// `s - 1`, `s` and `s + 1` all stay within the accepted window while it runs.
pub(crate) async fn fresh_step() -> i64 {
    let into = now().rem_euclid(STEP_SECS);
    if into > STEP_SECS - 4 {
        tokio::time::sleep(std::time::Duration::from_secs((STEP_SECS - into + 1).unsigned_abs())).await;
    }
    step_of(now())
}

/// An authenticator app: the secret read from the enrolment answer.
pub(crate) struct Authenticator(Vec<u8>);

impl Authenticator {
    pub(crate) fn code(&self, step: i64) -> String {
        code_at(&self.0, step)
    }
}

/// Starts enrolment with `cookie` (a signed-in user confirming with the password) and reads
/// the secret the page shows.
pub(crate) async fn start(app: &TestApp, cookie: &str) -> Authenticator {
    start_with(app, cookie, &[("password", PASSWORD)]).await
}

/// Starts enrolment with `cookie` and `form`, and reads the secret the page shows.
pub(crate) async fn start_with(app: &TestApp, cookie: &str, form: &[(&str, &str)]) -> Authenticator {
    let res = app.call("/api/second_factor/start", form, Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let enrolment = json(&res.body);
    assert!(
        enrolment["qr_svg"].as_str().unwrap().starts_with("<svg"),
        "QR code as inline SVG: {}",
        &res.body[..res.body.len().min(300)]
    );
    let secret: String = enrolment["secret"].as_str().unwrap().split_whitespace().collect();
    Authenticator(secret_from_base32(&secret).unwrap())
}

/// Enrols the user of `cookie` with the code of `step`; returns the app and the recovery codes.
pub(crate) async fn enrol(app: &TestApp, cookie: &str, step: i64) -> (Authenticator, Vec<String>) {
    let totp = start(app, cookie).await;
    let res = app
        .call(
            "/api/second_factor/confirm",
            &[("code", &totp.code(step))],
            Some(cookie),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let codes: Vec<String> = serde_json::from_str(&res.body).unwrap();
    assert_eq!(codes.len(), 10);
    (totp, codes)
}

/// The password step: its answer (the next step) and the session cookie it set.
pub(crate) async fn password_step(app: &TestApp, email: &str) -> (Answer, String) {
    let res = app
        .call("/api/login", &[("email", email), ("password", PASSWORD)], None)
        .await;
    let cookie = res.session_cookie().unwrap_or_default();
    (res, cookie)
}

pub(crate) async fn code_step(app: &TestApp, cookie: &str, code: &str) -> Answer {
    app.call("/api/login/code", &[("code", code)], Some(cookie)).await
}

pub(crate) async fn signed_in(app: &TestApp, cookie: &str) -> bool {
    let res = app.call("/api/session", &[], Some(cookie)).await;
    !json(&res.body)["caller"].is_null()
}

#[tokio::test]
async fn sign_in_with_a_second_factor_needs_the_code_once() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp A").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, recovery) = enrol(&app, &eve, s - 1).await;
    let state = json(&app.call("/api/second_factor/state", &[], Some(&eve)).await.body);
    assert_eq!(
        (state["enabled"].as_bool(), state["recovery_codes_left"].as_i64()),
        (Some(true), Some(10))
    );
    let again = app
        .call("/api/second_factor/start", &[("password", PASSWORD)], Some(&eve))
        .await;
    assert_eq!(
        again.status,
        StatusCode::CONFLICT,
        "the secret is never shown again: {}",
        again.body
    );

    // The password alone leaves the session pending: not signed in, nothing allowed.
    let (res, pending) = password_step(&app, "eve@example.com").await;
    assert_eq!((res.status, res.body.as_str()), (StatusCode::OK, "\"Code\""));
    assert!(!signed_in(&app, &pending).await, "pending is not signed in");
    assert_eq!(
        app.call("/api/second_factor/state", &[], Some(&pending)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let wrong = code_step(&app, &pending, "000000").await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", wrong.body);
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let eve = res.session_cookie().expect("a new session id at sign-in");
    assert!(signed_in(&app, &eve).await);

    // The same code again (same time step) is refused; an older one too.
    let (_, pending) = password_step(&app, "eve@example.com").await;
    for code in [totp.code(s), totp.code(s - 1)] {
        let replay = code_step(&app, &pending, &code).await;
        assert_eq!(
            replay.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "replay: {}",
            replay.body
        );
    }
    assert!(!signed_in(&app, &pending).await);

    // A recovery code works once.
    let res = code_step(&app, &pending, &recovery[3].to_uppercase()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let (_, pending) = password_step(&app, "eve@example.com").await;
    let reused = code_step(&app, &pending, &recovery[3]).await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", reused.body);
    let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM second_factor_recovery_codes")
        .fetch_all(&app.db)
        .await
        .unwrap();
    assert!(
        stored.iter().all(|h| h.len() == 64
            && h.bytes().all(|b| b.is_ascii_hexdigit())
            && !recovery.iter().any(|c| h.contains(&c.replace('-', "")))),
        // The whole code, not a part of it: four characters turn up in a random hash now and then.
        "only hashes stored"
    );
}

#[tokio::test]
async fn five_wrong_codes_lock_the_code_step() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp B").await;
    app.create_member(&admin, "pam@example.com", team, "procurement").await;
    let pam = app.login("pam@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, recovery) = enrol(&app, &pam, s - 1).await;
    let (_, pending) = password_step(&app, "pam@example.com").await;
    for n in 1..=5 {
        let res = code_step(&app, &pending, &format!("{:06}", 100_000 + n)).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "wrong code {n}: {}",
            res.body
        );
    }
    for code in [totp.code(s), recovery[0].clone()] {
        let res = code_step(&app, &pending, &code).await;
        assert_eq!(
            res.status,
            StatusCode::TOO_MANY_REQUESTS,
            "locked even for a right code: {}",
            res.body
        );
    }
    let (res, _) = password_step(&app, "pam@example.com").await;
    assert_eq!(
        res.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the password step says so too"
    );
}

#[tokio::test]
async fn switching_off_needs_password_and_code() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp C").await;
    app.create_member(&admin, "eli@example.com", team, "engineer").await;
    let eli = app.login("eli@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, recovery) = enrol(&app, &eli, s - 1).await;
    let off = |password: &'static str, code: String| {
        let eli = eli.clone();
        let app = &app;
        async move {
            app.call(
                "/api/second_factor/disable",
                &[("password", password), ("code", &code)],
                Some(&eli),
            )
            .await
        }
    };
    assert_eq!(
        off("wrong password here", totp.code(s)).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        off(PASSWORD, "123123".into()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let res = app
        .call(
            "/api/second_factor/recovery_codes",
            &[("password", PASSWORD), ("code", &totp.code(s))],
            Some(&eli),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let fresh: Vec<String> = serde_json::from_str(&res.body).unwrap();
    assert_eq!(fresh.len(), 10);
    assert_eq!(
        off(PASSWORD, recovery[0].clone()).await.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "old recovery codes stopped working"
    );
    assert_eq!(off(PASSWORD, fresh[0].clone()).await.status, StatusCode::OK);
    let (res, _) = password_step(&app, "eli@example.com").await;
    assert_eq!(res.body, "\"Done\"", "off: the password signs in again");
}

#[tokio::test]
async fn required_for_managers_sends_them_to_enrol_first() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp D").await;
    app.create_member(&admin, "max@example.com", team, "manager").await;
    app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let max = app.login("max@example.com", PASSWORD).await;
    let require = |cookie: String| {
        let app = &app;
        async move {
            app.call("/api/admin/second_factor/set", &[("required", "on")], Some(&cookie))
                .await
        }
    };
    let refused = require(admin.clone()).await;
    assert_eq!(
        refused.status,
        StatusCode::FORBIDDEN,
        "the admin's own first: {}",
        refused.body
    );
    let s = fresh_step().await;
    enrol(&app, &admin, s - 1).await;
    assert_eq!(
        require(max.clone()).await.status,
        StatusCode::FORBIDDEN,
        "administrators only"
    );
    assert_eq!(require(admin.clone()).await.status, StatusCode::OK);
    let events: Vec<(String, String)> =
        sqlx::query_as("SELECT action, data FROM audit_events WHERE action = 'setting_changed' ORDER BY seq")
            .fetch_all(&app.db)
            .await
            .unwrap();
    assert_eq!(events.len(), 1, "the change is one audit event: {events:?}");
    assert!(
        events[0].1.contains("second_factor_required") && events[0].1.contains("\"on\""),
        "{events:?}"
    );
    assert!(app::services::audit::verify(&app.db).await.unwrap().is_ok());
    assert!(signed_in(&app, &admin).await, "the admin (who has one) stays signed in");
    assert!(!signed_in(&app, &max).await, "a manager without one is signed out");

    // The manager's next sign-in must enrol before anything else.
    let (res, pending) = password_step(&app, "max@example.com").await;
    assert_eq!(res.body, "\"Enrol\"");
    assert!(!signed_in(&app, &pending).await);
    assert_eq!(
        app.call("/api/orders", &[], Some(&pending)).await.status,
        StatusCode::UNAUTHORIZED,
        "nothing else until enrolled"
    );
    // The sign-in page now shows the enrolment, the one part of it that needs the browser (the
    // QR code and the recovery codes are answers of its forms): an island, so the page loads
    // the bundle.
    let page = app.get("/login", Some(&pending), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(r#"data-testid="login-enrol""#), "{}", page.body);
    assert!(page.body.contains("<leptos-island"), "{}", page.body);
    // The password was given a moment ago: the sign-in's enrolment does not ask again.
    let totp = start_with(&app, &pending, &[]).await;
    let res = app
        .call("/api/second_factor/confirm", &[("code", &totp.code(s))], Some(&pending))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let max = res.session_cookie().expect("signed in by enrolling");
    assert!(signed_in(&app, &max).await);
    let state = json(&app.call("/api/second_factor/state", &[], Some(&max)).await.body);
    assert_eq!(state["required"], true);
    let off = app
        .call(
            "/api/second_factor/disable",
            &[("password", PASSWORD), ("code", &totp.code(s + 1))],
            Some(&max),
        )
        .await;
    assert_eq!(
        off.status,
        StatusCode::FORBIDDEN,
        "required: cannot switch off: {}",
        off.body
    );

    // Procurement is not asked.
    let (res, _) = password_step(&app, "pia@example.com").await;
    assert_eq!(res.body, "\"Done\"");
}

/// A submitted order of a fresh team; returns the app, the manager's cookie and the order id.
async fn submitted_order() -> (TestApp, String, i64) {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp E").await;
    for (email, role) in [("pam", "procurement"), ("eve", "engineer"), ("max", "manager")] {
        app.create_member(&admin, &format!("{email}@example.com"), team, role)
            .await;
    }
    let pam = app.login("pam@example.com", PASSWORD).await;
    let eve = app.login("eve@example.com", PASSWORD).await;
    let max = app.login("max@example.com", PASSWORD).await;
    let token = app.create_token(&eve, "ci").await;
    let (order, _, _) = app.submit_batch_order(&pam, &eve, &token).await;
    (app, max, order)
}

#[tokio::test]
async fn sign_off_asks_a_manager_with_a_second_factor_for_the_code() {
    let (app, max, order) = submitted_order().await;
    let s = fresh_step().await;
    let (totp, recovery) = enrol(&app, &max, s - 1).await;
    let o = order.to_string();
    let decide = |code: String| {
        let (app, max, o) = (&app, max.clone(), o.clone());
        async move {
            let form = [
                ("order_id", o.as_str()),
                ("decision", "approve"),
                ("password", PASSWORD),
                ("comment", "Within budget"),
                ("code", &code),
            ];
            app.call("/api/orders/decide", &form, Some(&max)).await
        }
    };
    let without = decide(String::new()).await;
    assert!(
        without.status == StatusCode::UNPROCESSABLE_ENTITY && without.body.contains("second_factor.code_needed"),
        "{}",
        without.body
    );
    let wrong = decide("654321".into()).await;
    assert!(
        wrong.status == StatusCode::UNPROCESSABLE_ENTITY && wrong.body.contains("second_factor.code_wrong"),
        "{}",
        wrong.body
    );
    let recovery_code = decide(recovery[0].clone()).await;
    assert_eq!(
        recovery_code.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the app's code, not a recovery code"
    );
    let res = decide(totp.code(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let data: String = sqlx::query_scalar("SELECT data FROM audit_events WHERE order_id = ? AND action = 'approve'")
        .bind(order)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(json(&data)["second_factor"], true, "{data}");
    let status = app::services::audit::verify(&app.db).await.unwrap();
    assert!(status.is_ok(), "the chain verifies");
}

#[tokio::test]
async fn the_sign_in_page_shows_the_pending_step_after_a_plain_post_until_started_again() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp plain").await;
    app.create_member(&admin, "pia@example.com", team, "engineer").await;
    let pia = app.login("pia@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &pia, s - 1).await;

    // The password as a plain form post (the sign-in page without WASM): back to the page,
    // which now shows the code step the session waits for.
    let res = app
        .browser_post(
            "/api/login",
            &[("email", "pia@example.com"), ("password", PASSWORD)],
            None,
            "/login",
        )
        .await;
    assert_eq!(res.status, StatusCode::FOUND, "{}", res.body);
    let pending = res.session_cookie().expect("a pending session");
    let info = json(&app.call("/api/session", &[], Some(&pending)).await.body);
    assert_eq!(
        (info["sign_in_step"].as_str(), info["session_ended"].as_bool()),
        (Some("Code"), Some(false))
    );
    let page = app.get("/login", Some(&pending), None).await;
    assert!(page.body.contains(r#"data-testid="login-code""#), "{}", page.body);
    assert!(!page.body.contains(r#"data-testid="login-form""#));

    // A wrong code, posted the same way, comes back as a message on the same step.
    let wrong = app
        .browser_post("/api/login/code", &[("code", "000000")], Some(&pending), "/login")
        .await;
    let back = wrong.headers["location"].to_str().unwrap().replace(common::ORIGIN, "");
    let page = app.get(&back, Some(&pending), None).await;
    assert!(
        page.body.contains(r#"data-testid="login-code""#) && page.body.contains("That code is not right"),
        "{}",
        page.body
    );

    // "Sign in again" drops the pending step: the password form is back.
    let restart = app
        .browser_post("/api/login/restart", &[], Some(&pending), "/login")
        .await;
    assert_eq!(restart.status, StatusCode::FOUND, "{}", restart.body);
    let page = app.get("/login", Some(&pending), None).await;
    assert!(page.body.contains(r#"data-testid="login-form""#), "{}", page.body);
    assert!(json(&app.call("/api/session", &[], Some(&pending)).await.body)["sign_in_step"].is_null());

    // The right code after a new password step signs in.
    let (_, pending) = password_step(&app, "pia@example.com").await;
    let res = app
        .browser_post("/api/login/code", &[("code", &totp.code(s))], Some(&pending), "/login")
        .await;
    assert_eq!(res.status, StatusCode::FOUND, "{}", res.body);
    let signed = res.session_cookie().expect("a new session id at sign-in");
    assert!(signed_in(&app, &signed).await);
}

async fn stored_secret(app: &TestApp, email: &str) -> String {
    sqlx::query_scalar("SELECT f.secret FROM second_factors f JOIN users u ON u.id = f.user_id WHERE u.email = ?")
        .bind(email)
        .fetch_one(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_secret_is_stored_sealed_with_the_key_file() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp Sealed").await;
    app.create_member(&admin, "sam@example.com", team, "engineer").await;
    let sam = app.login("sam@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &sam, s - 1).await;
    let stored = stored_secret(&app, "sam@example.com").await;
    let shown = app::domain::second_factor::secret_base32(&totp.0);
    assert!(stored.starts_with("xc1:"), "sealed: {stored}");
    assert!(!stored.contains(&shown) && secret_from_base32(&stored).is_none());

    // The sign-in's code step opens it with the key file.
    let (_, pending) = password_step(&app, "sam@example.com").await;
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

#[tokio::test]
async fn a_secret_stored_before_sealing_still_works_and_start_up_seals_it() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp Legacy").await;
    app.create_member(&admin, "lee@example.com", team, "engineer").await;
    let secret = b"legacy-secret-20byte".to_vec();
    let legacy = app::domain::second_factor::secret_base32(&secret);
    // The row as an older version wrote it: base32, confirmed.
    sqlx::query(
        "INSERT INTO second_factors (user_id, secret, confirmed_at)
         SELECT id, ?, '2026-12-01T00:00:00Z' FROM users WHERE email = ?",
    )
    .bind(&legacy)
    .bind("lee@example.com")
    .execute(&app.db)
    .await
    .unwrap();
    let totp = Authenticator(secret);
    let s = fresh_step().await;
    let (_, pending) = password_step(&app, "lee@example.com").await;
    let res = code_step(&app, &pending, &totp.code(s - 1)).await;
    assert_eq!(res.status, StatusCode::OK, "read as it was stored: {}", res.body);

    // The next start seals it; the authenticator goes on working.
    app::store::secret_key::at_start(&app.db, &app.path.join("nodeledger.key"))
        .await
        .unwrap();
    let stored = stored_secret(&app, "lee@example.com").await;
    assert!(stored.starts_with("xc1:") && !stored.contains(&legacy), "{stored}");
    let (_, pending) = password_step(&app, "lee@example.com").await;
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
}

/// Records `n` wrong codes of `user_id`, an hour apart and long ago (outside the 15-minute
/// throttle), as a slow guesser would.
pub(crate) async fn old_failures(app: &TestApp, user_id: i64, n: i64) {
    for k in 0..n {
        sqlx::query("INSERT INTO second_factor_failures (user_id, at) VALUES (?, ?)")
            .bind(user_id)
            .bind(now() - 86_400 - k * 3_600)
            .execute(&app.db)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn twenty_wrong_codes_in_a_row_lock_the_factor_until_a_recovery_code() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp L").await;
    let lea = app.create_member(&admin, "lea@example.com", team, "procurement").await;
    let cookie = app.login("lea@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, recovery) = enrol(&app, &cookie, s - 1).await;
    old_failures(&app, lea, 19).await;
    let (_, pending) = password_step(&app, "lea@example.com").await;
    let res = code_step(&app, &pending, "000000").await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the 20th wrong code: {}",
        res.body
    );
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert!(
        res.status == StatusCode::FORBIDDEN && res.body.contains("second_factor.locked"),
        "locked for the app's codes, however slowly guessed: {} {}",
        res.status,
        res.body
    );
    assert!(!signed_in(&app, &pending).await);
    let res = code_step(&app, &pending, &recovery[0]).await;
    assert_eq!(res.status, StatusCode::OK, "a recovery code unlocks: {}", res.body);
    let (_, again) = password_step(&app, "lea@example.com").await;
    let res = code_step(&app, &again, &totp.code(s + 1)).await;
    assert_eq!(res.status, StatusCode::OK, "the app's codes work again: {}", res.body);
}

#[tokio::test]
async fn an_administrator_unlocks_a_locked_factor() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp U").await;
    let ugo = app.create_member(&admin, "ugo@example.com", team, "engineer").await;
    app.create_member(&admin, "ida@example.com", team, "manager").await;
    let cookie = app.login("ugo@example.com", PASSWORD).await;
    let ida = app.login("ida@example.com", PASSWORD).await;
    let s = fresh_step().await;
    let (totp, _) = enrol(&app, &cookie, s - 1).await;
    old_failures(&app, ugo, 20).await;
    let (_, pending) = password_step(&app, "ugo@example.com").await;
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "locked: {}", res.body);
    let id = ugo.to_string();
    let res = app
        .call("/api/admin/unlock_second_factor", &[("user_id", &id)], Some(&ida))
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "administrators only: {}", res.body);
    let res = app
        .call("/api/admin/unlock_second_factor", &[("user_id", &id)], Some(&admin))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let res = code_step(&app, &pending, &totp.code(s)).await;
    assert_eq!(res.status, StatusCode::OK, "unlocked: {}", res.body);
}

#[tokio::test]
async fn sign_off_refuses_a_manager_whose_role_requires_a_factor_not_set_up() {
    let (app, max, order) = submitted_order().await;
    // A session from before the requirement (the setting written behind the sessions' back).
    sqlx::query("UPDATE site SET second_factor_required = 1")
        .execute(&app.db)
        .await
        .unwrap();
    let o = order.to_string();
    let form = [
        ("order_id", o.as_str()),
        ("decision", "approve"),
        ("password", PASSWORD),
        ("comment", "Within budget"),
        ("code", ""),
    ];
    let res = app.call("/api/orders/decide", &form, Some(&max)).await;
    assert!(
        res.status == StatusCode::FORBIDDEN && res.body.contains("second_factor.enrol_first"),
        "the password alone does not sign off: {} {}",
        res.status,
        res.body
    );
    let approvals: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE action = 'approve'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(approvals, 0);
}

#[tokio::test]
async fn promotion_to_manager_ends_the_sessions_when_a_factor_is_required() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Totp P").await;
    let pia = app.create_member(&admin, "pia@example.com", team, "procurement").await;
    let eli = app.create_member(&admin, "eli@example.com", team, "engineer").await;
    let s = fresh_step().await;
    enrol(&app, &admin, s - 1).await;
    let res = app
        .call("/api/admin/second_factor/set", &[("required", "on")], Some(&admin))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let pia_cookie = app.login("pia@example.com", PASSWORD).await;
    let eli_cookie = app.login("eli@example.com", PASSWORD).await;
    app.set_role(&admin, team, pia, "manager").await;
    assert!(
        !signed_in(&app, &pia_cookie).await,
        "promoted without a factor: signed out"
    );
    let (res, _) = password_step(&app, "pia@example.com").await;
    assert_eq!(res.body, "\"Enrol\"", "and enrols at the next sign-in");
    app.set_role(&admin, team, eli, "procurement").await;
    assert!(
        signed_in(&app, &eli_cookie).await,
        "a role that requires nothing ends nothing"
    );
}

/// The text of the element with `testid` on a page (its first text).
fn text_of(body: &str, testid: &str) -> Option<String> {
    let rest = body.split(&format!(r#"data-testid="{testid}""#)).nth(1)?;
    Some(rest.split('>').nth(1)?.split('<').next()?.to_owned())
}

/// The account page set up without WASM (each form posted as a page, as the page's script or a
/// browser without one posts it): the set-up stays on the page until confirmed, a wrong first
/// code included; the recovery codes are on the page the confirmation goes back to, that once.
#[tokio::test]
async fn the_account_page_sets_up_a_second_factor_with_plain_posts() {
    let app = TestApp::new().await;
    let admin = app.setup_admin().await;
    let team = app.create_team(&admin, "Plain factor").await;
    app.create_member(&admin, "eve@example.com", team, "engineer").await;
    let eve = app.login("eve@example.com", PASSWORD).await;

    let page = app.get("/account", Some(&eve), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("<leptos-island"), "{}", page.body);
    assert!(!page.body.contains("second-factor-secret"));

    let wrong = app
        .browser_post(
            "/api/second_factor/start",
            &[("password", "not it")],
            Some(&eve),
            "/account",
        )
        .await;
    let page = app.get(&wrong.location(), Some(&eve), None).await;
    assert!(page.body.contains("The current password is wrong."), "{}", page.body);
    assert!(!page.body.contains("second-factor-secret"));

    let started = app
        .browser_post(
            "/api/second_factor/start",
            &[("password", PASSWORD)],
            Some(&eve),
            "/account",
        )
        .await;
    assert_eq!(started.location(), "/account?saved=/api/second_factor/start");
    let page = app.get(&started.location(), Some(&eve), None).await;
    let secret: String = text_of(&page.body, "second-factor-secret")
        .unwrap_or_else(|| panic!("the set-up is shown: {}", page.body))
        .split_whitespace()
        .collect();
    assert!(page.body.contains("<svg"), "the QR code");
    let totp = Authenticator(secret_from_base32(&secret).unwrap());

    // A wrong first code: the message, and the set-up still there to try again.
    let step = fresh_step().await;
    let refused = app
        .browser_post(
            "/api/second_factor/confirm",
            &[("code", "000000")],
            Some(&eve),
            "/account",
        )
        .await;
    let page = app.get(&refused.location(), Some(&eve), None).await;
    assert!(page.body.contains("That code is not right"), "{}", page.body);
    assert!(page.body.contains("second-factor-secret"), "{}", page.body);

    let confirmed = app
        .browser_post(
            "/api/second_factor/confirm",
            &[("code", &totp.code(step))],
            Some(&eve),
            "/account",
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::FOUND, "{}", confirmed.body);
    assert_eq!(
        confirmed.body.trim(),
        "[]",
        "the codes are not in the redirect's answer"
    );
    let page = app.get(&confirmed.location(), Some(&eve), None).await;
    assert!(page.body.contains(r#"data-testid="recovery-codes""#), "{}", page.body);
    assert_eq!(page.body.matches("<li><code>").count(), 10, "{}", page.body);
    assert!(page.body.contains("Second factor: on."), "{}", page.body);
    assert!(page.body.contains(r#"data-testid="others-ended""#));
    assert!(!page.body.contains("second-factor-secret"), "the set-up is over");
    // The password change now asks for a code too.
    assert!(page.body.contains(r#"name="code""#));

    let again = app.get(&confirmed.location(), Some(&eve), None).await;
    assert!(!again.body.contains(r#"data-testid="recovery-codes""#), "shown once");
    assert!(again.body.contains("Unused recovery codes: 10."), "{}", again.body);
}
