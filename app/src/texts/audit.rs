//! Site events (administrators' actions in the audit chain) in the reader's language: the name of
//! each action and one line saying what it concerned, as the audit page shows them.

use crate::{
    domain::{audit::Action, roles::TeamRole},
    i18n::{Locale, Msg},
    views::audit::SiteEvent,
};

/// The name of an action; order actions are named by the order page, so they get the generic
/// "order" wording of their kind here only for completeness.
#[must_use]
pub const fn action_msg(action: Action) -> Msg {
    match action {
        Action::Create => Msg::OrdersACreate,
        Action::ItemAnswered => Msg::OrdersAItemAnswered,
        Action::EvidenceAttached => Msg::OrdersAEvidenceAttached,
        Action::Submit => Msg::OrdersASubmit,
        Action::Approve => Msg::OrdersAApprove,
        Action::Reject => Msg::OrdersAReject,
        Action::Reopen => Msg::OrdersAReopen,
        Action::UserCreated => Msg::SecAuditAUserCreated,
        Action::TeamCreated => Msg::SecAuditATeamCreated,
        Action::RoleSet => Msg::SecAuditARoleSet,
        Action::MemberRemoved => Msg::SecAuditAMemberRemoved,
        Action::UserDisabled => Msg::SecAuditAUserDisabled,
        Action::UserEnabled => Msg::SecAuditAUserEnabled,
        Action::PasswordChanged => Msg::SecAuditAPasswordChanged,
        Action::TokenCreated => Msg::SecAuditATokenCreated,
        Action::TokenRevoked => Msg::SecAuditATokenRevoked,
        Action::SettingChanged => Msg::SecAuditASettingChanged,
        // Rentals.
        Action::RentalRecorded => Msg::RentalsARecorded,
        Action::RentalCorrected => Msg::RentalsACorrected,
        Action::RentalStopped => Msg::RentalsAStopped,
        Action::RentalReleased => Msg::RentalsAReleased,
        // The vendor's bill.
        Action::BillImported => Msg::BillsABillImported,
        Action::BillThresholdSet => Msg::BillsAThresholdSet,
        Action::SecondFactorEnrolled => Msg::SecAuditASecondFactorEnrolled,
        Action::SecondFactorDisabled => Msg::SecAuditASecondFactorDisabled,
        Action::SecondFactorLocked => Msg::SecAuditASecondFactorLocked,
        Action::SecondFactorUnlocked => Msg::SecAuditASecondFactorUnlocked,
        Action::RecoveryCodeUsed => Msg::SecAuditARecoveryCodeUsed,
        Action::RecoveryCodesRegenerated => Msg::SecAuditARecoveryCodesRegenerated,
        Action::RfqCreated => Msg::RfqACreated,
        Action::RfqChanged => Msg::RfqAChanged,
        Action::RfqLinkRevoked => Msg::RfqALinkRevoked,
        Action::RfqBidSubmitted => Msg::RfqABidSubmitted,
        Action::RfqClosed => Msg::RfqAClosed,
    }
}

/// Who acted: the user's name and e-mail, or "command line".
#[must_use]
pub fn actor(locale: Locale, event: &SiteEvent) -> String {
    match &event.actor {
        Some(name) => name.clone(),
        None if event.actor_id == crate::domain::audit::CLI_ACTOR => locale.t(Msg::SecAuditCli).to_string(),
        None if event.actor_id == crate::domain::audit::VENDOR_ACTOR => locale.t(Msg::RfqVendorActor).to_string(),
        None => locale.fmt(Msg::SecAuditUnknown, &[("id", &event.actor_id.to_string())]),
    }
}

/// What the event concerned, in one line (e.g. "ada@example.com joins GPU Team as Engineer").
#[must_use]
pub fn detail(locale: Locale, event: &SiteEvent) -> String {
    let data = &event.data;
    let text = |key: &str| data.get(key).and_then(serde_json::Value::as_str).unwrap_or_default();
    let number = |key: &str| data.get(key).and_then(serde_json::Value::as_i64).unwrap_or_default();
    let named = |name: &Option<String>, key: &str| {
        name.clone()
            .unwrap_or_else(|| locale.fmt(Msg::SecAuditUnknown, &[("id", &number(key).to_string())]))
    };
    let user = named(&event.user, "user_id");
    let team = named(&event.team, "team_id");
    let role = |key: &str| TeamRole::parse(text(key)).map_or_else(String::new, |r| locale.t(r.label()).to_string());
    let tokens = number("tokens_revoked").to_string();
    let joins = || {
        locale.fmt(
            Msg::SecAuditDJoins,
            &[("user", &user), ("team", &team), ("role", &role("role"))],
        )
    };
    match event.action {
        Action::UserCreated if data.get("team_id").is_some() => joins(),
        Action::UserCreated if data.get("is_admin").and_then(serde_json::Value::as_bool) == Some(true) => {
            locale.fmt(Msg::SecAuditDAdmin, &[("user", &user)])
        }
        Action::TeamCreated => team,
        Action::RoleSet if text("previous").is_empty() => joins(),
        Action::RoleSet => locale.fmt(
            Msg::SecAuditDRoleChanged,
            &[
                ("user", &user),
                ("team", &team),
                ("previous", &role("previous")),
                ("role", &role("role")),
            ],
        ),
        Action::MemberRemoved => locale.fmt(
            Msg::SecAuditDRemoved,
            &[("user", &user), ("team", &team), ("role", &role("role"))],
        ),
        Action::UserDisabled | Action::PasswordChanged => {
            locale.fmt(Msg::SecAuditDTokensRevoked, &[("user", &user), ("tokens", &tokens)])
        }
        Action::TokenCreated => locale.fmt(
            Msg::SecAuditDTokenCreated,
            &[
                ("name", text("name")),
                ("user", &user),
                ("team", &team),
                ("role", &role("role")),
                ("expires", &super::moment(text("expires_at"))),
            ],
        ),
        Action::TokenRevoked => locale.fmt(
            Msg::SecAuditDTokenRevoked,
            &[("token", &number("token_id").to_string()), ("user", &user)],
        ),
        Action::SettingChanged => locale.fmt(
            Msg::SecAuditDSetting,
            &[("setting", text("setting")), ("value", text("value"))],
        ),
        // The team's bill variance threshold.
        Action::BillThresholdSet => locale.fmt(
            Msg::BillsDThresholdSet,
            &[
                ("team", &team),
                ("previous", text("previous")),
                ("value", text("value")),
            ],
        ),
        Action::RfqCreated
        | Action::RfqChanged
        | Action::RfqLinkRevoked
        | Action::RfqBidSubmitted
        | Action::RfqClosed => request_detail(locale, data, &team),
        _ => locale.fmt(Msg::SecAuditDUser, &[("user", &user)]),
    }
}

