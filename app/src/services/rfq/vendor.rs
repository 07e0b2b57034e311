//! Requests for quotation, the vendor's side: everything is reached through the vendor's link
//! and shows only that request and that vendor's own bid. A link that is malformed, unknown,
//! revoked or past the close answers [`AppError::NotFound`], never why.

use super::needs_rows;
use crate::{
    domain::{
        audit::{Action, VENDOR_ACTOR},
        quotes::Date,
        rfq::{self, Phase, bid::BidFile, bid::BidRecord, bid::answers_to, mail::MailFacts, needs::Needs},
    },
    error::AppError,
    i18n::{Locale, Msg},
    services::site_audit,
    store::{self, Db, rfq::LinkRow},
    views::rfq::{BidFileLine, BidPage, ReceiptLine},
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

/// What a vendor is typing, kept between visits.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Draft {
    fields: BTreeMap<String, String>,
    answers: Vec<String>,
}

/// The invitation a link opens while its request takes bids.
///
/// # Errors
/// [`AppError::NotFound`] for a link that does not open (malformed, unknown, revoked, closed).
pub async fn opened(db: &Db, link: &str, now: i64) -> Result<LinkRow, AppError> {
    let row = invitation_of(db, link).await?;
    if !rfq::accepts_bids(Phase::at(now, row.close_at, row.closed_at)) {
        return Err(AppError::NotFound);
    }
    Ok(row)
}

/// The invitation of a well-formed, known link that was not revoked; [`AppError::NotFound`]
/// otherwise (one answer, whichever it is).
async fn invitation_of(db: impl sqlx::SqliteExecutor<'_>, link: &str) -> Result<LinkRow, AppError> {
    if !rfq::well_formed(link) {
        return Err(AppError::NotFound);
    }
    store::rfq::by_link(db, &rfq::link_hash(link))
        .await?
        .filter(|row| row.revoked_at.is_none())
        .ok_or(AppError::NotFound)
}

/// Refuses a bid for a request past its close, naming the close.
fn still_open(row: LinkRow, now: i64) -> Result<LinkRow, AppError> {
    if rfq::accepts_bids(Phase::at(now, row.close_at, row.closed_at)) {
        Ok(row)
    } else {
        Err(AppError::BidsClosed(row.close_at))
    }
}

/// The price-sheet fields the request asks for.
#[must_use]
pub fn requested(row: &LinkRow) -> Vec<String> {
    serde_json::from_str(&row.fields).unwrap_or_default()
}

/// The invitation a link opens for a bid being saved or submitted: as [`opened`], except that a
/// request past its close refuses the bid with the close time (the vendor had the page open; a
/// link that is revoked, unknown or malformed still says nothing).
///
/// # Errors
/// [`AppError::BidsClosed`] after the close; as [`opened`].
pub async fn taking_bids(db: &Db, link: &str, now: i64) -> Result<LinkRow, AppError> {
    still_open(invitation_of(db, link).await?, now)
}

/// The request's questions, with the checklist item each comes from.
fn questions(row: &LinkRow) -> Result<Vec<(String, String)>, AppError> {
    serde_json::from_str(&row.questions).map_err(|_| AppError::Internal)
}

/// The fields a bid cannot choose: the vendor (the invited one), the reference (the request)
/// and the day it was received.
#[must_use]
pub fn fixed_fields(row: &LinkRow, today: Date) -> Vec<(&'static str, String)> {
    vec![
        ("vendor", row.vendor.clone()),
        ("reference", format!("RFQ-{}", row.request_id)),
        ("received_on", today.to_string()),
    ]
}

