//! The dashboard's list of overdue rentals: every rental of the team past its planned
//! end, or stopped and not released for more than a day, with what it costs per day now and a
//! link to its order. Shown to every member of the team; nothing when none is overdue.

use super::orders::rental::rental_state_msg;
use crate::{
    components::loaded::Loaded,
    domain::rentals::RentalState,
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::rentals::OverdueRental,
};
use leptos::prelude::*;

/// The team's overdue rentals, longest overdue first.
#[server(endpoint = "rentals/overdue")]
pub async fn overdue_rentals() -> Result<Vec<OverdueRental>, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::rentals};
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    rentals::overdue(&auth::db()?, team.team_id, request_locale()).await
}

/// The dashboard card (mounted on the dashboard of a team member).
#[component]
pub fn OverdueRentals() -> impl IntoView {
    let locale = use_locale();
    let data = Resource::new(|| (), |()| overdue_rentals());
    view! {
        <Loaded resource=data quiet=true let:lines>
            {(!lines.is_empty()).then(|| view! {
                <article class="card callout-warn" data-testid="dashboard-overdue-rentals">
                    <h2>{t(Msg::RentalsOverdueTitle)}</h2>
                    <p class="hint">{t(Msg::RentalsOverdueHint)}</p>
                    <ul>{lines.into_iter().map(|l| view! {
                        <li data-testid="overdue-rental">
                            <a href=format!("/orders/{}", l.order_id)>{l.title}</a>
                            // A stopped rental's reason names its state ("Stopped 30 h ago, not released").
                            " · " {(l.state != RentalState::Stopped).then(|| view! { {t(rental_state_msg(l.state))} " · " })} {l.reason} " · "
                            <strong data-testid="overdue-per-day">{l.per_day.map_or_else(|| "—".to_string(), |p| locale.fmt(Msg::RentalsPerDayValue, &[("amount", &p)]))}</strong>
                        </li>
                    }).collect_view()}</ul>
                </article>
            })}
        </Loaded>
    }
}
