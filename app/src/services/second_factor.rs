//! The second factor at work: enrolment, the sign-in step after the password, sign-off codes,
//! and the site setting that requires it (switching it off and new recovery codes, which need
//! the password first, are in [`super::account_security`]). The rules (code window, replay,
//! recovery codes, throttling) are in [`crate::domain::second_factor`].
//!
//! Every code check is one `BEGIN IMMEDIATE` transaction: the lock check, the code, the step
//! (or recovery code) it uses up and the failure it records, so parallel guesses cannot slip
//! past the throttle and one code cannot be accepted twice.
//!
//! Sign-in with a second factor: the password step leaves only a *pending* entry in the session
//! ([`PENDING_KEY`]: user, auth epoch, start time; no user id, so the session is not signed in),
//! and the code step turns it into a signed-in session within [`PENDING_SECS`].

use crate::{
    auth::{start_session, throttle::SECOND_FACTOR_KEY},
    domain::{
        audit::Action,
        roles::TeamRole,
        second_factor::{self as rules, EnteredCode, LoginStep, RECOVERY_CHARS, RECOVERY_CODES, SECRET_BYTES},
        throttle,
    },
    error::AppError,
    i18n::Msg,
    services::site_audit,
    store::{self, Db, sessions::SqliteSessionStore, users::User},
    views::second_factor::{Enrolment, SecondFactorStatus},
};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

/// Session key of a sign-in waiting for its second step.
pub const PENDING_KEY: &str = "second_factor_pending";

/// A sign-in whose password matched, waiting for a code (or for enrolment).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Pending {
    user_id: i64,
    /// The user's `auth_epoch` at the password step: a password change meanwhile voids it.
    epoch: i64,
    started_at: i64,
    /// The user has no second factor and must set one up.
    enrol: bool,
}

impl Pending {
    /// The step this sign-in waits for.
    fn step(&self) -> LoginStep {
        if self.enrol { LoginStep::Enrol } else { LoginStep::Code }
    }
}

/// How a code was accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// A code from the authenticator app.
    Authenticator,
    /// A recovery code (now used up).
    RecoveryCode,
}

fn session_error(e: tower_sessions::session::Error) -> AppError {
    tracing::error!(error = %e, "cannot update session");
    AppError::Internal
}

fn throttled(until: i64, now: i64) -> AppError {
    AppError::Throttled(throttle::minutes_left(until, now))
}

/// Whether the site setting requires `user` to have a second factor (administrators, and
/// managers of any team).
pub async fn required_for(db: &Db, user: &User) -> Result<bool, AppError> {
    if !store::site::second_factor_required(db).await? {
        return Ok(false);
    }
    if user.is_admin {
        return Ok(true);
    }
    let memberships = store::memberships::of_user(db, user.id).await?;
    Ok(memberships.iter().any(|m| m.role == TeamRole::Manager))
}

/// After a correct password: signs in a user without a second factor, or leaves the session
/// pending until the code (or the enrolment the site requires) follows.
pub async fn after_password(db: &Db, session: &Session, user: &User) -> Result<LoginStep, AppError> {
    let now = store::now_unix();
    let failures = store::second_factors::recent_failures(db, user.id, now).await?;
    if let Some(until) = rules::code_locked_until(&failures, now) {
        return Err(throttled(until, now));
    }
    let step = if store::second_factors::is_enabled(db, user.id).await? {
        LoginStep::Code
    } else if required_for(db, user).await? {
        LoginStep::Enrol
    } else {
        start_session(session, user.id, user.auth_epoch).await?;
        return Ok(LoginStep::Done);
    };
    let pending = Pending {
        user_id: user.id,
        epoch: user.auth_epoch,
        started_at: now,
        enrol: step == LoginStep::Enrol,
    };
    session.cycle_id().await.map_err(session_error)?;
    session.clear().await;
    session.insert(PENDING_KEY, pending).await.map_err(session_error)?;
    tracing::info!(user_id = user.id, ?step, "password matched; second step pending");
    Ok(step)
}

