//! `nodeledger backup FILE`: an online, consistent copy of the database while the server runs.
//!
//! The copy is made with SQLite's `VACUUM INTO`, which reads the database inside one read
//! transaction: in WAL mode it neither waits for nor blocks the server's writers, and the copy is
//! the database exactly as it was when that transaction began (a write committed later is not in
//! it, a write still open is not half in it). The steps:
//!
//! 1. refuse a target that exists (unless `--force`), that is the database itself, or that has a
//!    `-wal`/`-shm` file beside it (a database someone has open: replacing it under them, or under
//!    a stale WAL, would corrupt it);
//! 2. `VACUUM INTO` a hidden temporary file in the target's folder, created empty beforehand
//!    with mode 0600 (the copy holds password hashes and sealed secrets: its owner's only);
//! 3. delete every session from the copy and `VACUUM` it (a backup is for restoring data, not
//!    for riding sessions; the vacuum leaves no deleted row in a free page), then `fsync` it
//!    (SQLite does not sync a `VACUUM INTO` output), then open it read-only and require
//!    `PRAGMA integrity_check` to say `ok`, reading the audit chain's head on the way;
//! 4. rename it onto the target and `fsync` the folder, so FILE is either the old file or the
//!    whole new copy, never half a copy, even after a power cut.
//!
//! Restoring is documented in the README ("Backup and restore").

use app::{domain::audit::ChainHead, store};
use clap::Args;
use sqlx::{ConnectOptions, Connection, sqlite::SqliteConnectOptions};
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

/// Arguments of `nodeledger backup`.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// Where to write the copy (a new file; its folder must exist).
    pub file: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// A backup that was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Size of the copy in bytes.
    pub bytes: u64,
    /// The audit chain's head in the copy (event count and last hash).
    pub head: ChainHead,
}

/// Why no backup was written. The target is left as it was in every case.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database to copy does not exist (a backup must not create an empty one).
    #[error("no database at {0}")]
    NoDatabase(String),
    /// The target exists and `--force` was not given.
    #[error("{0} exists: give --force to replace it")]
    Exists(PathBuf),
    /// The target is the database being copied.
    #[error("{0} is the database itself: back up to another file")]
    SameFile(PathBuf),
    /// The target has a `-wal` or `-shm` file beside it: it is, or was, an open database.
    #[error("{0} has a -wal or -shm file beside it: it looks like a database in use; stop it or pick another file")]
    InUse(PathBuf),
    /// The target path cannot be handed to SQLite (not UTF-8) or has no file name.
    #[error("cannot write a backup to {0}")]
    BadTarget(PathBuf),
    /// The copy was made but does not pass `PRAGMA integrity_check`.
    #[error("the copy failed its integrity check: {0}")]
    Corrupt(String),
    /// SQLite failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The file system failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl BackupError {
    /// Exit status: 2 for a request the command refuses, 1 for a failure while copying.
    fn exit_code(&self) -> ExitCode {
        match self {
            Self::NoDatabase(_) | Self::Exists(_) | Self::SameFile(_) | Self::InUse(_) | Self::BadTarget(_) => {
                ExitCode::from(2)
            }
            Self::Corrupt(_) | Self::Sql(_) | Self::Io(_) => ExitCode::FAILURE,
        }
    }
}

