//! Server functions refuse a stranger before reading the body.
//!
//! Leptos decodes a server function's arguments (a form, or JSON up to the quote import's
//! limit) before its body runs `require_caller`/`require_team`; without this layer anyone could
//! make the server read and parse a large body only to answer 401. This layer runs after the
//! caller is attached and answers 401 for a registered server-function path when no one is
//! signed in, without touching the body. Deny by default: only [`OPEN`] is left to the
//! function itself.

use app::{error::AppError, i18n::locale_from_headers, views::Caller};
use axum::{
    extract::{Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use std::{collections::HashSet, sync::Arc};

/// The server functions someone signed out may call: sign-in and its second step (the code, or
/// setting up an authenticator when managers must have one — these check the session's pending
/// sign-in themselves — and "sign in again", which drops it), first-admin set-up, the session
/// (who is signed in, whether set-up is needed), sign-out, and the to-do list (empty when
/// signed out). A new sign-in step must be added here.
pub const OPEN: [&str; 11] = [
    "/api/login",
    "/api/login/code",
    "/api/login/restart",
    "/api/second_factor/start",
    "/api/second_factor/confirm",
    "/api/setup",
    "/api/session",
    "/api/logout",
    "/api/notifications",
    // A vendor's bid page: the link in the body is the vendor's capability.
    "/api/bid/page",
    "/api/bid/save",
];

/// The paths of the registered server functions that need a signed-in caller.
#[derive(Clone, Debug)]
pub struct CallerOnly(Arc<HashSet<&'static str>>);

impl CallerOnly {
    /// Every server function this binary registers, except [`OPEN`].
    #[must_use]
    pub fn registered() -> Self {
        let paths = leptos::server_fn::axum::server_fn_paths()
            .map(|(path, _)| path)
            .filter(|path| !OPEN.contains(path))
            .collect();
        Self(Arc::new(paths))
    }

    /// Whether `path` is a server function that needs a caller.
    #[must_use]
    pub fn covers(&self, path: &str) -> bool {
        self.0.contains(path)
    }
}

/// Answers 401 (the server function's own error body, in the reader's language) for a server
/// function that needs a caller when none is signed in; the body is left unread.
pub async fn refuse_strangers(State(paths): State<CallerOnly>, req: Request, next: Next) -> Response {
    if req.extensions().get::<Caller>().is_none() && paths.covers(req.uri().path()) {
        let locale = locale_from_headers(req.headers());
        return AppError::Unauthenticated.in_language(locale).into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_server_function_needs_a_caller_except_the_open_ones() {
        let paths = CallerOnly::registered();
        let registered: HashSet<&str> = leptos::server_fn::axum::server_fn_paths().map(|(p, _)| p).collect();
        for open in OPEN {
            assert!(!paths.covers(open), "{open}");
            assert!(registered.contains(open), "{open} is not a server function (renamed?)");
        }
        for closed in [
            "/api/quotes/import",
            "/api/tco",
            "/api/runs/save",
            "/api/admin/create_user",
        ] {
            assert!(paths.covers(closed), "{closed}");
        }
        assert!(!paths.covers("/api/v1/runs"), "a raw route checks its token itself");
    }
}
