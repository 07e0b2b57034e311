//! The second factor: TOTP authenticator codes (RFC 6238) and one-time recovery codes.
//!
//! The parameters are the ones every common authenticator app (Google Authenticator, 1Password,
//! Authy, Microsoft Authenticator) accepts without asking: HMAC-SHA-1, 6 digits, 30-second
//! steps, a 160-bit random secret shown as base32.
//!
//! - A code is checked against the current step and one step either side
//!   ([`SKEW_STEPS`]), for clocks that drift and codes typed as they roll over.
//! - A code is accepted once: the step it matched is stored, and a code of that step or an
//!   earlier one is refused afterwards ([`matching_step`]), so an observed code cannot be replayed.
//! - Recovery codes are 12 characters from a 32-letter alphabet (60 bits), shown as
//!   `abcd-efgh-jkmn`; only their SHA-256 is stored (the randomness makes a slow hash needless)
//!   and each works once.
//! - Five wrong codes within 15 minutes lock the code check for 15 minutes
//!   ([`code_locked_until`]), like ten wrong passwords lock sign-in.
//! - [`MAX_CONSECUTIVE_FAILURES`] wrong codes in a row, however slowly, lock the factor itself
//!   ([`factor_locked`]): then only a recovery code (or an administrator) unlocks it, so the
//!   sliding 15-minute window cannot be used to guess for ever.
//! - Between a correct password and a correct code the session is only *pending*, for at most
//!   [`PENDING_SECS`].
//!
//! Worked example (RFC 6238 appendix B, SHA-1, 8 digits there): the ASCII secret
//! `12345678901234567890` at Unix time 59 gives `94287082`; with 6 digits that is `287082`.

use crate::throttle::{LOCK_SECS, WINDOW_SECS};
use sha2::{Digest, Sha256};

/// Seconds per time step.
pub const STEP_SECS: i64 = 30;
/// Digits of a code.
pub const DIGITS: usize = 6;
/// Steps accepted either side of the current one.
pub const SKEW_STEPS: i64 = 1;
/// Bytes of a new secret (160 bits, as RFC 4226 recommends).
pub const SECRET_BYTES: usize = 20;
/// Recovery codes made at enrolment (and at each regeneration).
pub const RECOVERY_CODES: usize = 10;
/// Characters of a recovery code, without its hyphens.
pub const RECOVERY_CHARS: usize = 12;
/// Wrong codes within [`WINDOW_SECS`] that lock the code check.
pub const MAX_CODE_FAILURES: usize = 5;
/// Wrong codes in a row (authenticator or recovery, at sign-in and at sign-off alike, with no
/// correct one between) that lock the factor until a recovery code is used or an administrator
/// unlocks it. NIST SP 800-63B allows at most 100; 20 is reached by the 15-minute throttle
/// within about an hour and leaves a guesser a chance of about 20 × 3 / 10⁶ (three codes of
/// the window accepted per guess), while a user who mistypes now and then never gets near it.
pub const MAX_CONSECUTIVE_FAILURES: i64 = 20;
/// How long a sign-in may wait for its code after the password matched.
pub const PENDING_SECS: i64 = 5 * 60;
/// The issuer shown in the authenticator app.
pub const ISSUER: &str = "NodeLedger";

/// Characters of recovery codes: lower-case letters without the look-alikes `i l o u`, and the
/// ten digits; 32 in all, so each character carries 5 bits.
const RECOVERY_ALPHABET: &[u8; 32] = b"abcdefghjkmnpqrstvwxyz0123456789";

/// What a user typed in the code field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnteredCode {
    /// Six digits from the authenticator app (spaces removed).
    Totp(String),
    /// A recovery code, normalised (lower case, no spaces or hyphens).
    Recovery(String),
    /// Nothing, or something that is neither.
    Unusable,
}

/// Reads a typed code: six digits are an authenticator code; twelve characters of the recovery
/// alphabet (any case, spaces and hyphens ignored) are a recovery code.
pub fn parse_code(input: &str) -> EnteredCode {
    let cleaned: String = input
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if cleaned.len() == DIGITS && cleaned.bytes().all(|b| b.is_ascii_digit()) {
        EnteredCode::Totp(cleaned)
    } else if cleaned.len() == RECOVERY_CHARS && cleaned.bytes().all(|b| RECOVERY_ALPHABET.contains(&b)) {
        EnteredCode::Recovery(cleaned)
    } else {
        EnteredCode::Unusable
    }
}

/// The time step of Unix time `now`.
pub fn step_of(now: i64) -> i64 {
    now.div_euclid(STEP_SECS)
}

