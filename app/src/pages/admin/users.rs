//! Administrators list users with their teams and roles, create them (optionally straight into
//! a team), and disable or re-enable them. Disabling ends the user's sessions at once. After
//! "Create user" the form is empty again and a confirmation names who was created.

use crate::{
    components::{
        account_fields::{NewPasswordFields, NewUserFields},
        forms::{ActionError, saved_in_url},
        guard::admin_page,
        loaded::Loaded,
    },
    domain::roles::TeamRole,
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    pages::admin::teams::list_teams,
    views::{Membership, TeamSummary, UserSummary},
};
use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

/// One user of the list: who they are and their role in each of their teams (by team name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRow {
    /// The account.
    pub user: UserSummary,
    /// Empty for a user in no team.
    pub teams: Vec<Membership>,
    /// Too many wrong codes in a row locked their second factor: only then may an
    /// administrator unlock it.
    pub second_factor_locked: bool,
}

/// Every user with their teams (administrators only).
#[server(endpoint = "admin/users")]
pub async fn list_users() -> Result<Vec<UserRow>, AppError> {
    use crate::{auth, store};
    auth::require_admin()?;
    let db = auth::db()?;
    let users = store::users::list(&db).await?;
    let mut teams = store::memberships::of_every_user(&db).await?;
    let locked =
        store::second_factors::locked_users(&db, crate::domain::second_factor::MAX_CONSECUTIVE_FAILURES).await?;
    Ok(users
        .into_iter()
        .map(|user| UserRow {
            teams: teams.remove(&user.id).unwrap_or_default(),
            second_factor_locked: locked.binary_search(&user.id).is_ok(),
            user,
        })
        .collect())
}

