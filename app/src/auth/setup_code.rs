//! The one-time set-up code: whoever creates the first administrator must prove they run the
//! server. A server that starts on a database without any user makes a fresh random code, prints
//! it on standard error (`nodeledger serve`) and writes it to the file [`FILE_NAME`] next to the
//! database file, readable by the server's own account only (mode 0600). The set-up form asks for
//! it; once set-up succeeds the code is forgotten and the file deleted. Until a server start has
//! issued one, every code is refused.
//!
//! Codes are 20 characters of Crockford's base32 (100 random bits), shown in groups of five;
//! what the operator types is read leniently (case, dashes and spaces ignored, `O`/`I`/`L` read
//! as `0`/`1`/`1`) and compared in constant time.

use crate::store::{self, Db};
use sha2::{Digest, Sha256};
use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex, PoisonError},
};

/// The file next to the database that holds the code while set-up is open.
pub const FILE_NAME: &str = "setup-code";

/// Characters of a code (Crockford's base32: no `I`, `L`, `O`, `U`).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code.
const CODE_LEN: usize = 20;
/// Characters per group when shown.
const GROUP: usize = 5;
/// Longest input that is read at all (a pasted code with spaces fits easily).
const MAX_INPUT_CHARS: usize = 64;

/// The code this server issued at start, if set-up is still open; shared by every request.
#[derive(Clone, Default)]
pub struct SetupCode(Arc<Mutex<Option<Issued>>>);

struct Issued {
    /// The code, canonical (no separators).
    code: String,
    /// The file it was written to, deleted once set-up is done.
    file: Option<PathBuf>,
}

impl std::fmt::Debug for SetupCode {
    /// Never the code itself: the state is printed in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetupCode")
            .field("issued", &self.shown().is_some())
            .finish()
    }
}

impl SetupCode {
    /// At server start: a fresh code while set-up is open ([`store::site::setup_open`]: no user
    /// at all), written to
    /// [`FILE_NAME`] next to the database file `db_path`; otherwise none, and a file left by an
    /// earlier start is removed. A file that cannot be written is logged; the code still works
    /// (the operator reads it from standard error).
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn at_start(db: &Db, db_path: &str) -> Result<Self, sqlx::Error> {
        let file = file_next_to(db_path);
        if !store::site::setup_open(db).await? {
            if let Some(path) = &file {
                remove_file(path);
            }
            return Ok(Self::default());
        }
        let code = generate();
        let file = file.filter(|path| match write_private(path, &shown(&code)) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot write the set-up code file");
                false
            }
        });
        Ok(Self(Arc::new(Mutex::new(Some(Issued { code, file })))))
    }

    /// A server with this code issued and no file (tests of the rule itself).
    pub fn issued(code: &str) -> Self {
        Self(Arc::new(Mutex::new(Some(Issued {
            code: normalize(code).unwrap_or_default(),
            file: None,
        }))))
    }

    /// The code as shown to the operator (`ABCDE-FGHJK-…`), while set-up is open.
    pub fn shown(&self) -> Option<String> {
        self.with(|issued| issued.as_ref().map(|i| shown(&i.code)))
    }

    /// Where the code was written, if it was.
    pub fn file(&self) -> Option<PathBuf> {
        self.with(|issued| issued.as_ref().and_then(|i| i.file.clone()))
    }

    /// Whether `given` is the issued code (`false` when none is), compared in constant time.
    pub fn matches(&self, given: &str) -> bool {
        let Some(given) = normalize(given) else {
            return false;
        };
        self.with(|issued| {
            issued
                .as_ref()
                .is_some_and(|i| !i.code.is_empty() && same_digest(&i.code, &given))
        })
    }

    /// Set-up is done: the code is forgotten and its file deleted.
    pub fn used(&self) {
        if let Some(Issued { file: Some(path), .. }) = self.with(Option::take) {
            remove_file(&path);
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Option<Issued>) -> T) -> T {
        // A panic while holding the lock cannot leave the value half-written: keep using it.
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The set-up code file beside the database `db_path` (a path or a `sqlite:` URL); `None` for an
/// in-memory database.
pub fn file_next_to(db_path: &str) -> Option<PathBuf> {
    store::db::file_beside(db_path, FILE_NAME)
}

fn generate() -> String {
    let mut random = [0u8; CODE_LEN];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut random);
    // 256 is a multiple of 32: taking the low five bits keeps every character equally likely.
    random
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect()
}

