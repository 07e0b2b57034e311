//! The one password check every form that asks for a password goes through — sign-in, the
//! manager's sign-off on an order, the password change, re-authentication — throttled by account and by client
//! address ([`crate::domain::throttle`]), on the bounded hashing queue of
//! [`crate::auth::password`]; the set-up code check, counted by address alike
//! ([`check_setup_code`]); and where the client address comes from.
//!
//! The client address is the TCP peer, unless the server is told that a reverse proxy in front
//! of it appends the client's address to a header (`NODELEDGER_TRUSTED_PROXY_HEADER`, e.g.
//! `X-Forwarded-For`): then it is the last entry of that header, the one the proxy wrote. The
//! header is never read when not configured, since any client can send it.

use crate::{
    auth::password,
    domain::throttle,
    error::AppError,
    store::{self, Db},
};
use http::{HeaderMap, HeaderName};
use std::net::{IpAddr, SocketAddr};

/// The client's address for this request, put in the request extensions by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The client address: the last entry of the `trusted` header when one is configured and
/// holds an address (`1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443`…), else the TCP `peer`.
pub fn client_addr_from(peer: Option<IpAddr>, headers: &HeaderMap, trusted: Option<&HeaderName>) -> Option<IpAddr> {
    let forwarded = trusted.and_then(|name| {
        let last_value = headers.get_all(name).iter().next_back()?;
        let last_hop = last_value.to_str().ok()?.rsplit(',').next()?.trim();
        parse_addr(last_hop)
    });
    forwarded.or(peer)
}

fn parse_addr(s: &str) -> Option<IpAddr> {
    s.parse::<IpAddr>()
        .ok()
        .or_else(|| s.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| s.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
}

/// The client address of the request being served, if the server recorded one.
pub fn client_addr() -> Option<IpAddr> {
    leptos::prelude::use_context::<http::request::Parts>()?
        .extensions
        .get::<ClientAddr>()
        .map(|a| a.0)
}

/// Seconds a client should wait before trying again (the `Retry-After` header of a throttled or
/// busy answer; the server sets it from the error).
pub fn retry_after_secs(error: &AppError) -> Option<u64> {
    match error {
        AppError::Throttled(minutes) => Some(u64::from(*minutes) * 60),
        AppError::Busy(secs)
        | AppError::PlannersBusy(secs)
        | AppError::OwnComparisonsBusy(secs)
        | AppError::BidsTooFast(secs) => Some(u64::from(*secs)),
        _ => None,
    }
}

/// What a password is being checked for (named in the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Signing in.
    SignIn,
    /// A manager re-entering the password to approve or reject an order.
    SignOff,
    /// The current password, to set a new one.
    PasswordChange,
    /// The current password, to confirm another change to one's own account (second factor,
    /// recovery codes, API token).
    Reauthentication,
}

/// [`check_password_from`] with the address of the request being served.
pub async fn check_password(
    db: &Db,
    email: &str,
    password: String,
    phc: Option<String>,
    purpose: Purpose,
) -> Result<bool, AppError> {
    check_password_from(db, email, client_addr(), password, phc, purpose).await
}

/// Whether `password` matches `phc`, the hash of the account `email` (`None` for an unknown
/// account: checked against a dummy hash, same time, `false`).
///
/// Refused with [`AppError::Throttled`] before any hashing when the account or the address is
/// locked; the lock check and the reservation of this attempt are one write transaction, and the
/// attempt counts as a failure until the password matches, so parallel guesses cannot all slip
/// past. [`AppError::Busy`] when too many passwords are being checked (the attempt is then not
/// counted). A failure is logged with the account, the client address and the purpose.
pub async fn check_password_from(
    db: &Db,
    email: &str,
    address: Option<IpAddr>,
    password: String,
    phc: Option<String>,
    purpose: Purpose,
) -> Result<bool, AppError> {
    let email = email.trim().to_lowercase();
    let shown = address.map_or_else(|| "unknown".to_string(), |a| a.to_string());
    let shown = shown.as_str();
    // Counted by address key: IPv4 exactly, IPv6 by its /64.
    let address = address.map(throttle::address_key);
    let now = store::now_unix();
    let mut tx = store::begin_write(db).await?;
    let account = store::login_attempts::recent_failures(&mut *tx, &email, now).await?;
    let from_address = match &address {
        Some(a) => store::login_attempts::address_failures(&mut *tx, a, now).await?,
        None => Vec::new(),
    };
    if let Some(until) = throttle::refused_until(&account, &from_address, now) {
        tracing::warn!(%email, address = shown, ?purpose, until, "password attempt refused: throttled");
        return Err(AppError::Throttled(throttle::minutes_left(until, now)));
    }
    let attempt = store::login_attempts::reserve_from(&mut *tx, &email, address.as_deref(), now).await?;
    tx.commit().await?;
    match password::verify(password, phc).await {
        Ok(true) => {
            store::login_attempts::succeeded(db, attempt).await?;
            Ok(true)
        }
        Ok(false) => {
            tracing::info!(%email, address = shown, ?purpose, "password check failed");
            Ok(false)
        }
        Err(e) => {
            if matches!(e, AppError::Busy(_)) {
                store::login_attempts::release(db, attempt).await?;
            }
            Err(e)
        }
    }
}

