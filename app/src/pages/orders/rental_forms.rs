//! The forms of the rental section and the server functions they call: record, stop, release
//! with the actual hours, correct.
//! Times are UTC, typed `YYYY-MM-DD HH:MM` (a `datetime-local` field sends that form); each
//! rejected field's message is beside it. After a success the page shows the rental as saved.

use super::fields::{FieldNote, FormError, invalid, issues_of, message_id};
use crate::{
    error::AppError,
    i18n::{Msg, t},
    views::rentals::RentalShown,
};
use leptos::prelude::*;

/// Records the rental of an approved order: the start (UTC), the vendor's resource ids one per
/// line, a note. Answers the rental's id.
#[server(endpoint = "rentals/record")]
pub async fn record_rental(
    order_id: i64,
    started_at: String,
    resources: String,
    #[server(default)] note: String,
) -> Result<i64, AppError> {
    use crate::{auth, domain::roles::Capability, services::rentals};
    let (caller, team) = auth::require_team(Capability::RecordRentals)?;
    let form = rentals::RecordForm {
        started_at,
        resources,
        note,
    };
    rentals::record(&auth::db()?, &caller, &team, order_id, &form).await
}

/// Marks the rental stopped at `stopped_at` (UTC; empty: now). Its resources are still held.
#[server(endpoint = "rentals/stop")]
pub async fn stop_rental(order_id: i64, #[server(default)] stopped_at: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::rentals};
    let (caller, team) = auth::require_team(Capability::RecordRentals)?;
    rentals::stop(&auth::db()?, &caller, &team, order_id, &stopped_at).await
}

/// Releases the rental at `released_at` (UTC; empty: now) with the actual hours; data
/// preparation and re-run hours left empty are 0 (many jobs have neither).
#[server(endpoint = "rentals/release")]
pub async fn release_rental(
    order_id: i64,
    #[server(default)] released_at: String,
    setup_hours: String,
    #[server(default)] data_prep_hours: String,
    #[server(default)] rerun_hours: String,
) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::rentals};
    let (caller, team) = auth::require_team(Capability::RecordRentals)?;
    let form = rentals::ReleaseForm {
        released_at,
        setup_hours,
        data_prep_hours,
        rerun_hours,
    };
    rentals::release(&auth::db()?, &caller, &team, order_id, &form).await
}

/// Corrects the start, the stop (empty: not stopped), the resources or the note before release.
#[server(endpoint = "rentals/correct")]
pub async fn correct_rental(
    order_id: i64,
    started_at: String,
    #[server(default)] stopped_at: String,
    resources: String,
    #[server(default)] note: String,
) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::rentals};
    let (caller, team) = auth::require_team(Capability::RecordRentals)?;
    let form = rentals::CorrectForm {
        started_at,
        stopped_at,
        resources,
        note,
    };
    rentals::correct(&auth::db()?, &caller, &team, order_id, &form).await
}

/// The form value of a stored time (`2026-12-01T08:00:00Z` → `2026-12-01T08:00`).
fn local_value(stored: &str) -> String {
    stored.get(..16).unwrap_or(stored).to_string()
}

/// Records the rental (no rental yet). Like the other rental forms it saves in place
/// (`data-in-place`): checked by the server, what was typed stays after an error.
#[component]
pub(super) fn RecordRentalForm(order_id: i64) -> impl IntoView {
    let action = ServerAction::<RecordRental>::new();
    let issues = issues_of(action, None);
    view! {
        <ActionForm action attr:class="form no-print" attr:data-testid="rental-record-form" attr:data-in-place="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <label>{t(Msg::RentalsFStartedAt)}
                <input type="datetime-local" name="started_at" required data-testid="rental-started-at"
                    aria-invalid=invalid(issues, "started_at") aria-describedby=message_id("started_at", "rental-record") />
            </label>
            <FieldNote issues field="started_at" scope="rental-record" />
            <label>{t(Msg::RentalsFResources)}
                <textarea name="resources" rows="3" required data-testid="rental-resources-input" placeholder="i-0abc123\nvol-0def456"
                    aria-invalid=invalid(issues, "resources") aria-describedby=message_id("resources", "rental-record")></textarea>
            </label>
            <FieldNote issues field="resources" scope="rental-record" />
            <label>{t(Msg::RentalsFNote)}
                <textarea name="note" rows="2" aria-invalid=invalid(issues, "note") aria-describedby=message_id("note", "rental-record")></textarea>
            </label>
            <FieldNote issues field="note" scope="rental-record" />
            <button type="submit" data-testid="rental-record">{t(Msg::RentalsRecord)}</button>
        </ActionForm>
        <FormError action />
    }
}