/// The step this session's sign-in waits for, if a password matched less than
/// [`rules::PENDING_SECS`] ago: the sign-in page shows that step when it is loaded again — after
/// a plain form post (the page works before and without its WASM) or a reload. Whether
/// the user may still sign in is checked when the step is answered ([`pending_user`]).
pub async fn pending_step(session: &Session) -> Option<LoginStep> {
    let pending: Pending = session.get(PENDING_KEY).await.ok().flatten()?;
    rules::pending_alive(pending.started_at, store::now_unix()).then_some(pending.step())
}

/// Drops this session's pending sign-in ("start again" on the second step).
pub async fn abandon_sign_in(session: &Session) -> Result<(), AppError> {
    session.remove::<Pending>(PENDING_KEY).await.map_err(session_error)?;
    Ok(())
}

/// The user of this session's pending sign-in, if it is still alive, its user still may sign in
/// and it is of the wanted kind (`enrol`); else the pending entry is dropped and the answer is
/// "start again".
async fn pending_user(db: &Db, session: &Session, enrol: bool) -> Result<User, AppError> {
    let gone = AppError::Refused(Msg::SecondFactorPendingGone);
    let pending: Option<Pending> = session.get(PENDING_KEY).await.ok().flatten();
    let Some(pending) = pending.filter(|p| p.enrol == enrol) else {
        return Err(gone);
    };
    let user = store::users::by_id(db, pending.user_id).await?;
    match user {
        Some(u)
            if !u.disabled
                && u.auth_epoch == pending.epoch
                && rules::pending_alive(pending.started_at, store::now_unix()) =>
        {
            Ok(u)
        }
        _ => {
            session.remove::<Pending>(PENDING_KEY).await.map_err(session_error)?;
            Err(gone)
        }
    }
}

/// The sign-in's second step: a correct code (or recovery code) for the pending user turns the
/// session into a signed-in one.
pub async fn complete_sign_in(db: &Db, session: &Session, code: &str) -> Result<(), AppError> {
    let user = pending_user(db, session, false).await?;
    let accepted = check_code(db, user.id, code, true, store::now_unix()).await?;
    tracing::info!(user_id = user.id, ?accepted, "signed in with a second factor");
    start_session(session, user.id, user.auth_epoch).await
}

/// The user a pending sign-in must enrol, if this session has one (see [`LoginStep::Enrol`]).
pub async fn pending_enrolment(db: &Db, session: &Session) -> Result<User, AppError> {
    pending_user(db, session, true).await
}

/// Confirms the enrolment of a pending sign-in and signs the user in; returns the recovery codes.
pub async fn confirm_enrolment_at_sign_in(db: &Db, session: &Session, input: &str) -> Result<Vec<String>, AppError> {
    let user = pending_enrolment(db, session).await?;
    let codes = confirm_enrolment(db, user.id, input, store::now_unix()).await?;
    start_session(session, user.id, user.auth_epoch).await?;
    Ok(codes)
}

/// The client address of the request being served, as wrong codes are counted by
/// ([`throttle::address_key`]: IPv4 exactly, IPv6 by its /64); `None` when unknown.
fn code_address() -> Option<String> {
    crate::auth::throttle::client_addr().map(throttle::address_key)
}

/// When code checks of `user_id` from `address` are refused at `now`: the user's own lock
/// (five wrong codes in 15 minutes) or the address's (wrong passwords and codes from it, across
/// every account, [`throttle::ADDRESS`]), whichever ends later.
async fn code_refused_until(
    conn: &mut sqlx::SqliteConnection,
    user_id: i64,
    address: Option<&str>,
    now: i64,
) -> Result<Option<i64>, AppError> {
    let failures = store::second_factors::recent_failures(&mut *conn, user_id, now).await?;
    let from_address = match address {
        Some(a) => store::login_attempts::address_failures(&mut *conn, a, now).await?,
        None => Vec::new(),
    };
    let own = rules::code_locked_until(&failures, now);
    Ok(own.max(throttle::ADDRESS.locked_until(&from_address, now)))
}

