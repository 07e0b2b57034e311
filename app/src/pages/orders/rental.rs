//! The rental section of an approved order: running / stopped but not released /
//! released, started, planned end, the resources, what it costs per day now; for procurement
//! and engineers the forms to record it, stop it, release it with the actual hours, and correct
//! a mistake before release ([`super::rental_forms`], with the server functions they call).
//! Managers see it. Prints with the order record.

use super::rental_forms::{CorrectRentalForm, RecordRentalForm, ReleaseRentalForm, StopRentalForm};
use crate::{
    components::{loaded::Loaded, local_time::Moment},
    domain::rentals::RentalState,
    error::AppError,
    i18n::{Msg, t},
    views::rentals::{RentalSection, RentalShown},
};
use leptos::prelude::*;

/// The rental section of one of the team's orders.
#[server(endpoint = "rentals/get")]
pub async fn load_rental(order_id: i64) -> Result<RentalSection, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::rentals};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    rentals::section(&auth::db()?, &caller, &team, order_id, request_locale()).await
}

/// The message of a rental state.
#[must_use]
pub const fn rental_state_msg(s: RentalState) -> Msg {
    match s {
        RentalState::Running => Msg::RentalsStateRunning,
        RentalState::Stopped => Msg::RentalsStateStopped,
        RentalState::Released => Msg::RentalsStateReleased,
    }
}

/// The badge class of a rental state (a stopped rental still bills: a warning).
const fn state_class(s: RentalState) -> &'static str {
    match s {
        RentalState::Running => "verdict",
        RentalState::Stopped => "verdict verdict-warn",
        RentalState::Released => "verdict verdict-valid",
    }
}

/// The rental section of order `order_id` (mounted on the order page; shows nothing until the
/// order is approved, unless a rental was recorded).
///
/// A sibling of the order's own `<Loaded>`, not inside it: a suspense nested in another does not
/// hydrate reliably. An order that is not found shows nothing here (the order part says so).
#[component]
pub fn RentalCard(order_id: Signal<Option<i64>>) -> impl IntoView {
    let data = Resource::new(
        move || order_id.get(),
        |id| async move {
            match id {
                Some(id) => match load_rental(id).await {
                    Ok(s) => Ok(Some(s)),
                    Err(AppError::NotFound) => Ok(None),
                    Err(e) => Err(e),
                },
                None => Ok(None),
            }
        },
    );
    view! {
        <Loaded resource=data quiet=true let:s>
            {s.filter(|s| s.approved || s.rental.is_some()).map(|s| card(&s))}
        </Loaded>
    }
}

fn card(s: &RentalSection) -> impl IntoView + use<> {
    let order_id = s.order_id;
    let can_act = s.can_act;
    let planned = s.time_to_finish_h.clone();
    view! {
        <section class="card" id="rental" data-testid="rental">
            <h2>{t(Msg::RentalsTitle)}</h2>
            {match s.rental.clone() {
                Some(r) => view! {
                    {facts(&r)}
                    {(can_act && r.state != RentalState::Released).then(|| view! {
                        <div class="no-print">
                            {(r.state == RentalState::Running).then(|| view! { <StopRentalForm order_id /> })}
                            <ReleaseRentalForm order_id />
                            <CorrectRentalForm order_id r=r.clone() />
                        </div>
                    })}
                }.into_any(),
                None => view! {
                    <p data-testid="rental-none">{t(Msg::RentalsNone)}</p>
                    {planned.as_ref().map(|h| view! { <p class="hint">{crate::i18n::use_locale().fmt(Msg::RentalsPlannedHint, &[("hours", h)])}</p> })}
                    {can_act.then(|| view! { <RecordRentalForm order_id /> })}
                }.into_any(),
            }}
        </section>
    }
}

/// What the rental is: its state, times, resources and cost per day now.
fn facts(r: &RentalShown) -> impl IntoView + use<> {
    let dash = || "—".to_string();
    let stopped_overdue = r.state == RentalState::Stopped && r.overdue.is_some();
    view! {
        <p>
            // A rental stopped too long says so in one badge ("Stopped 718 h ago, not released"),
            // not its state and then the same words again.
            {(!stopped_overdue).then(|| view! { <span class=state_class(r.state) data-testid="rental-state">{t(rental_state_msg(r.state))}</span> " " })}
            {r.overdue.clone().map(|o| view! { <span class="verdict verdict-invalid" data-testid="rental-overdue">{o}</span> })}
        </p>
        <dl class="facts">
            <dt>{t(Msg::RentalsStarted)}</dt><dd data-testid="rental-started"><Moment at=r.started_at.clone() /></dd>
            <dt>{t(Msg::RentalsPlannedEnd)}</dt><dd data-testid="rental-planned-end"><Moment at=r.planned_end_at.clone() /></dd>
            <dt>{t(Msg::RentalsStopped)}</dt><dd data-testid="rental-stopped">{r.stopped_at.clone().map_or_else(|| dash().into_any(), |at| view! { <Moment at /> }.into_any())}</dd>
            <dt>{t(Msg::RentalsReleased)}</dt><dd data-testid="rental-released">{r.released_at.clone().map_or_else(|| dash().into_any(), |at| view! { <Moment at /> }.into_any())}</dd>
            <dt>{t(Msg::RentalsHours)}</dt>
            <dd data-testid="rental-hours">{crate::i18n::use_locale().fmt(Msg::RentalsHoursValue, &[("running", &r.running_h), ("stopped", &r.stopped_h)])}</dd>
            <dt>{t(Msg::RentalsResources)}</dt>
            <dd><ul data-testid="rental-resources">{r.resources.iter().map(|id| view! { <li><code>{id.clone()}</code></li> }).collect_view()}</ul></dd>
            <dt>{t(Msg::RentalsPerDay)}</dt>
            <dd>
                <strong data-testid="rental-per-day">{r.per_day.clone().unwrap_or_else(dash)}</strong>
                {(!r.per_day_lines.is_empty()).then(|| view! {
                    " (" {r.per_day_lines.iter().map(|(l, a)| format!("{l} {a}")).collect::<Vec<_>>().join(" + ")} ")"
                })}
            </dd>
            {r.actual_hours.clone().map(|(s, d, x)| view! {
                <dt>{t(Msg::RentalsActuals)}</dt>
                <dd data-testid="rental-actuals">{crate::i18n::use_locale().fmt(Msg::RentalsActualsValue, &[("setup", &s), ("prep", &d), ("rerun", &x)])}</dd>
            })}
            {(!r.note.is_empty()).then(|| view! { <dt>{t(Msg::RentalsNote)}</dt><dd>{r.note.clone()}</dd> })}
        </dl>
    }
}
