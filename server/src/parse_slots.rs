//! The process-wide slots for reading what people upload (`--parse-slots`): a run file, a bill
//! or a quote file is read into memory only while its request holds a slot, so the slots bound
//! what concurrent readings take together (each at most one file's parse: ≈ 110 MB for a run
//! result, less for a bill or a quote file of the largest accepted size; `.ci/bench-uploads`).
//!
//! A request waits for a slot up to [`SLOT_WAIT`], then it is answered 503 with `Retry-After`
//! rather than queueing without end. A run upload takes its slot once its file is on disk
//! (`runs::ingest::stage`); the bill and quote imports carry their file in the body of a server
//! function, which Leptos reads whole before the function runs, so [`hold_for_imports`] takes
//! their slot before the body is read and keeps it until the answer is made.

use app::{
    error::{AppError, Localized},
    i18n::{Msg, locale_from_headers},
};
use axum::{
    extract::{Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http::{HeaderValue, StatusCode, header};
use std::{sync::Arc, time::Duration};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Seconds a client is told to wait when every slot is taken.
pub const RETRY_AFTER_S: u64 = 5;

/// How long a request waits for a slot before it is answered 503: run results and bills are
/// read in a second or two, so a longer wait means the server is saturated.
pub const SLOT_WAIT: Duration = Duration::from_secs(10);

/// The slots, shared by every route that reads an uploaded file (one semaphore per process).
#[derive(Clone, Debug)]
pub struct ParseSlots(Arc<Semaphore>);

impl ParseSlots {
    /// `slots` slots (at least one).
    #[must_use]
    pub fn new(slots: usize) -> Self {
        Self(Arc::new(Semaphore::new(slots.max(1))))
    }

    /// A slot, held until dropped, after waiting at most [`SLOT_WAIT`]; `None` when every slot
    /// stayed taken.
    pub async fn acquire(&self) -> Option<OwnedSemaphorePermit> {
        tokio::time::timeout(SLOT_WAIT, self.0.clone().acquire_owned())
            .await
            .ok()?
            .ok()
    }
}

/// The server functions whose body is a whole file to read: the bill and the quote import.
#[must_use]
pub fn is_import(path: &str) -> bool {
    crate::security::is_bill_import(path) || crate::security::is_quote_import(path)
}

/// `res` with `Retry-After` when it says the server is busy (503).
#[must_use]
pub fn with_retry_after(mut res: Response) -> Response {
    if res.status() == StatusCode::SERVICE_UNAVAILABLE {
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
    }
    res
}

/// The answer to an import that found every slot taken: 503, `Retry-After`, and the server
/// function's error body with the message in the caller's language.
#[must_use]
pub fn busy_answer(headers: &http::HeaderMap) -> Response {
    let locale = locale_from_headers(headers);
    let error = AppError::Refused(Msg::ImportsBusy);
    with_retry_after(Localized::with_status(StatusCode::SERVICE_UNAVAILABLE, error, locale).into_response())
}

/// Takes a parse slot for a bill or quote import before its body is read, and holds it until
/// the answer is made (its body is then already read and parsed); other paths pass untouched.
pub async fn hold_for_imports(State(slots): State<ParseSlots>, req: Request, next: Next) -> Response {
    if !is_import(req.uri().path()) {
        return next.run(req).await;
    }
    let Some(_slot) = slots.acquire().await else {
        tracing::warn!(path = %req.uri().path(), "import refused: every parse slot is taken");
        return busy_answer(req.headers());
    };
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_two_imports_take_a_slot_in_the_middleware() {
        assert!(is_import("/api/orders/bills/import"));
        assert!(is_import("/api/orders/bills/import_shown"));
        assert!(is_import("/api/quotes/import"));
        for other in ["/api/orders/bills", "/api/quotes/list", "/api/v1/runs", "/runs/upload"] {
            assert!(!is_import(other), "{other}");
        }
    }

    /// Every slot taken: 503 with `Retry-After` and the message in the caller's language.
    #[tokio::test]
    async fn a_busy_import_says_when_to_try_again_in_the_callers_language() {
        let mut headers = http::HeaderMap::new();
        headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("zh-CN,zh;q=0.9"));
        let res = busy_answer(&headers);
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], RETRY_AFTER_S.to_string().as_str());
        let body = axum::body::to_bytes(res.into_body(), 64 * 1024)
            .await
            .unwrap_or_default();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let zh = app::i18n::Locale::ZhCn.t(Msg::ImportsBusy);
        assert_eq!(body["message"], zh, "{body}");
        let ok = with_retry_after(StatusCode::OK.into_response());
        assert!(ok.headers().get(header::RETRY_AFTER).is_none());
    }
}
