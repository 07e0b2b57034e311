//! The one state every route of the server shares. Each handler asks only for the part it
//! needs (`State<store::Db>`, `State<RunLimits>`, …); [`FromRef`] hands it out.

use crate::parse_slots::ParseSlots;
use app::{auth::AppState, cookies::SecureCookies, services::tco::ComparisonCache, store};
use axum::extract::FromRef;
use leptos::config::LeptosOptions;

/// What the router is built with: the application's state (pool, sessions, timeouts), the
/// Leptos settings, the run upload limits, the parse slots and whether the site's cookies are
/// `Secure`.
#[derive(Clone, Debug)]
pub struct ServerState {
    /// The pool, the session store and the session timeouts (pages get it as context too).
    pub app: AppState,
    /// Where the site's files are and how the pages are rendered.
    pub leptos: LeptosOptions,
    /// The largest run file the browser and the API may upload.
    pub runs: RunLimits,
    /// The process's slots for reading uploaded files: run uploads and the bill and quote
    /// imports share them.
    pub slots: ParseSlots,
    /// Whether the site's own cookies (language, bundle) are marked `Secure`.
    pub cookies: SecureCookies,
    /// Cost comparisons of the last few seconds, shared by the cost page and its exports and
    /// charts (pages get it as context too).
    pub comparisons: ComparisonCache,
    /// The vendor pages' request limits (pages get it as context too).
    pub bid_limits: app::services::rfq::limits::BidLimits,
}

/// What the cost comparison's exports and charts read: the pool and the recent comparisons.
#[derive(Clone, Debug)]
pub struct CostState {
    /// The database.
    pub db: store::Db,
    /// Cost comparisons of the last few seconds.
    pub comparisons: ComparisonCache,
}

impl FromRef<ServerState> for CostState {
    fn from_ref(state: &ServerState) -> Self {
        Self {
            db: state.app.db.clone(),
            comparisons: state.comparisons.clone(),
        }
    }
}

/// Settings of the run routes.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Largest file accepted, bytes.
    pub file_bytes: u64,
    /// Where files wait while they are received and read (then each takes one of the
    /// process's parse slots, `crate::parse_slots`).
    pub staging_dir: std::path::PathBuf,
}

impl FromRef<ServerState> for AppState {
    fn from_ref(state: &ServerState) -> Self {
        state.app.clone()
    }
}

impl FromRef<ServerState> for store::Db {
    fn from_ref(state: &ServerState) -> Self {
        state.app.db.clone()
    }
}

impl FromRef<ServerState> for LeptosOptions {
    fn from_ref(state: &ServerState) -> Self {
        state.leptos.clone()
    }
}

impl FromRef<ServerState> for RunLimits {
    fn from_ref(state: &ServerState) -> Self {
        state.runs.clone()
    }
}

impl FromRef<ServerState> for ParseSlots {
    fn from_ref(state: &ServerState) -> Self {
        state.slots.clone()
    }
}

impl FromRef<ServerState> for SecureCookies {
    fn from_ref(state: &ServerState) -> Self {
        state.cookies
    }
}
