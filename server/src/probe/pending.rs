//! The probe's local folder: every run is written to `kept/<stamp>/` as it goes (the telemetry,
//! the node facts, a copy of the result and `upload.json`, what to send where), so a crash or
//! Ctrl-C leaves the files there. An upload the network or server refused moves the folder to
//! `pending/`, which `nodeledger probe --upload-pending` sends later; an uploaded run's folder
//! is deleted.
//!
//! The folder is `--dir`, else `NODELEDGER_PROBE_DIR`, else `$XDG_STATE_HOME/nodeledger/probe`,
//! else `~/.local/state/nodeledger/probe`.
//!
//! The run folders hold the full command line and the results: the probe's folders are made
//! 0700 and its files 0600. A pending folder is read as untrusted: `upload.json` names files,
//! and only plain names of regular files in that folder itself are read ([`read_own`]).

use serde::{Deserialize, Serialize};
use std::{
    fs::File,
    io::{self, Read},
    os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt},
    path::{Component, Path, PathBuf},
};

/// Mode of the probe's folders: the owner's only.
const DIR_MODE: u32 = 0o700;
/// Mode of the probe's files: the owner's only.
const FILE_MODE: u32 = 0o600;

/// File of the telemetry in a run folder.
pub const TELEMETRY: &str = "telemetry.csv";
/// File of the node facts.
pub const NODE: &str = "node.json";
/// File of what to upload.
pub const UPLOAD: &str = "upload.json";

/// What to send: everything `--upload-pending` needs besides the token and the server (the
/// one named when it is sent; `server` here records where it was meant to go).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The server's base URL.
    pub server: String,
    /// `quote`.
    pub quote: Option<i64>,
    /// `revision`.
    pub revision: Option<i64>,
    /// `workload`.
    pub workload: Option<i64>,
    /// `node_label`.
    pub node_label: Option<String>,
    /// `nodes`.
    pub nodes: Option<i64>,
    /// `note`.
    pub note: Option<String>,
    /// `format` of the result.
    pub format: Option<String>,
    /// The copied result's file name in the folder (`None` until it is copied).
    pub result: Option<String>,
    /// Whether `telemetry.csv` is sent.
    pub telemetry: bool,
    /// `reserves_memory`: the measured server reserves memory at start.
    #[serde(default)]
    pub reserves_memory: bool,
    /// `gpus`: the nvidia-smi indices the run used, as given (`0,1`).
    #[serde(default)]
    pub gpus: Option<String>,
    /// `started_at`: when the command started, on the telemetry's clock (`YYYY-MM-DD HH:MM:SS`,
    /// the first sample's time: the sampler starts just before the command).
    #[serde(default)]
    pub started_at: Option<String>,
}

/// The probe's folder.
#[derive(Clone, Debug)]
pub struct Folder {
    root: PathBuf,
}

impl Folder {
    /// The folder at `dir`, else the default.
    #[must_use]
    pub fn new(dir: Option<PathBuf>) -> Self {
        let root = dir
            .or_else(default_root)
            .unwrap_or_else(|| PathBuf::from(".nodeledger-probe"));
        Self { root }
    }

    /// A new run folder under `kept/`, named by the UTC time and the process id.
    ///
    /// # Errors
    /// When it cannot be made.
    pub fn start(&self) -> io::Result<PathBuf> {
        let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
        let stamp = time::OffsetDateTime::now_utc()
            .format(&format)
            .unwrap_or_else(|_| "run".into());
        let kept = self.own_dir("kept")?;
        let dir = kept.join(format!("{stamp}-{}", std::process::id()));
        make_private_dir(&dir)?;
        Ok(dir)
    }

    /// `kept/` or `pending/`, made 0700 (also when an older probe made it readable to others).
    fn own_dir(&self, name: &str) -> io::Result<PathBuf> {
        let dir = self.root.join(name);
        make_private_dir(&dir)?;
        Ok(dir)
    }

