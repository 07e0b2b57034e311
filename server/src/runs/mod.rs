//! Benchmark runs over HTTP: the browser's upload (`POST /runs/upload`), the scripts' API
//! (`POST /api/v1/runs` with a bearer token, `GET /api/v1/schema/run.json`), the raw files
//! (`GET /runs/{id}/files/{file}`) and the charts (`GET /runs/{id}/telemetry.svg`); and
//! `nodeledger runs rejudge` ([`cli`]).

pub mod api;
pub mod cli;
pub mod files;
pub mod ingest;
pub mod upload;

use crate::listed::Listed;

/// Settings of the run routes.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Largest file accepted, bytes.
    pub file_bytes: u64,
    /// Where files wait while they are received and read (then each takes one of the
    /// process's parse slots, `crate::parse_slots`).
    pub staging_dir: std::path::PathBuf,
}

/// The run routes: the browser's upload, the scripts' API, the raw files and the charts.
pub fn router() -> Listed {
    Listed::new()
        .merge(upload::router())
        .merge(api::router())
        .merge(files::router())
}
