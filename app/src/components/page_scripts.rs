//! Which pages load the app's WASM.
//!
//! Every page is rendered on the server; nearly all then load the WASM bundle and hydrate. Two
//! first pages do not, when the browser cannot have the bundle yet:
//! - the sign-in page for a browser without a session: one form, which works as a plain post
//!   ([`crate::pages::login`]);
//! - the dashboard for a browser that has not loaded this build's bundle: links, the team switch
//!   and sign-out (plain posts), the menu (`<details>`) and the bell (rendered on the server in a
//!   `<details>`, [`crate::components::notifications`]) all work without it.
//!
//! And one page never does: a vendor's bid page (`/bid/…`, [`crate::pages::requests::bid`]),
//! plain forms for a visitor without an account.
//!
//! Instead of the hydration scripts such a page names the bundle in `<link rel="prefetch">`
//! hints, which the browser fetches at idle priority while the user reads or types; the next
//! page then takes the bundle from the cache. So the first page of a cold visit is usable as soon
//! as its HTML and CSS are in, on any link.
//!
//! Whether a browser has the bundle: every page sent *with* the hydration scripts also sets the
//! cookie [`BUNDLE_COOKIE`] to the bundle's content hash (once, when it differs), so a browser
//! that shows it has been given this build's bundle to load and keeps it (immutable, a year).
//! A new build has a new hash: the first dashboard after an update is sent without WASM again.
//!
//! The page marks itself as ready for people and for the browser tests with
//! `<body data-hydrated>`: `"true"` once hydrated (set by the root component), `"static"` when
//! it is sent without WASM (set here, by the server).

use leptos::prelude::*;

/// The value of `<body data-hydrated>` on a page sent without WASM.
pub const STATIC_MARK: &str = "static";

/// The cookie that names the bundle this browser was last sent (its content hash; `dev` for an
/// unhashed build). Not a secret and not personal: it only decides whether the dashboard is
/// sent with or without WASM.
pub const BUNDLE_COOKIE: &str = "nl_bundle";

/// The bundle id of a build without hashed file names (a debug build, the router tests).
#[cfg(feature = "ssr")]
const UNHASHED_BUNDLE: &str = "dev";

/// How long the browser keeps [`BUNDLE_COOKIE`]: as long as it keeps the bundle (a year).
#[cfg(any(feature = "ssr", test))]
const BUNDLE_COOKIE_MAX_AGE: u32 = 31_536_000;

/// Whether this request gets its page without the WASM bundle: the sign-in page asked for
/// without a session cookie, the dashboard asked for by a browser whose bundle cookie does
/// not name this build's bundle, or a vendor's bid page. A browser with a session cookie on the sign-in page (a sign-in
/// waiting for its second step, a session that timed out) gets the hydrated page as before.
pub fn without_wasm() -> bool {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>().is_some_and(|parts| {
            let bundle = use_context::<LeptosOptions>().map(|o| bundle_id(&o));
            sent_without_wasm(parts.uri.path(), &parts.headers, bundle.unwrap_or(UNHASHED_BUNDLE))
        })
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
}

/// The rule of [`without_wasm`] for a request to `path` with `headers`, when the current
/// bundle is `bundle`.
#[cfg(feature = "ssr")]
fn sent_without_wasm(path: &str, headers: &http::HeaderMap, bundle: &str) -> bool {
    match path {
        "/login" => !crate::auth::carries_session_cookie(headers),
        "/" => crate::cookies::request_cookie(headers, BUNDLE_COOKIE) != Some(bundle),
        // A vendor's bid page: plain forms, no account, nothing to hydrate.
        _ if path.starts_with("/bid/") => true,
        _ => false,
    }
}

/// The id of the current bundle: the main WASM's content hash, or [`UNHASHED_BUNDLE`].
#[cfg(feature = "ssr")]
fn bundle_id(options: &LeptosOptions) -> &'static str {
    let hashes = if options.hash_files { read_hashes(options) } else { &[] };
    hashes
        .iter()
        .find(|(file, _)| file == "wasm")
        .map_or(UNHASHED_BUNDLE, |(_, hash)| hash.as_str())
}

