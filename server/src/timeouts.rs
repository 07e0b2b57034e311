//! Time limits on every request, so a stuck handler or a stalled streaming page cannot hold a
//! connection (and its database work) forever:
//!
//! - **Answer**: the handler must produce the response head within [`TimeLimits::answer`]
//!   (reading the request body included) — else 503 with a short message in the user's language.
//! - **Stall**: once the head is out, the body (Leptos streams pages chunk by chunk as their
//!   `Suspense`s resolve) may not go longer than [`TimeLimits::stall`] without a chunk — else it is
//!   cut (the connection is closed mid-body, so the browser sees a broken page, not a hang).
//!
//! Both are logged with the route (method and path).

use app::i18n::{Msg, locale_from_headers};
use axum::body::Bytes;
use axum::{
    body::Body,
    extract::{Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http::{HeaderValue, StatusCode, header};
use http_body::{Body as HttpBody, Frame, SizeHint};
use std::{
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};
use tokio::time::{Instant, Sleep};

/// How long a request may take to answer, and a streaming answer may go without a chunk.
#[derive(Clone, Copy, Debug)]
pub struct TimeLimits {
    /// Until the response head (status and headers).
    pub answer: Duration,
    /// Between two chunks of the response body.
    pub stall: Duration,
}

/// Applies [`TimeLimits`] to the request: 503 when the handler does not answer in time, a cut
/// body when the answer stalls.
pub async fn limit_time(State(limits): State<TimeLimits>, req: Request, next: Next) -> Response {
    let route = format!("{} {}", req.method(), req.uri().path());
    let locale = locale_from_headers(req.headers());
    match tokio::time::timeout(limits.answer, next.run(req)).await {
        Ok(res) => {
            let (parts, body) = res.into_parts();
            Response::from_parts(parts, Body::new(StallGuard::new(body, limits.stall, route)))
        }
        Err(_) => {
            tracing::warn!(%route, after = ?limits.answer, "request not answered in time; refused with 503");
            let mut res = (StatusCode::SERVICE_UNAVAILABLE, locale.t(Msg::SecTooSlow)).into_response();
            res.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            res
        }
    }
}

/// A response body that ends with an error when its inner body keeps it waiting for `stall`.
/// The clock runs only while the inner body is pending, from the first time it is: a client
/// that reads slowly (the server waits on the socket, not on the body) is not cut.
pub struct StallGuard {
    inner: Body,
    stall: Duration,
    deadline: Pin<Box<Sleep>>,
    waiting: bool,
    route: String,
    cut: bool,
}

impl StallGuard {
    /// Guards `inner`, naming `route` in the log line when it is cut.
    pub fn new(inner: Body, stall: Duration, route: String) -> Self {
        Self {
            inner,
            stall,
            deadline: Box::pin(tokio::time::sleep(stall)),
            waiting: false,
            route,
            cut: false,
        }
    }

    /// Cuts the body once the deadline has passed.
    fn poll_deadline(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.cut = true;
                tracing::warn!(route = %self.route, after = ?self.stall, "response stalled; cut");
                let err = std::io::Error::new(std::io::ErrorKind::TimedOut, "response stalled");
                Poll::Ready(Some(Err(axum::Error::new(err))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl HttpBody for StallGuard {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if self.cut {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(frame) => {
                self.waiting = false;
                Poll::Ready(frame)
            }
            Poll::Pending if !self.waiting => {
                self.waiting = true;
                let deadline = Instant::now() + self.stall;
                self.deadline.as_mut().reset(deadline);
                self.poll_deadline(cx)
            }
            Poll::Pending => self.poll_deadline(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.cut || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt as _;
    use http_body_util::BodyExt;

    const STALL: Duration = Duration::from_millis(300);

    fn stalling_after(first: &'static str) -> Body {
        let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(Bytes::from(first))])
            .chain(futures_util::stream::pending());
        Body::from_stream(chunks)
    }

    #[tokio::test]
    async fn a_body_that_stalls_is_cut_after_the_stall_time() {
        let mut body = StallGuard::new(stalling_after("<html>"), STALL, "GET /x".into());
        let first = body.frame().await.expect("a frame").expect("data");
        assert_eq!(first.into_data().ok(), Some(Bytes::from("<html>")));
        let started = Instant::now();
        let cut = tokio::time::timeout(10 * STALL, body.frame())
            .await
            .expect("cut, not hanging");
        assert!(
            cut.expect("an error frame").is_err(),
            "a stalled body ends with an error"
        );
        assert!(
            started.elapsed() >= STALL,
            "not before the stall time: {:?}",
            started.elapsed()
        );
        assert!(body.frame().await.is_none(), "and then ends");
    }

    #[tokio::test]
    async fn a_slow_but_steady_body_is_not_cut() {
        let chunks = futures_util::stream::iter(0..5).then(|i| async move {
            tokio::time::sleep(STALL / 3).await;
            Ok::<_, std::io::Error>(Bytes::from(format!("{i}")))
        });
        let body = StallGuard::new(Body::from_stream(chunks), STALL, "GET /x".into());
        let all = body.collect().await.expect("whole body").to_bytes();
        assert_eq!(
            all,
            Bytes::from("01234"),
            "longer than the stall time in all, never between chunks"
        );
    }

    #[tokio::test]
    async fn a_client_that_reads_slowly_is_not_cut() {
        // Each chunk takes a moment to produce (the inner body is briefly pending).
        let chunks = futures_util::stream::iter(["a", "b"]).then(|c| async move {
            tokio::time::sleep(STALL / 10).await;
            Ok::<_, std::io::Error>(Bytes::from(c))
        });
        let mut body = StallGuard::new(Body::from_stream(chunks), STALL, "GET /x".into());
        assert!(body.frame().await.expect("a").is_ok());
        tokio::time::sleep(2 * STALL).await; // the client is busy; nobody polls the body
        let next = body.frame().await.expect("b");
        assert_eq!(next.expect("not cut").into_data().ok(), Some(Bytes::from("b")));
    }

    #[tokio::test]
    async fn the_size_is_kept() {
        let body = StallGuard::new(Body::from("abc"), STALL, "GET /x".into());
        assert_eq!(body.size_hint().exact(), Some(3));
    }
}
