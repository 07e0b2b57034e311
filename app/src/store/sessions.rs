//! A tower-sessions [`SessionStore`] over our own SQLite pool and migration.
//!
//! (The `tower-sessions-sqlx-store` crate pins sqlx 0.8, and only one `libsqlite3-sys` can link.)
//! The record's `user_id` entry is copied to its own column so that every session of a user
//! can be ended at once ([`SqliteSessionStore::delete_for_user`]).
//!
//! A deleted session stays deleted: [`SessionStore::save`] only updates a row that still exists,
//! so a request that loaded the session before a sign-out (or before an administrator ended it)
//! cannot write it back when it finishes. Only [`SessionStore::create`] inserts, always under a
//! fresh random id.
//!
//! Rows are keyed by the SHA-256 of the session id ([`row_key`]), never by the id itself: the id
//! is the bearer secret in the cookie, and a copy of the database (a backup, a stolen file) must
//! not hold anything a browser could present to ride a live session.

use super::Db;
use async_trait::async_trait;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use tower_sessions::{
    ExpiredDeletion, SessionStore,
    session::{Id, Record},
    session_store::{Error, Result},
};

/// Session key holding the signed-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// Session key holding when the session last had its idle timeout pushed back (Unix seconds).
/// The session is saved (one `UPDATE`) only when this is over [`TOUCH_EVERY_SECS`] old.
pub const TOUCHED_AT_KEY: &str = "touched_at";

/// How often, at most, a request that changes nothing else saves the session to push its idle
/// timeout back.
pub const TOUCH_EVERY_SECS: i64 = 60;

/// Sessions stored in the `sessions` table.
#[derive(Clone, Debug)]
pub struct SqliteSessionStore {
    pool: Db,
}

/// The database key of session `id`: lowercase hex of SHA-256 of the id as the cookie carries it.
pub fn row_key(id: &Id) -> String {
    hex::encode(Sha256::digest(id.to_string().as_bytes()))
}

fn backend(e: sqlx::Error) -> Error {
    Error::Backend(e.to_string())
}

impl SqliteSessionStore {
    /// A store over `pool`.
    pub fn new(pool: Db) -> Self {
        Self { pool }
    }

    /// Ends every session of `user_id`; returns how many.
    pub async fn delete_for_user(&self, user_id: i64) -> std::result::Result<u64, sqlx::Error> {
        self.delete_others_of_user(user_id, None).await
    }