/// What a new bid form starts from.
fn blank(today: Date) -> BTreeMap<String, String> {
    [
        ("valid_until", today.add_days(30).unwrap_or(today).to_string()),
        ("currency", "CNY".to_string()),
        ("spec.gpus_per_node", "1".to_string()),
        ("spec.sharing", "exclusive".to_string()),
        ("price.basis", "per_node".to_string()),
        ("price.billing_increment", "hour".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The vendor's page: the request, the draft (or the last submission, or a blank form) and the
/// receipts of every revision.
///
/// # Errors
/// As [`opened`]; database errors.
pub async fn page(db: &Db, link: &str, now: i64, today: Date, locale: Locale) -> Result<BidPage, AppError> {
    let row = opened(db, link, now).await?;
    let needs = Needs::decode(&row.needs).map_err(|_| AppError::Internal)?;
    let questions = questions(&row)?;
    let bids = store::rfq::bids(db, row.invitation_id).await?;
    let draft = match store::rfq::draft(db, row.invitation_id).await? {
        Some(body) => serde_json::from_str(&body).unwrap_or_default(),
        None => bids.last().and_then(|b| BidRecord::decode(&b.body).ok()).map_or_else(
            || Draft {
                fields: blank(today),
                answers: Vec::new(),
            },
            |r| Draft {
                answers: questions
                    .iter()
                    .map(|(_, q)| {
                        r.answers
                            .iter()
                            .find(|a| &a.question == q)
                            .map(|a| a.answer.clone())
                            .unwrap_or_default()
                    })
                    .collect(),
                fields: r.fields,
            },
        ),
    };
    let mut answers = draft.answers;
    answers.resize(questions.len(), String::new());
    // What the bid does not choose stays out of the vendor's page (the reference names the
    // team's request by its id).
    let mut values = draft.fields;
    for column in rfq::FIXED_COLUMNS {
        values.remove(column);
    }
    Ok(BidPage {
        title: row.title.clone(),
        vendor: row.vendor.clone(),
        needs: needs_rows(locale, &needs),
        questions: questions.into_iter().map(|(_, q)| q).collect(),
        requested: requested(&row),
        close_at: row.close_at,
        values,
        answers,
        revisions: bids
            .into_iter()
            .map(|b| ReceiptLine {
                revision: b.revision,
                receipt: b.receipt,
                submitted_at: b.submitted_at,
            })
            .collect(),
        files: store::rfq::files(db, row.invitation_id)
            .await?
            .into_iter()
            .map(|f| BidFileLine {
                id: f.id,
                name: f.file_name,
                size: f.size,
                sha256: f.sha256,
            })
            .collect(),
    })
}

/// Why an attachment was refused, as the code the vendor's page explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRefusal {
    /// No file, or an empty one.
    Empty,
    /// Larger than [`crate::domain::documents::MAX_DOCUMENT_BYTES`].
    TooLarge,
    /// Not a PDF.
    Kind,
    /// [`rfq::MAX_FILES`] are attached already.
    TooMany,
    /// The same file is attached already.
    Duplicate,
}

impl FileRefusal {
    /// The code in the page's address (`?file_error=…`).
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            FileRefusal::Empty => "empty",
            FileRefusal::TooLarge => "too_large",
            FileRefusal::Kind => "kind",
            FileRefusal::TooMany => "too_many",
            FileRefusal::Duplicate => "duplicate",
        }
    }
}

/// Checks an uploaded file: present, at most 10 MB, a PDF by its bytes (not its name).
///
/// # Errors
/// Why it is refused.
pub fn checked_pdf(bytes: &[u8]) -> Result<(), FileRefusal> {
    use crate::domain::documents::{DocumentKind, MAX_DOCUMENT_BYTES, detect_kind};
    if bytes.is_empty() {
        return Err(FileRefusal::Empty);
    }
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(FileRefusal::TooLarge);
    }
    match detect_kind(bytes) {
        Some(DocumentKind::Pdf) => Ok(()),
        _ => Err(FileRefusal::Kind),
    }
}

/// Attaches a PDF to the bid of the invitation `link` opens.
///
/// # Errors
/// `Ok(Err(refusal))` for a file that is refused; [`AppError::NotFound`] for a link that does
/// not open; database errors.
pub async fn attach(
    db: &Db,
    link: &str,
    name: &str,
    bytes: &[u8],
    now: i64,
) -> Result<Result<(), FileRefusal>, AppError> {
    let row = opened(db, link, now).await?;
    if let Err(refused) = checked_pdf(bytes) {
        return Ok(Err(refused));
    }
    let mut tx = store::begin_write(db).await?;
    if store::rfq::files(&mut *tx, row.invitation_id).await?.len() >= rfq::MAX_FILES {
        return Ok(Err(FileRefusal::TooMany));
    }
    let sha = crate::domain::documents::sha256_of(bytes);
    let name = crate::domain::documents::safe_file_name(name);
    let stored = store::rfq::insert_file(&mut tx, row.invitation_id, &name, &sha, bytes, now).await?;
    tx.commit().await?;
    Ok(stored.map(|_| ()).ok_or(FileRefusal::Duplicate))
}