/// A request-for-quotation event: the request, and a bid's revision and receipt.
fn request_detail(locale: Locale, data: &serde_json::Value, team: &str) -> String {
    let number = |key: &str| data.get(key).and_then(serde_json::Value::as_i64).unwrap_or_default();
    let receipt = data
        .get("receipt")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    let mut line = locale.fmt(
        Msg::RfqDRequest,
        &[("id", &number("request_id").to_string()), ("team", team)],
    );
    if !receipt.is_empty() {
        line.push_str(&locale.fmt(
            Msg::RfqDReceipt,
            &[("revision", &number("revision").to_string()), ("receipt", receipt)],
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(action: Action, data: serde_json::Value) -> SiteEvent {
        SiteEvent {
            seq: 9,
            at: "2026-12-01T10:00:00Z".into(),
            actor_id: 1,
            actor: Some("Root <root@example.com>".into()),
            action,
            data,
            user: Some("ada@example.com".into()),
            team: Some("GPU Team".into()),
        }
    }

    #[test]
    fn every_action_has_a_name_in_both_languages() {
        for a in Action::ALL {
            assert!(!Locale::En.t(action_msg(a)).is_empty(), "{a:?}");
            assert!(!Locale::ZhCn.t(action_msg(a)).is_empty(), "{a:?}");
        }
        assert_eq!(Locale::En.t(action_msg(Action::TokenRevoked)), "API token revoked");
        assert_eq!(Locale::ZhCn.t(action_msg(Action::TokenRevoked)), "吊销 API 令牌");
    }

    #[test]
    fn details_name_the_user_team_and_roles() {
        let joined = event(
            Action::UserCreated,
            json!({ "user_id": 2, "team_id": 1, "role": "engineer" }),
        );
        assert_eq!(
            detail(Locale::En, &joined),
            "ada@example.com joins GPU Team as Engineer"
        );
        assert_eq!(
            detail(Locale::ZhCn, &joined),
            "ada@example.com 加入 GPU Team，角色为工程师"
        );
        let admin = event(Action::UserCreated, json!({ "user_id": 2, "is_admin": true }));
        assert_eq!(detail(Locale::En, &admin), "ada@example.com, administrator");
        let changed = event(
            Action::RoleSet,
            json!({ "user_id": 2, "team_id": 1, "role": "manager", "previous": "engineer" }),
        );
        assert_eq!(
            detail(Locale::En, &changed),
            "ada@example.com in GPU Team: Engineer → Manager"
        );
        let disabled = event(Action::UserDisabled, json!({ "user_id": 2, "tokens_revoked": 3 }));
        assert_eq!(detail(Locale::En, &disabled), "ada@example.com; 3 API tokens revoked");
        let token = event(
            Action::TokenCreated,
            json!({ "token_id": 4, "user_id": 2, "team_id": 1, "role": "engineer", "name": "CI", "expires_at": "2027-03-01T10:00:00Z" }),
        );
        assert_eq!(
            detail(Locale::En, &token),
            "“CI” for ada@example.com in GPU Team as Engineer, expires 2027-03-01 10:00 UTC"
        );
        let gone = SiteEvent {
            user: None,
            ..event(Action::UserEnabled, json!({ "user_id": 77 }))
        };
        assert_eq!(
            detail(Locale::En, &gone),
            "#77",
            "a user no longer there is named by id"
        );
    }

    #[test]
    fn the_command_line_is_named_as_such() {
        let cli = SiteEvent {
            actor_id: 0,
            actor: None,
            ..event(Action::UserCreated, json!({}))
        };
        assert_eq!(actor(Locale::En, &cli), "command line");
        assert_eq!(actor(Locale::ZhCn, &cli), "命令行");
    }
}
