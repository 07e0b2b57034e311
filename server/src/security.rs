//! HTTP-level protections applied to every request: cross-site request refusal, refusal of
//! foreign `Host` names (DNS rebinding), security headers with a per-request CSP nonce, and
//! proper status codes for server-function errors.

use app::{
    error::AppError,
    i18n::{Msg, locale_from_headers},
};
use axum::{
    body::Body,
    extract::{Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use leptos::nonce::Nonce;
use rand::RngCore;
use std::sync::Arc;

/// The origins a state-changing request may come from.
#[derive(Clone, Debug)]
pub struct SiteOrigin {
    /// `scheme://host[:port]` of the public URL.
    pub public: String,
    /// The public URL's scheme, used with a loopback `Host` header for local aliases
    /// (`localhost` vs `127.0.0.1`).
    pub scheme: String,
    /// The public URL's host name, without port (`[::1]` keeps its brackets).
    pub host: String,
}

impl SiteOrigin {
    /// From the public URL (`https://example.com/path` → origin `https://example.com`).
    pub fn from_public_url(url: &str) -> Self {
        let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
        let host = rest.split('/').next().unwrap_or(rest);
        Self {
            public: format!("{scheme}://{host}").to_ascii_lowercase(),
            scheme: scheme.to_ascii_lowercase(),
            host: host_name(host).to_ascii_lowercase(),
        }
    }

    /// Whether a state-changing request from `origin` is this site's: the public URL's origin,
    /// or — only when the request's `Host` is a loopback name — `scheme://<Host>`. A DNS
    /// rebinding page (a name of the attacker's pointed at this server) sends its own name as
    /// `Host` and `Origin`, so it must not be taken at its word.
    fn allows(&self, origin: &str, headers: &HeaderMap) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        if origin == self.public {
            return true;
        }
        headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|host| is_loopback(host))
            .is_some_and(|host| origin == format!("{}://{}", self.scheme, host.to_ascii_lowercase()))
    }

    /// Whether a request naming `host` (a `Host` header, `name[:port]`) may be answered: the
    /// public URL's host, or a loopback name.
    pub fn serves_host(&self, host: &str) -> bool {
        is_loopback(host) || host_name(host).eq_ignore_ascii_case(&self.host)
    }
}

/// The name part of `name[:port]` (`[::1]:3000` → `[::1]`).
fn host_name(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.find(']').map_or(authority, |end| &authority[..=end]);
    }
    authority.rsplit_once(':').map_or(authority, |(name, _)| name)
}

/// Whether `authority` (`name[:port]`) names this machine: `localhost`, 127.0.0.0/8 or `[::1]`.
/// Only these may stand in for the public URL: no outside DNS can point them elsewhere.
pub fn is_loopback(authority: &str) -> bool {
    let name = host_name(authority.trim());
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    if let Some(v6) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        return v6.parse::<std::net::Ipv6Addr>().is_ok_and(|ip| ip.is_loopback());
    }
    name.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
}

/// Refuses with 421 (Misdirected Request) a request whose `Host` is neither the public URL's
/// host nor a loopback name: what a DNS rebinding page sends, after pointing a name of its own
/// at this server to talk to it from a victim's browser (the first-admin set-up of a fresh
/// install, say). A request without `Host` (not from a browser) passes; `/healthz` always does.
pub async fn refuse_foreign_host(State(site): State<Arc<SiteOrigin>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or_default().to_string())
        .or_else(|| req.uri().authority().map(ToString::to_string));
    let foreign = host.as_deref().is_some_and(|h| !site.serves_host(h));
    if !foreign || req.uri().path() == "/healthz" {
        return next.run(req).await;
    }
    tracing::warn!(method = %req.method(), path = %req.uri().path(), ?host, "request for a foreign host refused");
    let locale = locale_from_headers(req.headers());
    let mut res = (StatusCode::MISDIRECTED_REQUEST, locale.t(Msg::SecWrongHost)).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    res
}

/// The value of `Strict-Transport-Security` sent when the public URL is https: two years,
/// subdomains included.
pub const HSTS: &str = "max-age=63072000; includeSubDomains";

/// Whether `path` is a static asset (the WASM bundle, CSS, the icon): cacheable, no caller, no
/// session work.
pub fn is_static_asset(path: &str) -> bool {
    path.starts_with("/pkg/") || path.starts_with("/favicon")
}