/// A user's teams as one line, each with the role there: `GPU Team · Manager; Infra · Engineer`;
/// `None` for a user in no team.
pub fn teams_line(locale: Locale, teams: &[Membership]) -> Option<String> {
    (!teams.is_empty()).then(|| {
        teams
            .iter()
            .map(|m| format!("{} · {}", m.team_name, locale.t(m.role.label())))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// The confirmation after "Create user": who was created (`id`, from the page's address), once
/// the list shows them.
fn created_text(locale: Locale, rows: &[UserRow], id: i64) -> Option<String> {
    rows.iter().find(|r| r.user.id == id).map(|r| {
        locale.fmt(
            Msg::UsersCreated,
            &[("name", &r.user.display_name), ("email", &r.user.email)],
        )
    })
}

/// Creates a user (administrators only); with `team_id` set, also gives them `role` there.
/// All or nothing: a bad team or role stores no user.
#[server(endpoint = "admin/create_user")]
pub async fn create_user(
    email: String,
    display_name: String,
    password: String,
    password_confirm: String,
    is_admin: Option<String>,
    team_id: Option<String>,
    role: Option<String>,
) -> Result<i64, AppError> {
    use crate::{
        auth,
        services::accounts::{NewUser, Origin, TeamChoice, create_user},
    };
    let admin = auth::require_admin()?;
    let user = NewUser::check(&email, &display_name, password, &password_confirm, is_admin.is_some())?;
    let chosen = team_and_role(team_id.as_deref(), role.as_deref())?;
    let team = chosen.map(|(id, role)| (TeamChoice::Existing(id), role));
    let created = create_user(&auth::db()?, user, team, Origin::AdminPage(admin.user_id)).await?;
    crate::components::forms::open_after_plain_post(&created_address(created.user_id, chosen));
    Ok(created.user_id)
}

/// The users page after `id` was created: it names them, and the form keeps the team and role
/// chosen (an administrator usually adds several people to one team).
#[cfg(feature = "ssr")]
fn created_address(id: i64, kept: Option<(i64, TeamRole)>) -> String {
    match kept {
        Some((team, role)) => format!("/admin/users?created={id}&team={team}&role={}", role.as_str()),
        None => format!("/admin/users?created={id}"),
    }
}

/// The team a new user joins and their role there, as posted: no team when `team_id` is empty;
/// with a team, the role must be one of the three.
#[cfg(feature = "ssr")]
fn team_and_role(team_id: Option<&str>, role: Option<&str>) -> Result<Option<(i64, TeamRole)>, AppError> {
    let Some(id) = team_id.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let id = id.parse::<i64>().map_err(|_| AppError::Invalid(Msg::TeamUnknown))?;
    let role = role
        .and_then(TeamRole::parse)
        .ok_or(AppError::Invalid(Msg::RoleInvalid))?;
    Ok(Some((id, role)))
}

/// Disables or re-enables a user (administrators only; not oneself). Disabling revokes the
/// user's API tokens; both are recorded in the audit chain.
#[server(endpoint = "admin/set_user_disabled")]
pub async fn set_user_disabled(user_id: i64, disabled: bool) -> Result<(), AppError> {
    use crate::{auth, store};
    let admin = auth::require_admin()?;
    if admin.user_id == user_id {
        return Err(AppError::Refused(Msg::UserCannotDisableSelf));
    }
    let state = auth::state()?;
    let mut tx = store::begin_write(&state.db).await?;
    if !store::users::set_disabled(&mut tx, user_id, disabled).await? {
        return Err(AppError::NotFound);
    }
    // Audit: disabling also revokes every API token of the user; enabling does not bring them back.
    if disabled {
        crate::services::tokens::on_user_disabled(&mut tx, admin.user_id, user_id).await?;
    } else {
        let data = serde_json::json!({ "user_id": user_id });
        crate::services::site_audit::record(&mut tx, admin.user_id, crate::domain::audit::Action::UserEnabled, data)
            .await?;
    }
    tx.commit().await?;
    if disabled {
        let ended = state.sessions.delete_for_user(user_id).await?;
        tracing::info!(user_id, sessions_ended = ended, "user disabled");
    }
    Ok(())
}

/// Unlocks a user's second factor that too many wrong codes in a row locked (administrators
/// only): the way back for a user without recovery codes.
#[server(endpoint = "admin/unlock_second_factor")]
pub async fn unlock_second_factor(user_id: i64) -> Result<(), AppError> {
    use crate::auth;
    let admin = auth::require_admin()?;
    crate::services::second_factor::unlock(&auth::db()?, admin.user_id, user_id).await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The form to create a user, saved in place (`data-in-place`). Its team and role stay as chosen
/// after a user is created (`kept`: the team's id and the role, from the page's address); name,
/// e-mail and password are empty again.
fn create_form(create: ServerAction<CreateUser>, teams: Vec<TeamSummary>, kept: (String, String)) -> impl IntoView {
    let (team, role) = kept;
    view! {
        <ActionForm action=create attr:class="form" attr:data-testid="create-user-form" attr:data-in-place="">
            <div class="form-row">
                <NewUserFields own=false />
            </div>
            <div class="form-row">
                <NewPasswordFields name="password" confirm_name="password_confirm" label=Msg::FieldPassword />
            </div>
            <div class="form-row">
                <label>
                    {t(Msg::FieldTeam)}
                    <select name="team_id" data-testid="create-user-team">
                        <option value="" selected=team.is_empty()>{t(Msg::UserNoTeam)}</option>
                        {teams.into_iter().map(|summary| {
                            let id = summary.id.to_string();
                            view! { <option value=id.clone() selected=team == id>{summary.name}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    {t(Msg::FieldRole)}
                    <select name="role" data-testid="create-user-role">
                        {TeamRole::ALL.into_iter().map(|r| view! {
                            <option value=r.as_str() selected=role == r.as_str()>{t(r.label())}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="is_admin" value="on" />
                {t(Msg::FieldIsAdmin)}
            </label>
            <small class="hint">{t(Msg::PasswordHint)}</small>
            <ActionError action=create />
            <button type="submit" disabled=move || create.pending().get()>{t(Msg::UserCreateSubmit)}</button>
        </ActionForm>
    }
}

fn user_table(
    rows: Vec<UserRow>,
    toggle: ServerAction<SetUserDisabled>,
    unlock: ServerAction<UnlockSecondFactor>,
    me: i64,
) -> impl IntoView {
    let locale = use_locale();
    view! {
        <table class="table" data-testid="user-table">
            <thead>
                <tr>
                    <th>{t(Msg::FieldDisplayName)}</th>
                    <th>{t(Msg::FieldEmail)}</th>
                    <th>{t(Msg::UsersTeamsRoles)}</th>
                    <th>{t(Msg::UserStatus)}</th>
                    <th><span class="visually-hidden">{t(Msg::TableActions)}</span></th>
                </tr>
            </thead>
            <tbody>
                {rows.into_iter().map(|UserRow { user: u, teams, second_factor_locked }| view! {
                    <tr class:muted=u.disabled>
                        <td>{u.display_name} {u.is_admin.then(|| view! { <span class="tag">{t(Msg::UserAdminTag)}</span> })}</td>
                        <td>{u.email}</td>
                        <td data-testid="user-teams">
                            {match teams_line(locale, &teams) {
                                Some(line) => line.into_any(),
                                // An administrator or a disabled user needs no team; the dashboard's
                                // "every enabled user is in a team" counts the others, so only
                                // they are flagged.
                                None if u.is_admin => view! { <span class="hint">{t(Msg::UsersNoTeamAdmin)}</span> }.into_any(),
                                None if u.disabled => view! { <span class="hint">{t(Msg::UsersNoTeamDisabled)}</span> }.into_any(),
                                None => view! { <span class="tag warn">{t(Msg::UsersNoTeam)}</span> }.into_any(),
                            }}
                        </td>
                        <td>{t(if u.disabled { Msg::UserDisabled } else { Msg::UserActive })}</td>
                        <td>
                            {(u.id != me).then(|| view! {
                            <ActionForm action=toggle attr:class="inline-form" attr:data-in-place="">
                                <input type="hidden" name="user_id" value=u.id.to_string() />
                                <input type="hidden" name="disabled" value=(!u.disabled).to_string() />
                                <button type="submit" class="small" class:danger=!u.disabled>
                                    {t(if u.disabled { Msg::UserEnable } else { Msg::UserDisable })}
                                </button>
                            </ActionForm>
                            })}
                            {(second_factor_locked && u.id != me).then(|| view! {
                            <ActionForm action=unlock attr:class="inline-form" attr:data-in-place="">
                                <input type="hidden" name="user_id" value=u.id.to_string() />
                                <button type="submit" class="small" data-testid="unlock-second-factor">
                                    {t(Msg::SecondFactorAdminUnlock)}
                                </button>
                            </ActionForm>
                            })}
                        </td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// What the page's address says after a plain post: who was just created, and the team and
/// role the create form keeps.
struct AfterCreate {
    created: Option<i64>,
    kept: (String, String),
}

fn after_create() -> AfterCreate {
    let query = use_query_map();
    query.with_untracked(|q| AfterCreate {
        created: q.get("created").and_then(|id| id.parse().ok()),
        kept: (
            q.get("team").unwrap_or_default(),
            q.get("role").unwrap_or_else(|| TeamRole::Engineer.as_str().to_owned()),
        ),
    })
}

/// The users page: creating users, the list with its toggles (each form saves in place).
#[component]
pub fn AdminUsersPage() -> impl IntoView {
    admin_page(|caller| {
        let me = caller.user_id;
        let users = Resource::new(|| (), |()| list_users());
        let teams = Resource::new(|| (), |()| list_teams());
        let create = ServerAction::<CreateUser>::new();
        let toggle = ServerAction::<SetUserDisabled>::new();
        let unlock = ServerAction::<UnlockSecondFactor>::new();
        let AfterCreate { created, kept } = after_create();
        let kept = StoredValue::new(kept);
        let unlocked = saved_in_url(UnlockSecondFactor::PATH);
        let locale = use_locale();
        view! {
            <Title text=t(Msg::NavAdminUsers) />
            <h1>{t(Msg::NavAdminUsers)}</h1>
            <Loaded resource=users let:users>
                <Loaded resource=teams let:teams>
                    <section class="card">
                        <h2>{t(Msg::UserCreateTitle)}</h2>
                        {create_form(create, teams.clone(), kept.get_value())}
                        {created.and_then(|id| created_text(locale, &users, id)).map(|text| {
                            view! { <p class="form-ok" role="status" data-testid="user-created">{text}</p> }
                        })}
                    </section>
                    <ActionError action=toggle />
                    <ActionError action=unlock />
                    {unlocked.then(|| view! { <p class="form-ok" role="status">{t(Msg::SecondFactorUnlocked)}</p> })}
                    {user_table(users.clone(), toggle, unlock, me)}
                </Loaded>
            </Loaded>
        }
        .into_any()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(team: &str, role: TeamRole) -> Membership {
        Membership {
            team_id: 1,
            team_name: team.into(),
            role,
        }
    }

    #[test]
    fn the_list_names_each_team_with_the_role_there() {
        let teams = [
            member("GPU Team", TeamRole::Manager),
            member("Infra", TeamRole::Engineer),
        ];
        assert_eq!(
            teams_line(Locale::En, &teams).as_deref(),
            Some("GPU Team · Manager; Infra · Engineer")
        );
        assert_eq!(teams_line(Locale::En, &[]), None, "shown as “No team”");
        let zh = teams_line(Locale::ZhCn, &teams[..1]).unwrap_or_default();
        assert!(zh.starts_with("GPU Team · ") && !zh.contains("Manager"), "{zh}");
    }

    #[test]
    fn the_confirmation_names_the_created_user() {
        let row = UserRow {
            user: UserSummary {
                id: 7,
                email: "ada@example.com".into(),
                display_name: "Ada".into(),
                is_admin: false,
                disabled: false,
            },
            teams: Vec::new(),
            second_factor_locked: false,
        };
        let text = created_text(Locale::En, std::slice::from_ref(&row), 7).unwrap_or_default();
        assert!(text.contains("Ada") && text.contains("ada@example.com"), "{text}");
        assert_eq!(
            created_text(Locale::En, &[row], 8),
            None,
            "not yet listed: nothing to confirm"
        );
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn a_new_user_joins_a_team_only_with_a_valid_role() {
        assert_eq!(team_and_role(None, Some("manager")), Ok(None));
        assert_eq!(team_and_role(Some("  "), None), Ok(None));
        assert_eq!(
            team_and_role(Some(" 7 "), Some("procurement")),
            Ok(Some((7, TeamRole::Procurement)))
        );
        assert_eq!(
            team_and_role(Some("seven"), Some("engineer")),
            Err(AppError::Invalid(Msg::TeamUnknown))
        );
        assert_eq!(
            team_and_role(Some("7"), Some("owner")),
            Err(AppError::Invalid(Msg::RoleInvalid))
        );
        assert_eq!(team_and_role(Some("7"), None), Err(AppError::Invalid(Msg::RoleInvalid)));
    }
}