    /// Ends every session of `user_id` but `keep` (the one making a change to the account, which
    /// stays signed in); returns how many.
    pub async fn delete_others_of_user(&self, user_id: i64, keep: Option<Id>) -> std::result::Result<u64, sqlx::Error> {
        let keep = keep.map(|id| row_key(&id)).unwrap_or_default();
        Ok(sqlx::query("DELETE FROM sessions WHERE user_id = ? AND id <> ?")
            .bind(user_id)
            .bind(keep)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }

    /// Inserts `record` under its id unless that id is taken; whether it was inserted.
    async fn insert(&self, record: &Record) -> Result<bool> {
        let data = serde_json::to_vec(&record.data).map_err(|e| Error::Encode(e.to_string()))?;
        let res = sqlx::query(
            "INSERT INTO sessions (id, user_id, data, expires_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(row_key(&record.id))
        .bind(user_id_of(record))
        .bind(data)
        .bind(record.expiry_date.unix_timestamp())
        .execute(&self.pool)
        .await
        .map_err(backend)?;
        Ok(res.rows_affected() == 1)
    }
}

fn user_id_of(record: &Record) -> Option<i64> {
    record.data.get(USER_ID_KEY).and_then(serde_json::Value::as_i64)
}

#[async_trait]
impl SessionStore for SqliteSessionStore {
    async fn create(&self, record: &mut Record) -> Result<()> {
        // A fresh random id on the (astronomically unlikely) collision.
        while !self.insert(record).await? {
            record.id = Id::default();
        }
        Ok(())
    }

    /// Updates the session if it still exists; a deleted (signed-out, ended) one stays deleted.
    async fn save(&self, record: &Record) -> Result<()> {
        let data = serde_json::to_vec(&record.data).map_err(|e| Error::Encode(e.to_string()))?;
        let res = sqlx::query("UPDATE sessions SET user_id = ?, data = ?, expires_at = ? WHERE id = ?")
            .bind(user_id_of(record))
            .bind(data)
            .bind(record.expiry_date.unix_timestamp())
            .bind(row_key(&record.id))
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        if res.rows_affected() == 0 {
            tracing::info!("session ended while a request was using it; not written back");
        }
        Ok(())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        let row: Option<(Vec<u8>, i64)> =
            sqlx::query_as("SELECT data, expires_at FROM sessions WHERE id = ? AND expires_at > ?")
                .bind(row_key(id))
                .bind(crate::clock::now_unix())
                .fetch_optional(&self.pool)
                .await
                .map_err(backend)?;
        let Some((data, expires_at)) = row else { return Ok(None) };
        Ok(Some(Record {
            id: *id,
            data: serde_json::from_slice(&data).map_err(|e| Error::Decode(e.to_string()))?,
            expiry_date: OffsetDateTime::from_unix_timestamp(expires_at).map_err(|e| Error::Decode(e.to_string()))?,
        }))
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id = ?")
            .bind(row_key(id))
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

/// The store as the session layer sees it. The layer saves a changed session after the handler
/// has answered, when the handler's own writes are committed: a save that fails then (a busy or
/// locked database) is logged and the handler's answer kept, instead of turning it into a 500.
/// The session keeps its previous state; the next request that changes it saves again.
/// Creating a session (sign-in) still fails loudly: without it nobody is signed in.
#[derive(Clone, Debug)]
pub struct SaveAfterResponse<S>(pub S);

#[async_trait]
impl<S: SessionStore + Clone> SessionStore for SaveAfterResponse<S> {
    async fn create(&self, record: &mut Record) -> Result<()> {
        self.0.create(record).await
    }

    async fn save(&self, record: &Record) -> Result<()> {
        if let Err(e) = self.0.save(record).await {
            tracing::warn!(error = %e, "cannot save the session after the answer; the answer stands");
        }
        Ok(())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        self.0.load(id).await
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        self.0.delete(id).await
    }
}

#[async_trait]
impl ExpiredDeletion for SqliteSessionStore {
    async fn delete_expired(&self) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE expires_at <= ?")
            .bind(crate::clock::now_unix())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashMap;

    fn record(user_id: i64) -> Record {
        Record {
            id: Id::default(),
            data: HashMap::from([(USER_ID_KEY.to_string(), json!(user_id))]),
            expiry_date: OffsetDateTime::now_utc() + time::Duration::hours(1),
        }
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn sessions_are_stored_under_the_hash_of_their_id(pool: Db) {
        let store = SqliteSessionStore::new(pool.clone());
        let mut rec = record(7);
        store.create(&mut rec).await.unwrap();
        let keys: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
            .fetch_all(&pool)
            .await
            .unwrap();
        let cookie_id = rec.id.to_string();
        assert_eq!(keys, [hex::encode(Sha256::digest(cookie_id.as_bytes()))]);
        assert!(
            keys.iter().all(|k| !k.contains(&cookie_id)),
            "the cookie's id is not in the database"
        );
        // The id from the cookie finds it, is saved through it and ends it.
        assert_eq!(store.load(&rec.id).await.unwrap().unwrap().data, rec.data);
        rec.data.insert("active_team".into(), json!(3));
        store.save(&rec).await.unwrap();
        assert_eq!(store.load(&rec.id).await.unwrap().unwrap().data, rec.data);
        store.delete(&rec.id).await.unwrap();
        assert!(store.load(&rec.id).await.unwrap().is_none());
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_change_to_the_account_ends_the_users_other_sessions_only(pool: Db) {
        let store = SqliteSessionStore::new(pool.clone());
        let (mut here, mut there, mut other) = (record(7), record(7), record(8));
        for rec in [&mut here, &mut there, &mut other] {
            store.create(rec).await.unwrap();
        }
        assert_eq!(store.delete_others_of_user(7, Some(here.id)).await.unwrap(), 1);
        assert!(store.load(&here.id).await.unwrap().is_some(), "this session stays");
        assert!(store.load(&there.id).await.unwrap().is_none());
        assert!(store.load(&other.id).await.unwrap().is_some(), "another user's stays");
    }
}
