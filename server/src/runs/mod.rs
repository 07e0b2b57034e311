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

pub use crate::state::RunLimits;

/// The run routes: the browser's upload, the scripts' API, the raw files and the charts.
pub fn router() -> Listed {
    Listed::new()
        .merge(upload::router())
        .merge(api::router())
        .merge(files::router())
}
