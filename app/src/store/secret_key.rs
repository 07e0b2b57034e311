//! The key that seals second-factor secrets at rest. It lives in a file outside the database
//! (default `nodeledger.key` beside it, mode 0600), so a copy of the database alone (a backup, a
//! stolen file) does not give the authenticator secrets away.
//!
//! A secret is stored as `xc1:` and the hex of a random 24-byte nonce followed by the
//! XChaCha20-Poly1305 ciphertext of the raw secret, with the user's id as associated data (a
//! sealed secret copied onto another user's row does not open). Secrets written before sealing
//! are base32 without the prefix: [`at_start`] seals them, and the services still read one
//! left over.
//!
//! Start-up fails, rather than switching factors off, when the key file is missing while sealed
//! secrets exist, when it is not a key file, or when it does not open every sealed secret.

use super::Db;
use chacha20poly1305::{
    Key, XChaCha20Poly1305, XNonce,
    aead::{Aead, KeyInit, Payload},
};
use rand::RngCore;
use sqlx::SqliteExecutor;
use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

/// Key length in bytes.
pub const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;
/// What a sealed secret starts with (the format's version).
pub const SEALED_PREFIX: &str = "xc1:";
/// The key file's name when no path is set: beside the database.
pub const DEFAULT_FILE_NAME: &str = "nodeledger.key";

/// The sealing key.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey([u8; KEY_BYTES]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(<hidden>)")
    }
}

/// Whether a stored secret is sealed (otherwise it is a base32 secret from before sealing).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with(SEALED_PREFIX)
}

impl SecretKey {
    /// A key with these bytes.
    pub fn from_bytes(bytes: [u8; KEY_BYTES]) -> Self {
        Self(bytes)
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        let mut bytes = [0u8; KEY_BYTES];
        rand::rng().fill_bytes(&mut bytes);
        Self(bytes)
    }

    /// The key file's text: 64 hex digits (surrounding white space ignored).
    fn parse(text: &str) -> Option<Self> {
        let bytes = hex::decode(text.trim()).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(Key::from_slice(&self.0))
    }

    /// `secret` of `user_id` sealed for storing, under a fresh random nonce.
    pub fn seal(&self, user_id: i64, secret: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::rng().fill_bytes(&mut nonce);
        let aad = user_id.to_be_bytes();
        // Encrypting into a Vec only fails on a buffer too large to grow (not 20 bytes).
        let sealed = self
            .cipher()
            .encrypt(XNonce::from_slice(&nonce), Payload { msg: secret, aad: &aad })
            .unwrap_or_default();
        format!("{SEALED_PREFIX}{}{}", hex::encode(nonce), hex::encode(sealed))
    }

    /// The secret of `user_id` in `stored`; `None` when it is not sealed, or not with this key
    /// for this user.
    pub fn open(&self, user_id: i64, stored: &str) -> Option<Vec<u8>> {
        let bytes = hex::decode(stored.strip_prefix(SEALED_PREFIX)?).ok()?;
        if bytes.len() < NONCE_BYTES {
            return None;
        }
        let (nonce, sealed) = bytes.split_at(NONCE_BYTES);
        let aad = user_id.to_be_bytes();
        self.cipher()
            .decrypt(XNonce::from_slice(nonce), Payload { msg: sealed, aad: &aad })
            .ok()
    }
}

/// Why the server cannot start with its key file.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file cannot be read or written.
    #[error("key file {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The file is not 64 hex digits.
    #[error("key file {} is not a NodeLedger key (64 hexadecimal digits expected)", .0.display())]
    Malformed(PathBuf),
    /// No file, but the database holds secrets sealed with one.
    #[error(
        "key file {} is missing, but the database holds second-factor secrets sealed with a key: restore the key file kept with this database's backups (a new key could not check any authenticator code)",
        .0.display()
    )]
    Missing(PathBuf),
    /// The file does not open the database's sealed secrets.
    #[error(
        "key file {} does not open the second-factor secrets in this database: it is not the key this database was sealed with; restore the right key file",
        .0.display()
    )]
    Wrong(PathBuf),
    /// Another key is already in use in this process.
    #[error("another second-factor key is already in use by this process")]
    AlreadyInstalled,
    /// The database failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
}