/// The origin part (`scheme://host[:port]`) of a `Referer` URL.
fn referer_origin(referer: &str) -> Option<String> {
    let (scheme, rest) = referer.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{host}"))
}

/// Whether the request is a script's API call carrying no cookie: the `/api/v1/` routes only
/// accept bearer tokens, which browsers never add by themselves, so such a call cannot be forged
/// cross-site (one without a token gets the API's own 401).
fn is_token_api_call(req: &Request) -> bool {
    req.uri().path().starts_with("/api/v1/") && req.headers().get(header::COOKIE).is_none()
}

/// Refuses state-changing requests (anything but GET, HEAD, OPTIONS) that come from another
/// site: `Sec-Fetch-Site: cross-site` → 403; otherwise `Origin` (or, lacking it, `Referer`)
/// must be this site's. Leptos server functions have no CSRF protection of their own.
pub async fn reject_cross_site(State(site): State<Arc<SiteOrigin>>, req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) || is_token_api_call(&req) {
        return next.run(req).await;
    }
    let headers = req.headers();
    let cross_site = headers.get("sec-fetch-site").is_some_and(|v| v == "cross-site");
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| {
            headers
                .get(header::REFERER)
                .and_then(|v| v.to_str().ok())
                .and_then(referer_origin)
        });
    let allowed = !cross_site && origin.as_deref().is_some_and(|o| site.allows(o, headers));
    if allowed {
        return next.run(req).await;
    }
    tracing::warn!(method = %req.method(), path = %req.uri().path(), ?origin, cross_site, "cross-site request refused");
    let locale = locale_from_headers(headers);
    let mut res = (StatusCode::FORBIDDEN, locale.t(Msg::ErrorCrossSite)).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    res
}

/// A fresh CSP nonce: 16 random bytes, URL-safe base64 without padding.
fn new_nonce() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    app::domain::tokens::base64url(&bytes)
}

/// The Content-Security-Policy for a page rendered with `nonce`.
pub fn content_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Puts a per-request nonce in the request (Leptos marks its scripts with it) and sets the
/// security headers on every response; pages and API answers are never cached.
pub async fn security_headers(mut req: Request, next: Next) -> Response {
    let nonce = new_nonce();
    req.extensions_mut().insert(Nonce::from_value(nonce.clone()));
    // Static files say how long they may be kept (`assets::cache_control`).
    let static_path = is_static_asset(req.uri().path()).then(|| req.uri().path().to_string());
    let mut res = next.run(req).await;
    let cache = static_path.map_or("no-store", |path| crate::assets::cache_control(&path, res.status()));
    let h = res.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY)
        && let Ok(csp) = HeaderValue::from_str(&content_security_policy(&nonce))
    {
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    h.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    res
}

/// Request body limits: one for everything, larger ones for upload routes.
#[derive(Clone, Debug)]
pub struct BodyLimits {
    default: usize,
    uploads: Vec<UploadRoute>,
}

/// Which paths take uploads, and the body limit there.
type UploadRoute = (fn(&str) -> bool, usize);

/// The quote import server function.
pub fn is_quote_import(path: &str) -> bool {
    path == "/api/quotes/import"
}

/// The bill import server functions: for scripts, and as the order page's form shows it.
pub fn is_bill_import(path: &str) -> bool {
    path == "/api/orders/bills/import" || path == "/api/orders/bills/import_shown"
}

fn is_document_upload(path: &str) -> bool {
    (path.starts_with("/quotes/") && path.ends_with("/documents"))
        || (path.starts_with("/bid/") && path.ends_with("/files"))
}

fn is_run_file_upload(path: &str) -> bool {
    path == "/runs/upload"
}

fn is_run_api_upload(path: &str) -> bool {
    path == "/api/v1/runs"
}

