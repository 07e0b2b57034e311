//! Site events: administrators' actions (and the command line's) appended to the audit chain
//! inside the transaction that makes the change ([`record`]), and the audit page's log of them
//! ([`log`]). Format of each kind's `data`: [`crate::domain::audit::Action`]; why they share the
//! orders' chain: [`crate::domain::audit`] ("Site events").

use crate::{
    clock::now_stamp,
    domain::audit::{Action, NO_ORDER},
    error::AppError,
    store::{self, Db, Tx},
    views::audit::{SiteEvent, SiteLog},
};
use serde_json::Value;
use std::collections::HashMap;

/// Site events per page of the audit log.
pub const LOG_PAGE: i64 = 100;

/// Appends the site event `action` by `actor_id` (a user, or [`crate::domain::audit::CLI_ACTOR`])
/// inside `tx`, so the event and the change it records commit together or not at all.
///
/// # Errors
/// An order action (those belong to an order's history), an event that cannot be built, or the
/// database.
pub async fn record(tx: &mut Tx, actor_id: i64, action: Action, data: Value) -> Result<(), AppError> {
    if !action.is_site() {
        tracing::error!(action = action.as_str(), "an order action recorded as a site event");
        return Err(AppError::Internal);
    }
    store::audit::append(tx, NO_ORDER, actor_id, &now_stamp(), action, data).await?;
    Ok(())
}

/// The audit page: the chain's head and the site events before seq `before` (newest first, at
/// most [`LOG_PAGE`]), with the people and teams they name looked up.
///
/// Not scoped to a team: callers check that the caller is an administrator.
///
/// # Errors
/// Database errors, or a stored event that cannot be decoded.
pub async fn log(db: &Db, before: Option<i64>) -> Result<SiteLog, sqlx::Error> {
    let head = store::audit::head(db).await?;
    let rows = store::audit::site_events(db, before, LOG_PAGE + 1).await?;
    let users: HashMap<i64, (String, String)> = store::users::list(db)
        .await?
        .into_iter()
        .map(|u| (u.id, (u.display_name, u.email)))
        .collect();
    let teams: HashMap<i64, String> = store::teams::list(db)
        .await?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let more = rows.len() > usize::try_from(LOG_PAGE).unwrap_or(usize::MAX);
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows.into_iter().take(usize::try_from(LOG_PAGE).unwrap_or(usize::MAX)) {
        let seq = row.0;
        let event = store::audit::decode(row)
            .ok_or_else(|| sqlx::Error::Decode(format!("audit event {seq}: unreadable action or data").into()))?;
        let id_of = |key: &str| event.data.get(key).and_then(Value::as_i64);
        entries.push(SiteEvent {
            seq,
            actor: users
                .get(&event.actor_id)
                .map(|(name, email)| format!("{name} <{email}>")),
            user: id_of("user_id")
                .and_then(|id| users.get(&id))
                .map(|(_, email)| email.clone()),
            team: id_of("team_id").and_then(|id| teams.get(&id)).cloned(),
            at: event.at,
            actor_id: event.actor_id,
            action: event.action,
            data: event.data,
        });
    }
    Ok(SiteLog {
        events: head.count,
        head_hash: head.head_hash,
        older: more.then(|| entries.last().map(|e| e.seq)).flatten(),
        entries,
    })
}

/// The `data` of a [`Action::UserCreated`] event: who, whether administrator, the team and role
/// they joined at once (if any), and `via` (`web`, `cli` or `setup`).
#[must_use]
pub fn user_created(
    user_id: i64,
    email: &str,
    is_admin: bool,
    team: Option<(i64, crate::domain::roles::TeamRole)>,
    via: &str,
) -> Value {
    let mut data = serde_json::json!({ "user_id": user_id, "email": email, "is_admin": is_admin, "via": via });
    if let (Some((team_id, role)), Some(map)) = (team, data.as_object_mut()) {
        map.insert("team_id".into(), team_id.into());
        map.insert("role".into(), role.as_str().into());
    }
    data
}

/// The user's role in the team now, inside `tx` (what a role change or removal replaces).
///
/// # Errors
/// The database.
pub async fn role_in(
    tx: &mut Tx,
    user_id: i64,
    team_id: i64,
) -> Result<Option<crate::domain::roles::TeamRole>, sqlx::Error> {
    Ok(store::memberships::of_user(&mut **tx, user_id)
        .await?
        .into_iter()
        .find(|m| m.team_id == team_id)
        .map(|m| m.role))
}

/// Inside the transaction that makes the change: records `action` about `user_id` by
/// `actor_id` in the audit chain and queues the mail telling `user_id` (`data` names the user
/// and the details the mail shows).
///
/// # Errors
/// The database, or the audit event.
pub async fn notice(tx: &mut Tx, actor_id: i64, user_id: i64, action: Action, data: Value) -> Result<(), AppError> {
    let at = now_stamp();
    store::security_mail::queue(tx, user_id, action, &at, &data).await?;
    record(tx, actor_id, action, data).await
}