/// Sets [`BUNDLE_COOKIE`] on this answer when the browser's does not name the bundle the page
/// loads (a page sent with the hydration scripts).
fn remember_bundle(options: &LeptosOptions) {
    #[cfg(feature = "ssr")]
    {
        let bundle = bundle_id(options);
        let Some(parts) = use_context::<http::request::Parts>() else {
            return;
        };
        if crate::cookies::request_cookie(&parts.headers, BUNDLE_COOKIE) == Some(bundle) {
            return;
        }
        let secure = use_context::<crate::cookies::SecureCookies>().unwrap_or_default().0;
        let value = bundle_cookie(bundle, secure);
        if let (Some(response), Ok(value)) = (
            use_context::<leptos_axum::ResponseOptions>(),
            http::HeaderValue::from_str(&value),
        ) {
            response.append_header(http::header::SET_COOKIE, value);
        }
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = options;
    }
}

/// The `Set-Cookie` value for [`BUNDLE_COOKIE`]: the whole site, a year, not sent cross-site,
/// out of reach of scripts.
#[cfg(any(feature = "ssr", test))]
fn bundle_cookie(bundle: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{BUNDLE_COOKIE}={bundle}; Path=/; Max-Age={BUNDLE_COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly{secure}")
}

/// The scripts of the page in `<head>`: Leptos' hydration scripts, or, for a page sent without
/// WASM, prefetch hints for the same files.
#[component]
pub fn PageScripts(options: LeptosOptions) -> impl IntoView {
    if without_wasm() {
        let links = bundle_files(&options)
            .into_iter()
            .map(|href| view! { <link rel="prefetch" href=href crossorigin="anonymous" /> })
            .collect_view();
        links.into_any()
    } else {
        remember_bundle(&options);
        view! { <HydrationScripts options /> }.into_any()
    }
}

/// The paths of the files a hydrating page loads first: the JS glue, the main WASM bundle and,
/// in a split build, the chunk loader. Named as `<HydrationScripts>` names them: with the
/// content hashes of `hash.txt` beside the server binary when the build hashes file names.
fn bundle_files(options: &LeptosOptions) -> Vec<String> {
    let hashes = if options.hash_files { read_hashes(options) } else { &[] };
    bundle_paths(&options.site_pkg_dir, &options.output_name, hashes, unhashed_bg())
}

/// `hash.txt` as `(file, hash)` pairs (`js: <hash>` lines), read once.
fn read_hashes(options: &LeptosOptions) -> &'static [(String, String)] {
    #[cfg(feature = "ssr")]
    {
        static HASHES: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
        HASHES.get_or_init(|| {
            let path = std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(|dir| dir.join(options.hash_file.as_ref())));
            path.and_then(|p| std::fs::read_to_string(p).ok())
                .map(|text| parse_hashes(&text))
                .unwrap_or_default()
        })
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = options;
        &[]
    }
}

/// Whether an unhashed build names its WASM `<output>_bg.wasm` (wasm-bindgen's name, when
/// cargo-leptos did not build the server), as `<HydrationScripts>` decides.
fn unhashed_bg() -> bool {
    option_env!("LEPTOS_OUTPUT_NAME").is_none()
}

/// Parses `hash.txt`: one `file: hash` per line.
#[cfg(any(feature = "ssr", test))]
fn parse_hashes(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(file, hash)| (file.trim().to_string(), hash.trim().to_string()))
        .filter(|(file, hash)| !file.is_empty() && !hash.is_empty())
        .collect()
}

