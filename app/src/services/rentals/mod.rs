//! The rental that follows an approved order: record it, mark it stopped, release it
//! with the actual hours, correct a mistake before release. Each step is checked (the order is
//! the team's and approved, the times follow each other and are not ahead of now, the resource
//! ids are one per line) and appends its audit event to the order's chain in the same
//! `BEGIN IMMEDIATE` transaction, so a refused step leaves nothing behind.
//!
//! Where things are: this file the steps that change a rental; `frozen.rs` what the approved
//! revision froze (time to finish, prices); `view.rs` the order page's section, the dashboard's
//! overdue list and the learned defaults (load, then pure builders).

mod frozen;
mod view;

pub use frozen::Pinned;
pub use view::{export, learned, overdue, section};

use crate::{
    domain::{
        audit::Action,
        numbers::parse_decimal,
        orders::OrderState,
        rentals::{Instant, RentalTimes, ResourceError, TimeRefusal, parse_resources, planned_end},
    },
    error::{AppError, FieldIssue},
    i18n::Msg,
    store::{self, Db, rentals::RentalRow},
    views::{Caller, Membership},
};
use rust_decimal::Decimal;

/// The most hours one actual figure may state (about eleven years).
const MAX_HOURS: u32 = 100_000;

/// Longest note, in characters (the table's check).
const MAX_NOTE: usize = 2000;

/// What the record form sends.
#[derive(Clone, Debug, Default)]
pub struct RecordForm {
    /// Start, UTC (`YYYY-MM-DD HH:MM`).
    pub started_at: String,
    /// Resource ids, one per line.
    pub resources: String,
    /// A note.
    pub note: String,
}

/// What the release form sends.
#[derive(Clone, Debug, Default)]
pub struct ReleaseForm {
    /// Release time, UTC (empty: now).
    pub released_at: String,
    /// Actual setup hours.
    pub setup_hours: String,
    /// Actual data preparation hours (empty: 0).
    pub data_prep_hours: String,
    /// Actual re-run hours (empty: 0).
    pub rerun_hours: String,
}

/// What the correction form sends (a rental not yet released).
#[derive(Clone, Debug, Default)]
pub struct CorrectForm {
    /// Start.
    pub started_at: String,
    /// Stop (empty: not stopped).
    pub stopped_at: String,
    /// Resource ids, one per line.
    pub resources: String,
    /// A note.
    pub note: String,
}

/// Now, as a rental's times are compared.
pub(super) fn now() -> Instant {
    Instant::from_unix(store::now_unix())
}

fn field(name: &str, code: &str) -> AppError {
    AppError::InvalidFields(vec![FieldIssue::new(name, code)])
}

/// A time field: empty means `default` (when there is one), else `YYYY-MM-DD HH:MM[:SS]`.
fn time_field(name: &str, text: &str, default: Option<Instant>) -> Result<Instant, AppError> {
    match (text.trim(), default) {
        ("", Some(d)) => Ok(d),
        ("", None) => Err(field(name, "required")),
        (t, _) => Instant::parse(t).ok_or_else(|| field(name, "rental_time")),
    }
}

/// The field a refused set of times is reported on.
fn time_refusal(r: TimeRefusal, future_field: &str) -> AppError {
    match r {
        TimeRefusal::ReleaseBeforeStart => field("released_at", "release_before_start"),
        TimeRefusal::StopBeforeStart => field("stopped_at", "stop_before_start"),
        TimeRefusal::StopAfterRelease => field("stopped_at", "stop_after_release"),
        TimeRefusal::InFuture => field(future_field, "rental_in_future"),
    }
}

fn resources(text: &str) -> Result<Vec<String>, AppError> {
    parse_resources(text).map_err(|e| {
        let (code, line) = match e {
            ResourceError::Empty => ("required", None),
            ResourceError::TooMany => ("resources_too_many", Some(crate::domain::rentals::MAX_RESOURCES)),
            ResourceError::TooLong { line } => ("resource_too_long", Some(line)),
            ResourceError::Whitespace { line } => ("resource_whitespace", Some(line)),
            ResourceError::Duplicate { line } => ("resource_duplicate", Some(line)),
        };
        AppError::InvalidFields(vec![FieldIssue {
            limit: line.map(|l| l.to_string()),
            ..FieldIssue::new("resources", code)
        }])
    })
}

fn note(text: &str) -> Result<String, AppError> {
    let text = text.trim();
    if text.chars().count() > MAX_NOTE {
        return Err(AppError::InvalidFields(vec![FieldIssue {
            limit: Some(MAX_NOTE.to_string()),
            ..FieldIssue::new("note", "too_long")
        }]));
    }
    Ok(text.to_string())
}