/// Runs `nodeledger backup`: writes the copy and prints its size and audit head.
pub async fn run(db_path: &str, args: BackupArgs) -> ExitCode {
    match backup(db_path, &args.file, args.force).await {
        Ok(w) => {
            println!(
                "backup written to {}: {} ({} bytes), integrity ok",
                args.file.display(),
                human_size(w.bytes),
                w.bytes
            );
            println!(
                "audit chain in the copy: {} events, head {}",
                w.head.count, w.head.head_hash
            );
            println!(
                "check it with: NODELEDGER_DB={} nodeledger audit verify",
                args.file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nodeledger: {e}");
            e.exit_code()
        }
    }
}

/// Copies the database at `db_path` to `target` (see the module docs for the steps).
pub async fn backup(db_path: &str, target: &Path, force: bool) -> Result<Written, BackupError> {
    let source = source_file(db_path)?;
    check_target(source.as_deref(), target, force)?;
    let partial = partial_path(target)?;
    remove_if_present(&partial)?;
    let result = copy_and_check(db_path, &partial).await;
    let written = match result {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    if let Err(e) = std::fs::rename(&partial, target) {
        let _ = std::fs::remove_file(&partial);
        return Err(e.into());
    }
    sync_dir(target)?;
    Ok(written)
}

/// The database file, or `None` for a `sqlite:` URL (only tests use those).
fn source_file(db_path: &str) -> Result<Option<PathBuf>, BackupError> {
    if db_path.starts_with("sqlite:") {
        return Ok(None);
    }
    let path = Path::new(db_path);
    if !path.is_file() {
        return Err(BackupError::NoDatabase(db_path.to_string()));
    }
    Ok(Some(path.canonicalize()?))
}

fn check_target(source: Option<&Path>, target: &Path, force: bool) -> Result<(), BackupError> {
    if target.file_name().is_none() || target.to_str().is_none() || target.is_dir() {
        return Err(BackupError::BadTarget(target.to_path_buf()));
    }
    if target.exists() {
        if source.is_some_and(|s| target.canonicalize().is_ok_and(|t| t == s)) {
            return Err(BackupError::SameFile(target.to_path_buf()));
        }
        if !force {
            return Err(BackupError::Exists(target.to_path_buf()));
        }
    }
    if ["-wal", "-shm"].iter().any(|s| sibling(target, s).exists()) {
        return Err(BackupError::InUse(target.to_path_buf()));
    }
    Ok(())
}

/// `FILE` with `suffix` appended to its name (`x.db` → `x.db-wal`).
fn sibling(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The hidden file the copy is written to before it is renamed onto `target`.
fn partial_path(target: &Path) -> Result<PathBuf, BackupError> {
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| BackupError::BadTarget(target.to_path_buf()))?;
    Ok(target.with_file_name(format!(".{name}.partial-{}", std::process::id())))
}

fn remove_if_present(path: &Path) -> Result<(), std::io::Error> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Creates the empty partial file readable and writable by its owner only (`VACUUM INTO`
/// accepts an empty file and keeps its mode).
fn create_private(path: &Path) -> Result<(), std::io::Error> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?;
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    Ok(())
}

/// Deletes every session from the copy and vacuums it, so no session is left in a free page.
/// The copy is opened without WAL (a rollback journal beside it, gone when done).
async fn drop_sessions(copy: &Path) -> Result<(), BackupError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(copy)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Delete)
        .connect()
        .await?;
    let cleared = async {
        sqlx::query("DELETE FROM sessions").execute(&mut conn).await?;
        sqlx::query("VACUUM").execute(&mut conn).await
    }
    .await;
    conn.close().await?;
    cleared?;
    Ok(())
}

/// `VACUUM INTO` the partial file, drop its sessions, `fsync` it, and check it.
async fn copy_and_check(db_path: &str, partial: &Path) -> Result<Written, BackupError> {
    let into = partial
        .to_str()
        .ok_or_else(|| BackupError::BadTarget(partial.to_path_buf()))?;
    create_private(partial)?;
    // The server's pragmas (WAL, busy timeout), but never creating a database, never migrating.
    let mut conn = store::db::options(db_path)?.create_if_missing(false).connect().await?;
    let copied = sqlx::query("VACUUM INTO ?").bind(into).execute(&mut conn).await;
    conn.close().await?;
    copied?;
    drop_sessions(partial).await?;
    std::fs::File::open(partial)?.sync_all()?;
    let bytes = std::fs::metadata(partial)?.len();
    let head = check_copy(partial).await?;
    Ok(Written { bytes, head })
}

/// Opens the copy read-only (nothing else can have it open yet) and checks it.
async fn check_copy(copy: &Path) -> Result<ChainHead, BackupError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(copy)
        .read_only(true)
        .immutable(true)
        .connect()
        .await?;
    let report: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut conn)
        .await?;
    let head = store::audit::head(&mut conn).await;
    conn.close().await?;
    if report != ["ok"] {
        return Err(BackupError::Corrupt(report.join("; ")));
    }
    Ok(head?)
}

/// Makes the rename onto `file` durable (the folder's entry is what a power cut could lose).
fn sync_dir(file: &Path) -> Result<(), std::io::Error> {
    #[cfg(unix)]
    {
        let dir = file
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// `1536` → `"1.5 KiB"`: the size as a person reads it.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut tenths = u128::from(bytes) * 10 / 1024;
    let mut unit = 0;
    while tenths >= 10 * 1024 && unit + 1 < UNITS.len() {
        tenths /= 1024;
        unit += 1;
    }
    format!("{}.{} {}", tenths / 10, tenths % 10, UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(human_size(0), "0 B");
        assert_eq!(human_size(1023), "1023 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(10 * 1024 * 1024), "10.0 MiB");
        assert_eq!(human_size(3 * 1024 * 1024 * 1024 + 512 * 1024 * 1024), "3.5 GiB");
        assert_eq!(human_size(u64::MAX), "16777215.9 TiB");
    }

    #[test]
    fn the_partial_copy_is_hidden_beside_the_target() {
        let p = partial_path(Path::new("/srv/backups/nl.db")).unwrap();
        assert_eq!(p.parent(), Some(Path::new("/srv/backups")));
        assert!(p.file_name().unwrap().to_str().unwrap().starts_with(".nl.db.partial-"));
        assert_eq!(sibling(Path::new("a/x.db"), "-wal"), PathBuf::from("a/x.db-wal"));
    }
}
