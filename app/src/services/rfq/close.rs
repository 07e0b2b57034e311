//! The close: every vendor's last submitted revision becomes a quote with the vendor as its
//! source, recorded on the bid (so the order page and the checklist can name the bid and its
//! written answers), in one transaction with the audit event that lists each bid's receipt.

use crate::{
    auth::AppState,
    domain::{
        audit::Action,
        quotes::QuoteInput,
        rfq::{self, Phase, RequestError, bid::BidRecord},
    },
    error::AppError,
    i18n::Msg,
    services::site_audit,
    store::{self, Db, Tx, rfq::InvitationRow},
    views::rfq::OpenedBid,
};
use serde_json::{Value, json};

/// Opens the team's requests whose close time has passed (the first look after the close does
/// it; nothing is shown of a bid before).
///
/// # Errors
/// Database errors.
pub async fn open_due(state: &AppState, team_id: i64, now: i64) -> Result<(), AppError> {
    for id in store::rfq::due(&state.db, team_id, now).await? {
        let mut tx = store::begin_write(&state.db).await?;
        // Opened meanwhile by another request: nothing to do.
        if store::rfq::mark_closed(&mut tx, team_id, id, now, None).await? {
            let bids = make_quotes(&mut tx, team_id, id).await?;
            let data = json!({"request_id": id, "team_id": team_id, "early": false, "reason": "", "bids": bids});
            site_audit::record(&mut tx, crate::domain::audit::CLI_ACTOR, Action::RfqClosed, data).await?;
        }
        tx.commit().await?;
    }
    Ok(())
}

/// Procurement closes a sealed request before its close time, with a reason (audited).
///
/// # Errors
/// [`AppError::Invalid`] without a reason; [`AppError::NotFound`] when the team has no such
/// request; [`AppError::Conflict`] when it is closed already; database errors.
pub async fn close_early(
    db: &Db,
    user_id: i64,
    team_id: i64,
    request_id: i64,
    reason: &str,
    now: i64,
) -> Result<usize, AppError> {
    let r = store::rfq::request(db, team_id, request_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let reason = rfq::short_text(reason, RequestError::Reason).map_err(|_| AppError::Invalid(Msg::RfqErrReason))?;
    if Phase::at(now, r.close_at, r.closed_at) == Phase::Closed {
        return Err(AppError::Conflict(Msg::RfqErrClosed));
    }
    let mut tx = store::begin_write(db).await?;
    if !store::rfq::mark_closed(&mut tx, team_id, request_id, now, Some(&reason)).await? {
        return Err(AppError::Conflict(Msg::RfqErrClosed));
    }
    let bids = make_quotes(&mut tx, team_id, request_id).await?;
    let count = bids.len();
    let data = json!({"request_id": request_id, "team_id": team_id, "early": true, "reason": reason, "bids": bids});
    site_audit::record(&mut tx, user_id, Action::RfqClosed, data).await?;
    tx.commit().await?;
    Ok(count)
}

/// Makes each vendor's last revision a quote; returns what the audit event lists of each.
async fn make_quotes(tx: &mut Tx, team_id: i64, request_id: i64) -> Result<Vec<Value>, AppError> {
    let mut made = Vec::new();
    for (bid, vendor_id) in store::rfq::last_bids(tx, request_id).await? {
        let Ok(record) = BidRecord::decode(&bid.body) else {
            tracing::error!(bid = bid.id, "a stored bid does not read; it was not made a quote");
            continue;
        };
        let files: Vec<String> = record.files.iter().map(|f| f.sha256.clone()).collect();
        let row = QuoteInput::from_fields(record.fields)
            .read()
            .map_err(|_| AppError::Internal)?;
        let Some(draft) = row.draft else {
            tracing::error!(
                bid = bid.id,
                "a submitted bid no longer reads as a quote; it was not made one"
            );
            continue;
        };
        let (quote_id, revision_id) = store::quotes::insert(tx, team_id, vendor_id, &draft, None)
            .await
            .map_err(|_| AppError::Conflict(Msg::QuotesDuplicateReference))?;
        store::rfq::set_quote_revision(tx, bid.id, revision_id).await?;
        // The price sheets the revision was submitted with become the quote's documents.
        store::rfq::copy_files_to_revision(tx, bid.invitation_id, team_id, revision_id, &files).await?;
        made.push(
            json!({"vendor_id": vendor_id, "revision": bid.revision, "receipt": bid.receipt, "quote_id": quote_id}),
        );
    }
    Ok(made)
}

/// The opened bids of a request's vendors: the quote each became.
///
/// # Errors
/// Database errors.
pub async fn opened_bids(db: &Db, invitations: &[InvitationRow]) -> Result<Vec<OpenedBid>, AppError> {
    let mut out = Vec::new();
    for i in invitations {
        let bids = store::rfq::bids(db, i.id).await?;
        let Some(b) = bids.into_iter().rev().find(|b| b.quote_revision_id.is_some()) else {
            continue;
        };
        let quote_id = store::rfq::quote_of(db, b.quote_revision_id.unwrap_or_default()).await?;
        let answers = BidRecord::decode(&b.body).map_or(0, |r| r.answers.len());
        if let Some(quote_id) = quote_id {
            out.push(OpenedBid {
                vendor: i.vendor.clone(),
                revision: b.revision,
                receipt: b.receipt,
                quote_id,
                answers,
            });
        }
    }
    Ok(out)
}
