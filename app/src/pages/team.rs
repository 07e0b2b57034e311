//! The active team's members, readable by every member.

use crate::{
    components::{guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t},
    views::Member,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// The members of the caller's active team (the team comes from the session).
#[server(endpoint = "team_members")]
pub async fn active_team_members() -> Result<Vec<Member>, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    Ok(store::memberships::of_team(&auth::db()?, membership.team_id).await?)
}

/// The head of a table of people: name, e-mail, then `about` (their role, or whether the account
/// is enabled); with `actions`, a last column for each row's buttons whose heading only screen
/// readers read.
pub fn people_table_head(about: Msg, actions: bool) -> impl IntoView {
    view! {
        <thead>
            <tr>
                <th>{t(Msg::FieldDisplayName)}</th>
                <th>{t(Msg::FieldEmail)}</th>
                <th>{t(about)}</th>
                {actions.then(|| view! { <th><span class="visually-hidden">{t(Msg::TableActions)}</span></th> })}
            </tr>
        </thead>
    }
}

/// A table of team members.
#[component]
pub fn MemberTable(members: Vec<Member>) -> impl IntoView {
    view! {
        <table class="table" data-testid="member-table">
            {people_table_head(Msg::FieldRole, false)}
            <tbody>
                {members
                    .into_iter()
                    .map(|m| {
                        view! {
                            <tr class:muted=m.disabled>
                                <td>{m.display_name}</td>
                                <td>{m.email}</td>
                                <td>{t(m.role.label())}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The team page.
#[component]
pub fn TeamPage() -> impl IntoView {
    member_page(|caller| {
        let members = Resource::new(|| (), |_| active_team_members());
        let name = caller
            .active_membership()
            .map(|m| m.team_name.clone())
            .unwrap_or_default();
        view! {
            <Title text=name.clone() />
            <h1>{name}</h1>
            <Loaded resource=members let:members>
                <MemberTable members />
            </Loaded>
        }
        .into_any()
    })
}
