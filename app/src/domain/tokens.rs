//! API tokens: how they look, how they are stored and how a request presents them.
//!
//! A token is `nlt_` followed by 43 URL-safe base64 characters (32 random bytes). Only its
//! SHA-256 is stored: with 256 bits of randomness a fast hash cannot be brute-forced, and it
//! lets a request's token be found with one indexed lookup.

use sha2::{Digest, Sha256};

/// What every token starts with (lets secret scanners recognise leaked tokens).
pub const TOKEN_PREFIX: &str = "nlt_";
/// Characters after the prefix.
const BODY_LEN: usize = 43;
/// How many leading characters of a token are kept to tell tokens apart.
pub const SHOWN_PREFIX_LEN: usize = 12;
/// Longest token name.
pub const MAX_NAME_CHARS: usize = 80;

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
    fn names() {
        assert_eq!(clean_name("  CI on node-7 ").as_deref(), Some("CI on node-7"));
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name(&"x".repeat(81)), None);
        assert_eq!(clean_name("a\nb"), None);
    }
}
