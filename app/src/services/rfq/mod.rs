//! Requests for quotation, the team's side: make a request from a workload and invite vendors
//! (a link each, shown once), follow who submitted (never what) until the close, revoke or
//! replace a link, close early with a reason; at the close the bids become quotes
//! ([`close`]). Each new link is also queued as a mail to its vendor (`store::rfq_mail`), sent
//! when the server sends mail. The vendor's side is [`vendor`]. Rules: [`crate::domain::rfq`].

pub mod change;
pub mod close;
pub mod limits;
mod texts;
pub mod vendor;

pub use texts::needs_rows;

use crate::{
    auth::AppState,
    domain::{
        audit::Action,
        rfq::{self, Phase, RequestError, mail::MailFacts, needs::Needs},
    },
    error::AppError,
    i18n::{Locale, Msg},
    services::site_audit,
    store::{self, Db, Tx},
    views::{
        Membership,
        rfq::{CreatedRequest, RequestDetail, RequestSummary, SentLink, VendorChoice, VendorStatus},
    },
};
use rand::RngCore;
use serde_json::json;

/// What procurement typed to make a request.
#[derive(Debug, Clone)]
pub struct NewRequest {
    pub workload_id: i64,
    pub title: String,
    pub region: String,
    /// The budget, only when procurement chose to state it: (amount, currency).
    pub budget: Option<(String, String)>,
    /// One question per line.
    pub questions: String,
    /// Unix seconds.
    pub close_at: i64,
    pub vendor_ids: Vec<i64>,
    /// The price-sheet fields to ask for (quote columns).
    pub fields: Vec<String>,
}

/// The message for a request that does not hold together.
pub(super) fn invalid(e: &RequestError) -> AppError {
    AppError::Invalid(match e {
        RequestError::Title => Msg::RfqErrTitle,
        RequestError::CloseInPast => Msg::RfqErrClose,
        RequestError::Vendors => Msg::RfqErrVendors,
        RequestError::VendorEmail => Msg::RfqErrVendorEmail,
        RequestError::Questions => Msg::RfqErrQuestions,
        RequestError::Reason => Msg::RfqErrReason,
    })
}