/// The 6-digit code of `secret` for time step `step` (RFC 4226 HOTP with the step as counter,
/// dynamic truncation, SHA-1).
pub fn code_at(secret: &[u8], step: i64) -> String {
    let totp = authenticator(secret);
    let time = u64::try_from(step.saturating_mul(STEP_SECS)).unwrap_or(0);
    totp.generate(time)
}

fn authenticator(secret: &[u8]) -> totp_rs::TOTP {
    totp_rs::TOTP::new_unchecked(
        totp_rs::Algorithm::SHA1,
        DIGITS,
        0,
        STEP_SECS.unsigned_abs(),
        secret.to_vec(),
        Some(ISSUER.to_string()),
        String::new(),
    )
}

/// The step `code` matches at `now` (current step ± [`SKEW_STEPS`]), if it is later than
/// `last_used_step` — a code already used, or one older than it, is refused.
pub fn matching_step(secret: &[u8], code: &str, now: i64, last_used_step: i64) -> Option<i64> {
    let current = step_of(now);
    (current - SKEW_STEPS..=current + SKEW_STEPS)
        .filter(|step| *step > last_used_step && *step >= 0)
        .find(|step| constant_time_eq(code_at(secret, *step).as_bytes(), code.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The secret as base32 (RFC 4648, no padding), as authenticator apps take it.
pub fn secret_base32(secret: &[u8]) -> String {
    authenticator(secret).get_secret_base32()
}

/// The secret back from its base32 form (`None` when it is not valid base32).
pub fn secret_from_base32(text: &str) -> Option<Vec<u8>> {
    totp_rs::Secret::Encoded(text.to_string()).to_bytes().ok()
}

/// The base32 secret in groups of four for typing by hand: `ABCD EFGH …`.
pub fn grouped(base32: &str) -> String {
    base32
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `otpauth://totp/NodeLedger:{account}?secret=…&issuer=NodeLedger` URL an authenticator app
/// reads from the QR code.
pub fn otpauth_url(secret: &[u8], account: &str) -> String {
    let mut totp = authenticator(secret);
    totp.account_name = account.replace(':', " ");
    totp.get_url()
}

/// A recovery code made from random bytes (one character per byte, 5 bits each; at least
/// [`RECOVERY_CHARS`] bytes), formatted for display: `abcd-efgh-jkmn`.
pub fn recovery_code(random: &[u8]) -> String {
    let chars: Vec<char> = random
        .iter()
        .take(RECOVERY_CHARS)
        .map(|b| char::from(RECOVERY_ALPHABET[usize::from(b & 31)]))
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// What is stored of a recovery code: SHA-256 hex of its normalised form (see [`parse_code`]).
pub fn recovery_hash(normalised: &str) -> String {
    hex::encode(Sha256::digest(normalised.as_bytes()))
}

/// When the code check is locked at `now`, the time (Unix seconds) the lock ends.
///
/// `failures` are the times of wrong codes since the last correct one, at least the last
/// `WINDOW_SECS + LOCK_SECS`, ascending.
pub fn code_locked_until(failures: &[i64], now: i64) -> Option<i64> {
    failures
        .windows(MAX_CODE_FAILURES)
        .filter(|w| w[MAX_CODE_FAILURES - 1] - w[0] <= WINDOW_SECS)
        .map(|w| w[MAX_CODE_FAILURES - 1] + LOCK_SECS)
        .max()
        .filter(|until| *until > now)
}

/// Whether `consecutive` wrong codes in a row lock the factor (see [`MAX_CONSECUTIVE_FAILURES`]).
pub fn factor_locked(consecutive: i64) -> bool {
    consecutive >= MAX_CONSECUTIVE_FAILURES
}

/// Whether a sign-in pending since `started_at` may still be completed at `now`.
pub fn pending_alive(started_at: i64, now: i64) -> bool {
    (0..PENDING_SECS).contains(&(now - started_at))
}

/// Which step of sign-in comes next after a correct password.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LoginStep {
    /// Signed in.
    Done,
    /// The user has a second factor: enter its code (or a recovery code).
    Code,
    /// A second factor is required for this user and they have none: set one up first.
    Enrol,
}

#[cfg(test)]
mod totp_tests {
    use super::*;

    const RFC_SECRET: &[u8] = b"12345678901234567890";

    #[test]
    fn rfc_6238_vectors_with_six_digits() {
        // Appendix B (SHA-1), last six digits of the eight given there.
        for (time, code) in [
            (59, "287082"),
            (1_111_111_109, "081804"),
            (1_111_111_111, "050471"),
            (1_234_567_890, "005924"),
            (2_000_000_000, "279037"),
        ] {
            assert_eq!(code_at(RFC_SECRET, step_of(time)), code, "at {time}");
        }
    }

    #[test]
    fn a_code_is_accepted_one_step_either_side_and_no_further() {
        let now = 1_111_111_111; // step 37 037 037
        let step = step_of(now);
        for offset in [-1, 0, 1] {
            let code = code_at(RFC_SECRET, step + offset);
            assert_eq!(
                matching_step(RFC_SECRET, &code, now, 0),
                Some(step + offset),
                "offset {offset}"
            );
        }
        for offset in [-2, 2] {
            let code = code_at(RFC_SECRET, step + offset);
            assert_eq!(matching_step(RFC_SECRET, &code, now, 0), None, "offset {offset}");
        }
        assert_eq!(matching_step(RFC_SECRET, "000000", now, 0), None);
        assert_eq!(
            matching_step(b"another secret 12345", &code_at(RFC_SECRET, step), now, 0),
            None
        );
    }

    #[test]
    fn a_used_code_and_older_ones_are_refused() {
        let now = 1_234_567_890;
        let step = step_of(now);
        let code = code_at(RFC_SECRET, step);
        let used = matching_step(RFC_SECRET, &code, now, 0).unwrap();
        assert_eq!(
            matching_step(RFC_SECRET, &code, now, used),
            None,
            "replay in the same step"
        );
        assert_eq!(
            matching_step(RFC_SECRET, &code, now + 10, used),
            None,
            "replay later in the step"
        );
        let previous = code_at(RFC_SECRET, step - 1);
        assert_eq!(
            matching_step(RFC_SECRET, &previous, now, used),
            None,
            "an older code after a newer one"
        );
        let next = code_at(RFC_SECRET, step + 1);
        assert_eq!(
            matching_step(RFC_SECRET, &next, now + 30, used),
            Some(step + 1),
            "the next step's code"
        );
    }

    #[test]
    fn the_secret_round_trips_through_base32_and_the_url_names_the_issuer() {
        let b32 = secret_base32(RFC_SECRET);
        assert_eq!(b32, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
        assert_eq!(secret_from_base32(&b32).unwrap(), RFC_SECRET);
        assert_eq!(grouped(&b32), "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ");
        let url = otpauth_url(RFC_SECRET, "max@example.com");
        assert_eq!(
            url,
            "otpauth://totp/NodeLedger:max%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=NodeLedger"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_codes_are_read_generously() {
        assert_eq!(parse_code(" 123 456 "), EnteredCode::Totp("123456".into()));
        assert_eq!(
            parse_code("ABCD-efgh-jkmn"),
            EnteredCode::Recovery("abcdefghjkmn".into())
        );
        assert_eq!(
            parse_code("abcd efgh jkmn"),
            EnteredCode::Recovery("abcdefghjkmn".into())
        );
        assert_eq!(parse_code(""), EnteredCode::Unusable);
        assert_eq!(parse_code("12345"), EnteredCode::Unusable);
        assert_eq!(
            parse_code("abcd-efgh-jkml"),
            EnteredCode::Unusable,
            "l is not in the alphabet"
        );
    }

    #[test]
    fn recovery_codes_parse_back_to_what_is_hashed() {
        let code = recovery_code(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30, 31, 99]);
        assert_eq!(code, "abcd-efgh-jk89");
        let EnteredCode::Recovery(normalised) = parse_code(&code) else {
            panic!("a made code must parse")
        };
        assert_eq!(recovery_hash(&normalised), recovery_hash("abcdefghjk89"));
        assert_ne!(recovery_hash("abcdefghjk89"), recovery_hash("abcdefghjk88"));
        assert_eq!(recovery_hash("abcdefghjk89").len(), 64);
    }

    #[test]
    fn five_wrong_codes_in_fifteen_minutes_lock_for_fifteen_minutes() {
        let four: Vec<i64> = (0..4).map(|i| 1000 + i * 60).collect();
        assert_eq!(code_locked_until(&four, 1300), None);
        let five: Vec<i64> = (0..5).map(|i| 1000 + i * 60).collect();
        let last = 1000 + 4 * 60;
        assert_eq!(code_locked_until(&five, last + 1), Some(last + LOCK_SECS));
        assert_eq!(code_locked_until(&five, last + LOCK_SECS), None, "lock over");
        let spread: Vec<i64> = (0..5).map(|i| i * 226).collect(); // 904 s > 900 s
        assert_eq!(code_locked_until(&spread, 1000), None);
    }

    #[test]
    fn a_pending_sign_in_lasts_five_minutes() {
        assert!(pending_alive(1000, 1000));
        assert!(pending_alive(1000, 1000 + PENDING_SECS - 1));
        assert!(!pending_alive(1000, 1000 + PENDING_SECS));
        assert!(!pending_alive(1000, 999), "started in the future");
    }
}
