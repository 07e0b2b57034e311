//! The notice mailed to a user about a change to their own account's security (see
//! `store::security_mail`): in the language they last used the app in, or in both when the app
//! does not know it (English first, then 简体中文).

use crate::{
    domain::audit::Action,
    i18n::{Locale, Msg},
};
use serde_json::Value;

/// The line saying what happened, with the details the event's `data` holds.
#[must_use]
pub fn what_happened(locale: Locale, action: Action, data: &Value) -> String {
    let number = |key: &str| data.get(key).and_then(Value::as_i64).unwrap_or_default().to_string();
    let text = |key: &str| data.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
    match action {
        Action::SecondFactorEnrolled => locale.t(Msg::SecurityMailSecondFactorEnrolled).to_string(),
        Action::SecondFactorDisabled => locale.t(Msg::SecurityMailSecondFactorDisabled).to_string(),
        Action::SecondFactorLocked => locale.fmt(
            Msg::SecurityMailSecondFactorLocked,
            &[("failures", &number("failures"))],
        ),
        Action::SecondFactorUnlocked => locale.t(Msg::SecurityMailSecondFactorUnlocked).to_string(),
        Action::RecoveryCodeUsed => locale.fmt(Msg::SecurityMailRecoveryCodeUsed, &[("left", &number("codes_left"))]),
        Action::RecoveryCodesRegenerated => locale.t(Msg::SecurityMailRecoveryCodesRegenerated).to_string(),
        Action::TokenCreated => locale.fmt(
            Msg::SecurityMailTokenCreated,
            &[
                ("name", &text("name")),
                ("expires", &super::moment(&text("expires_at"))),
            ],
        ),
        Action::PasswordChanged => locale.t(Msg::SecurityMailPasswordChanged).to_string(),
        _ => locale.t(Msg::SecurityMailOther).to_string(),
    }
}

/// The subject: the event's name.
#[must_use]
pub fn subject(locale: Option<Locale>, action: Action) -> String {
    let one = |l: Locale| {
        l.fmt(
            Msg::SecurityMailSubject,
            &[("what", l.t(super::audit::action_msg(action)))],
        )
    };
    match locale {
        Some(l) => one(l),
        None => format!("{} / {}", one(Locale::En), one(Locale::ZhCn)),
    }
}

/// The body: to whom and when, what happened, and what to do if it was not them.
#[must_use]
pub fn body(locale: Option<Locale>, email: &str, at: &str, action: Action, data: &Value, public_url: &str) -> String {
    let one = |l: Locale| {
        format!(
            "{}\n\n{}\n\n{}\n",
            l.fmt(Msg::SecurityMailIntro, &[("email", email), ("at", &super::moment(at))]),
            what_happened(l, action, data),
            l.fmt(Msg::SecurityMailFooter, &[("url", public_url)]),
        )
    };
    match locale {
        Some(l) => one(l),
        None => format!("{}\n---\n\n{}", one(Locale::En), one(Locale::ZhCn)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_account_notice_is_worded_in_both_languages() {
        let notices = [
            Action::SecondFactorEnrolled,
            Action::SecondFactorDisabled,
            Action::SecondFactorLocked,
            Action::SecondFactorUnlocked,
            Action::RecoveryCodeUsed,
            Action::RecoveryCodesRegenerated,
            Action::TokenCreated,
            Action::PasswordChanged,
        ];
        for action in notices {
            for l in [Locale::En, Locale::ZhCn] {
                let line = what_happened(l, action, &json!({}));
                assert!(
                    !line.is_empty() && line != l.t(Msg::SecurityMailOther),
                    "{action:?} {l:?}"
                );
            }
        }
        let data = json!({ "name": "CI", "expires_at": "2027-03-01T10:00:00Z" });
        let en = body(
            Some(Locale::En),
            "eve@example.com",
            "2026-12-05T09:30:00Z",
            Action::TokenCreated,
            &data,
            "https://nl.example.com",
        );
        assert!(en.contains("eve@example.com, at 2026-12-05 09:30 UTC"), "{en}");
        assert!(en.contains("“CI” was created; it expires 2027-03-01 10:00 UTC"), "{en}");
        assert!(
            en.contains("https://nl.example.com/account") && !en.contains("令牌"),
            "{en}"
        );
        let both = body(
            None,
            "eve@example.com",
            "2026-12-05T09:30:00Z",
            Action::TokenCreated,
            &data,
            "https://x",
        );
        assert!(
            both.contains("was created") && both.contains("创建了 API 令牌“CI”"),
            "{both}"
        );
        assert_eq!(
            subject(Some(Locale::ZhCn), Action::PasswordChanged),
            "NodeLedger：修改密码"
        );
        assert_eq!(
            subject(None, Action::SecondFactorLocked),
            "NodeLedger: Second factor locked by wrong codes / NodeLedger：双重验证因错误验证码被锁定"
        );
    }
}
