//! Orders: create, choose the quote and evidence, answer the checklist, submit, sign off,
//! reopen. Every change is checked against the lifecycle (`domain::orders::transition`) on the
//! server and appends its audit event in the same `BEGIN IMMEDIATE` transaction.
//!
//! Where things are: this file holds the use cases that change an order; `answer.rs` the
//! checklist answers, `submit.rs` submission and the chosen comparison, `load.rs` loads the order
//! page and `view.rs` builds it (pure, with `items.rs` and `texts.rs`), `comparison.rs` every
//! call into the cost comparison, `content.rs` reads and writes what a revision records (the
//! record itself is `domain::orders::record`).

mod accept;
mod answer;
pub mod asks;
mod chosen_bid;
mod comparison;
mod content;
mod desk_texts;
#[cfg(test)]
mod fixtures;
mod items;
mod load;
mod loaded;
mod order_plan;
mod order_this;
mod plan_line;
mod submit;
mod texts;
mod view;

pub use accept::{Accepted, MAX_ACCEPTED, accept};
pub use answer::{AnswerForm, answer};
pub use content::{AcknowledgedProblem, Acknowledgement, Frozen, OrderRecord, PinnedQuote};
pub use load::view;
pub use order_plan::{PlanChoice, order_plan};
pub use order_this::{Ordered, order_this, workload_draft};
pub use submit::{set_comparison, submit};

use crate::{
    domain::{
        audit::{Action, sha256_hex},
        orders::{OrderState, Outcome, Refusal, TransitionCtx, transition},
        roles::TeamRole,
        tco::Scenario,
    },
    error::{AppError, FieldIssue},
    i18n::Msg,
    store::{self, Db, Tx},
    views::{Caller, Membership},
};
use content::content_of;
use serde::{Deserialize, Serialize};

/// The time of a change as events and revisions store it (UTC, seconds).
use crate::clock::now_stamp as now;

/// The answer to a refused action, in the caller's terms.
fn refusal(r: Refusal) -> AppError {
    match r {
        Refusal::SelfApproval => AppError::Refused(Msg::OrdersRSelfApproval),
        Refusal::NotManager => AppError::Refused(Msg::OrdersRNotManager),
        Refusal::NotSubmitterOrManager => AppError::Refused(Msg::OrdersRNotSubmitterOrManager),
        Refusal::WrongPassword => AppError::Refused(Msg::OrdersRWrongPassword),
        Refusal::CommentRequired => AppError::InvalidFields(vec![FieldIssue::new("comment", "required")]),
        Refusal::Incomplete => AppError::Invalid(Msg::OrdersRIncomplete),
        Refusal::ProblemsUnacknowledged => {
            AppError::InvalidFields(vec![FieldIssue::new("acknowledge_problems", "required")])
        }
        Refusal::QuoteExpired => AppError::Invalid(Msg::OrdersRQuoteExpired),
        Refusal::NoValidRun => AppError::Invalid(Msg::OrdersRNoValidRun),
        Refusal::Locked => AppError::Conflict(Msg::OrdersRLocked),
        Refusal::InvalidTransition { .. } => AppError::Conflict(Msg::OrdersRInvalidTransition),
    }
}

/// Appends the audit event of a change to `order_id`, inside the change's transaction.
async fn record(
    tx: &mut Tx,
    order_id: i64,
    actor: i64,
    at: &str,
    action: Action,
    data: serde_json::Value,
) -> Result<(), AppError> {
    store::audit::append(tx, order_id, actor, at, action, data).await?;
    Ok(())
}

/// Creates an order (procurement) with its first draft revision; returns its id.
pub async fn create(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    title: &str,
    workload_id: i64,
) -> Result<i64, AppError> {
    let at = now();
    let mut tx = store::begin_write(db).await?;
    let id = create_in(&mut tx, caller, team, title, workload_id, &at).await?;
    tx.commit().await?;
    Ok(id)
}

/// [`create`] inside the caller's write transaction `tx`, at time `at`.
async fn create_in(
    tx: &mut Tx,
    caller: &Caller,
    team: &Membership,
    title: &str,
    workload_id: i64,
    at: &str,
) -> Result<i64, AppError> {
    let title = title.trim();
    if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
        return Err(AppError::InvalidFields(vec![FieldIssue::new("title", "required")]));
    }
    let content = OrderRecord {
        workload_id,
        ..OrderRecord::default()
    }
    .canonical()?;
    let (id, _) = store::orders::insert(tx, team.team_id, title, workload_id, caller.user_id, &content)
        .await?
        .ok_or(AppError::NotFound)?;
    record(
        tx,
        id,
        caller.user_id,
        at,
        Action::Create,
        serde_json::json!({ "revision": 1, "title": title, "workload_id": workload_id }),
    )
    .await?;
    Ok(id)
}

