//! The `memberships` table: each user's role in each team.

use super::Tx;
use crate::{
    domain::roles::TeamRole,
    views::{Member, Membership},
};
use sqlx::SqliteExecutor;

fn role(s: &str) -> Result<TeamRole, sqlx::Error> {
    TeamRole::parse(s).ok_or_else(|| sqlx::Error::Decode(format!("unknown role {s:?}").into()))
}

/// Gives `user_id` the role `role` in `team_id` (replacing any earlier role).
pub async fn upsert(tx: &mut Tx, user_id: i64, team_id: i64, role: TeamRole) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO memberships (user_id, team_id, role) VALUES (?, ?, ?)
         ON CONFLICT (user_id, team_id) DO UPDATE SET role = excluded.role",
    )
    .bind(user_id)
    .bind(team_id)
    .bind(role.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Removes `user_id` from `team_id`; returns whether they were a member.
pub async fn remove(tx: &mut Tx, user_id: i64, team_id: i64) -> Result<bool, sqlx::Error> {
    let res = sqlx::query("DELETE FROM memberships WHERE user_id = ? AND team_id = ?")
        .bind(user_id)
        .bind(team_id)
        .execute(&mut **tx)
        .await?;
    Ok(res.rows_affected() == 1)
}

/// The teams of a user, by team name.
pub async fn of_user(db: impl SqliteExecutor<'_>, user_id: i64) -> Result<Vec<Membership>, sqlx::Error> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT t.id, t.name, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
         WHERE m.user_id = ? ORDER BY t.name",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(team_id, team_name, r)| {
            Ok(Membership {
                team_id,
                team_name,
                role: role(&r)?,
            })
        })
        .collect()
}

/// Every user's teams, by user id (each user's teams by team name); a user in no team has no
/// entry. For the administrator's user list.
pub async fn of_every_user(
    db: impl SqliteExecutor<'_>,
) -> Result<std::collections::BTreeMap<i64, Vec<Membership>>, sqlx::Error> {
    let rows: Vec<(i64, i64, String, String)> = sqlx::query_as(
        "SELECT m.user_id, t.id, t.name, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
         ORDER BY t.name",
    )
    .fetch_all(db)
    .await?;
    let mut by_user = std::collections::BTreeMap::<i64, Vec<Membership>>::new();
    for (user_id, team_id, team_name, r) in rows {
        by_user.entry(user_id).or_default().push(Membership {
            team_id,
            team_name,
            role: role(&r)?,
        });
    }
    Ok(by_user)
}

/// The members of a team, by display name.
pub async fn of_team(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<Member>, sqlx::Error> {
    let rows: Vec<(i64, String, String, String, bool)> = sqlx::query_as(
        "SELECT u.id, u.email, u.display_name, m.role, u.disabled
         FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.team_id = ? ORDER BY u.display_name, u.email",
    )
    .bind(team_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(user_id, email, display_name, r, disabled)| {
            Ok(Member {
                user_id,
                email,
                display_name,
                role: role(&r)?,
                disabled,
            })
        })
        .collect()
}