/// A new link: 256 random bits from the operating system.
fn new_link() -> String {
    let mut bytes = [0u8; rfq::LINK_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    rfq::link_from_bytes(&bytes)
}

/// The path of a vendor's page.
#[must_use]
pub fn bid_path(link: &str) -> String {
    format!("/bid/{link}")
}

/// The team's vendors, with the e-mail address their contact names (invitable when it has one).
///
/// # Errors
/// Database errors.
pub async fn vendor_choices(db: &Db, team_id: i64) -> Result<Vec<VendorChoice>, AppError> {
    Ok(store::vendors::list(db, team_id)
        .await?
        .into_iter()
        .map(|v| VendorChoice {
            id: v.id,
            email: rfq::contact_email(&v.contact),
            name: v.name,
        })
        .collect())
}

/// Makes a request and a link for each invited vendor (returned once: only their hashes are
/// kept), in one transaction with its audit event.
///
/// # Errors
/// [`AppError::Invalid`] naming what to fix; [`AppError::NotFound`] for a workload or vendor
/// that is not the team's; database errors.
pub async fn create(
    db: &Db,
    user_id: i64,
    team: &Membership,
    new: NewRequest,
    now: i64,
    locale: Locale,
) -> Result<CreatedRequest, AppError> {
    let title = rfq::short_text(&new.title, RequestError::Title).map_err(|e| invalid(&e))?;
    let lines = rfq::questions_from_text(&new.questions).map_err(|e| invalid(&e))?;
    if new.close_at <= now {
        return Err(invalid(&RequestError::CloseInPast));
    }
    let mut vendor_ids = new.vendor_ids.clone();
    vendor_ids.sort_unstable();
    vendor_ids.dedup();
    if vendor_ids.is_empty() || vendor_ids.len() > rfq::MAX_INVITED {
        return Err(invalid(&RequestError::Vendors));
    }
    let workload = store::workloads::by_id(db, team.team_id, new.workload_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let choices = vendor_choices(db, team.team_id).await?;
    let mut invited = Vec::new();
    for id in &vendor_ids {
        let v = choices.iter().find(|c| c.id == *id).ok_or(AppError::NotFound)?;
        let email = v.email.clone().ok_or_else(|| invalid(&RequestError::VendorEmail))?;
        invited.push((v.id, v.name.clone(), email));
    }
    let needs = Needs::from_workload(&workload.record, &new.region, new.budget.clone());
    let questions = tag_questions(
        &lines,
        &crate::services::orders::asks::request_questions(locale, &workload.record),
    );
    let questions_json = serde_json::to_string(&questions).map_err(|_| AppError::Internal)?;
    let mut tx = store::begin_write(db).await?;
    let id = store::rfq::insert_request(
        &mut tx,
        team.team_id,
        &title,
        &needs.encode(),
        &questions_json,
        &serde_json::to_string(&rfq::requested_fields(new.fields.iter().map(String::as_str)))
            .map_err(|_| AppError::Internal)?,
        new.close_at,
        user_id,
        now,
    )
    .await?;
    let links = invite(&mut tx, id, &invited, now).await?;
    let data = json!({"request_id": id, "team_id": team.team_id, "title": title, "close_at": new.close_at, "vendors": vendor_ids});
    site_audit::record(&mut tx, user_id, Action::RfqCreated, data).await?;
    tx.commit().await?;
    Ok(CreatedRequest { id, links })
}

/// Each question with the checklist item it was generated from (matched by its text), or none
/// when procurement wrote or reworded it.
fn tag_questions(lines: &[String], generated: &[(String, String)]) -> Vec<(String, String)> {
    lines
        .iter()
        .map(|q| {
            let item = generated
                .iter()
                .find(|(_, text)| text == q)
                .map(|(item, _)| item.clone())
                .unwrap_or_default();
            (item, q.clone())
        })
        .collect()
}

pub(super) async fn invite(
    tx: &mut Tx,
    request_id: i64,
    vendors: &[(i64, String, String)],
    now: i64,
) -> Result<Vec<SentLink>, AppError> {
    let mut links = Vec::new();
    for (vendor_id, name, email) in vendors {
        let link = new_link();
        let invitation = store::rfq::insert_invitation(tx, request_id, *vendor_id, email, &rfq::link_hash(&link), now)
            .await?
            .ok_or(AppError::Conflict(Msg::RfqErrVendors))?;
        let path = bid_path(&link);
        queue_invitation_mail(tx, invitation, &path, false, now).await?;
        links.push(SentLink {
            vendor: name.clone(),
            email: email.clone(),
            path,
        });
    }
    Ok(links)
}

/// Queues the mail of a new link to its vendor, with the invitation (the mail pass sends it
/// when the server sends mail; the link is still shown to procurement either way). `replaces`:
/// a new link in place of one sent before, whose mail is dropped if it was not sent yet.
async fn queue_invitation_mail(
    tx: &mut Tx,
    invitation_id: i64,
    path: &str,
    replaces: bool,
    now: i64,
) -> Result<(), AppError> {
    if replaces {
        store::rfq_mail::forget_unsent_invitations(tx, invitation_id).await?;
    }
    let facts = MailFacts::Invitation {
        path: path.to_string(),
        replaces,
    };
    store::rfq_mail::queue(tx, invitation_id, &facts, now).await?;
    Ok(())
}

/// The team's requests, newest first (requests past their close are opened first).
///
/// # Errors
/// Database errors.
pub async fn list(state: &AppState, team: &Membership, now: i64) -> Result<Vec<RequestSummary>, AppError> {
    close::open_due(state, team.team_id, now).await?;
    Ok(store::rfq::list(&state.db, team.team_id)
        .await?
        .into_iter()
        .map(|r| RequestSummary {
            id: r.id,
            title: r.title,
            close_at: r.close_at,
            closed: r.closed_at.is_some(),
            invited: r.invited,
            submitted: r.submitted,
        })
        .collect())
}

/// One of the team's requests: before the close, who submitted; after it, the quotes made.
///
/// # Errors
/// [`AppError::NotFound`] when the team has no such request; database errors.
pub async fn detail(
    state: &AppState,
    team: &Membership,
    id: i64,
    now: i64,
    locale: Locale,
    can_edit: bool,
) -> Result<RequestDetail, AppError> {
    close::open_due(state, team.team_id, now).await?;
    let db = &state.db;
    let r = store::rfq::request(db, team.team_id, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let needs = Needs::decode(&r.needs).map_err(|_| AppError::Internal)?;
    let questions: Vec<(String, String)> = serde_json::from_str(&r.questions).map_err(|_| AppError::Internal)?;
    let invitations = store::rfq::invitations(db, team.team_id, id).await?;
    let phase = Phase::at(now, r.close_at, r.closed_at);
    let can_edit = can_edit && phase == Phase::Open;
    let invitable = if can_edit {
        vendor_choices(db, team.team_id)
            .await?
            .into_iter()
            .filter(|v| !invitations.iter().any(|i| i.vendor_id == v.id))
            .collect()
    } else {
        Vec::new()
    };
    let opened = if rfq::bids_visible(phase) {
        close::opened_bids(db, &invitations).await?
    } else {
        Vec::new()
    };
    Ok(RequestDetail {
        id: r.id,
        title: r.title,
        needs: needs_rows(locale, &needs),
        questions: questions.into_iter().map(|(_, q)| q).collect(),
        requested: serde_json::from_str(&r.fields).unwrap_or_default(),
        close_at: r.close_at,
        closed_at: r.closed_at,
        closed_early_reason: r.closed_early_reason,
        vendors: invitations
            .into_iter()
            .map(|i| VendorStatus {
                invitation_id: i.id,
                vendor: i.vendor,
                email: i.email,
                revoked: i.revoked_at.is_some(),
                revisions: i.revisions,
                last_submitted_at: i.last_submitted_at,
            })
            .collect(),
        opened,
        can_edit,
        invitable,
    })
}

/// Revokes a vendor's link (`replace`: and makes it a new one, returned once), audited.
///
/// # Errors
/// [`AppError::NotFound`] when the team has no such open invitation; database errors.
pub async fn revoke_link(
    db: &Db,
    user_id: i64,
    team: &Membership,
    request_id: i64,
    invitation_id: i64,
    replace: bool,
    now: i64,
) -> Result<Option<SentLink>, AppError> {
    let r = store::rfq::request(db, team.team_id, request_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !rfq::accepts_bids(Phase::at(now, r.close_at, r.closed_at)) {
        return Err(AppError::Conflict(Msg::RfqErrClosed));
    }
    let invitation = store::rfq::invitations(db, team.team_id, request_id)
        .await?
        .into_iter()
        .find(|i| i.id == invitation_id)
        .ok_or(AppError::NotFound)?;
    let mut tx = store::begin_write(db).await?;
    let link = if replace {
        let link = new_link();
        store::rfq::replace_link(&mut tx, team.team_id, invitation_id, &rfq::link_hash(&link)).await?;
        let path = bid_path(&link);
        queue_invitation_mail(&mut tx, invitation_id, &path, true, now).await?;
        Some(SentLink {
            vendor: invitation.vendor.clone(),
            email: invitation.email.clone(),
            path,
        })
    } else {
        if !store::rfq::revoke(&mut tx, team.team_id, invitation_id, now).await? {
            return Err(AppError::NotFound);
        }
        // The revoked link's invitation, if not mailed yet, is not mailed at all.
        store::rfq_mail::forget_unsent_invitations(&mut tx, invitation_id).await?;
        None
    };
    let data = json!({"request_id": request_id, "team_id": team.team_id, "vendor_id": invitation.vendor_id, "replaced": replace});
    site_audit::record(&mut tx, user_id, Action::RfqLinkRevoked, data).await?;
    tx.commit().await?;
    Ok(link)
}
