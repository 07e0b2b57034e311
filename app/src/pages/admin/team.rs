//! Administrators give users roles in a team, change them, and remove members.

use crate::{
    components::{forms::ActionError, guard::admin_page, loaded::Loaded, route::route_id},
    domain::roles::TeamRole,
    error::AppError,
    i18n::{Msg, t},
    pages::team::people_table_head,
    views::{Member, UserSummary},
};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// A team with its members and the users who could join it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamWithMembers {
    /// Team id.
    pub id: i64,
    /// Team name.
    pub name: String,
    /// Current members.
    pub members: Vec<Member>,
    /// Enabled users who are not members yet.
    pub candidates: Vec<UserSummary>,
}

/// A team's members (administrators only).
#[server(endpoint = "admin/team")]
pub async fn team_detail(team_id: i64) -> Result<TeamWithMembers, AppError> {
    use crate::{auth, store};
    auth::require_admin()?;
    let db = auth::db()?;
    let name = store::teams::name_of(&db, team_id).await?.ok_or(AppError::NotFound)?;
    let members = store::memberships::of_team(&db, team_id).await?;
    let candidates = store::users::list(&db)
        .await?
        .into_iter()
        .filter(|u| !u.disabled && !members.iter().any(|m| m.user_id == u.id))
        .collect();
    Ok(TeamWithMembers {
        id: team_id,
        name,
        members,
        candidates,
    })
}

/// Gives a user a role in a team, or changes it (administrators only; recorded in the audit chain).
#[server(endpoint = "admin/set_role")]
pub async fn set_role(team_id: i64, user_id: i64, role: String) -> Result<(), AppError> {
    use crate::{auth, store};
    let admin = auth::require_admin()?;
    let role = TeamRole::parse(&role).ok_or(AppError::Invalid(Msg::RoleInvalid))?;
    let db = auth::db()?;
    store::teams::name_of(&db, team_id).await?.ok_or(AppError::NotFound)?;
    store::users::by_id(&db, user_id)
        .await?
        .ok_or(AppError::Invalid(Msg::UserUnknown))?;
    let mut tx = store::begin_write(&db).await?;
    let previous = crate::services::site_audit::role_in(&mut tx, user_id, team_id).await?;
    store::memberships::upsert(&mut tx, user_id, team_id, role).await?;
    // Audit: a new member or a changed role (the same role again changes nothing, records nothing).
    if previous != Some(role) {
        // Tokens made with another role (or in an earlier membership) stop working.
        let revoked = crate::services::tokens::on_membership_changed(&mut tx, user_id, team_id).await?;
        let event = serde_json::json!({
            "user_id": user_id, "team_id": team_id, "role": role.as_str(),
            "previous": previous.map_or("", TeamRole::as_str), "tokens_revoked": revoked,
        });
        crate::services::site_audit::record(&mut tx, admin.user_id, crate::domain::audit::Action::RoleSet, event)
            .await?;
    }
    tx.commit().await?;
    // A session signed in with the password alone must not outlive a role that requires a second
    // factor: the user signs in again and enrols first.
    if role == TeamRole::Manager && previous != Some(role) {
        let state = auth::state()?;
        if let Some(user) = store::users::by_id(&state.db, user_id).await?
            && !store::second_factors::is_enabled(&state.db, user_id).await?
            && crate::services::second_factor::required_for(&state.db, &user).await?
        {
            let ended = state.sessions.delete_for_user(user_id).await?;
            tracing::info!(
                user_id,
                sessions_ended = ended,
                "second factor now required: sessions ended"
            );
        }
    }
    Ok(())
}

