//! Rules for account fields: e-mail, display name, password, team name.

use nodeledger_messages::Msg;

/// Shortest password accepted (OWASP ASVS 2.1.1: at least 12 characters).
pub const PASSWORD_MIN_CHARS: usize = 12;
/// Longest password accepted (bounds the hashing work an attacker can ask for).
pub const PASSWORD_MAX_CHARS: usize = 128;
/// Longest display name or team name.
pub const NAME_MAX_CHARS: usize = 80;

/// Checks a new password and its confirmation. Length only: no composition rules (NIST 800-63B).
pub fn check_new_password(password: &str, confirmation: &str) -> Result<(), Msg> {
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS {
        return Err(Msg::PasswordTooShort);
    }
    if chars > PASSWORD_MAX_CHARS {
        return Err(Msg::PasswordTooLong);
    }
    if password != confirmation {
        return Err(Msg::PasswordMismatch);
    }
    Ok(())
}

/// Normalises and checks an e-mail address: trimmed, lower-cased, one `@` with text on both
/// sides and a dot in the domain. Returns the normalised address.
pub fn normalize_email(email: &str) -> Result<String, Msg> {
    let email = email.trim().to_lowercase();
    if email.is_empty() {
        return Err(Msg::EmailRequired);
    }
    let valid = email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        });
    if valid { Ok(email) } else { Err(Msg::EmailInvalid) }
}

/// Trims and checks a display name.
pub fn normalize_display_name(name: &str) -> Result<String, Msg> {
    normalize_name(name, Msg::DisplayNameRequired, Msg::DisplayNameTooLong)
}

/// Trims and checks a team name.
pub fn normalize_team_name(name: &str) -> Result<String, Msg> {
    normalize_name(name, Msg::TeamNameRequired, Msg::TeamNameTooLong)
}

fn normalize_name(name: &str, empty: Msg, too_long: Msg) -> Result<String, Msg> {
    let name = name.trim();
    if name.is_empty() {
        Err(empty)
    } else if name.chars().count() > NAME_MAX_CHARS || name.chars().any(char::is_control) {
        Err(too_long)
    } else {
        Ok(name.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_length_edges() {
        let p11 = "a".repeat(11);
        let p12 = "a".repeat(12);
        let p128 = "密".repeat(128);
        let p129 = "a".repeat(129);
        assert_eq!(check_new_password(&p11, &p11), Err(Msg::PasswordTooShort));
        assert_eq!(check_new_password(&p12, &p12), Ok(()));
        assert_eq!(check_new_password(&p128, &p128), Ok(()), "counts characters, not bytes");
        assert_eq!(check_new_password(&p129, &p129), Err(Msg::PasswordTooLong));
        assert_eq!(check_new_password(&p12, "aaaaaaaaaaab"), Err(Msg::PasswordMismatch));
        assert_eq!(
            check_new_password("all lower case words", "all lower case words"),
            Ok(())
        );
    }

    #[test]
    fn emails() {
        assert_eq!(normalize_email("  Ann@Example.COM ").unwrap(), "ann@example.com");
        assert_eq!(normalize_email(""), Err(Msg::EmailRequired));
        for bad in ["ann", "ann@", "@x.io", "a@b", "a b@x.io", "a@x.io.", "a@@x.io"] {
            assert_eq!(normalize_email(bad), Err(Msg::EmailInvalid), "{bad}");
        }
    }

    #[test]
    fn names() {
        assert_eq!(normalize_team_name("  训练组 ").unwrap(), "训练组");
        assert_eq!(normalize_team_name("   "), Err(Msg::TeamNameRequired));
        assert_eq!(normalize_display_name(&"x".repeat(81)), Err(Msg::DisplayNameTooLong));
        assert_eq!(normalize_display_name("a\u{0}b"), Err(Msg::DisplayNameTooLong));
    }
}