/// What failed attempts at the set-up code are stored under in `login_attempts`, in place of an
/// account e-mail (it can never be one: it has no `@`).
pub const SETUP_CODE_KEY: &str = "(setup code)";

/// What wrong second-factor codes are stored under in `login_attempts`, with their client
/// address, in place of an account e-mail (it has no `@`): they count towards the address's
/// limit like wrong passwords, so one address cannot guess codes across many accounts.
pub const SECOND_FACTOR_KEY: &str = "(second factor)";

/// [`check_setup_code_from`] with the address of the request being served.
pub async fn check_setup_code(db: &Db, matches: impl FnOnce() -> bool) -> Result<bool, AppError> {
    check_setup_code_from(db, client_addr(), matches).await
}

/// Whether the set-up code given matches (`matches` compares it), throttled like a password by
/// client address: refused with [`AppError::Throttled`] before comparing when the address is
/// locked, and a wrong code counts as a failed attempt of that address (sign-in included). There
/// is no per-account lock: anyone could then keep the operator out of set-up.
pub async fn check_setup_code_from(
    db: &Db,
    address: Option<IpAddr>,
    matches: impl FnOnce() -> bool,
) -> Result<bool, AppError> {
    let shown = address.map_or_else(|| "unknown".to_string(), |a| a.to_string());
    let address = address.map(throttle::address_key);
    let now = store::now_unix();
    let mut tx = store::begin_write(db).await?;
    if let Some(a) = &address {
        let failures = store::login_attempts::address_failures(&mut *tx, a, now).await?;
        if let Some(until) = throttle::refused_until(&[], &failures, now) {
            tracing::warn!(address = shown, until, "set-up code attempt refused: throttled");
            return Err(AppError::Throttled(throttle::minutes_left(until, now)));
        }
    }
    if matches() {
        return Ok(true);
    }
    store::login_attempts::reserve_from(&mut *tx, SETUP_CODE_KEY, address.as_deref(), now).await?;
    tx.commit().await?;
    tracing::warn!(address = shown, "wrong set-up code");
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn throttled_and_busy_say_when_to_retry_in_both_languages() {
        use crate::i18n::Locale;
        assert_eq!(retry_after_secs(&AppError::Throttled(15)), Some(900));
        assert_eq!(retry_after_secs(&AppError::Busy(2)), Some(2));
        assert_eq!(retry_after_secs(&AppError::Forbidden), None);
        assert!(AppError::Throttled(7).localized(Locale::En).contains("7 min"));
        assert!(AppError::Throttled(7).localized(Locale::ZhCn).contains("7 分钟"));
        assert!(!AppError::Busy(2).localized(Locale::ZhCn).is_empty());
    }

    #[test]
    fn a_weak_password_answer_gives_the_reason_then_the_advice_in_the_users_language() {
        use crate::i18n::{Locale, Msg};
        let e = AppError::WeakPassword {
            reason: Msg::PwQualityCommon,
            suggestions: vec![Msg::PwQualitySFewWords],
        };
        assert_eq!(e.status_code(), 422);
        let en = e.localized(Locale::En);
        assert!(en.starts_with("This password is on the list"), "{en}");
        assert!(en.ends_with("avoid common phrases."), "{en}");
        let zh = e.localized(Locale::ZhCn);
        assert!(zh.contains("10 万") && zh.contains("互不相关"), "{zh}");
        let json = serde_json::to_string(&e).unwrap();
        assert!(
            json.contains(r#""error":"weak_password""#) && json.contains("pw_quality.common"),
            "{json}"
        );
    }

    #[test]
    fn without_a_trusted_header_the_peer_is_the_client() {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", HeaderValue::from_static("203.0.113.9"));
        assert_eq!(client_addr_from(Some(ip("10.0.0.2")), &h, None), Some(ip("10.0.0.2")));
        assert_eq!(client_addr_from(None, &h, None), None);
    }

    #[test]
    fn with_a_trusted_header_the_last_hop_is_the_client() {
        let xff = HeaderName::from_static("x-forwarded-for");
        let mut h = HeaderMap::new();
        // A client forged the first entry; the proxy appended the real one.
        h.insert(&xff, HeaderValue::from_static("198.51.100.1, 203.0.113.9"));
        assert_eq!(
            client_addr_from(Some(ip("10.0.0.2")), &h, Some(&xff)),
            Some(ip("203.0.113.9"))
        );
        h.append(&xff, HeaderValue::from_static("[2001:db8::7]:443"));
        assert_eq!(
            client_addr_from(None, &h, Some(&xff)),
            Some(ip("2001:db8::7")),
            "last header line"
        );
        h.insert(&xff, HeaderValue::from_static("192.0.2.4:5678"));
        assert_eq!(client_addr_from(None, &h, Some(&xff)), Some(ip("192.0.2.4")));
    }

    #[test]
    fn a_missing_or_garbled_trusted_header_falls_back_to_the_peer() {
        let xff = HeaderName::from_static("x-forwarded-for");
        let mut h = HeaderMap::new();
        assert_eq!(
            client_addr_from(Some(ip("10.0.0.2")), &h, Some(&xff)),
            Some(ip("10.0.0.2"))
        );
        h.insert(&xff, HeaderValue::from_static("1.2.3.4, not-an-address"));
        assert_eq!(
            client_addr_from(Some(ip("10.0.0.2")), &h, Some(&xff)),
            Some(ip("10.0.0.2"))
        );
    }
}