    /// Moves a run folder to `pending/`; returns its new place.
    ///
    /// # Errors
    /// When it cannot be moved.
    pub fn to_pending(&self, dir: &Path) -> io::Result<PathBuf> {
        let pending = self.own_dir("pending")?;
        let to = pending.join(dir.file_name().unwrap_or_default());
        std::fs::rename(dir, &to)?;
        Ok(to)
    }

    /// The run folders waiting in `pending/` that hold an `upload.json`, oldest first.
    #[must_use]
    pub fn pending(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.root.join("pending")) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join(UPLOAD).is_file())
            .collect();
        dirs.sort();
        dirs
    }
}

fn default_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("NODELEDGER_PROBE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(state.join("nodeledger").join("probe"))
}

/// Makes `dir` and its missing parents 0700; `dir` itself is set 0700 when it was already there.
fn make_private_dir(dir: &Path) -> io::Result<()> {
    std::fs::DirBuilder::new().recursive(true).mode(DIR_MODE).create(dir)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE))
}

/// A file created (or emptied) 0600 for writing.
fn create_private(path: &Path) -> io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(FILE_MODE)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))?;
    Ok(file)
}

/// Writes `bytes` to `path`, a file 0600.
///
/// # Errors
/// When it cannot be written.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    io::Write::write_all(&mut create_private(path)?, bytes)
}

/// Copies `from` to `to`, a file 0600 (not the mode of `from`).
///
/// # Errors
/// When `from` cannot be read or `to` written.
pub fn copy_private(from: &Path, to: &Path) -> io::Result<u64> {
    io::copy(&mut File::open(from)?, &mut create_private(to)?)
}

/// Writes `upload.json` into a run folder.
///
/// # Errors
/// When it cannot be written.
pub fn write_upload(dir: &Path, upload: &Upload) -> io::Result<()> {
    let json = serde_json::to_vec_pretty(upload).map_err(io::Error::other)?;
    write_private(&dir.join(UPLOAD), &json)
}

