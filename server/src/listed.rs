//! An area's raw routes together with the paths they answer: each area builds its router with
//! [`Listed::route`], so the list cannot drift from what is routed. The bounds test
//! (`server/tests/bounds.rs`) reads the list ([`crate::router::raw_paths`]) to check that every
//! raw route has its numeric fields probed.

use crate::state::ServerState;
use axum::{Router, routing::MethodRouter};

/// Routes and their paths, as written in the router (`/runs/{id}/files/{file}`).
#[derive(Debug, Default)]
pub struct Listed {
    router: Router<ServerState>,
    paths: Vec<&'static str>,
}

impl Listed {
    /// No route yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `path`, answered by `method`.
    #[must_use]
    pub fn route(mut self, path: &'static str, method: MethodRouter<ServerState>) -> Self {
        self.router = self.router.route(path, method);
        self.paths.push(path);
        self
    }

    /// Adds another area's routes.
    #[must_use]
    pub fn merge(mut self, other: Listed) -> Self {
        self.router = self.router.merge(other.router);
        self.paths.extend(other.paths);
        self
    }

    /// Adds a router that serves everything under a prefix (static files), listed as `path`.
    #[must_use]
    pub fn merge_listed_as(mut self, path: &'static str, router: Router<ServerState>) -> Self {
        self.router = self.router.merge(router);
        self.paths.push(path);
        self
    }

    /// The paths, in the order they were added.
    #[must_use]
    pub fn paths(&self) -> &[&'static str] {
        &self.paths
    }

    /// The router.
    pub fn into_router(self) -> Router<ServerState> {
        self.router
    }
}
