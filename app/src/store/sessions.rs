//! A tower-sessions [`SessionStore`] over our own SQLite pool and migration.
//!
//! (The `tower-sessions-sqlx-store` crate pins sqlx 0.8, and only one `libsqlite3-sys` can link.)
//! The record's `user_id` entry is copied to its own column so that every session of a user
//! can be ended at once ([`SqliteSessionStore::delete_for_user`]).

use super::Db;
use async_trait::async_trait;
use time::OffsetDateTime;
use tower_sessions::{
    ExpiredDeletion, SessionStore,
    session::{Id, Record},
    session_store::{Error, Result},
};

/// Session key holding the signed-in user's id.
pub const USER_ID_KEY: &str = "user_id";

/// Sessions stored in the `sessions` table.
#[derive(Clone, Debug)]
pub struct SqliteSessionStore {
    pool: Db,
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
        Ok(sqlx::query("DELETE FROM sessions WHERE user_id = ?")
            .bind(user_id)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }

    async fn write(&self, record: &Record, insert_only: bool) -> Result<bool> {
        let data = serde_json::to_vec(&record.data).map_err(|e| Error::Encode(e.to_string()))?;
        let user_id = record.data.get(USER_ID_KEY).and_then(serde_json::Value::as_i64);
        let sql = if insert_only {
            "INSERT INTO sessions (id, user_id, data, expires_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO NOTHING"
        } else {
            "INSERT INTO sessions (id, user_id, data, expires_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, data = excluded.data,
                                            expires_at = excluded.expires_at"
        };
        let res = sqlx::query(sql)
            .bind(record.id.to_string())
            .bind(user_id)
            .bind(data)
            .bind(record.expiry_date.unix_timestamp())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(res.rows_affected() == 1)
    }
}

#[async_trait]
impl SessionStore for SqliteSessionStore {
    async fn create(&self, record: &mut Record) -> Result<()> {
        // A fresh random id on the (astronomically unlikely) collision.
        while !self.write(record, true).await? {
            record.id = Id::default();
        }
        Ok(())
    }

    async fn save(&self, record: &Record) -> Result<()> {
        self.write(record, false).await.map(|_| ())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        let row: Option<(Vec<u8>, i64)> =
            sqlx::query_as("SELECT data, expires_at FROM sessions WHERE id = ? AND expires_at > ?")
                .bind(id.to_string())
                .bind(OffsetDateTime::now_utc().unix_timestamp())
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
            .bind(id.to_string())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

#[async_trait]
impl ExpiredDeletion for SqliteSessionStore {
    async fn delete_expired(&self) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE expires_at <= ?")
            .bind(OffsetDateTime::now_utc().unix_timestamp())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}
