//! Requests for quotation: procurement sends one request, made from a workload, to several
//! vendors; each vendor answers through its own link; the bids stay sealed until the close.
//!
//! The timeline of a request:
//!
//! ```text
//! created ── vendors invited (a link each) ── open: a vendor saves a draft, submits, revises ──
//!     close time reached, or procurement closes early (with a reason) ── closed
//! ```
//!
//! Rules, each tested below:
//! - **A link is a capability.** 32 random bytes (256 bits), URL-safe base64 behind
//!   [`LINK_PREFIX`]; only its SHA-256 is stored ([`link_hash`]). It opens one vendor's bid of
//!   one request, and only while that request is open and the link is not revoked
//!   ([`link_opens`]); otherwise the page answers "not found" without saying why.
//! - **Sealed until the close.** Before the close the team sees, per vendor, only whether a bid
//!   was submitted ([`bids_visible`]); nobody, an administrator included, sees a figure.
//! - **Late bids are refused** with the close time ([`accepts_bids`]).
//! - **Every submission is kept** as a numbered revision with a receipt: the SHA-256 of the bid's
//!   canonical JSON ([`bid::BidRecord::receipt`]), which the vendor keeps and the audit chain
//!   records.
//! - **At the close** every vendor's last submitted revision becomes a quote with that vendor as
//!   its source, and its written answers become evidence on the checklist items they answer.
//! - **Mail to the vendors** (when the server sends mail): the invitation with the link, one
//!   reminder before the close, a receipt per revision ([`mail`]).

pub mod bid;
pub mod limits;
pub mod mail;
pub mod needs;

#[cfg(test)]
mod tests;

use sha2::{Digest, Sha256};

/// The start of every bid link's secret, so a leaked one is recognisable.
pub const LINK_PREFIX: &str = "nlb_";

/// Random bytes in a link: 256 bits, twice the 128 the capability needs.
pub const LINK_BYTES: usize = 32;

/// Length of the base64url body of a link (32 bytes without padding).
const LINK_BODY_LEN: usize = 43;

/// At most this many vendors are invited to one request.
pub const MAX_INVITED: usize = 20;

/// At most this many questions in one request, each at most [`MAX_QUESTION_CHARS`].
pub const MAX_QUESTIONS: usize = 60;

/// The longest question.
pub const MAX_QUESTION_CHARS: usize = 1_000;

/// The longest written answer.
pub const MAX_ANSWER_CHARS: usize = 4_000;

/// The longest title of a request, and of a reason to close early.
pub const MAX_TITLE_CHARS: usize = 200;

/// The quote columns a bid does not type: the invited vendor, the reference (`RFQ-<request>`)
/// and the day received are set by the server, and kept off the vendor's page.
pub const FIXED_COLUMNS: [&str; 3] = ["vendor", "reference", "received_on"];

/// The price-sheet fields a new request asks for unless procurement changes the choice: what
/// the checklist reads of a quote beyond the quote form's required fields (usable VRAM, the
/// interconnect, disks, software, stopped and release billing, the other fees, supply).
pub const DEFAULT_REQUESTED: [&str; 15] = [
    "spec.usable_vram_gib",
    "spec.interconnect",
    "spec.system_disk_gb",
    "spec.data_disk_gb",
    "spec.temp_disk_wiped",
    "spec.nvidia_driver",
    "spec.cuda",
    "spec.docker_allowed",
    "price.minimum_billable_hours",
    "price.stopped_bills_compute",
    "price.disk_price_gb_month",
    "price.egress_price_gb",
    "price.other_fees",
    "early_release",
    "lead_time_hours",
];

/// The requested fields as chosen: quote columns only, none the server sets, each once, in the
/// quote form's order.
#[must_use]
pub fn requested_fields<'a>(chosen: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let chosen: Vec<&str> = chosen.into_iter().collect();
    crate::quotes::QUOTE_FIELDS
        .iter()
        .filter(|f| chosen.contains(f) && !FIXED_COLUMNS.contains(f))
        .map(|f| (*f).to_string())
        .collect()
}

/// The requested fields a bid leaves blank.
#[must_use]
pub fn missing_requested(cells: &std::collections::BTreeMap<String, String>, requested: &[String]) -> Vec<String> {
    requested
        .iter()
        .filter(|f| cells.get(*f).is_none_or(|v| v.trim().is_empty()))
        .cloned()
        .collect()
}

/// At most this many attachments per bid, each a PDF of at most
/// [`crate::documents::MAX_DOCUMENT_BYTES`].
pub const MAX_FILES: usize = 5;

