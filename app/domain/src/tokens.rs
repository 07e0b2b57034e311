//! API tokens: how they look, how they are stored and how a request presents them.
//!
//! A token is `nlt_` followed by 43 URL-safe base64 characters (32 random bytes). Only its
//! SHA-256 is stored: with 256 bits of randomness a fast hash cannot be brute-forced, and it
//! lets a request's token be found with one indexed lookup.
//!
//! A token expires ([`EXPIRY_CHOICES_DAYS`], default [`DEFAULT_EXPIRY_DAYS`]); all of a user's
//! tokens are revoked when their password changes or an administrator disables them
//! ([`RevokeReason`]). Its last use is recorded at most once per [`TOUCH_EVERY_SECS`], so the
//! API's hot path reads but does not write on every request ([`needs_touch`]). Times are
//! compared as stored (`YYYY-MM-DDTHH:MM:SSZ`, which sorts like the moments it names).

use sha2::{Digest, Sha256};

/// What every token starts with (lets secret scanners recognise leaked tokens).
pub const TOKEN_PREFIX: &str = "nlt_";
/// Characters after the prefix.
const BODY_LEN: usize = 43;
/// How many leading characters of a token are kept to tell tokens apart.
pub const SHOWN_PREFIX_LEN: usize = 12;
/// Longest token name.
pub const MAX_NAME_CHARS: usize = 80;

/// How long a new token may live, in days (the user picks one).
pub const EXPIRY_CHOICES_DAYS: [u32; 4] = [7, 30, 90, 365];
/// The lifetime of a token when the user picks none.
pub const DEFAULT_EXPIRY_DAYS: u32 = 90;
/// Last use is written again only when the stored one is at least this old.
pub const TOUCH_EVERY_SECS: i64 = 60;

/// Why a token was revoked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevokeReason {
    /// Its owner revoked it.
    Owner,
    /// With all the user's tokens, when their password changed.
    PasswordChanged,
    /// With all the user's tokens, when an administrator disabled them.
    UserDisabled,
    /// With all the user's tokens of a team, when they left it or their role there changed: a
    /// token acts with the role its user held when making it, and must not come back to life if
    /// they rejoin with that role.
    RoleChanged,
}

impl RevokeReason {
    /// The stored name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RevokeReason::Owner => "owner",
            RevokeReason::PasswordChanged => "password_changed",
            RevokeReason::UserDisabled => "user_disabled",
            RevokeReason::RoleChanged => "role_changed",
        }
    }

    /// The reason of a stored name.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Owner,
            Self::PasswordChanged,
            Self::UserDisabled,
            Self::RoleChanged,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }
}

/// The lifetime chosen on the form: [`DEFAULT_EXPIRY_DAYS`] when none, `None` for anything not
/// in [`EXPIRY_CHOICES_DAYS`].
#[must_use]
pub fn expiry_days(posted: Option<&str>) -> Option<u32> {
    match posted.map(str::trim).filter(|s| !s.is_empty()) {
        None => Some(DEFAULT_EXPIRY_DAYS),
        Some(text) => text.parse().ok().filter(|d| EXPIRY_CHOICES_DAYS.contains(d)),
    }
}

/// Whether a token that expires at `expires_at` has expired at `now`; one without an expiry
/// counts as expired (every token made since expiries exist has one).
#[must_use]
pub fn expired(expires_at: Option<&str>, now: &str) -> bool {
    expires_at.is_none_or(|at| at <= now)
}

/// Whether a use now should be written, given the last recorded use and the moment
/// [`TOUCH_EVERY_SECS`] ago.
#[must_use]
pub fn needs_touch(last_used_at: Option<&str>, touch_before: &str) -> bool {
    last_used_at.is_none_or(|at| at <= touch_before)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 without padding.
#[must_use]
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for &b in bytes {
        acc = (acc << 8) | u32::from(b);
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(char::from(ALPHABET[((acc >> bits) & 63) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((acc << (6 - bits)) & 63) as usize]));
    }
    out
}

/// The token made of 32 random bytes.
#[must_use]
pub fn token_from_bytes(random: &[u8; 32]) -> String {
    format!("{TOKEN_PREFIX}{}", base64url(random))
}

/// The stored form of a token: SHA-256, lowercase hex.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The part of a token shown in the token list.
#[must_use]
pub fn shown_prefix(token: &str) -> String {
    token.chars().take(SHOWN_PREFIX_LEN).collect()
}