/// Refuses at once while the code check of `user_id` is throttled (for this client address
/// too), before anything else is checked or counted.
pub async fn refuse_while_locked(db: &Db, user_id: i64) -> Result<(), AppError> {
    let now = store::now_unix();
    let mut conn = db.acquire().await?;
    let until = code_refused_until(&mut conn, user_id, code_address().as_deref(), now).await?;
    until.map_or(Ok(()), |until| Err(throttled(until, now)))
}

/// Checks a code of `user_id`'s confirmed authenticator (or, with `recovery`, a recovery code)
/// at `now`, using it up; wrong codes count towards the lock, the user's and the client
/// address's. A recovery code used is recorded and mailed to the user.
pub async fn check_code(db: &Db, user_id: i64, input: &str, recovery: bool, now: i64) -> Result<Accepted, AppError> {
    let address = code_address();
    let mut tx = store::begin_write(db).await?;
    if let Some(until) = code_refused_until(&mut tx, user_id, address.as_deref(), now).await? {
        return Err(throttled(until, now));
    }
    let factor = store::second_factors::of_user(&mut *tx, user_id)
        .await?
        .filter(|f| f.confirmed)
        .ok_or(AppError::Conflict(Msg::SecondFactorNotEnabled))?;
    // A locked factor takes only a recovery code (where one is accepted): the time throttle
    // alone would let a guesser go on for ever.
    let consecutive = store::second_factors::consecutive_failures(&mut *tx, user_id).await?;
    let recovery_entered = matches!(rules::parse_code(input), EnteredCode::Recovery(_));
    if rules::factor_locked(consecutive) && !(recovery && recovery_entered) {
        return Err(AppError::Refused(Msg::SecondFactorLocked));
    }
    let accepted = match rules::parse_code(input) {
        EnteredCode::Totp(code) => {
            let secret = stored_secret(user_id, &factor.secret)?;
            match rules::matching_step(&secret, &code, now, factor.last_step) {
                Some(step) => store::second_factors::use_step(&mut tx, user_id, step)
                    .await?
                    .then_some(Accepted::Authenticator),
                None => None,
            }
        }
        EnteredCode::Recovery(code) if recovery => {
            store::second_factors::use_recovery_code(&mut tx, user_id, &rules::recovery_hash(&code))
                .await?
                .then_some(Accepted::RecoveryCode)
        }
        EnteredCode::Recovery(_) | EnteredCode::Unusable => None,
    };
    let result = settle(&mut tx, user_id, accepted.is_some(), now, address.as_deref()).await;
    if result.is_ok() && accepted == Some(Accepted::RecoveryCode) {
        let left = store::second_factors::recovery_codes_left(&mut *tx, user_id).await?;
        let data = serde_json::json!({ "user_id": user_id, "codes_left": left });
        site_audit::notice(&mut tx, user_id, user_id, Action::RecoveryCodeUsed, data).await?;
    }
    tx.commit().await?;
    result?;
    accepted.ok_or(AppError::Invalid(Msg::SecondFactorCodeWrong))
}

/// Clears the user's failures after a correct code, or records a wrong one: for the user, and
/// for the client `address` (which a correct code does not clear: it may be the guesser's own
/// account). The wrong code that locks the factor is recorded and mailed to the user.
async fn settle(tx: &mut store::Tx, user_id: i64, ok: bool, now: i64, address: Option<&str>) -> Result<(), AppError> {
    if ok {
        store::second_factors::clear_failures(tx, user_id).await?;
        return Ok(());
    }
    store::second_factors::add_failure(tx, user_id, now).await?;
    if let Some(a) = address {
        store::login_attempts::reserve_from(&mut **tx, SECOND_FACTOR_KEY, Some(a), now).await?;
    }
    tracing::info!(user_id, address, "wrong second-factor code");
    let consecutive = store::second_factors::consecutive_failures(&mut **tx, user_id).await?;
    if consecutive == rules::MAX_CONSECUTIVE_FAILURES {
        tracing::warn!(
            user_id,
            consecutive,
            "second factor locked: too many wrong codes in a row"
        );
        let data = serde_json::json!({ "user_id": user_id, "failures": consecutive });
        site_audit::notice(tx, user_id, user_id, Action::SecondFactorLocked, data).await?;
    }
    Ok(())
}

