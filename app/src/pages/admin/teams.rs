//! Administrators list and create teams.

use crate::{
    components::{
        forms::ActionError,
        guard::admin_page,
        loaded::{Loaded, list_or_empty},
    },
    error::AppError,
    i18n::{Msg, t},
    views::TeamSummary,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// Every team (administrators only).
#[server(endpoint = "admin/teams")]
pub async fn list_teams() -> Result<Vec<TeamSummary>, AppError> {
    use crate::{auth, store};
    auth::require_admin()?;
    Ok(store::teams::list(&auth::db()?).await?)
}

/// Creates a team (administrators only; recorded in the audit chain); returns its id.
#[server(endpoint = "admin/create_team")]
pub async fn create_team(name: String) -> Result<i64, AppError> {
    use crate::{auth, domain::accounts, store};
    let admin = auth::require_admin()?;
    let name = accounts::normalize_team_name(&name).map_err(AppError::Invalid)?;
    let db = auth::db()?;
    let mut tx = store::begin_write(&db).await?;
    let id = store::teams::insert(&mut tx, &name)
        .await?
        .ok_or(AppError::Conflict(Msg::TeamNameTaken))?;
    // Audit: the new team, in the same transaction.
    let event = serde_json::json!({ "team_id": id, "name": name });
    crate::services::site_audit::record(&mut tx, admin.user_id, crate::domain::audit::Action::TeamCreated, event)
        .await?;
    tx.commit().await?;
    Ok(id)
}

fn team_table(teams: Vec<TeamSummary>) -> impl IntoView {
    view! {
        <table class="table" data-testid="team-table">
            <thead>
                <tr><th>{t(Msg::FieldTeamName)}</th><th>{t(Msg::TeamMembers)}</th></tr>
            </thead>
            <tbody>
                {teams
                    .into_iter()
                    .map(|team| view! {
                        <tr>
                            <td><a href=format!("/admin/teams/{}", team.id)>{team.name}</a></td>
                            <td>{team.members}</td>
                        </tr>
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The teams page.
#[component]
pub fn AdminTeamsPage() -> impl IntoView {
    admin_page(|_| {
        let create = ServerAction::<CreateTeam>::new();
        let teams = Resource::new(move || create.version().get(), |_| list_teams());
        view! {
            <Title text=t(Msg::NavAdminTeams) />
            <h1>{t(Msg::NavAdminTeams)}</h1>
            <section class="card">
                <h2>{t(Msg::TeamCreateTitle)}</h2>
                <ActionForm action=create attr:class="form form-inline" attr:data-testid="create-team-form">
                    <label>
                        {t(Msg::FieldTeamName)}
                        <input type="text" name="name" required maxlength="80" />
                    </label>
                    <button type="submit" disabled=move || create.pending().get()>{t(Msg::TeamCreateSubmit)}</button>
                    <ActionError action=create />
                </ActionForm>
            </section>
            <Loaded resource=teams keep_while_reloading=true let:teams>
                {list_or_empty(teams, Msg::TeamNone, team_table)}
            </Loaded>
        }
        .into_any()
    })
}