/// Hours that are often none (data preparation, re-runs): empty is 0, anything else is read
/// as [`hours`] reads it.
fn optional_hours(name: &str, text: &str) -> Result<Decimal, AppError> {
    if text.trim().is_empty() {
        Ok(Decimal::ZERO)
    } else {
        hours(name, text)
    }
}

/// An actual-hours field: a non-negative exact decimal, at most [`MAX_HOURS`].
fn hours(name: &str, text: &str) -> Result<Decimal, AppError> {
    let d = parse_decimal(text).map_err(|e| AppError::InvalidFields(vec![FieldIssue::from_number(name, e)]))?;
    if d.is_sign_negative() && !d.is_zero() {
        return Err(field(name, "negative"));
    }
    if d > Decimal::from(MAX_HOURS) {
        return Err(AppError::InvalidFields(vec![FieldIssue {
            limit: Some(MAX_HOURS.to_string()),
            ..FieldIssue::new(name, "too_large")
        }]));
    }
    Ok(d.normalize())
}

/// The times of a stored rental (a row that does not read is logged: only a hand edit does that).
pub(crate) fn times_of(r: &RentalRow) -> Result<RentalTimes, AppError> {
    let read = |s: &str| {
        Instant::parse(s).ok_or_else(|| {
            tracing::error!(rental = r.id, time = s, "stored rental time does not read");
            AppError::Internal
        })
    };
    Ok(RentalTimes {
        started_at: read(&r.started_at)?,
        planned_end_at: read(&r.planned_end_at)?,
        stopped_at: r.stopped_at.as_deref().map(read).transpose()?,
        released_at: r.released_at.as_deref().map(read).transpose()?,
    })
}

/// Appends a rental event to the order's chain, inside the step's transaction.
async fn record_event(
    tx: &mut store::Tx,
    order_id: i64,
    actor: i64,
    at: Instant,
    action: Action,
    data: serde_json::Value,
) -> Result<(), AppError> {
    store::audit::append(tx, order_id, actor, &at.to_string(), action, data).await?;
    Ok(())
}