/// The raw secret of `user_id` from its stored form: sealed with the key file, or base32 when
/// written before sealing (start-up seals those; one written meanwhile by an older server is
/// still read).
fn stored_secret(user_id: i64, stored: &str) -> Result<Vec<u8>, AppError> {
    let secret = if store::secret_key::is_sealed(stored) {
        store::secret_key::installed().and_then(|key| key.open(user_id, stored))
    } else {
        rules::secret_from_base32(stored)
    };
    secret.ok_or_else(|| {
        tracing::error!(user_id, "a stored second-factor secret does not open with the key file");
        AppError::Internal
    })
}

/// The user's second factor for the account page.
pub async fn status(db: &Db, user: &User) -> Result<SecondFactorStatus, AppError> {
    Ok(SecondFactorStatus {
        enabled: store::second_factors::is_enabled(db, user.id).await?,
        recovery_codes_left: store::second_factors::recovery_codes_left(db, user.id).await?,
        required: required_for(db, user).await?,
    })
}

/// Starts (or restarts) enrolment with a fresh secret: the QR code and the secret to type.
pub async fn begin_enrolment(db: &Db, user: &User) -> Result<Enrolment, AppError> {
    let mut secret = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut secret);
    let base32 = rules::secret_base32(&secret);
    let key = store::secret_key::installed().ok_or_else(|| {
        tracing::error!("no second-factor key installed at start");
        AppError::Internal
    })?;
    let mut tx = store::begin_write(db).await?;
    if !store::second_factors::begin_enrolment(&mut tx, user.id, &key.seal(user.id, &secret)).await? {
        return Err(AppError::Conflict(Msg::SecondFactorAlreadyEnabled));
    }
    tx.commit().await?;
    let qr_svg = qr_svg(&rules::otpauth_url(&secret, &user.email)).ok_or_else(|| {
        tracing::error!("cannot draw the second-factor QR code");
        AppError::Internal
    })?;
    Ok(Enrolment {
        qr_svg,
        secret: rules::grouped(&base32),
        account: user.email.clone(),
    })
}

/// Confirms enrolment with a first code from the app; returns the recovery codes (shown once).
/// Recorded and mailed to the user; the caller ends the user's other sessions.
pub async fn confirm_enrolment(db: &Db, user_id: i64, input: &str, now: i64) -> Result<Vec<String>, AppError> {
    let address = code_address();
    let mut tx = store::begin_write(db).await?;
    if let Some(until) = code_refused_until(&mut tx, user_id, address.as_deref(), now).await? {
        return Err(throttled(until, now));
    }
    let factor = store::second_factors::of_user(&mut *tx, user_id)
        .await?
        .filter(|f| !f.confirmed)
        .ok_or(AppError::Conflict(Msg::SecondFactorNoEnrolment))?;
    let step = match rules::parse_code(input) {
        EnteredCode::Totp(code) => rules::matching_step(&stored_secret(user_id, &factor.secret)?, &code, now, 0),
        _ => None,
    };
    let Some(step) = step else {
        settle(&mut tx, user_id, false, now, address.as_deref()).await?;
        tx.commit().await?;
        return Err(AppError::Invalid(Msg::SecondFactorCodeWrong));
    };
    store::second_factors::confirm(&mut tx, user_id, step).await?;
    let codes = new_recovery_codes(&mut tx, user_id).await?;
    settle(&mut tx, user_id, true, now, address.as_deref()).await?;
    let data = serde_json::json!({ "user_id": user_id });
    site_audit::notice(&mut tx, user_id, user_id, Action::SecondFactorEnrolled, data).await?;
    tx.commit().await?;
    tracing::info!(user_id, "second factor switched on");
    Ok(codes)
}