/// The `/pkg` paths of the JS glue, the main bundle and (when `hashes` names it) the split
/// loader, for a build whose `hash.txt` held `hashes` (none: unhashed names).
fn bundle_paths(pkg_dir: &str, output: &str, hashes: &[(String, String)], bg: bool) -> Vec<String> {
    let hash = |file: &str| hashes.iter().find(|(f, _)| f == file).map(|(_, h)| h.as_str());
    let named = |file: &str, ext: &str| match hash(file) {
        Some(h) => format!("/{pkg_dir}/{output}.{h}.{ext}"),
        None if ext == "wasm" && bg => format!("/{pkg_dir}/{output}_bg.wasm"),
        None => format!("/{pkg_dir}/{output}.{ext}"),
    };
    let mut paths = vec![named("js", "js"), named("wasm", "wasm")];
    if let Some(h) = hash("split") {
        paths.push(format!("/{pkg_dir}/__wasm_split.{h}.js"));
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH_TXT: &str = "js: htbRfNqEe6R2Hj4VVqZtGg\nwasm: Bi_ErVCd7rH4dm52RMlvpQ\ncss: 7AzfiN_HByQyLpQyejx2ZA\n\
                            manifest: Xtt0QIfO6aJXLvDze6fHsA\nsplit: otqKeT12W-HdNucg7dQmUw\n";

    #[test]
    fn a_hashed_split_build_prefetches_the_glue_the_bundle_and_the_chunk_loader() {
        assert_eq!(
            bundle_paths("pkg", "nodeledger", &parse_hashes(HASH_TXT), false),
            [
                "/pkg/nodeledger.htbRfNqEe6R2Hj4VVqZtGg.js",
                "/pkg/nodeledger.Bi_ErVCd7rH4dm52RMlvpQ.wasm",
                "/pkg/__wasm_split.otqKeT12W-HdNucg7dQmUw.js",
            ]
        );
    }

    #[test]
    fn an_unhashed_build_prefetches_the_plain_names() {
        assert_eq!(
            bundle_paths("pkg", "nodeledger", &[], false),
            ["/pkg/nodeledger.js", "/pkg/nodeledger.wasm"]
        );
        assert_eq!(
            bundle_paths("pkg", "nodeledger", &[], true),
            ["/pkg/nodeledger.js", "/pkg/nodeledger_bg.wasm"]
        );
    }

    #[cfg(feature = "ssr")]
    fn headers(cookies: &[&str]) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        for c in cookies {
            headers.append(http::header::COOKIE, http::HeaderValue::from_str(c).unwrap());
        }
        headers
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_sign_in_page_goes_without_wasm_to_a_browser_without_a_session() {
        assert!(sent_without_wasm("/login", &headers(&[]), "h1"));
        assert!(sent_without_wasm("/login", &headers(&["nl_bundle=h1; lang=en"]), "h1"));
        assert!(!sent_without_wasm("/login", &headers(&["nl_session=x"]), "h1"));
        assert!(!sent_without_wasm("/login", &headers(&["__Host-nl_session=x"]), "h1"));
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_dashboard_goes_without_wasm_unless_the_browser_was_sent_this_bundle() {
        assert!(sent_without_wasm("/", &headers(&["nl_session=x"]), "h1"));
        assert!(
            sent_without_wasm("/", &headers(&["nl_session=x; nl_bundle=h0"]), "h1"),
            "an older build's"
        );
        assert!(
            sent_without_wasm("/", &headers(&["nl_bundle_old=h1"]), "h1"),
            "only the exact name"
        );
        assert!(!sent_without_wasm("/", &headers(&["nl_session=x; nl_bundle=h1"]), "h1"));
        assert!(
            !sent_without_wasm("/", &headers(&["nl_session=x", "nl_bundle = h1 "]), "h1"),
            "any header, spaces"
        );
        // Every other page hydrates, whatever the cookies.
        for path in ["/quotes", "/orders/1", "/login/", "/setup"] {
            assert!(!sent_without_wasm(path, &headers(&[]), "h1"), "{path}");
        }
    }

    #[test]
    fn the_bundle_cookie_lasts_as_long_as_the_bundle_and_stays_on_this_site() {
        assert_eq!(
            bundle_cookie("Bi_ErVCd7rH4dm52RMlvpQ", false),
            "nl_bundle=Bi_ErVCd7rH4dm52RMlvpQ; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly"
        );
        assert!(bundle_cookie("h", true).ends_with("; HttpOnly; Secure"));
    }

    #[test]
    fn blank_and_broken_lines_of_the_hash_file_are_skipped() {
        assert_eq!(
            parse_hashes("js: a\n\nno colon\nwasm:\n: b\n"),
            [("js".to_string(), "a".to_string())]
        );
    }
}
