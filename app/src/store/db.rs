//! Opening the SQLite database: pragmas, migrations, version check, write transactions.

use sqlx::{
    Sqlite, SqlitePool, Transaction,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};
use std::{path::Path, str::FromStr, time::Duration};

/// The connection pool.
pub type Db = SqlitePool;
/// A write transaction (always opened with `BEGIN IMMEDIATE`).
pub type Tx = Transaction<'static, Sqlite>;

/// Oldest SQLite accepted: 3.51.3 fixes the WAL-reset corruption bug present since 3.7.0.
pub const MIN_SQLITE_VERSION: (u32, u32, u32) = (3, 51, 3);

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file or its folder could not be created or opened.
    #[error("cannot open the database {path}: {source}")]
    Open {
        /// The database path.
        path: String,
        /// The cause.
        source: sqlx::Error,
    },
    /// A migration failed.
    #[error("cannot migrate the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The linked SQLite is too old.
    #[error("SQLite {found} is older than the required {required}: it has the WAL-reset corruption bug")]
    OldSqlite {
        /// Version found.
        found: String,
        /// Version required.
        required: String,
    },
    /// Any other database error.
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
}

/// The file `name` in the folder of the database `db_path` (a path or a `sqlite:` URL): where
/// the set-up code and the second-factor key live. `None` for an in-memory database.
pub fn file_beside(db_path: &str, name: &str) -> Option<std::path::PathBuf> {
    let in_memory = db_path == ":memory:" || db_path.starts_with("sqlite::memory:") || db_path.contains("mode=memory");
    let options = options(db_path).ok()?;
    let db_file = options.get_filename();
    if in_memory || db_file.as_os_str().is_empty() {
        return None;
    }
    let dir = db_file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some(dir.join(name))
}

/// Connection options with NodeLedger's pragmas: WAL, `synchronous=FULL`, foreign keys on,
/// a 5 s busy timeout.
pub fn options(url_or_path: &str) -> Result<SqliteConnectOptions, sqlx::Error> {
    let opts = if url_or_path.starts_with("sqlite:") {
        SqliteConnectOptions::from_str(url_or_path)?
    } else {
        SqliteConnectOptions::new().filename(url_or_path)
    };
    Ok(opts
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5)))
}

/// Opens (creating if needed) the database at `path`, checks the SQLite version and runs
/// pending migrations.
pub async fn connect(path: &str) -> Result<Db, OpenError> {
    if !path.starts_with("sqlite:")
        && let Some(dir) = Path::new(path).parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| OpenError::Open {
            path: path.to_string(),
            source: sqlx::Error::Io(e),
        })?;
    }
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .min_connections(1)
        .connect_with(options(path)?)
        .await
        .map_err(|source| OpenError::Open {
            path: path.to_string(),
            source,
        })?;
    check_version(&pool).await?;
    migrate(&pool).await?;
    optimize(&pool).await?;
    Ok(pool)
}

/// Refreshes the query planner's statistics where they are stale (`PRAGMA optimize`, as SQLite
/// recommends: at start-up, periodically and after bulk changes).
pub async fn optimize(pool: &Db) -> Result<(), sqlx::Error> {
    sqlx::query("PRAGMA optimize=0x10002").execute(pool).await?;
    Ok(())
}

/// Runs pending migrations.
pub async fn migrate(pool: &Db) -> Result<(), sqlx::migrate::MigrateError> {
    sqlx::migrate!("../migrations").run(pool).await
}

/// The SQLite library version in use, e.g. `"3.51.3"`.
pub async fn sqlite_version(pool: &Db) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT sqlite_version()").fetch_one(pool).await
}

/// Refuses a SQLite older than [`MIN_SQLITE_VERSION`]; logs the version found.
pub async fn check_version(pool: &Db) -> Result<String, OpenError> {
    let found = sqlite_version(pool).await?;
    tracing::info!(sqlite = %found, "SQLite version");
    if !version_at_least(&found, MIN_SQLITE_VERSION) {
        let (a, b, c) = MIN_SQLITE_VERSION;
        return Err(OpenError::OldSqlite {
            found,
            required: format!("{a}.{b}.{c}"),
        });
    }
    Ok(found)
}

/// Whether a dotted version string is at least `min`.
pub fn version_at_least(version: &str, min: (u32, u32, u32)) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let v = (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    );
    v >= min
}

/// Begins a write transaction with `BEGIN IMMEDIATE`, so it takes the write lock up front and
/// never fails half-way with `SQLITE_BUSY` on upgrade.
pub async fn begin_write(pool: &Db) -> Result<Tx, sqlx::Error> {
    pool.begin_with("BEGIN IMMEDIATE").await
}

/// What an update of a named team record (vendor, workload) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Updated {
    /// The record was changed.
    Done,
    /// The team has no record with this id.
    NotFound,
    /// Another record of the team already has the new name.
    NameTaken,
}

/// Whether `e` is a `UNIQUE` constraint violation (a duplicate name).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(sqlx::error::DatabaseError::is_unique_violation)
}

/// Turns the result of an `UPDATE … WHERE id = ? AND team_id = ?` into [`Updated`].
pub fn updated(result: Result<sqlx::sqlite::SqliteQueryResult, sqlx::Error>) -> Result<Updated, sqlx::Error> {
    match result {
        Ok(r) if r.rows_affected() == 0 => Ok(Updated::NotFound),
        Ok(_) => Ok(Updated::Done),
        Err(e) if is_unique_violation(&e) => Ok(Updated::NameTaken),
        Err(e) => Err(e),
    }
}

pub use crate::clock::{now_unix, today};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_versions() {
        assert!(version_at_least("3.51.3", (3, 51, 3)));
        assert!(version_at_least("3.52.0", (3, 51, 3)));
        assert!(version_at_least("4.0", (3, 51, 3)));
        assert!(!version_at_least("3.51.2", (3, 51, 3)));
        assert!(!version_at_least("3.46.0", (3, 51, 3)));
        assert!(!version_at_least("garbage", (3, 51, 3)));
    }

    #[tokio::test]
    async fn opens_with_pragmas_and_bundled_sqlite_is_recent() {
        let dir = std::env::temp_dir().join(format!("nl-db-{}", std::process::id()));
        let path = dir.join("sub").join("t.db");
        let pool = connect(path.to_str().unwrap()).await.unwrap();
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(&pool).await.unwrap();
        assert_eq!(sync, 2, "FULL");
        let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(fk, 1);
        let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(busy, 5000, "milliseconds");
        let version = sqlite_version(&pool).await.unwrap();
        assert!(version_at_least(&version, MIN_SQLITE_VERSION), "{version}");
        pool.close().await;
        std::fs::remove_dir_all(dir).ok();
    }
}
