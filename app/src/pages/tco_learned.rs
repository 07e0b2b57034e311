//! What past rentals took: on the cost page, the team's actuals per kind of
//! workload, and for the page's workload an offer to use its kind's averages as the assumptions
//! — one click on a link, never applied by itself.

use crate::{
    components::loaded::Loaded,
    error::AppError,
    i18n::{Msg, t},
    views::rentals::LearnedOffer,
};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// The team's learned actuals, and the offer for `workload_id` with the page's `query` set to
/// them.
#[server(endpoint = "rentals/learned")]
pub async fn learned_defaults(workload_id: Option<i64>, query: String) -> Result<LearnedOffer, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::rentals};
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    rentals::learned(&auth::db()?, team.team_id, workload_id, &query, request_locale()).await
}

/// The workload named by the cost page's query (`workload=…`).
fn workload_of(query: &str) -> Option<i64> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|p| p.split_once('='))
        .rfind(|(k, _)| *k == "workload")
        .and_then(|(_, v)| v.parse().ok())
}

/// The card on the cost page (nothing until the team has released a rental).
#[component]
pub fn LearnedDefaults() -> impl IntoView {
    let location = use_location();
    let data = Resource::new(
        move || location.search.get(),
        |search| async move {
            let query = search.trim_start_matches('?').to_string();
            learned_defaults(workload_of(&query), query).await
        },
    );
    view! {
        <Loaded resource=data quiet=true let:l>
            {(!l.kinds.is_empty()).then(|| view! {
                <section class="card no-print" data-testid="tco-learned">
                    <h2>{t(Msg::RentalsLearnedTitle)}</h2>
                    {l.offer.clone().map(|(sentence, href)| view! {
                        <p class="callout" data-testid="tco-learned-offer">{sentence} " "
                            <a class="button-link" href=href data-testid="tco-learned-use">{t(Msg::RentalsLearnedUse)}</a>
                        </p>
                    })}
                    <div class="table-scroll"><table data-testid="tco-learned-table">
                        <thead><tr>
                            <th>{t(Msg::RentalsLKind)}</th><th>{t(Msg::RentalsLRentals)}</th><th>{t(Msg::RentalsLSetup)}</th>
                            <th>{t(Msg::RentalsLDataPrep)}</th><th>{t(Msg::RentalsLRerun)}</th><th>{t(Msg::RentalsLIdle)}</th><th>{t(Msg::RentalsLStopped)}</th>
                        </tr></thead>
                        <tbody>{l.kinds.into_iter().map(|k| view! {
                            <tr><td>{k.kind_label}</td><td>{k.rentals}</td><td>{k.setup_h}</td><td>{k.data_prep_h}</td>
                                <td>{k.rerun_pct}</td><td>{k.idle_h}</td><td>{k.stopped_h}</td></tr>
                        }).collect_view()}</tbody>
                    </table></div>
                </section>
            })}
        </Loaded>
    }
}

#[cfg(test)]
mod tests {
    use super::workload_of;

    #[test]
    fn the_workload_is_read_from_the_cost_pages_query() {
        assert_eq!(workload_of("?workload=3&q=7"), Some(3));
        assert_eq!(workload_of("q=7&workload=x"), None);
        assert_eq!(workload_of(""), None);
    }
}
