//! The probe's local folder: every run is written to `kept/<stamp>/` as it goes (the telemetry,
//! the node facts, a copy of the result and `upload.json`, what to send where), so a crash or
//! Ctrl-C leaves the files there. An upload the network or server refused moves the folder to
//! `pending/`, which `nodeledger probe --upload-pending` sends later; an uploaded run's folder
//! is deleted.
//!
//! The folder is `--dir`, else `NODELEDGER_PROBE_DIR`, else `$XDG_STATE_HOME/nodeledger/probe`,
//! else `~/.local/state/nodeledger/probe`.

use serde::{Deserialize, Serialize};
use std::{
    io,
    path::{Path, PathBuf},
};

/// File of the telemetry in a run folder.
pub const TELEMETRY: &str = "telemetry.csv";
/// File of the node facts.
pub const NODE: &str = "node.json";
/// File of what to upload.
pub const UPLOAD: &str = "upload.json";

/// What to send, and where: everything `--upload-pending` needs besides the token.
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
        let dir = self.root.join("kept").join(format!("{stamp}-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(dir)
    }

    /// Moves a run folder to `pending/`; returns its new place.
    ///
    /// # Errors
    /// When it cannot be moved.
    pub fn to_pending(&self, dir: &Path) -> io::Result<PathBuf> {
        let pending = self.root.join("pending");
        std::fs::create_dir_all(&pending)?;
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

/// Writes `upload.json` into a run folder.
///
/// # Errors
/// When it cannot be written.
pub fn write_upload(dir: &Path, upload: &Upload) -> io::Result<()> {
    let json = serde_json::to_vec_pretty(upload).map_err(io::Error::other)?;
    std::fs::write(dir.join(UPLOAD), json)
}

/// Reads `upload.json` of a run folder.
///
/// # Errors
/// When it is missing or not what [`write_upload`] writes.
pub fn read_upload(dir: &Path) -> io::Result<Upload> {
    let bytes = std::fs::read(dir.join(UPLOAD))?;
    serde_json::from_slice(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
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

    #[test]
    fn a_damaged_upload_file_is_an_error_not_a_guess() {
        let root = temp("damaged");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join(UPLOAD), b"{\"server\": 3}").unwrap();
        assert_eq!(read_upload(&root).unwrap_err().kind(), io::ErrorKind::InvalidData);
        std::fs::remove_dir_all(root).unwrap();
    }
}