/// At most this many submitted revisions per vendor and request.
pub const MAX_REVISIONS: i64 = 50;

/// The link made of [`LINK_BYTES`] random bytes.
#[must_use]
pub fn link_from_bytes(random: &[u8; LINK_BYTES]) -> String {
    format!("{LINK_PREFIX}{}", crate::tokens::base64url(random))
}

/// Whether `link` has the shape of a bid link (checked before any lookup, so a malformed one
/// costs no query).
#[must_use]
pub fn well_formed(link: &str) -> bool {
    link.strip_prefix(LINK_PREFIX).is_some_and(|body| {
        body.len() == LINK_BODY_LEN
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// The stored form of a link: SHA-256, lowercase hex.
#[must_use]
pub fn link_hash(link: &str) -> String {
    hex::encode(Sha256::digest(link.as_bytes()))
}

/// Where a request stands at `now` (Unix seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Vendors may submit and revise; bids are sealed.
    Open,
    /// The close time has passed but the bids were not opened yet (they are at the next look).
    Due,
    /// The bids were opened: they are quotes now.
    Closed,
}

impl Phase {
    /// The phase of a request closing at `close_at`, opened at `closed_at` (if it was).
    #[must_use]
    pub fn at(now: i64, close_at: i64, closed_at: Option<i64>) -> Phase {
        match closed_at {
            Some(_) => Phase::Closed,
            None if now >= close_at => Phase::Due,
            None => Phase::Open,
        }
    }
}

/// Whether a bid may still be saved or submitted.
#[must_use]
pub fn accepts_bids(phase: Phase) -> bool {
    phase == Phase::Open
}

/// Whether a link opens its bid: the request is open and the link was not revoked.
#[must_use]
pub fn link_opens(phase: Phase, revoked: bool) -> bool {
    accepts_bids(phase) && !revoked
}

/// Whether the team may read the bids' contents. Only the opened bids: a request past its close
/// time is opened (its bids made quotes) before anything is shown.
#[must_use]
pub fn bids_visible(phase: Phase) -> bool {
    phase == Phase::Closed
}

/// Why a request cannot be created or changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The title is blank or longer than [`MAX_TITLE_CHARS`].
    #[error("title")]
    Title,
    /// The close time is not in the future.
    #[error("close time passed")]
    CloseInPast,
    /// No vendor, or more than [`MAX_INVITED`].
    #[error("vendors")]
    Vendors,
    /// An invited vendor has no e-mail address to send the link to.
    #[error("vendor without e-mail")]
    VendorEmail,
    /// No question, more than [`MAX_QUESTIONS`], or one longer than [`MAX_QUESTION_CHARS`].
    #[error("questions")]
    Questions,
    /// Closing early needs a reason (at most [`MAX_TITLE_CHARS`]).
    #[error("reason")]
    Reason,
}

/// The questions as typed: one per non-blank line, trimmed.
///
/// # Errors
/// [`RequestError::Questions`] when there is none, too many, or one too long.
pub fn questions_from_text(text: &str) -> Result<Vec<String>, RequestError> {
    let questions: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let fits = |q: &String| q.chars().count() <= MAX_QUESTION_CHARS;
    if questions.is_empty() || questions.len() > MAX_QUESTIONS || !questions.iter().all(fits) {
        return Err(RequestError::Questions);
    }
    Ok(questions)
}

/// A title or reason: trimmed, not blank, at most [`MAX_TITLE_CHARS`].
///
/// # Errors
/// `err` when it is blank or too long.
pub fn short_text(text: &str, err: RequestError) -> Result<String, RequestError> {
    let t = text.trim();
    if t.is_empty() || t.chars().count() > MAX_TITLE_CHARS {
        return Err(err);
    }
    Ok(t.to_string())
}

/// The e-mail address in a vendor's contact ("Li Lei <li@example.com>, +86 …" → `li@example.com`):
/// the first word with one `@`, a dot after it and no spaces, without the brackets around it.
#[must_use]
pub fn contact_email(contact: &str) -> Option<String> {
    contact
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '，' | '；'))
        .map(|w| w.trim_matches(|c: char| matches!(c, '<' | '>' | '(' | ')' | '"' | '\'')))
        .map(|w| w.strip_prefix("mailto:").unwrap_or(w))
        .find(|w| is_email(w))
        .map(str::to_lowercase)
}

/// Whether `s` reads as one e-mail address: `local@domain.tld`, no spaces, at most 254 bytes.
#[must_use]
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    s.len() <= 254
        && !local.is_empty()
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|part| !part.is_empty())
        && s.chars().all(|c| c.is_ascii_graphic())
}
