//! What an audit event records.

use serde::{Deserialize, Serialize};

/// `order_id` of a site event (an administrator's or the command line's action, not about an
/// order). Order ids start at 1, so 0 is never an order; the hash recipe stays the same for
/// every event.
pub const NO_ORDER: i64 = 0;

/// `actor_id` of an event made by the `nodeledger` command line (run by whoever holds the
/// server's shell, not by a signed-in user). User ids start at 1.
pub const CLI_ACTOR: i64 = 0;

/// `actor_id` of an event made by a vendor through its bid link (no account; `data` names the
/// vendor). User ids start at 1.
pub const VENDOR_ACTOR: i64 = -1;

/// The kind of an audit event; serialized (and hashed) in snake_case.
///
/// The first seven record an order's lifecycle (`order_id` is the order); the others are site
/// events ([`Action::is_site`], `order_id` [`NO_ORDER`]) whose `data` names what they concern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The order was created (first event of an order's history).
    Create,
    /// A checklist item was answered or changed.
    ItemAnswered,
    /// Evidence was attached to an item.
    EvidenceAttached,
    /// The order was submitted for approval.
    Submit,
    /// A manager approved the order.
    Approve,
    /// A manager rejected the order.
    Reject,
    /// An approved or rejected order was reopened as a new draft revision.
    Reopen,
    /// A user was created (`user_id`, `email`, `is_admin`, `via`; `team_id` and `role` when they
    /// joined a team at once).
    UserCreated,
    /// A team was created (`team_id`, `name`).
    TeamCreated,
    /// A user was given a role in a team or had it changed (`user_id`, `team_id`, `role`,
    /// `previous`: the role before, `""` for a new member; `tokens_revoked`: their API tokens of
    /// the team revoked with it, in events recorded since that is done).
    RoleSet,
    /// A user was removed from a team (`user_id`, `team_id`, `role` they had; `tokens_revoked`
    /// as for [`Action::RoleSet`]).
    MemberRemoved,
    /// A user was disabled (`user_id`, `tokens_revoked`).
    UserDisabled,
    /// A disabled user was enabled again (`user_id`).
    UserEnabled,
    /// A user changed their own password (`user_id`, `tokens_revoked`).
    PasswordChanged,
    /// An API token was created (`token_id`, `user_id`, `team_id`, `role`, `name`, `expires_at`).
    TokenCreated,
    /// An API token was revoked by its owner (`token_id`, `user_id`).
    TokenRevoked,
    /// A site setting was changed (`setting`, `value` as text).
    SettingChanged,
    // The rental that follows an approved order; `order_id` is the order.
    /// A rental was recorded (`rental_id`, `revision`, `started_at`, `planned_end_at`,
    /// `resources`, `note`).
    RentalRecorded,
    /// A mistake in a rental was corrected before release (the same fields as recorded, with
    /// `stopped_at`).
    RentalCorrected,
    /// The rental's compute was stopped; its resources are still held (`rental_id`, `stopped_at`).
    RentalStopped,
    /// The rental was released, with the actual hours (`rental_id`, `released_at`,
    /// `setup_hours`, `data_prep_hours`, `rerun_hours`).
    RentalReleased,
    // The vendor's bill (bill import and reconciliation).
    /// A vendor's bill was imported onto the order (`bill_id`, `file_sha256`, `file_name`,
    /// `layout`, `lines`, `matched`, `unmatched`, `currency`, `billed_total`, `estimated_total`,
    /// `variance_pct` and `threshold_pct` as exact decimals in text, `flagged`).
    BillImported,
    /// A manager changed the team's bill variance threshold (`team_id`, `value`, `previous`,
    /// percent as text): a site event.
    BillThresholdSet,
    // A user's own second factor; each is also mailed to them (`store::security_mail`).
    /// A user switched their second factor on (`user_id`).
    SecondFactorEnrolled,
    /// A user switched their second factor off (`user_id`).
    SecondFactorDisabled,
    /// Too many wrong codes in a row locked a user's second factor (`user_id`, `failures`).
    SecondFactorLocked,
    /// An administrator unlocked a user's locked second factor (`user_id`, `failures`).
    SecondFactorUnlocked,
    /// A user signed in or confirmed a change with a recovery code, now used up (`user_id`,
    /// `codes_left`).
    RecoveryCodeUsed,
    /// A user made new recovery codes; the old ones stopped working (`user_id`).
    RecoveryCodesRegenerated,
    // Requests for quotation (`crate::rfq`); `actor_id` [`VENDOR_ACTOR`] for a vendor's own act.
    /// Procurement sent a request (`request_id`, `team_id`, `title`, `close_at`, `vendors`: the
    /// invited vendor ids).
    RfqCreated,
    /// Procurement changed an open request (`request_id`, `team_id`, `close_at`,
    /// `previous_close_at`, `vendors`: the vendor ids invited with the change).
    RfqChanged,
    /// A vendor's link was revoked, or replaced by a new one (`request_id`, `team_id`,
    /// `vendor_id`, `replaced`).
    RfqLinkRevoked,
    /// A vendor submitted a bid or a revision of it (`request_id`, `team_id`, `vendor_id`,
    /// `revision`, `receipt`: the bid's SHA-256).
    RfqBidSubmitted,
    /// The bids were opened and made quotes (`request_id`, `team_id`, `early`, `reason`,
    /// `bids`: each vendor's `vendor_id`, `revision`, `receipt`, `quote_id`).
    RfqClosed,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 34] = [
        Action::Create,
        Action::ItemAnswered,
        Action::EvidenceAttached,
        Action::Submit,
        Action::Approve,
        Action::Reject,
        Action::Reopen,
        Action::UserCreated,
        Action::TeamCreated,
        Action::RoleSet,
        Action::MemberRemoved,
        Action::UserDisabled,
        Action::UserEnabled,
        Action::PasswordChanged,
        Action::TokenCreated,
        Action::TokenRevoked,
        Action::SettingChanged,
        // Rentals.
        Action::RentalRecorded,
        Action::RentalCorrected,
        Action::RentalStopped,
        Action::RentalReleased,
        // The vendor's bill.
        Action::BillImported,
        Action::BillThresholdSet,
        Action::SecondFactorEnrolled,
        Action::SecondFactorDisabled,
        Action::SecondFactorLocked,
        Action::SecondFactorUnlocked,
        Action::RecoveryCodeUsed,
        Action::RecoveryCodesRegenerated,
        Action::RfqCreated,
        Action::RfqChanged,
        Action::RfqLinkRevoked,
        Action::RfqBidSubmitted,
        Action::RfqClosed,
    ];

    /// The snake_case name, as serialized and hashed.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::ItemAnswered => "item_answered",
            Action::EvidenceAttached => "evidence_attached",
            Action::Submit => "submit",
            Action::Approve => "approve",
            Action::Reject => "reject",
            Action::Reopen => "reopen",
            Action::UserCreated => "user_created",
            Action::TeamCreated => "team_created",
            Action::RoleSet => "role_set",
            Action::MemberRemoved => "member_removed",
            Action::UserDisabled => "user_disabled",
            Action::UserEnabled => "user_enabled",
            Action::PasswordChanged => "password_changed",
            Action::TokenCreated => "token_created",
            Action::TokenRevoked => "token_revoked",
            Action::SettingChanged => "setting_changed",
            // Rentals.
            Action::RentalRecorded => "rental_recorded",
            Action::RentalCorrected => "rental_corrected",
            Action::RentalStopped => "rental_stopped",
            Action::RentalReleased => "rental_released",
            // The vendor's bill.
            Action::BillImported => "bill_imported",
            Action::BillThresholdSet => "bill_threshold_set",
            Action::SecondFactorEnrolled => "second_factor_enrolled",
            Action::SecondFactorDisabled => "second_factor_disabled",
            Action::SecondFactorLocked => "second_factor_locked",
            Action::SecondFactorUnlocked => "second_factor_unlocked",
            Action::RecoveryCodeUsed => "recovery_code_used",
            Action::RecoveryCodesRegenerated => "recovery_codes_regenerated",
            Action::RfqCreated => "rfq_created",
            Action::RfqChanged => "rfq_changed",
            Action::RfqLinkRevoked => "rfq_link_revoked",
            Action::RfqBidSubmitted => "rfq_bid_submitted",
            Action::RfqClosed => "rfq_closed",
        }
    }

    /// Whether this is a site event (not about an order; stored with `order_id` [`NO_ORDER`]).
    #[must_use]
    pub const fn is_site(self) -> bool {
        !matches!(
            self,
            Action::Create
                | Action::ItemAnswered
                | Action::EvidenceAttached
                | Action::Submit
                | Action::Approve
                | Action::Reject
                | Action::Reopen
                // Rentals.
                | Action::RentalRecorded
                | Action::RentalCorrected
                | Action::RentalStopped
                | Action::RentalReleased
                // A bill is imported onto an order.
                | Action::BillImported
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Action;

    #[test]
    fn names_are_unique_and_serialize_as_hashed() {
        let mut names: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Action::ALL.len());
        for a in Action::ALL {
            assert_eq!(serde_json::to_value(a).ok(), Some(serde_json::json!(a.as_str())));
        }
        assert_eq!(Action::ALL.iter().filter(|a| a.is_site()).count(), 22);
        assert!(!Action::Approve.is_site() && Action::TokenCreated.is_site());
    }
}