/// Removes one of the bid's attachments (a submitted revision keeps naming it by its hash).
///
/// # Errors
/// [`AppError::NotFound`] for a link that does not open or a file it does not have.
pub async fn detach(db: &Db, link: &str, file_id: i64, now: i64) -> Result<(), AppError> {
    let row = opened(db, link, now).await?;
    let mut tx = store::begin_write(db).await?;
    if !store::rfq::delete_file(&mut tx, row.invitation_id, file_id).await? {
        return Err(AppError::NotFound);
    }
    tx.commit().await?;
    Ok(())
}

/// Keeps what the vendor typed, checked or not, for the next visit.
///
/// # Errors
/// As [`opened`]; database errors.
pub async fn save_draft(
    db: &Db,
    link: &str,
    fields: BTreeMap<String, String>,
    answers: Vec<String>,
    now: i64,
) -> Result<(), AppError> {
    let row = taking_bids(db, link, now).await?;
    let cut = |s: String, max: usize| s.chars().take(max).collect::<String>();
    let draft = Draft {
        fields: fields
            .into_iter()
            .filter(|(k, _)| crate::domain::quotes::is_quote_field(k))
            .map(|(k, v)| (k, cut(v, 2_000)))
            .collect(),
        answers: answers
            .into_iter()
            .take(rfq::MAX_QUESTIONS)
            .map(|a| cut(a, rfq::MAX_ANSWER_CHARS))
            .collect(),
    };
    let body = serde_json::to_string(&draft).map_err(|_| AppError::Internal)?;
    let mut tx = store::begin_write(db).await?;
    store::rfq::save_draft(&mut tx, row.invitation_id, &body, now).await?;
    tx.commit().await?;
    Ok(())
}

/// Submits a bid (or a revision of it) whose quote fields were checked (`cells`, with the
/// [`fixed_fields`]); returns its receipt, also queued as a mail to the vendor. The request is
/// read again inside the transaction, so a bid that arrives after the close is refused with the
/// close time.
///
/// # Errors
/// [`AppError::Refused`] after the close or past [`rfq::MAX_REVISIONS`]; as [`opened`];
/// database errors.
pub async fn submit(
    db: &Db,
    link: &str,
    cells: BTreeMap<String, String>,
    answers: Vec<String>,
    now: i64,
    submitted_at: String,
) -> Result<ReceiptLine, AppError> {
    let mut tx = store::begin_write(db).await?;
    let row = still_open(invitation_of(&mut *tx, link).await?, now)?;
    let revision = store::rfq::next_revision(&mut tx, row.invitation_id).await?;
    if revision > rfq::MAX_REVISIONS {
        return Err(AppError::Refused(Msg::RfqErrRevisions));
    }
    let typed: BTreeMap<usize, String> = answers.into_iter().enumerate().collect();
    let record = BidRecord {
        request_id: row.request_id,
        vendor: row.vendor.clone(),
        revision,
        submitted_at,
        fields: cells.clone(),
        answers: answers_to(&questions(&row)?, &typed),
        files: store::rfq::files(&mut *tx, row.invitation_id)
            .await?
            .into_iter()
            .map(|f| BidFile {
                name: f.file_name,
                sha256: f.sha256,
            })
            .collect(),
    };
    let receipt = record.receipt();
    store::rfq::insert_bid(&mut tx, row.invitation_id, revision, &record.encode(), &receipt, now).await?;
    let draft = Draft {
        fields: cells,
        answers: typed.into_values().collect(),
    };
    let body = serde_json::to_string(&draft).map_err(|_| AppError::Internal)?;
    store::rfq::save_draft(&mut tx, row.invitation_id, &body, now).await?;
    let facts = MailFacts::Receipt {
        revision,
        receipt: receipt.clone(),
        submitted_at: now,
    };
    store::rfq_mail::queue(&mut tx, row.invitation_id, &facts, now).await?;
    let data = json!({"request_id": row.request_id, "team_id": row.team_id, "vendor": row.vendor, "revision": revision, "receipt": receipt});
    site_audit::record(&mut tx, VENDOR_ACTOR, Action::RfqBidSubmitted, data).await?;
    tx.commit().await?;
    Ok(ReceiptLine {
        revision,
        receipt,
        submitted_at: now,
    })
}