/// The longest order title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;

/// Changes a draft under the lifecycle: loads the latest revision, checks `action` is allowed,
/// applies `change` to the content, stores it and appends the event with `data`.
async fn edit_draft(
    db: &Db,
    team_id: i64,
    actor: i64,
    order_id: i64,
    action: Action,
    change: impl FnOnce(&mut OrderRecord, &str) -> Result<serde_json::Value, AppError>,
) -> Result<(), AppError> {
    let at = now();
    let mut tx = store::begin_write(db).await?;
    edit_in(&mut tx, team_id, actor, order_id, action, &at, change).await?;
    tx.commit().await?;
    Ok(())
}

/// [`edit_draft`] inside the caller's write transaction `tx`, at time `at`.
async fn edit_in(
    tx: &mut Tx,
    team_id: i64,
    actor: i64,
    order_id: i64,
    action: Action,
    at: &str,
    change: impl FnOnce(&mut OrderRecord, &str) -> Result<serde_json::Value, AppError>,
) -> Result<(), AppError> {
    let row = store::orders::latest(&mut **tx, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let ctx = TransitionCtx::edit(actor);
    transition(row.state, action, &ctx).map_err(refusal)?;
    let mut content = content_of(&row)?;
    let mut data = change(&mut content, at)?;
    if let Some(obj) = data.as_object_mut() {
        obj.insert("revision".into(), row.revision.into());
    }
    if !store::orders::set_content(tx, row.revision_id, &content.canonical()?).await? {
        return Err(refusal(Refusal::Locked));
    }
    record(tx, order_id, actor, at, action, data).await
}

/// Most quotes considered, and most runs, one order's selection may list (the order page offers
/// far fewer): a crafted form cannot make the server look up an unbounded list.
pub const MAX_SELECTED: usize = 100;

/// Refuses a selection whose `considered` or `runs` list (their lengths as posted) is longer than
/// [`MAX_SELECTED`]: 422 naming the field and the limit.
pub fn check_selection_sizes(considered: usize, runs: usize) -> Result<(), AppError> {
    let too_long: Vec<FieldIssue> = [("considered", considered), ("runs", runs)]
        .into_iter()
        .filter(|(_, n)| *n > MAX_SELECTED)
        .map(|(field, _)| FieldIssue {
            field: field.to_string(),
            code: "too_many_items".to_string(),
            limit: Some(MAX_SELECTED.to_string()),
        })
        .collect();
    if too_long.is_empty() {
        Ok(())
    } else {
        Err(AppError::InvalidFields(too_long))
    }
}

/// What the preparer chooses: the quote, the alternatives, the runs and a waiver.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// The quote to rent (`None`: not chosen yet).
    pub quote_id: Option<i64>,
    /// The alternatives weighed (the chosen quote is added when missing).
    pub considered: Vec<i64>,
    /// Benchmark runs backing the choice.
    pub runs: Vec<i64>,
    /// Why no valid run is needed, in the preparer's words (trimmed).
    pub waiver: String,
}

/// Sets the chosen quote (pinning its latest revision), alternatives, runs and waiver of a draft.
pub async fn select(db: &Db, caller: &Caller, team: &Membership, order_id: i64, s: &Selection) -> Result<(), AppError> {
    let quote_revision_id = check_selection(db, team.team_id, s).await?;
    let s = s.clone();
    edit_draft(
        db,
        team.team_id,
        caller.user_id,
        order_id,
        Action::EvidenceAttached,
        move |c, _| Ok(apply_selection(c, &s, quote_revision_id)),
    )
    .await
}

