//! Static files: how the built site's `/pkg` files are served, how long
//! browsers keep them, and the compression of everything else.
//!
//! - cargo-leptos builds with `hash-files = true`: every file in `/pkg` (WASM, JS, CSS, split
//!   chunks) carries the MD5 of its content in its name (`nodeledger.<22 base64url chars>.wasm`)
//!   and writes the hashes to `hash.txt` beside the server binary, where Leptos'
//!   the page's script loader (`app::components::page_scripts`) and `<HashedStylesheet>` read them. A hashed name never changes
//!   content, so it is cached for a year, `immutable`: a second visit downloads no WASM, JS or
//!   CSS at all. Anything else static (the icon, an unhashed file) is kept for a short while.
//! - `/pkg` files are sent precompressed: `cargo leptos build --release --precompress` writes
//!   `x.br` and `x.gz` next to each file, and [`ServeDir`] sends the one the browser accepts
//!   (brotli first, then gzip, else the file itself). Nothing is compressed per request here.
//! - Pages, server-function answers and charts are compressed on the fly ([`compression`]):
//!   brotli or gzip at quality [`DYNAMIC_QUALITY`], fast enough for a page on every request.

use axum::Router;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use std::path::{Path, PathBuf};
use tower_http::{
    compression::{CompressionLayer, CompressionLevel, predicate::Predicate},
    services::ServeDir,
    set_header::SetResponseHeaderLayer,
};

/// `Cache-Control` of a file whose name holds its content hash.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` of other public files (the icon): an hour, then asked again.
pub const SHORT: &str = "public, max-age=3600";

/// `Cache-Control` of an unhashed `/pkg` file (a build without `hash-files`): asked again every
/// time (answered `304 Not Modified` when unchanged), so a new build's JS never meets an old
/// build's WASM.
pub const REVALIDATE: &str = "no-cache";

/// Quality of on-the-fly compression (brotli and gzip): 4 compresses a 100 KB page in about a
/// millisecond to within ~10 % of the best brotli, where quality 11 takes 100× longer.
pub const DYNAMIC_QUALITY: i32 = 4;

/// Length of cargo-leptos' content hash in a file name: MD5, base64url without padding.
const HASH_LEN: usize = 22;

/// Whether a file name carries a cargo-leptos content hash: one dot-separated part of
/// [`HASH_LEN`] base64url characters before the extension (`nodeledger.<hash>.wasm`,
/// `__wasm_split.<hash>.js`).
pub fn is_hashed_name(name: &str) -> bool {
    let mut parts: Vec<&str> = name.split('.').collect();
    parts.pop();
    parts
        .iter()
        .skip(1)
        .any(|p| p.len() == HASH_LEN && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
}

/// The `Cache-Control` of a static file's answer (`path` is the request path; see
/// `security::is_static_asset`): hashed `/pkg` names for a year, other `/pkg` files revalidated,
/// other public files an hour. An error answer (a missing file) is never kept.
pub fn cache_control(path: &str, status: StatusCode) -> &'static str {
    if !status.is_success() && status != StatusCode::NOT_MODIFIED {
        return REVALIDATE;
    }
    match path.strip_prefix("/pkg/") {
        Some(rest) if rest.rsplit('/').next().is_some_and(is_hashed_name) => IMMUTABLE,
        Some(_) => REVALIDATE,
        None => SHORT,
    }
}

/// The hash file cargo-leptos writes beside the server binary when it builds with
/// `hash-files = true` (where Leptos looks for it), if there is one. Without it the site is
/// unhashed (a plain `cargo build`, the router tests) and the pages name `/pkg/nodeledger.*`.
pub fn hash_file() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let file = exe.parent()?.join("hash.txt");
    file.is_file().then_some(file)
}

/// `/pkg`: the build's files from `<site root>/pkg`, their `.br`/`.gz` twins sent to browsers
/// that accept them. A missing file is a plain 404 (no page around it).
pub fn pkg_router<S: Clone + Send + Sync + 'static>(site_root: &Path) -> Router<S> {
    let dir = ServeDir::new(site_root.join("pkg"))
        .precompressed_br()
        .precompressed_gzip();
    // The answer depends on `Accept-Encoding`: a shared cache must keep one copy per encoding.
    let vary = SetResponseHeaderLayer::appending(header::VARY, HeaderValue::from_static("accept-encoding"));
    Router::new().nest_service("/pkg", tower::ServiceBuilder::new().layer(vary).service(dir))
}