/// Whether `token` has the shape of a NodeLedger token (checked before any lookup).
#[must_use]
pub fn well_formed(token: &str) -> bool {
    token
        .strip_prefix(TOKEN_PREFIX)
        .is_some_and(|body| body.len() == BODY_LEN && body.bytes().all(|b| ALPHABET.contains(&b)))
}

/// The token of an `Authorization: Bearer …` header value, if the value has that form.
#[must_use]
pub fn from_authorization(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
        .filter(|t| !t.is_empty())
}

/// A token name as given, trimmed; `None` when empty or longer than [`MAX_NAME_CHARS`].
#[must_use]
pub fn clean_name(name: &str) -> Option<String> {
    let name = name.trim();
    (!name.is_empty() && name.chars().count() <= MAX_NAME_CHARS && !name.chars().any(char::is_control))
        .then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_a_fixed_shape_and_hash() {
        let t = token_from_bytes(&[0xAB; 32]);
        assert!(t.starts_with("nlt_") && t.len() == 4 + 43, "{t}");
        assert!(well_formed(&t));
        assert!(!well_formed(&t[..t.len() - 1]), "too short");
        assert!(!well_formed(&format!("{t}x")), "too long");
        assert!(!well_formed(&t.replace("nlt_", "nlx_")));
        assert!(!well_formed(&format!("nlt_{}", "+".repeat(43))), "alphabet");
        assert_eq!(token_hash(&t).len(), 64);
        assert_ne!(token_hash(&t), token_hash(&token_from_bytes(&[0xAC; 32])));
        assert_eq!(shown_prefix(&t), &t[..12]);
    }

    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"foob"), "Zm9vYg");
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn bearer_headers() {
        assert_eq!(from_authorization("Bearer abc"), Some("abc"));
        assert_eq!(from_authorization("bearer  abc "), Some("abc"));
        assert_eq!(from_authorization("Basic abc"), None);
        assert_eq!(from_authorization("Bearer"), None);
        assert_eq!(from_authorization("Bearer "), None);
    }

    #[test]
    fn lifetimes_are_one_of_four_and_default_to_ninety_days() {
        assert_eq!(expiry_days(None), Some(90));
        assert_eq!(expiry_days(Some(" ")), Some(90));
        assert_eq!(expiry_days(Some("7")), Some(7));
        assert_eq!(expiry_days(Some("365")), Some(365));
        assert_eq!(expiry_days(Some("366")), None, "not a choice");
        assert_eq!(expiry_days(Some("0")), None);
        assert_eq!(expiry_days(Some("-7")), None);
        assert_eq!(expiry_days(Some("99999999999999999999")), None);
    }

    #[test]
    fn a_token_expires_at_its_moment_and_without_one() {
        let now = "2026-12-01T10:00:00Z";
        assert!(!expired(Some("2026-12-01T10:00:01Z"), now));
        assert!(expired(Some("2026-12-01T10:00:00Z"), now), "at the moment itself");
        assert!(expired(Some("2026-11-30T23:59:59Z"), now));
        assert!(expired(None, now), "no expiry: refused");
    }

    #[test]
    fn use_is_written_at_most_once_a_minute() {
        let a_minute_ago = "2026-12-01T09:59:00Z";
        assert!(needs_touch(None, a_minute_ago), "first use");
        assert!(needs_touch(Some("2026-12-01T09:58:30Z"), a_minute_ago));
        assert!(needs_touch(Some(a_minute_ago), a_minute_ago));
        assert!(
            !needs_touch(Some("2026-12-01T09:59:30Z"), a_minute_ago),
            "used 30 s ago"
        );
    }

    #[test]
    fn revoke_reasons_round_trip() {
        for r in [
            RevokeReason::Owner,
            RevokeReason::PasswordChanged,
            RevokeReason::UserDisabled,
            RevokeReason::RoleChanged,
        ] {
            assert_eq!(RevokeReason::parse(r.as_str()), Some(r));
        }
        assert_eq!(RevokeReason::parse("lost"), None);
    }

    #[test]
    fn names() {
        assert_eq!(clean_name("  CI on node-7 ").as_deref(), Some("CI on node-7"));
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name(&"x".repeat(81)), None);
        assert_eq!(clean_name("a\nb"), None);
    }
}