/// Checks a selection names only the team's quotes and runs; returns the revision id of the
/// chosen quote's latest revision (what the order pins), `None` when none is chosen.
async fn check_selection(db: &Db, team_id: i64, s: &Selection) -> Result<Option<i64>, AppError> {
    check_selection_sizes(s.considered.len(), s.runs.len())?;
    let quote_revision_id = match s.quote_id {
        Some(q) => Some(
            store::quotes::latest(db, team_id, q)
                .await?
                .ok_or(AppError::NotFound)?
                .revision_id,
        ),
        None => None,
    };
    for run in &s.runs {
        store::runs::canonical(db, team_id, *run)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    for q in &s.considered {
        store::quotes::latest(db, team_id, *q)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    Ok(quote_revision_id)
}

/// Puts a checked selection into a draft's content (the chosen quote pinned at
/// `quote_revision_id` and added to the alternatives when missing); returns the event's data.
fn apply_selection(c: &mut OrderRecord, s: &Selection, quote_revision_id: Option<i64>) -> serde_json::Value {
    let plan_cleared = (c.quote_id, c.quote_revision_id) != (s.quote_id, quote_revision_id) && clear_plan(c);
    c.quote_id = s.quote_id;
    c.quote_revision_id = quote_revision_id;
    c.considered = s.considered.clone();
    if let Some(q) = s.quote_id
        && !c.considered.contains(&q)
    {
        c.considered.push(q);
    }
    c.runs = s.runs.clone();
    c.waiver = s.waiver.trim().to_string();
    let mut data = serde_json::json!({ "quote_id": c.quote_id, "quote_revision_id": c.quote_revision_id, "considered": c.considered, "runs": c.runs, "waiver": c.waiver });
    if plan_cleared {
        data["plan_cleared"] = serde_json::Value::Bool(true);
    }
    data
}

/// Drops the rental plan an order was chosen from, once the order no longer rents what was
/// planned (another quote, another revision of its price sheet, another comparison): a signed
/// plan must describe the rental signed. Returns whether there was one to drop.
pub(crate) fn clear_plan(c: &mut OrderRecord) -> bool {
    c.plan.take().is_some()
}

/// Re-pins a draft's chosen quote to its latest revision: the order is then priced at that
/// revision (its comparison costs it, submission freezes it). It starts a new round of the
/// checklist for that quote: answers that cite a field of the revision pinned before speak of a
/// spec and price no longer chosen, so they are cleared and must be answered again. A decided
/// order is reopened first (a new draft revision), as for any other change.
pub async fn repin(db: &Db, caller: &Caller, team: &Membership, order_id: i64) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let quote_id = content_of(&row)?.quote_id.ok_or(AppError::NotFound)?;
    let latest = store::quotes::latest(db, team.team_id, quote_id)
        .await?
        .ok_or(AppError::NotFound)?;
    edit_draft(
        db,
        team.team_id,
        caller.user_id,
        order_id,
        Action::EvidenceAttached,
        move |c, _| {
            let before = c.quote_revision_id;
            if c.quote_id != Some(quote_id) {
                // The quote was changed meanwhile: nothing to re-pin.
                return Err(AppError::Conflict(Msg::OrdersRRepinChanged));
            }
            c.quote_revision_id = Some(latest.revision_id);
            let cleared = clear_quote_answers(c, before);
            let plan_cleared = before != c.quote_revision_id && clear_plan(c);
            Ok(serde_json::json!({
                "quote_id": quote_id,
                "quote_revision_id": latest.revision_id,
                "quote_revision": latest.revision,
                "repinned_from": before,
                "answers_cleared": cleared,
                "plan_cleared": plan_cleared,
            }))
        },
    )
    .await
}

/// Removes the answers citing a field of quote revision `revision_id` (`None`: none), and
/// returns their item ids.
fn clear_quote_answers(c: &mut OrderRecord, revision_id: Option<i64>) -> Vec<String> {
    let cites = |a: &crate::domain::checklist::ItemAnswer| {
        a.evidence.iter().any(|e| {
            matches!(e, crate::domain::checklist::Evidence::QuoteField { quote_revision_id, .. }
                if Some(*quote_revision_id) == revision_id)
        })
    };
    let cleared: Vec<String> = c
        .answers
        .iter()
        .filter(|(_, a)| cites(a))
        .map(|(id, _)| id.clone())
        .collect();
    c.answers.retain(|_, a| !cites(a));
    cleared
}

/// Approves or rejects a submitted revision: a manager of the team who did not submit it,
/// with the password re-entered (and a code from the authenticator app when they have a second
/// factor), and a comment when rejecting. An approval pins the hash of the revision's content in
/// its event; the event says when a second factor confirmed the decision.
#[expect(
    clippy::too_many_arguments,
    reason = "one decision: who, which order, what, and its proofs"
)]
pub async fn decide(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    approve: bool,
    password: String,
    comment: &str,
    code: &str,
) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let user = store::users::by_id(db, caller.user_id)
        .await?
        .ok_or(AppError::Unauthenticated)?;
    let is_manager = team.role == TeamRole::Manager;
    // The password is checked only for someone who may decide, so the check cannot be used to
    // guess passwords by anyone else.
    // Throttled like sign-in, by account and client address.
    let password_ok = is_manager
        && crate::auth::throttle::check_password(
            db,
            &user.email,
            password,
            Some(user.password_hash.clone()),
            crate::auth::throttle::Purpose::SignOff,
        )
        .await?;
    // The code is asked for only after the password matched (second factor).
    let second_factor = password_ok && super::second_factor::confirm_sign_off(db, &user, code).await?;
    let action = if approve { Action::Approve } else { Action::Reject };
    let ctx = TransitionCtx::review(caller.user_id, is_manager, row.submitted_by, comment, password_ok);
    let to = match transition(row.state, action, &ctx).map_err(refusal)? {
        Outcome::State(s) => s,
        Outcome::NewDraftRevision => {
            return Err(refusal(Refusal::InvalidTransition {
                from: row.state,
                action,
            }));
        }
    };
    let hash = sha256_hex(&row.content);
    let at = now();
    let comment = comment.trim();
    let mut tx = store::begin_write(db).await?;
    let pinned = approve.then_some(hash.as_str());
    if !store::orders::set_state(
        &mut tx,
        row.revision_id,
        OrderState::Submitted,
        to,
        caller.user_id,
        &at,
        comment,
        pinned,
    )
    .await?
    {
        return Err(refusal(Refusal::Locked));
    }
    let mut data = if approve {
        serde_json::json!({ "revision": row.revision, "content_hash": hash, "comment": comment })
    } else {
        serde_json::json!({ "revision": row.revision, "comment": comment })
    };
    if second_factor {
        data["second_factor"] = serde_json::Value::Bool(true);
    }
    record(&mut tx, order_id, caller.user_id, &at, action, data).await?;
    tx.commit().await?;
    Ok(())
}

