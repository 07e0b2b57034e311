//! Static files and compression: hashed `/pkg` files are kept a year
//! and sent precompressed in the encoding the browser accepts; other static files briefly;
//! pages are compressed on the fly and never stored.

#![expect(clippy::unwrap_used, reason = "test helpers fail the test by panicking")]

use crate::common;

use axum::body::Body;
use common::TestApp;
use http::{Request, StatusCode, header};
use server::config::ServeConfig;
use std::{path::PathBuf, time::Duration};

const WASM: &str = "/pkg/nodeledger.kT3tLwq0DW6E0b5v1mYQ-A.wasm";

/// A built site the way `cargo leptos build --release --precompress` leaves it: a hashed WASM
/// file with its brotli and gzip twins (contents told apart by their first bytes), an unhashed
/// file, and a public icon.
fn site() -> PathBuf {
    let root = std::env::temp_dir().join(format!("nl-site-{}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    let wasm = root.join(WASM.trim_start_matches('/'));
    std::fs::write(&wasm, b"\0asm plain ".repeat(100)).unwrap();
    std::fs::write(wasm.with_extension("wasm.br"), b"brotli bytes").unwrap();
    std::fs::write(wasm.with_extension("wasm.gz"), b"gzip bytes").unwrap();
    std::fs::write(root.join("pkg/unhashed.js"), b"export {};").unwrap();
    std::fs::write(root.join("favicon.svg"), b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>").unwrap();
    root
}

fn rand_suffix() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

async fn app_over(root: &std::path::Path) -> TestApp {
    let cfg = ServeConfig {
        site_root: root.to_path_buf(),
        ..ServeConfig::for_tests()
    };
    TestApp::with_config(Duration::from_secs(12 * 3600), &cfg).await
}

/// GETs `path` with `Accept-Encoding: accept` (none when empty): status, headers, body bytes.
async fn fetch(app: &TestApp, path: &str, accept: &str) -> (StatusCode, http::HeaderMap, Vec<u8>) {
    let mut req = Request::get(path);
    if !accept.is_empty() {
        req = req.header(header::ACCEPT_ENCODING, accept);
    }
    // Through the harness: a page that stalls (Leptos' rare streaming race) is sent again.
    let (status, headers, body) = app.send_for_bytes(req.body(Body::empty()).unwrap()).await;
    (status, headers, body.to_vec())
}

#[tokio::test]
async fn hashed_pkg_files_are_immutable_and_sent_in_the_encoding_the_browser_accepts() {
    let root = site();
    let app = app_over(&root).await;
    let (status, h, body) = fetch(&app, WASM, "gzip, deflate, br, zstd").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CONTENT_ENCODING], "br");
    assert_eq!(body, b"brotli bytes", "the file brotli-compressed at build time");
    assert_eq!(h[header::CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert_eq!(h[header::CONTENT_TYPE], "application/wasm");
    assert!(
        h.get_all(header::VARY)
            .iter()
            .any(|v| v.to_str().unwrap().to_ascii_lowercase().contains("accept-encoding")),
        "caches keep one copy per encoding: {h:?}"
    );

    let (_, h, body) = fetch(&app, WASM, "gzip").await;
    assert_eq!(h[header::CONTENT_ENCODING], "gzip");
    assert_eq!(body, b"gzip bytes");

    let (status, h, body) = fetch(&app, WASM, "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(h.get(header::CONTENT_ENCODING).is_none(), "identity: {h:?}");
    assert_eq!(
        body,
        b"\0asm plain ".repeat(100),
        "the file itself, not compressed per request"
    );
    assert_eq!(h[header::CACHE_CONTROL], "public, max-age=31536000, immutable");
    std::fs::remove_dir_all(root).unwrap();
}

#[tokio::test]
async fn unhashed_and_missing_static_files_are_not_kept_long() {
    let root = site();
    let app = app_over(&root).await;
    let (status, h, _) = fetch(&app, "/pkg/unhashed.js", "br").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        h[header::CACHE_CONTROL],
        "no-cache",
        "revalidated: an old build's JS never meets new WASM"
    );
    assert!(
        h.get(header::CONTENT_ENCODING).is_none(),
        "static files are never compressed per request"
    );

    let (status, h, _) = fetch(&app, "/favicon.svg", "br").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CACHE_CONTROL], "public, max-age=3600");

    let (status, h, _) = fetch(&app, "/pkg/nodeledger.AAAAAAAAAAAAAAAAAAAAAA.wasm", "br").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        h[header::CACHE_CONTROL],
        "no-cache",
        "a missing file is not cached a year"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[tokio::test]
async fn pages_are_compressed_on_the_fly_and_never_stored() {
    let app = TestApp::new().await;
    let (status, plain_h, plain) = fetch(&app, "/login", "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(plain_h.get(header::CONTENT_ENCODING).is_none());
    for (accept, encoding) in [("gzip, deflate, br", "br"), ("gzip", "gzip")] {
        let (status, h, body) = fetch(&app, "/login", accept).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(h[header::CONTENT_ENCODING], encoding, "{accept}");
        assert_eq!(h[header::CACHE_CONTROL], "no-store", "{accept}");
        // Smaller, not "half": the sign-in page is 2.4 KB before `cargo leptos build` writes the
        // site's hashed file names into it, 6 KB after.
        assert!(
            body.len() < plain.len(),
            "{encoding}: {} of {} bytes",
            body.len(),
            plain.len()
        );
    }
}
