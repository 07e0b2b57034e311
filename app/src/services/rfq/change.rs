//! Changing an open request: moving its close time, inviting more vendors (a link each, shown
//! once and mailed), audited with what changed. A request whose bids were opened, or whose
//! close time passed, is not changed.

use super::{invalid, invite, vendor_choices};
use crate::{
    domain::{
        audit::Action,
        rfq::{self, Phase, RequestError},
    },
    error::AppError,
    i18n::Msg,
    services::site_audit,
    store::{self, Db},
    views::{Membership, rfq::SentLink},
};
use serde_json::json;

/// What procurement changes.
#[derive(Debug, Clone, Default)]
pub struct Change {
    /// A new close time, Unix seconds.
    pub close_at: Option<i64>,
    /// Vendors to invite as well.
    pub add_vendor_ids: Vec<i64>,
}

/// Applies `change` to one of the team's open requests; returns the new vendors' links.
///
/// # Errors
/// [`AppError::NotFound`] for a request or vendor that is not the team's;
/// [`AppError::Conflict`] once the request closed; [`AppError::Invalid`] for a close time in
/// the past, a vendor without e-mail or invited already, too many vendors, or nothing to change.
pub async fn change(
    db: &Db,
    user_id: i64,
    team: &Membership,
    request_id: i64,
    change: Change,
    now: i64,
) -> Result<Vec<SentLink>, AppError> {
    let r = store::rfq::request(db, team.team_id, request_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if Phase::at(now, r.close_at, r.closed_at) != Phase::Open {
        return Err(AppError::Conflict(Msg::RfqErrClosed));
    }
    if change.close_at.is_none() && change.add_vendor_ids.is_empty() {
        return Err(AppError::Invalid(Msg::RfqErrNothing));
    }
    if change.close_at.is_some_and(|at| at <= now) {
        return Err(invalid(&RequestError::CloseInPast));
    }
    let invited = store::rfq::invitations(db, team.team_id, request_id).await?;
    let mut ids = change.add_vendor_ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if invited.len() + ids.len() > rfq::MAX_INVITED || ids.iter().any(|id| invited.iter().any(|i| i.vendor_id == *id)) {
        return Err(invalid(&RequestError::Vendors));
    }
    let choices = vendor_choices(db, team.team_id).await?;
    let mut new = Vec::new();
    for id in &ids {
        let v = choices.iter().find(|c| c.id == *id).ok_or(AppError::NotFound)?;
        let email = v.email.clone().ok_or_else(|| invalid(&RequestError::VendorEmail))?;
        new.push((v.id, v.name.clone(), email));
    }
    let mut tx = store::begin_write(db).await?;
    if let Some(at) = change.close_at {
        store::rfq::set_close_at(&mut tx, team.team_id, request_id, at).await?;
    }
    let links = invite(&mut tx, request_id, &new, now).await?;
    let data = json!({
        "request_id": request_id,
        "team_id": team.team_id,
        "close_at": change.close_at.unwrap_or(r.close_at),
        "previous_close_at": r.close_at,
        "vendors": ids,
    });
    site_audit::record(&mut tx, user_id, Action::RfqChanged, data).await?;
    tx.commit().await?;
    Ok(links)
}