/// Reads `upload.json` of a run folder.
///
/// # Errors
/// When it is missing, not a regular file of the folder, or not what [`write_upload`] writes.
pub fn read_upload(dir: &Path) -> io::Result<Upload> {
    let bytes = read_own(dir, UPLOAD).map_err(|m| io::Error::new(io::ErrorKind::InvalidInput, m))?;
    serde_json::from_slice(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Whether `name` is one plain file name: not empty, no `/` or `\`, not `.` or `..`.
#[must_use]
pub fn is_plain_name(name: &str) -> bool {
    !name.contains(['/', '\\', '\0'])
        && matches!(Path::new(name).components().collect::<Vec<_>>()[..], [Component::Normal(n)] if n == name)
}

/// The bytes of the file `name` in the run folder `dir`, read only when `name` is a plain name
/// ([`is_plain_name`]) of a regular file there: not a symbolic link (it could lead anywhere),
/// not a file with other hard links (it could be any of the user's files), not a FIFO or
/// device. The message says which, for a folder `upload.json` may have been edited in.
///
/// # Errors
/// The problem, naming the file.
pub fn read_own(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    if !is_plain_name(name) {
        return Err(format!(
            "{name:?} is not a plain file name in the run's folder (no /, \\, .. or absolute path): it is not read"
        ));
    }
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(dir.join(name));
    let mut file = match opened {
        Ok(f) => f,
        Err(e) if e.raw_os_error() == Some(nix::libc::ELOOP) => {
            return Err(format!(
                "{name:?} is a symbolic link: only the run folder's own files are sent"
            ));
        }
        Err(e) => return Err(format!("cannot read {name:?}: {e}")),
    };
    let meta = file.metadata().map_err(|e| format!("cannot read {name:?}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{name:?} is not a regular file: it is not read"));
    }
    if meta.nlink() > 1 {
        return Err(format!(
            "{name:?} has other hard links: only the run folder's own files are sent"
        ));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name:?}: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nl-probe-pending-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_run_starts_kept_and_waits_in_pending_only_once_moved() {
        let root = temp("move");
        let folder = Folder::new(Some(root.clone()));
        let dir = folder.start().unwrap();
        assert!(dir.starts_with(root.join("kept")));
        let upload = Upload {
            server: "http://127.0.0.1:1".into(),
            quote: Some(17),
            result: Some("bench.json".into()),
            telemetry: true,
            ..Upload::default()
        };
        write_upload(&dir, &upload).unwrap();
        assert_eq!(folder.pending(), Vec::<PathBuf>::new(), "kept is not pending");
        let moved = folder.to_pending(&dir).unwrap();
        assert!(!dir.exists());
        assert_eq!(folder.pending(), vec![moved.clone()]);
        assert_eq!(read_upload(&moved).unwrap(), upload);
        std::fs::create_dir_all(root.join("pending/half-written")).unwrap();
        assert_eq!(
            folder.pending(),
            vec![moved],
            "a folder without upload.json is left alone"
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_folders_are_the_owner_s_only_and_so_are_the_files() {
        let root = temp("modes");
        std::fs::create_dir_all(root.join("kept")).unwrap();
        std::fs::set_permissions(root.join("kept"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let folder = Folder::new(Some(root.clone()));
        let dir = folder.start().unwrap();
        assert_eq!(mode(&root.join("kept")), 0o700, "an older readable kept/ is closed");
        assert_eq!(mode(&dir), 0o700);
        write_upload(&dir, &Upload::default()).unwrap();
        assert_eq!(mode(&dir.join(UPLOAD)), 0o600);
        let source = root.join("bench.json");
        std::fs::write(&source, "{}").unwrap();
        std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o644)).unwrap();
        copy_private(&source, &dir.join("bench.json")).unwrap();
        assert_eq!(mode(&dir.join("bench.json")), 0o600, "not the source's mode");
        let moved = folder.to_pending(&dir).unwrap();
        assert_eq!(mode(&root.join("pending")), 0o700);
        assert_eq!(mode(&moved), 0o700);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn only_plain_names_of_the_folder_s_own_regular_files_are_read() {
        let root = temp("own");
        let dir = root.join("run");
        std::fs::create_dir_all(&dir).unwrap();
        let secret = root.join("id_ed25519");
        std::fs::write(&secret, "PRIVATE KEY").unwrap();
        std::fs::write(dir.join("bench.json"), "{}").unwrap();
        assert_eq!(read_own(&dir, "bench.json").unwrap(), b"{}");
        for name in ["../id_ed25519", "..", ".", "", "/etc/passwd", "sub/x.json", "a\\b.json"] {
            let msg = read_own(&dir, name).unwrap_err();
            assert!(msg.contains("is not a plain file name"), "{name}: {msg}");
        }
        std::os::unix::fs::symlink(&secret, dir.join("telemetry.csv")).unwrap();
        let msg = read_own(&dir, "telemetry.csv").unwrap_err();
        assert!(msg.contains("\"telemetry.csv\" is a symbolic link"), "{msg}");
        std::fs::hard_link(&secret, dir.join("node.json")).unwrap();
        let msg = read_own(&dir, "node.json").unwrap_err();
        assert!(msg.contains("has other hard links"), "{msg}");
        std::fs::create_dir(dir.join("sub")).unwrap();
        assert!(read_own(&dir, "sub").unwrap_err().contains("is not a regular file"));
        assert!(is_plain_name("bench..json"), "dots inside a name are a name");
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_damaged_upload_file_is_an_error_not_a_guess() {
        let root = temp("damaged");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join(UPLOAD), b"{\"server\": 3}").unwrap();
        assert_eq!(read_upload(&root).unwrap_err().kind(), io::ErrorKind::InvalidData);
        std::fs::remove_dir_all(root).unwrap();
    }
}