/// Records the rental of one of the team's approved orders; returns its id. The planned end is
/// the start plus the frozen estimate's time to finish.
pub async fn record(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    form: &RecordForm,
) -> Result<i64, AppError> {
    // Read inside the write transaction, so a reopen cannot slip in between check and insert.
    let mut tx = store::begin_write(db).await?;
    let row = store::orders::latest(&mut *tx, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if row.state != OrderState::Approved {
        return Err(AppError::Conflict(Msg::RentalsRNotApproved));
    }
    let pinned = Pinned::of_row(&row)?.ok_or(AppError::Conflict(Msg::RentalsRNoEstimate))?;
    let now = now();
    let started = time_field("started_at", &form.started_at, None)?;
    let planned = planned_end(started, pinned.time_to_finish_h).ok_or_else(|| field("started_at", "rental_time"))?;
    RentalTimes {
        started_at: started,
        planned_end_at: planned,
        stopped_at: None,
        released_at: None,
    }
    .check(now)
    .map_err(|r| time_refusal(r, "started_at"))?;
    let ids = resources(&form.resources)?;
    let note = note(&form.note)?;
    let (started_s, planned_s) = (started.to_string(), planned.to_string());
    let new = store::rentals::NewRental {
        order_id,
        order_revision_id: row.revision_id,
        started_at: &started_s,
        planned_end_at: &planned_s,
        note: &note,
        created_by: caller.user_id,
        resources: &ids,
    };
    let id = store::rentals::insert(&mut tx, team.team_id, &new)
        .await?
        .ok_or(AppError::Conflict(Msg::RentalsRAlready))?;
    let data = serde_json::json!({
        "rental_id": id, "revision": row.revision, "started_at": started_s, "planned_end_at": planned_s,
        "resources": ids, "note": note,
    });
    record_event(&mut tx, order_id, caller.user_id, now, Action::RentalRecorded, data).await?;
    tx.commit().await?;
    Ok(id)
}

/// The rental of one of the team's orders, not yet released.
async fn open_rental(db: &Db, team_id: i64, order_id: i64) -> Result<(RentalRow, RentalTimes), AppError> {
    store::orders::latest(db, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let r = store::rentals::of_order(db, team_id, order_id)
        .await?
        .ok_or(AppError::Conflict(Msg::RentalsRNone))?;
    if r.released_at.is_some() {
        return Err(AppError::Conflict(Msg::RentalsRReleased));
    }
    let times = times_of(&r)?;
    Ok((r, times))
}

/// Marks the rental stopped at `stopped_at` (empty: now): its resources are still held.
pub async fn stop(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    stopped_at: &str,
) -> Result<(), AppError> {
    let (r, mut times) = open_rental(db, team.team_id, order_id).await?;
    if r.stopped_at.is_some() {
        return Err(AppError::Conflict(Msg::RentalsRAlreadyStopped));
    }
    let now = now();
    let at = time_field("stopped_at", stopped_at, Some(now))?;
    times.stopped_at = Some(at);
    times.check(now).map_err(|e| time_refusal(e, "stopped_at"))?;
    let mut tx = store::begin_write(db).await?;
    if !store::rentals::set_stopped(&mut tx, team.team_id, r.id, &at.to_string()).await? {
        return Err(AppError::Conflict(Msg::RentalsRAlreadyStopped));
    }
    let data = serde_json::json!({ "rental_id": r.id, "stopped_at": at.to_string() });
    record_event(&mut tx, order_id, caller.user_id, now, Action::RentalStopped, data).await?;
    tx.commit().await?;
    Ok(())
}

/// Releases the rental at `released_at` (empty: now) with the actual setup, data preparation
/// and re-run hours; after this the rental is the record and never changes.
pub async fn release(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    form: &ReleaseForm,
) -> Result<(), AppError> {
    let (r, mut times) = open_rental(db, team.team_id, order_id).await?;
    let now = now();
    let at = time_field("released_at", &form.released_at, Some(now))?;
    let setup = hours("setup_hours", &form.setup_hours)?;
    let prep = optional_hours("data_prep_hours", &form.data_prep_hours)?;
    let rerun = optional_hours("rerun_hours", &form.rerun_hours)?;
    times.released_at = Some(at);
    times.check(now).map_err(|e| time_refusal(e, "released_at"))?;
    let (at_s, setup_s, prep_s, rerun_s) = (at.to_string(), setup.to_string(), prep.to_string(), rerun.to_string());
    let mut tx = store::begin_write(db).await?;
    let release = store::rentals::Release {
        released_at: &at_s,
        setup_hours: &setup_s,
        data_prep_hours: &prep_s,
        rerun_hours: &rerun_s,
    };
    if !store::rentals::set_released(&mut tx, team.team_id, r.id, &release).await? {
        return Err(AppError::Conflict(Msg::RentalsRReleased));
    }
    let data = serde_json::json!({
        "rental_id": r.id, "released_at": at_s, "setup_hours": setup_s, "data_prep_hours": prep_s, "rerun_hours": rerun_s,
    });
    record_event(&mut tx, order_id, caller.user_id, now, Action::RentalReleased, data).await?;
    tx.commit().await?;
    Ok(())
}

/// Corrects the start, the stop, the resources or the note of a rental not yet released (the
/// planned end follows the start).
pub async fn correct(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    form: &CorrectForm,
) -> Result<(), AppError> {
    let (r, times) = open_rental(db, team.team_id, order_id).await?;
    let now = now();
    let started = time_field("started_at", &form.started_at, None)?;
    let stopped = match form.stopped_at.trim() {
        "" => None,
        t => Some(time_field("stopped_at", t, None)?),
    };
    // The planned end moves with the start: the time to finish stays the frozen estimate's.
    let planned = times.planned_end_at.unix() - times.started_at.unix();
    let planned = Instant::from_unix(started.unix().saturating_add(planned));
    let fixed = RentalTimes {
        started_at: started,
        planned_end_at: planned,
        stopped_at: stopped,
        released_at: None,
    };
    fixed.check(now).map_err(|e| time_refusal(e, "started_at"))?;
    let ids = resources(&form.resources)?;
    let note = note(&form.note)?;
    let (started_s, planned_s, stopped_s) = (started.to_string(), planned.to_string(), stopped.map(|s| s.to_string()));
    let mut tx = store::begin_write(db).await?;
    let c = store::rentals::Correction {
        started_at: &started_s,
        planned_end_at: &planned_s,
        stopped_at: stopped_s.as_deref(),
        note: &note,
        resources: &ids,
    };
    if !store::rentals::correct(&mut tx, team.team_id, r.id, &c).await? {
        return Err(AppError::Conflict(Msg::RentalsRReleased));
    }
    let data = serde_json::json!({
        "rental_id": r.id, "started_at": started_s, "planned_end_at": planned_s, "stopped_at": stopped_s,
        "resources": ids, "note": note,
    });
    record_event(&mut tx, order_id, caller.user_id, now, Action::RentalCorrected, data).await?;
    tx.commit().await?;
    Ok(())
}