/// Reopens an approved or rejected order as a new draft revision (the decided one stays).
pub async fn reopen(db: &Db, caller: &Caller, team: &Membership, order_id: i64) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let is_manager = team.role == TeamRole::Manager;
    let ctx = TransitionCtx::review(caller.user_id, is_manager, row.submitted_by, "", false);
    transition(row.state, Action::Reopen, &ctx).map_err(refusal)?;
    let mut content = content_of(&row)?;
    content.tco = None;
    content.frozen = None;
    content.problems_acknowledged = None;
    let at = now();
    let mut tx = store::begin_write(db).await?;
    store::orders::add_revision(&mut tx, team.team_id, order_id, row.revision + 1, &content.canonical()?).await?;
    record(
        &mut tx,
        order_id,
        caller.user_id,
        &at,
        Action::Reopen,
        serde_json::json!({ "from_revision": row.revision, "revision": row.revision + 1 }),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The scenario frozen when a revision of one of the team's orders was submitted (`revision`
/// `None`: the latest submitted one), as `nodeledger tco FILE` reads it.
pub async fn frozen_scenario(
    db: &Db,
    team_id: i64,
    order_id: i64,
    revision: Option<i64>,
) -> Result<Scenario, AppError> {
    let all = store::orders::revisions(db, team_id, order_id).await?;
    let row = match revision {
        Some(n) => all.iter().find(|r| r.revision == n),
        None => all.iter().find(|r| r.state != OrderState::Draft),
    }
    .ok_or(AppError::NotFound)?;
    content_of(row)?.frozen.map(|f| f.scenario).ok_or(AppError::NotFound)
}

/// The order record for export (the format `nodeledger audit verify --export FILE` checks, see
/// `domain::audit::export`): every revision with its content and hash, and the order's events.
pub async fn export(db: &Db, team_id: i64, order_id: i64) -> Result<serde_json::Value, AppError> {
    store::orders::latest(db, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let record = crate::services::audit::export_order(db, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let mut value = serde_json::to_value(record).map_err(|_| AppError::Internal)?;
    // The rental that followed the approval, beside the record.
    if let Some(rental) = crate::services::rentals::export(db, team_id, order_id).await? {
        value["rental"] = rental;
    }
    // The bills and their reconciliation (ignored by `audit verify --export`).
    crate::services::bills::section::add_to_export(db, team_id, order_id, &mut value).await?;
    Ok(value)
}

#[cfg(test)]
mod plan_tests {
    use super::{OrderRecord, Selection, apply_selection, plan_line::tests::four_cards};
    use crate::domain::orders::record::SignedPlan;

    fn planned() -> OrderRecord {
        OrderRecord {
            workload_id: 1,
            quote_id: Some(7),
            quote_revision_id: Some(70),
            considered: vec![7],
            plan: Some(SignedPlan {
                quote_id: 7,
                ..four_cards()
            }),
            ..OrderRecord::default()
        }
    }

    fn selecting(quote_id: i64) -> Selection {
        Selection {
            quote_id: Some(quote_id),
            considered: vec![7, 8],
            runs: vec![3],
            waiver: String::new(),
        }
    }

    #[test]
    fn the_plan_stays_while_the_same_quote_revision_is_rented_and_goes_with_another() {
        let mut c = planned();
        let data = apply_selection(&mut c, &selecting(7), Some(70));
        assert!(
            c.plan.is_some() && data.get("plan_cleared").is_none(),
            "runs and alternatives only"
        );

        let data = apply_selection(&mut c, &selecting(7), Some(71));
        assert!(c.plan.is_none(), "another revision of the price sheet");
        assert_eq!(data["plan_cleared"], true);

        let mut c = planned();
        let data = apply_selection(&mut c, &selecting(8), Some(80));
        assert!(c.plan.is_none() && data["plan_cleared"] == true, "another quote");
    }
}