impl BodyLimits {
    /// `default` for every route; quote and bill import get what their pages accept, document
    /// upload the largest document, the browser's run upload one run file and the API's two
    /// (each plus room for the encoding: a bill travels as a JSON string, whose escaped quotes
    /// can add a quarter to a FOCUS file).
    pub fn new(default: usize, run_file: u64) -> Self {
        const IMPORT: usize = app::pages::quotes::import::BROWSER_LIMIT_BYTES + 1024 * 1024;
        const BILL: usize = app::pages::orders::bill::BROWSER_LIMIT_BYTES * 5 / 4 + 64 * 1024;
        const DOCUMENT: usize = app::domain::documents::MAX_DOCUMENT_BYTES + 64 * 1024;
        const ROOM: usize = 64 * 1024;
        let run_file = usize::try_from(run_file).unwrap_or(usize::MAX / 4);
        Self {
            default,
            uploads: vec![
                (is_quote_import, IMPORT),
                (is_bill_import, BILL),
                (is_document_upload, DOCUMENT),
                (is_run_file_upload, run_file + ROOM),
                (is_run_api_upload, 2 * run_file + ROOM),
            ],
        }
    }

    /// The limit for `path`.
    pub fn for_path(&self, path: &str) -> usize {
        self.uploads
            .iter()
            .find(|(matches, _)| matches(path))
            .map_or(self.default, |(_, l)| (*l).max(self.default))
    }
}

/// Refuses bodies over the route's limit with 413: at once from `Content-Length`, or while
/// reading a body sent without one.
pub async fn limit_body(State(limits): State<BodyLimits>, req: Request, next: Next) -> Response {
    let limit = limits.for_path(req.uri().path());
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        let locale = locale_from_headers(req.headers());
        return (StatusCode::PAYLOAD_TOO_LARGE, locale.t(Msg::ErrorTooLarge)).into_response();
    }
    let (parts, body) = req.into_parts();
    let body = Body::new(http_body_util::Limited::new(body, limit));
    next.run(Request::from_parts(parts, body)).await
}

/// Leptos answers every server-function error with 500; this sets the status the error
/// stands for (401, 403, 404, 409, 422, 429…), read from the encoded [`AppError`].
pub async fn server_fn_error_status(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    if res.status() != StatusCode::INTERNAL_SERVER_ERROR || !res.headers().contains_key("serverfnerror") {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024).await.unwrap_or_default();
    if let Ok(err) = serde_json::from_slice::<AppError>(&bytes)
        && let Ok(status) = StatusCode::from_u16(err.status_code())
    {
        parts.status = status;
        // Throttled (429) and busy (503) answers say when to come back.
        if let Some(secs) = app::auth::throttle::retry_after_secs(&err) {
            parts.headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_22_url_safe_chars_and_differ() {
        let a = new_nonce();
        assert_eq!(a.len(), 22);
        assert!(
            a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{a}"
        );
        assert_ne!(a, new_nonce());
    }

    #[test]
    fn origins() {
        let site = SiteOrigin::from_public_url("https://Ledger.example.com/app");
        assert_eq!(site.public, "https://ledger.example.com");
        let mut h = HeaderMap::new();
        assert!(site.allows("https://ledger.example.com", &h));
        assert!(!site.allows("https://evil.example.com", &h));
        assert!(!site.allows("http://ledger.example.com", &h), "scheme matters");
        h.insert(header::HOST, HeaderValue::from_static("localhost:3000"));
        let local = SiteOrigin::from_public_url("http://127.0.0.1:3000");
        assert!(local.allows("http://localhost:3000", &h));
        assert!(!local.allows("http://localhost:3001", &h));
        h.insert(header::HOST, HeaderValue::from_static("rebound.example:3000"));
        assert!(
            !local.allows("http://rebound.example:3000", &h),
            "a non-loopback Host is no stand-in for the public URL"
        );
        assert_eq!(
            referer_origin("http://a.b:3000/x?y#z").as_deref(),
            Some("http://a.b:3000")
        );
    }

    #[test]
    fn loopback_names() {
        for host in [
            "localhost",
            "LOCALHOST:3000",
            "127.0.0.1",
            "127.8.9.10:80",
            "[::1]",
            "[::1]:3000",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in [
            "evil.example",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "10.0.0.1:3000",
            "[::2]",
            "0.0.0.0:3000",
            "",
        ] {
            assert!(!is_loopback(host), "{host}");
        }
    }

    #[test]
    fn served_hosts() {
        let site = SiteOrigin::from_public_url("https://Ledger.example.com");
        assert!(site.serves_host("ledger.example.com"));
        assert!(site.serves_host("ledger.EXAMPLE.com:443"));
        assert!(
            site.serves_host("127.0.0.1:3000"),
            "the proxy in front, or the operator"
        );
        assert!(!site.serves_host("rebound.example"));
        assert!(!site.serves_host("ledger.example.com.evil.example"));
    }
}
