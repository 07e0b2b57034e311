//! The `vendors` table: a team's list of vendors.

use super::{Tx, Updated, db::updated};
use crate::domain::quotes::{SupportScope, Vendor};
use serde::{Deserialize, Serialize};
use sqlx::SqliteExecutor;

/// A vendor row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct VendorRow {
    pub id: i64,
    /// Name, unique in the team without regard to case.
    pub name: String,
    /// Web address; may be empty.
    pub website: String,
    /// Contact person, e-mail or phone.
    pub contact: String,
    /// Support and operations scope, as JSON ([`crate::domain::quotes::SupportScope`]).
    pub support_scope: String,
    /// Free text; may be empty.
    pub notes: String,
}

impl VendorRow {
    /// The vendor record; a scope that is empty (a vendor created by an import) or unreadable
    /// reads as “nothing stated”.
    pub fn vendor(&self) -> Vendor {
        let support_scope: SupportScope = serde_json::from_str(&self.support_scope).unwrap_or_default();
        Vendor {
            name: self.name.clone(),
            website: self.website.clone(),
            contact: self.contact.clone(),
            notes: self.notes.clone(),
            support_scope,
        }
    }
}

fn scope_json(vendor: &Vendor) -> Result<String, sqlx::Error> {
    serde_json::to_string(&vendor.support_scope).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// Inserts a vendor into `team_id`; `Ok(None)` when the team already has one of that name.
pub async fn insert(tx: &mut Tx, team_id: i64, vendor: &Vendor) -> Result<Option<i64>, sqlx::Error> {
    let scope = scope_json(vendor)?;
    sqlx::query_scalar(
        "INSERT INTO vendors (team_id, name, website, contact, support_scope, notes) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (team_id, name) DO NOTHING RETURNING id",
    )
    .bind(team_id)
    .bind(&vendor.name)
    .bind(&vendor.website)
    .bind(&vendor.contact)
    .bind(scope)
    .bind(&vendor.notes)
    .fetch_optional(&mut **tx)
    .await
}

/// Replaces every field of the team's vendor `id` (its quotes keep pointing at it).
pub async fn update(tx: &mut Tx, team_id: i64, id: i64, vendor: &Vendor) -> Result<Updated, sqlx::Error> {
    let scope = scope_json(vendor)?;
    let result = sqlx::query(
        "UPDATE vendors SET name = ?, website = ?, contact = ?, support_scope = ?, notes = ? WHERE id = ? AND team_id = ?",
    )
    .bind(&vendor.name)
    .bind(&vendor.website)
    .bind(&vendor.contact)
    .bind(scope)
    .bind(&vendor.notes)
    .bind(id)
    .bind(team_id)
    .execute(&mut **tx)
    .await;
    updated(result)
}

/// The team's vendor `id`, if the team has it.
pub async fn by_id(db: impl SqliteExecutor<'_>, team_id: i64, id: i64) -> Result<Option<VendorRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, website, contact, support_scope, notes FROM vendors WHERE id = ? AND team_id = ?")
        .bind(id)
        .bind(team_id)
        .fetch_optional(db)
        .await
}

/// The id of the team's vendor called `name`, creating a bare vendor when there is none.
pub async fn id_or_create(tx: &mut Tx, team_id: i64, name: &str) -> Result<i64, sqlx::Error> {
    if let Some(id) = id_by_name(&mut **tx, team_id, name).await? {
        return Ok(id);
    }
    sqlx::query_scalar("INSERT INTO vendors (team_id, name) VALUES (?, ?) RETURNING id")
        .bind(team_id)
        .bind(name)
        .fetch_one(&mut **tx)
        .await
}

/// The id of the team's vendor called `name` (case-insensitive).
pub async fn id_by_name(db: impl SqliteExecutor<'_>, team_id: i64, name: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM vendors WHERE team_id = ? AND name = ?")
        .bind(team_id)
        .bind(name)
        .fetch_optional(db)
        .await
}

/// The team's vendors, by name.
pub async fn list(db: impl SqliteExecutor<'_>, team_id: i64) -> Result<Vec<VendorRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, website, contact, support_scope, notes FROM vendors WHERE team_id = ? ORDER BY name",
    )
    .bind(team_id)
    .fetch_all(db)
    .await
}
