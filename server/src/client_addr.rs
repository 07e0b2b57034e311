//! Records the client address of every request ([`app::auth::throttle::ClientAddr`]) for the
//! password throttle and its log: the TCP peer, or the last hop of the trusted proxy header when
//! one is configured (`NODELEDGER_TRUSTED_PROXY_HEADER`). The rule is
//! [`app::auth::throttle::client_addr_from`].

use app::auth::throttle::{ClientAddr, client_addr_from};
use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::Response,
};
use http::HeaderName;
use std::{net::SocketAddr, sync::Arc};

/// The header a trusted reverse proxy appends the client address to, if any.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxy(pub Option<Arc<HeaderName>>);

/// Puts the request's [`ClientAddr`] into its extensions (none when neither the peer nor the
/// trusted header gives one, as in router tests without a socket).
pub async fn attach(State(trusted): State<TrustedProxy>, mut req: Request, next: Next) -> Response {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    if let Some(ip) = client_addr_from(peer, req.headers(), trusted.0.as_deref()) {
        req.extensions_mut().insert(ClientAddr(ip));
    }
    next.run(req).await
}

/// Parses `--trusted-proxy-header` (a valid HTTP header name, case ignored).
pub fn parse_header_name(s: &str) -> Result<HeaderName, String> {
    HeaderName::from_bytes(s.trim().as_bytes()).map_err(|_| format!("{s:?} is not an HTTP header name"))
}
