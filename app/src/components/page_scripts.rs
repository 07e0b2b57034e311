//! Which pages load the app's WASM (issue 14, first load).
//!
//! Every page is rendered on the server; nearly all then load the WASM bundle and hydrate. The
//! sign-in page for a browser that has no session yet does not: it is one form, and the form
//! works as a plain post ([`crate::pages::login`]). Instead of the hydration scripts it names the
//! bundle in `<link rel="prefetch">` hints, which the browser fetches at idle priority while
//! the user types; the page after signing in then takes the bundle from the cache. So the first
//! page of a cold visit is usable as soon as its HTML and CSS are in, on any link.
//!
//! The page marks itself as ready for people and for the browser tests with
//! `<body data-hydrated>`: `"true"` once hydrated (set by the root component), `"static"` when
//! it is sent without WASM (set here, by the server).

use leptos::prelude::*;

/// The value of `<body data-hydrated>` on a page sent without WASM.
pub const STATIC_MARK: &str = "static";

/// Whether this request gets its page without the WASM bundle: the sign-in page, asked for
/// without a session cookie. A browser with one (a sign-in waiting for its second step, a
/// session that timed out) gets the hydrated page as before.
pub fn without_wasm() -> bool {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .is_some_and(|parts| parts.uri.path() == "/login" && !crate::auth::carries_session_cookie(&parts.headers))
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
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

    #[test]
    fn blank_and_broken_lines_of_the_hash_file_are_skipped() {
        assert_eq!(
            parse_hashes("js: a\n\nno colon\nwasm:\n: b\n"),
            [("js".to_string(), "a".to_string())]
        );
    }
}