/// The key file of the database at `db_path` when no path is set: `nodeledger.key` in its folder.
pub fn default_path(db_path: &str) -> PathBuf {
    super::db::file_beside(db_path, DEFAULT_FILE_NAME).unwrap_or_else(|| PathBuf::from(DEFAULT_FILE_NAME))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> KeyError + '_ {
    move |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads the key file; `None` when there is none.
fn read_file(path: &Path) -> Result<Option<SecretKey>, KeyError> {
    match std::fs::read_to_string(path) {
        Ok(text) => SecretKey::parse(&text)
            .map(Some)
            .ok_or_else(|| KeyError::Malformed(path.to_path_buf())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path)(e)),
    }
}

/// Writes a new key file, readable by its owner only; never replaces one.
fn create_file(path: &Path, key: &SecretKey) -> Result<(), KeyError> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(io(path))?;
    writeln!(file, "{}", hex::encode(key.0)).map_err(io(path))?;
    file.sync_all().map_err(io(path))
}

/// Reads (or, while no secret is sealed, creates) the key at `path`, checks that it opens every
/// sealed secret and seals the ones stored before sealing. Does not install it.
///
/// # Errors
/// See [`KeyError`]: the key file is missing while secrets are sealed, malformed or wrong.
pub async fn prepare(db: &Db, path: &Path) -> Result<SecretKey, KeyError> {
    let rows = stored_secrets(db).await?;
    let key = match read_file(path)? {
        Some(key) => key,
        None if rows.iter().any(|(_, s)| is_sealed(s)) => return Err(KeyError::Missing(path.to_path_buf())),
        None => {
            let key = SecretKey::generate();
            create_file(path, &key)?;
            tracing::info!(path = %path.display(), "second-factor key file created: back it up apart from the database");
            key
        }
    };
    if rows
        .iter()
        .any(|(user_id, s)| is_sealed(s) && key.open(*user_id, s).is_none())
    {
        return Err(KeyError::Wrong(path.to_path_buf()));
    }
    let sealed = seal_legacy(db, &key).await?;
    if sealed > 0 {
        tracing::info!(sealed, "second-factor secrets stored before sealing are now sealed");
    }
    Ok(key)
}

/// Every stored secret with its user, from the `second_factors` table (start-up checks the key
/// file against them).
async fn stored_secrets(db: impl SqliteExecutor<'_>) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as("SELECT user_id, secret FROM second_factors ORDER BY user_id")
        .fetch_all(db)
        .await
}

/// Seals every secret stored before sealing (base32) with `key`, in one transaction; how many.
/// A row that is not base32 either is left alone (and logged): the services refuse it.
async fn seal_legacy(db: &Db, key: &SecretKey) -> Result<u64, sqlx::Error> {
    let mut tx = super::begin_write(db).await?;
    let mut sealed = 0;
    for (user_id, stored) in stored_secrets(&mut *tx).await? {
        if is_sealed(&stored) {
            continue;
        }
        let Some(secret) = crate::domain::second_factor::secret_from_base32(&stored) else {
            tracing::error!(user_id, "a stored second-factor secret is neither sealed nor base32");
            continue;
        };
        sealed += sqlx::query("UPDATE second_factors SET secret = ? WHERE user_id = ? AND secret = ?")
            .bind(key.seal(user_id, &secret))
            .bind(user_id)
            .bind(&stored)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(sealed)
}

static INSTALLED: OnceLock<SecretKey> = OnceLock::new();

/// [`prepare`], then makes the key the one this process seals and opens secrets with. The key
/// is process-wide, set once at start like the other settings read from files.
///
/// # Errors
/// As [`prepare`]; [`KeyError::AlreadyInstalled`] when a different key is in use already.
pub async fn at_start(db: &Db, path: &Path) -> Result<(), KeyError> {
    let key = prepare(db, path).await?;
    if *INSTALLED.get_or_init(|| key.clone()) != key {
        return Err(KeyError::AlreadyInstalled);
    }
    Ok(())
}

/// The key installed at start, if any.
pub fn installed() -> Option<&'static SecretKey> {
    INSTALLED.get()
}