/// `code` in groups of [`GROUP`] joined by dashes.
fn shown(code: &str) -> String {
    code.as_bytes()
        .chunks(GROUP)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// What the operator typed, canonical: separators dropped, upper case, Crockford's look-alikes
/// mapped; `None` when it is too long to be a code or has a character no code has.
fn normalize(given: &str) -> Option<String> {
    if given.chars().count() > MAX_INPUT_CHARS {
        return None;
    }
    given
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => Some('0'),
            'I' | 'L' => Some('1'),
            c if c.is_ascii() && ALPHABET.contains(&(c as u8)) => Some(c),
            _ => None,
        })
        .collect()
}

/// Whether `a` and `b` are equal, in time independent of where they differ (and of `b`'s
/// length): their SHA-256 digests are compared byte for byte without an early exit.
fn same_digest(a: &str, b: &str) -> bool {
    let (a, b) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Writes `code` to a new file at `path` that only the server's account may read (0600 on
/// Unix); a file already there is replaced.
fn write_private(path: &Path, code: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    writeln!(file, "{code}")?;
    file.sync_all()
}

fn remove_file(path: &Path) {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            tracing::warn!(path = %path.display(), error = %e, "cannot delete the set-up code file");
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_twenty_base32_characters_shown_in_groups_and_read_leniently() {
        let code = generate();
        assert_eq!(code.len(), CODE_LEN);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        assert_ne!(code, generate(), "random");
        let issued = SetupCode::issued(&code);
        let shown = issued.shown().unwrap();
        assert_eq!(shown.len(), CODE_LEN + CODE_LEN / GROUP - 1);
        assert!(issued.matches(&shown));
        assert!(issued.matches(&format!("  {}\n", shown.to_lowercase())));
        assert!(issued.matches(&shown.replace('-', " ")));

        let crockford = SetupCode::issued("01AB2-CDEF3-GH4JK-MN5PQ");
        assert!(crockford.matches("oiab2cdef3gh4jkmn5pq"), "O and I read as 0 and 1");
        assert!(crockford.matches("0LAB2CDEF3GH4JKMN5PQ"), "L read as 1");
    }

    #[test]
    fn a_wrong_empty_oversized_or_unissued_code_is_refused() {
        let issued = SetupCode::issued("ABCDE-FGHJK-MNPQR-STVWX");
        for wrong in [
            "",
            "ABCDE-FGHJK-MNPQR-STVWY",
            "ABCDE-FGHJK-MNPQR-STVW",
            "ABCDE-FGHJK-MNPQR-STVWXA",
            "ABCDE-FGHJK-MNPQR-STVWU",
            "ABCDE-FGHJK-MNPQR-STVWX!",
            "ÄBCDE-FGHJK-MNPQR-STVWX",
        ] {
            assert!(!issued.matches(wrong), "{wrong:?}");
        }
        let padded = format!("ABCDE-FGHJK-MNPQR-STVWX{}", " ".repeat(MAX_INPUT_CHARS));
        assert!(!issued.matches(&padded), "too long to be read");
        assert!(!SetupCode::default().matches(""), "none issued");
        assert!(!SetupCode::default().matches("ABCDE-FGHJK-MNPQR-STVWX"));
        issued.used();
        assert!(!issued.matches("ABCDE-FGHJK-MNPQR-STVWX"), "used once");
        assert_eq!(issued.shown(), None);
        assert!(!format!("{issued:?}").contains("ABCDE"));
    }

    #[test]
    fn the_file_lies_next_to_the_database() {
        assert_eq!(
            file_next_to("end2end/.tmp/e2e.db"),
            Some(PathBuf::from("end2end/.tmp/setup-code"))
        );
        assert_eq!(file_next_to("nodeledger.db"), Some(PathBuf::from("./setup-code")));
        assert_eq!(
            file_next_to("sqlite:///srv/ledger/data.db"),
            Some(PathBuf::from("/srv/ledger/setup-code"))
        );
        assert_eq!(file_next_to("sqlite::memory:"), None);
        assert_eq!(file_next_to(":memory:"), None);
    }
}