/// Removes a user from a team (administrators only; recorded in the audit chain).
#[server(endpoint = "admin/remove_member")]
pub async fn remove_member(team_id: i64, user_id: i64) -> Result<(), AppError> {
    use crate::{auth, store};
    let admin = auth::require_admin()?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    let previous = crate::services::site_audit::role_in(&mut tx, user_id, team_id).await?;
    let removed = store::memberships::remove(&mut tx, user_id, team_id).await?;
    // Audit: who left which team, and the role they had; their tokens of the team stop working.
    if let (true, Some(role)) = (removed, previous) {
        let revoked = crate::services::tokens::on_membership_changed(&mut tx, user_id, team_id).await?;
        let event = serde_json::json!({
            "user_id": user_id, "team_id": team_id, "role": role.as_str(), "tokens_revoked": revoked,
        });
        crate::services::site_audit::record(
            &mut tx,
            admin.user_id,
            crate::domain::audit::Action::MemberRemoved,
            event,
        )
        .await?;
    }
    tx.commit().await?;
    if removed { Ok(()) } else { Err(AppError::NotFound) }
}

/// `<option>`s for the three roles.
pub fn role_options(selected: Option<TeamRole>) -> impl IntoView {
    TeamRole::ALL
        .into_iter()
        .map(|r| view! { <option value=r.as_str() selected=Some(r) == selected>{t(r.label())}</option> })
        .collect_view()
}

/// The team administration page.
#[component]
pub fn AdminTeamPage() -> impl IntoView {
    admin_page(|_| {
        let team_id = route_id();
        let set = ServerAction::<SetRole>::new();
        let remove = ServerAction::<RemoveMember>::new();
        let detail = Resource::new(
            move || (team_id().unwrap_or(0), set.version().get(), remove.version().get()),
            |(id, _, _)| team_detail(id),
        );
        view! {
            <Loaded resource=detail keep_while_reloading=true let:team>
                {team_view(team, set, remove)}
            </Loaded>
        }
        .into_any()
    })
}

fn team_view(team: TeamWithMembers, set: ServerAction<SetRole>, remove: ServerAction<RemoveMember>) -> impl IntoView {
    let team_id = team.id;
    let no_candidates = team.candidates.is_empty();
    view! {
        <Title text=team.name.clone() />
        <p class="breadcrumb"><a href="/admin/teams">{t(Msg::NavAdminTeams)}</a></p>
        <h1>{team.name.clone()}</h1>
        <section class="card">
            <h2>{t(Msg::TeamAddMember)}</h2>
            {if no_candidates {
                view! { <p class="empty-state">{t(Msg::TeamNoCandidates)}</p> }.into_any()
            } else {
                view! {
                    <ActionForm action=set attr:class="form form-inline" attr:data-testid="add-member-form">
                        <input type="hidden" name="team_id" value=team_id.to_string() />
                        <label>
                            {t(Msg::FieldUser)}
                            <select name="user_id">
                                {team.candidates.iter().map(|u| view! {
                                    <option value=u.id.to_string()>{format!("{} <{}>", u.display_name, u.email)}</option>
                                }).collect_view()}
                            </select>
                        </label>
                        <label>
                            {t(Msg::FieldRole)}
                            <select name="role">{role_options(Some(TeamRole::Engineer))}</select>
                        </label>
                        <button type="submit">{t(Msg::TeamAddMemberSubmit)}</button>
                    </ActionForm>
                }.into_any()
            }}
            <ActionError action=set />
            <ActionError action=remove />
        </section>
        <table class="table" data-testid="member-table">
            {people_table_head(Msg::FieldRole, true)}
            <tbody>
                {team.members.into_iter().map(|m| {
                    view! {
                        <tr class:muted=m.disabled>
                            <td>{m.display_name}</td>
                            <td>{m.email}</td>
                            <td>
                                <ActionForm action=set attr:class="form-inline compact">
                                    <input type="hidden" name="team_id" value=team_id.to_string() />
                                    <input type="hidden" name="user_id" value=m.user_id.to_string() />
                                    <select name="role" aria-label=t(Msg::FieldRole)>{role_options(Some(m.role))}</select>
                                    <button type="submit" class="small">{t(Msg::TeamChangeRole)}</button>
                                </ActionForm>
                            </td>
                            <td>
                                <ActionForm action=remove attr:class="inline-form">
                                    <input type="hidden" name="team_id" value=team_id.to_string() />
                                    <input type="hidden" name="user_id" value=m.user_id.to_string() />
                                    <button type="submit" class="small danger">{t(Msg::TeamRemoveMember)}</button>
                                </ActionForm>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}
