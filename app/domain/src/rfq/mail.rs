//! The mail to invited vendors, when the server sends mail: the invitation with the vendor's
//! link (when a request is made, and again when procurement replaces the link), one reminder a
//! day before the close to a vendor that has not submitted, and the receipt of each submitted
//! revision.
//!
//! Rules, each tested below:
//! - **The link is mailed once and not kept.** The queued invitation holds the link only until
//!   the mail server accepted the mail; then its text is blanked (the row stays as the record).
//! - **A mail that no longer holds is not sent** ([`still_worth_sending`]): an invitation or a
//!   reminder whose link was revoked or whose request stopped taking bids, a reminder to a
//!   vendor that has submitted since. A receipt always goes: it is the vendor's record.
//! - **One reminder per invitation**, a day before the close ([`reminder_due`]), without the
//!   link, and none to a vendor invited (or re-invited) within that last day: the invitation is
//!   fresh enough.

use super::{Phase, accepts_bids};
use serde::{Deserialize, Serialize};

/// The reminder goes out this long before the close (seconds).
pub const REMINDER_BEFORE_CLOSE: i64 = 24 * 60 * 60;

/// Which mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    Invitation,
    Reminder,
    Receipt,
}

impl MailKind {
    /// Every kind, in the order of a request's life.
    pub const ALL: [MailKind; 3] = [MailKind::Invitation, MailKind::Reminder, MailKind::Receipt];

    /// The stored name (`rfq_mail.kind`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            MailKind::Invitation => "invitation",
            MailKind::Reminder => "reminder",
            MailKind::Receipt => "receipt",
        }
    }

    /// The kind of a stored name; `None` for a name this build does not know.
    #[must_use]
    pub fn parse(name: &str) -> Option<MailKind> {
        MailKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// What a queued mail says beyond its request (whose title and close time are read when it is
/// sent), as stored in `rfq_mail.body` until it is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MailFacts {
    /// The vendor's link: the path of its page (`/bid/nlb_…`, a secret); `replaces` when it is a
    /// new link in place of one sent before.
    Invitation { path: String, replaces: bool },
    /// Submit before the close, through the link in the invitation.
    Reminder,
    /// A submitted revision: its number, its receipt (SHA-256) and when (Unix seconds).
    Receipt {
        revision: i64,
        receipt: String,
        submitted_at: i64,
    },
}

impl MailFacts {
    /// Which mail these facts make.
    #[must_use]
    pub const fn kind(&self) -> MailKind {
        match self {
            MailFacts::Invitation { .. } => MailKind::Invitation,
            MailFacts::Reminder => MailKind::Reminder,
            MailFacts::Receipt { .. } => MailKind::Receipt,
        }
    }

    /// The stored form (JSON).
    #[must_use]
    pub fn encode(&self) -> String {
        // A plain enum of strings and numbers always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The facts of a stored mail of `kind`; `None` when the text does not read as that kind
    /// (blanked once sent, or written by another build).
    #[must_use]
    pub fn decode(kind: MailKind, body: &str) -> Option<MailFacts> {
        serde_json::from_str::<MailFacts>(body)
            .ok()
            .filter(|f| f.kind() == kind)
    }
}

/// Whether a queued mail of `kind` is still sent at `phase` of its request, for a link that is
/// `revoked` or not, from a vendor that `has_bid` or not.
#[must_use]
pub fn still_worth_sending(kind: MailKind, phase: Phase, revoked: bool, has_bid: bool) -> bool {
    match kind {
        // A dead link is no invitation; a reminder to submit is moot once submitting is over
        // or done.
        MailKind::Invitation => accepts_bids(phase) && !revoked,
        MailKind::Reminder => accepts_bids(phase) && !revoked && !has_bid,
        MailKind::Receipt => true,
    }
}

/// One invitation as the reminder looks at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReminderCandidate {
    pub close_at: i64,
    pub closed_at: Option<i64>,
    pub revoked: bool,
    pub has_bid: bool,
    /// A reminder was queued for it before (sent or not).
    pub reminded: bool,
    /// When its last invitation mail was queued, if one was.
    pub last_invited_at: Option<i64>,
}

/// Whether the invitation gets its reminder at `now`: within the last day before the close of
/// a request still taking bids, not revoked, nothing submitted, not reminded before, and not
/// invited within that last day.
#[must_use]
pub fn reminder_due(now: i64, c: &ReminderCandidate) -> bool {
    let window_opens = c.close_at - REMINDER_BEFORE_CLOSE;
    now >= window_opens
        && still_worth_sending(
            MailKind::Reminder,
            Phase::at(now, c.close_at, c.closed_at),
            c.revoked,
            c.has_bid,
        )
        && !c.reminded
        && c.last_invited_at.is_none_or(|at| at < window_opens)
}
