//! Which pages load the app's WASM: only those with an island.
//!
//! Every page is rendered on the server only (Leptos islands mode). What needs the browser —
//! live validation, the upload preview, in-place saves, the what-if inputs — is an `#[island]`:
//! a `<leptos-island>` element in the page, hydrated by the function of the same name that the
//! WASM bundle exports. Everything else (lists, records, print views, the header, the bell, the
//! menu) is plain HTML whose links and forms work without a script.
//!
//! So the page does not name the bundle in `<link>` hints; its one inline script (the page's CSP
//! nonce, `island_loader.js`) looks for an island once the document is parsed:
//! - none: the page is ready as sent and marks itself `<body data-hydrated="static">`; at idle
//!   it asks the browser to prefetch the bundle, so the next page with an island finds it
//!   cached;
//! - some: it fetches the JS glue and the WASM together, hydrates each island in document order
//!   and marks the page `data-hydrated="true"`.
//!
//! The same script turns every `<time datetime>` into the reader's time zone
//! ([`crate::components::local_time`]), on pages with and without islands, and saves the forms
//! marked `data-in-place` without leaving the page ([`IN_PLACE`]): a page whose only
//! interaction is such a form (a list with its add form, an edit form) needs no island.
//!
//! The marker is for people and for the browser tests, which wait for it before clicking.

use leptos::{nonce::use_nonce, prelude::*};

/// The loader: finds the islands, loads the bundle when there is one, hydrates them, marks the
/// page. Adapted from Leptos' own islands script (`leptos/src/hydration/island_script.js`,
/// MIT), which always loads the bundle.
const LOADER: &str = include_str!("island_loader.js");

/// Forms marked `data-in-place` post in the background and show the server's answer in the
/// page, keeping what was typed after an error: an edit or add form saves in place without an
/// island, so its page needs no WASM. Without a script the same form is an ordinary post.
const IN_PLACE: &str = include_str!("in_place.js");

/// "Next open item" on an order's checklist: the `N` key and its button move the focus to the
/// next item the server marked open.
const NEXT_OPEN: &str = include_str!("next_open.js");

/// Closed parts of a page (`<details data-lazy>`, e.g. a quote's cost breakdown) load from the
/// server when opened.
const CLOSED_PARTS: &str = include_str!("closed_parts.js");

/// The page's script in `<head>`: the island loader, given the bundle's two files.
#[component]
pub fn PageScripts(options: LeptosOptions) -> impl IntoView {
    // Islands mode: the page below renders without hydration data (no resource values written
    // into the page for a browser that will not hydrate it); each island turns it on for itself.
    if let Some(context) = Owner::current_shared_context() {
        context.set_is_hydrating(false);
    }
    let [js, wasm] = bundle_files(&options);
    let texts = texts_address();
    let call = format!("{IN_PLACE}\n{CLOSED_PARTS}\n{NEXT_OPEN}\n{LOADER}({js:?}, {wasm:?}, {texts:?});");
    view! { <script type="module" nonce=use_nonce()>{call}</script> }
}

/// The address of the page's language's texts, which the bundle (built without texts)
/// installs before the islands hydrate ([`crate::i18n::texts_for_browser`]).
fn texts_address() -> String {
    #[cfg(feature = "ssr")]
    {
        crate::i18n::texts_for_browser(crate::i18n::request_locale()).0.clone()
    }
    #[cfg(not(feature = "ssr"))]
    {
        String::new()
    }
}

/// The paths of the JS glue and the WASM bundle, named as cargo-leptos wrote them: with the
/// content hashes of `hash.txt` beside the server binary when the build hashes file names.
fn bundle_files(options: &LeptosOptions) -> [String; 2] {
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

/// The `/pkg` paths of the JS glue and the WASM bundle for a build whose `hash.txt` held
/// `hashes` (none: unhashed names).
fn bundle_paths(pkg_dir: &str, output: &str, hashes: &[(String, String)], bg: bool) -> [String; 2] {
    let hash = |file: &str| hashes.iter().find(|(f, _)| f == file).map(|(_, h)| h.as_str());
    let named = |file: &str, ext: &str| match hash(file) {
        Some(h) => format!("/{pkg_dir}/{output}.{h}.{ext}"),
        None if ext == "wasm" && bg => format!("/{pkg_dir}/{output}_bg.wasm"),
        None => format!("/{pkg_dir}/{output}.{ext}"),
    };
    [named("js", "js"), named("wasm", "wasm")]
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH_TXT: &str = "js: htbRfNqEe6R2Hj4VVqZtGg\nwasm: Bi_ErVCd7rH4dm52RMlvpQ\ncss: 7AzfiN_HByQyLpQyejx2ZA\n\
                            manifest: Xtt0QIfO6aJXLvDze6fHsA\nsplit: otqKeT12W-HdNucg7dQmUw\n";

    #[test]
    fn a_hashed_build_names_the_glue_and_the_bundle_by_their_hashes() {
        assert_eq!(
            bundle_paths("pkg", "nodeledger", &parse_hashes(HASH_TXT), false),
            [
                "/pkg/nodeledger.htbRfNqEe6R2Hj4VVqZtGg.js",
                "/pkg/nodeledger.Bi_ErVCd7rH4dm52RMlvpQ.wasm",
            ]
        );
    }

    #[test]
    fn an_unhashed_build_uses_the_plain_names() {
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