pub(crate) async fn new_recovery_codes(tx: &mut store::Tx, user_id: i64) -> Result<Vec<String>, AppError> {
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| {
            let mut random = [0u8; RECOVERY_CHARS];
            rand::rng().fill_bytes(&mut random);
            rules::recovery_code(&random)
        })
        .collect();
    let hashes: Vec<String> = codes
        .iter()
        .filter_map(|c| match rules::parse_code(c) {
            EnteredCode::Recovery(normalised) => Some(rules::recovery_hash(&normalised)),
            _ => None,
        })
        .collect();
    store::second_factors::replace_recovery_codes(tx, user_id, &hashes).await?;
    Ok(codes)
}

/// The code at a manager's sign-off: `Ok(false)` when the user has no second factor and none is
/// required of them (nothing to ask), `Ok(true)` when the code was right; a missing or wrong
/// code is refused, and so is a signer whose role requires a factor they have not set up (a
/// session from before the requirement must not sign off with the password alone).
pub async fn confirm_sign_off(db: &Db, user: &User, input: &str) -> Result<bool, AppError> {
    if !store::second_factors::is_enabled(db, user.id).await? {
        if required_for(db, user).await? {
            return Err(AppError::Refused(Msg::SecondFactorEnrolFirst));
        }
        return Ok(false);
    }
    if input.trim().is_empty() {
        return Err(AppError::Invalid(Msg::SecondFactorCodeNeeded));
    }
    check_code(db, user.id, input, false, store::now_unix()).await?;
    Ok(true)
}

/// Unlocks a user's second factor locked by wrong codes (administrators only; the wrong codes
/// are forgotten), recorded and mailed to the user. `false` when the user has no failures to
/// forget.
pub async fn unlock(db: &Db, admin_id: i64, user_id: i64) -> Result<bool, AppError> {
    let mut tx = store::begin_write(db).await?;
    let consecutive = store::second_factors::consecutive_failures(&mut *tx, user_id).await?;
    if consecutive == 0 {
        return Ok(false);
    }
    store::second_factors::clear_failures(&mut tx, user_id).await?;
    let data = serde_json::json!({ "user_id": user_id, "failures": consecutive });
    site_audit::notice(&mut tx, admin_id, user_id, Action::SecondFactorUnlocked, data).await?;
    tx.commit().await?;
    tracing::info!(
        admin_id,
        user_id,
        consecutive,
        "second factor unlocked by an administrator"
    );
    Ok(true)
}

/// Sets the site setting. Switching it on needs the administrator's own second factor, and ends
/// the sessions of every manager and administrator without one (they enrol at their next sign-in).
pub async fn set_required(
    db: &Db,
    sessions: &SqliteSessionStore,
    admin_id: i64,
    required: bool,
) -> Result<(), AppError> {
    if required && !store::second_factors::is_enabled(db, admin_id).await? {
        return Err(AppError::Refused(Msg::SecondFactorAdminFirst));
    }
    let mut tx = store::begin_write(db).await?;
    store::site::set_second_factor_required(&mut tx, required).await?;
    let value = if required { "on" } else { "off" };
    let data = serde_json::json!({"setting": "second_factor_required", "value": value});
    crate::services::site_audit::record(&mut tx, admin_id, crate::domain::audit::Action::SettingChanged, data).await?;
    tx.commit().await?;
    if required {
        for user_id in store::second_factors::users_missing_required(db).await? {
            sessions.delete_for_user(user_id).await?;
        }
    }
    tracing::info!(admin_id, required, "second-factor requirement set");
    Ok(())
}

/// The QR code of `text` as an `<svg>` element (black modules on white, with the quiet zone),
/// for inline display in the page (the renderer's XML declaration dropped).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(qrcode::render::svg::Color("#000000"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build();
    let start = svg.find("<svg")?;
    Some(svg[start..].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_qr_code_is_plain_svg_of_the_enrolment_url() {
        let url = rules::otpauth_url(b"12345678901234567890", "max@example.com");
        let svg = qr_svg(&url).expect("a URL of this length fits a QR code");
        assert!(svg.starts_with("<svg"), "the XML declaration dropped: {}", &svg[..40]);
        assert!(!svg.contains("<image"), "plain SVG, no embedded image");
        assert!(svg.contains("#000000") && svg.contains("#ffffff"), "black on white");
    }
}