/// Which answers are compressed on the fly: text the server makes per request (pages, JSON,
/// CSV, SVG charts, plain-text errors) above 256 bytes, never an answer that is already encoded
/// or a static file (those are precompressed or small).
#[derive(Clone, Copy, Debug, Default)]
pub struct DynamicText;

impl Predicate for DynamicText {
    fn should_compress<B>(&self, response: &http::Response<B>) -> bool
    where
        B: http_body::Body,
    {
        is_dynamic_text(response.headers())
    }
}

/// [`DynamicText`]'s rule on a response's head.
fn is_dynamic_text(headers: &HeaderMap) -> bool {
    const TYPES: [&str; 5] = [
        "text/html",
        "application/json",
        "text/csv",
        "image/svg+xml",
        "text/plain",
    ];
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let big_enough = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_none_or(|len| len > 256);
    let cached = headers
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v.as_bytes().starts_with(b"public"));
    big_enough && !cached && TYPES.iter().any(|t| content_type.starts_with(t))
}

/// On-the-fly brotli (preferred) or gzip for [`DynamicText`] answers, at [`DYNAMIC_QUALITY`].
pub fn compression() -> CompressionLayer<DynamicText> {
    CompressionLayer::new()
        .br(true)
        .gzip(true)
        .quality(CompressionLevel::Precise(DYNAMIC_QUALITY))
        .compress_when(DynamicText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names_are_recognised_by_their_22_character_part() {
        assert!(is_hashed_name("nodeledger.kT3tLwq0DW6E0b5v1mYQ-A.wasm"));
        assert!(is_hashed_name("nodeledger.kT3tLwq0DW6E0b5v1mYQ_A.css"));
        assert!(is_hashed_name("__wasm_split.kT3tLwq0DW6E0b5v1mYQ-A.js"));
        assert!(!is_hashed_name("nodeledger.wasm"));
        assert!(!is_hashed_name("nodeledger_bg.wasm"));
        assert!(
            !is_hashed_name("kT3tLwq0DW6E0b5v1mYQ-A.wasm"),
            "the stem alone is a name, not a hash"
        );
        assert!(!is_hashed_name("nodeledger.kT3tLwq0DW6E0b5v1mYQ+A.js"), "not base64url");
        assert!(!is_hashed_name("nodeledger.short.js"));
    }

    #[test]
    fn hashed_files_are_kept_a_year_others_briefly_errors_never() {
        let ok = StatusCode::OK;
        assert_eq!(
            cache_control("/pkg/nodeledger.kT3tLwq0DW6E0b5v1mYQ-A.wasm", ok),
            IMMUTABLE
        );
        assert_eq!(cache_control("/pkg/nodeledger.wasm", ok), REVALIDATE);
        assert_eq!(cache_control("/favicon.svg", ok), SHORT);
        assert_eq!(
            cache_control("/pkg/nodeledger.kT3tLwq0DW6E0b5v1mYQ-A.wasm", StatusCode::NOT_FOUND),
            REVALIDATE
        );
    }

    #[test]
    fn only_dynamic_text_is_compressed_on_the_fly() {
        let head = |ty: &str, extra: Option<(header::HeaderName, &'static str)>| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_str(ty).unwrap());
            if let Some((name, value)) = extra {
                h.insert(name, HeaderValue::from_static(value));
            }
            is_dynamic_text(&h)
        };
        assert!(head("text/html; charset=utf-8", None));
        assert!(head("application/json", None));
        assert!(head("image/svg+xml", None));
        assert!(!head("application/wasm", None));
        assert!(!head("text/javascript", None));
        assert!(
            !head("text/html", Some((header::CONTENT_LENGTH, "100"))),
            "too small to gain"
        );
        assert!(
            !head("image/svg+xml", Some((header::CACHE_CONTROL, SHORT))),
            "a static file"
        );
    }
}