/// Marks it stopped (running only).
#[component]
pub(super) fn StopRentalForm(order_id: i64) -> impl IntoView {
    let action = ServerAction::<StopRental>::new();
    let issues = issues_of(action, None);
    view! {
        <h3>{t(Msg::RentalsStopTitle)}</h3>
        <p class="hint">{t(Msg::RentalsStopHint)}</p>
        <ActionForm action attr:class="form-inline" attr:data-testid="rental-stop-form" attr:data-in-place="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <label>{t(Msg::RentalsFStoppedAt)}
                <input type="datetime-local" name="stopped_at" data-testid="rental-stopped-at"
                    aria-invalid=invalid(issues, "stopped_at") aria-describedby=message_id("stopped_at", "rental-stop") />
            </label>
            <button type="submit" class="secondary" data-testid="rental-stop">{t(Msg::RentalsStop)}</button>
        </ActionForm>
        <FieldNote issues field="stopped_at" scope="rental-stop" />
        <FormError action />
    }
}

/// One actual-hours field of the release form; an optional one may be left empty (0).
fn hours_field(
    issues: Signal<Vec<crate::error::FieldIssue>>,
    (name, label): (&'static str, Msg),
    required: bool,
) -> impl IntoView {
    view! {
        <label>{t(label)}
            <input type="text" inputmode="decimal" name=name required=required placeholder=(!required).then_some("0")
                data-testid=format!("rental-{name}")
                aria-invalid=invalid(issues, name) aria-describedby=message_id(name, "rental-release") />
        </label>
        <FieldNote issues field=name scope="rental-release" />
    }
}

/// Releases it with the actual hours.
#[component]
pub(super) fn ReleaseRentalForm(order_id: i64) -> impl IntoView {
    let action = ServerAction::<ReleaseRental>::new();
    let issues = issues_of(action, None);
    view! {
        <h3>{t(Msg::RentalsReleaseTitle)}</h3>
        <p class="hint">{t(Msg::RentalsReleaseHint)}</p>
        <ActionForm action attr:class="form" attr:data-testid="rental-release-form" attr:data-in-place="">
            <input type="hidden" name="order_id" value=order_id.to_string() />
            <label>{t(Msg::RentalsFReleasedAt)}
                <input type="datetime-local" name="released_at" data-testid="rental-released-at"
                    aria-invalid=invalid(issues, "released_at") aria-describedby=message_id("released_at", "rental-release") />
            </label>
            <FieldNote issues field="released_at" scope="rental-release" />
            {hours_field(issues, ("setup_hours", Msg::RentalsFSetupHours), true)}
            {hours_field(issues, ("data_prep_hours", Msg::RentalsFDataPrepHours), false)}
            {hours_field(issues, ("rerun_hours", Msg::RentalsFRerunHours), false)}
            <button type="submit" data-testid="rental-release">{t(Msg::RentalsRelease)}</button>
        </ActionForm>
        <FormError action />
    }
}

/// Corrects a mistake before release (folded away).
#[component]
pub(super) fn CorrectRentalForm(order_id: i64, r: RentalShown) -> impl IntoView {
    let action = ServerAction::<CorrectRental>::new();
    let issues = issues_of(action, None);
    let stopped = r.stopped_at.as_deref().map(local_value).unwrap_or_default();
    let started = local_value(&r.started_at);
    let (resources, note) = (r.resources.join("\n"), r.note.clone());
    view! {
        <details data-testid="rental-correct">
            <summary>{t(Msg::RentalsCorrectTitle)}</summary>
            <ActionForm action attr:class="form" attr:data-testid="rental-correct-form" attr:data-in-place="">
                <input type="hidden" name="order_id" value=order_id.to_string() />
                <label>{t(Msg::RentalsFStartedAt)}
                    <input type="datetime-local" name="started_at" required value=started
                        aria-invalid=invalid(issues, "started_at") aria-describedby=message_id("started_at", "rental-correct") />
                </label>
                <FieldNote issues field="started_at" scope="rental-correct" />
                <label>{t(Msg::RentalsFStoppedAt)}
                    <input type="datetime-local" name="stopped_at" value=stopped
                        aria-invalid=invalid(issues, "stopped_at") aria-describedby=message_id("stopped_at", "rental-correct") />
                </label>
                <FieldNote issues field="stopped_at" scope="rental-correct" />
                <label>{t(Msg::RentalsFResources)}
                    <textarea name="resources" rows="3" required
                        aria-invalid=invalid(issues, "resources") aria-describedby=message_id("resources", "rental-correct")>{resources}</textarea>
                </label>
                <FieldNote issues field="resources" scope="rental-correct" />
                <label>{t(Msg::RentalsFNote)}
                    <textarea name="note" rows="2">{note}</textarea>
                </label>
                <FieldNote issues field="note" scope="rental-correct" />
                <button type="submit" class="secondary" data-testid="rental-correct-save">{t(Msg::RentalsCorrect)}</button>
            </ActionForm>
            <FormError action />
        </details>
    }
}
