//! NodeLedger: a procurement desk for renting GPU compute nodes.
//!
//! - [`domain`]: the pure core, its own crate (`nodeledger-domain`, in `app/domain/`): no I/O,
//!   no web framework, shared by server and browser.
//! - [`store`] (server only): every SQL statement, one module per table.
//! - [`services`] (server only): use cases shared by pages, routes and the API.
//! - [`auth`] (server only): password hashing, the signed-in caller, permission checks.
//! - [`pages`]: one module per page, with its server functions beside it.
//! - [`components`]: pieces shared by pages (header, session, guards, `<Loaded>`, forms).
//! - [`cookies`] (server only): reading the cookies a request carries.
//! - [`views`]: the records server functions send to pages.
//! - [`charts`] (server only): plotters SVG charts.
//! - [`i18n`] and [`texts`]: the message catalogue, and domain values worded with it.

// The cost comparison's view (two ranked tables, per-quote details, charts) is one deeply
// nested type; computing its layout for the hydrate build needs more than the default 128.
#![recursion_limit = "256"]

pub mod app;
#[cfg(feature = "ssr")]
pub mod auth;
#[cfg(feature = "ssr")]
pub mod charts;
#[cfg(feature = "ssr")]
pub mod clock;
pub mod components;
#[cfg(feature = "ssr")]
pub mod cookies;
pub use nodeledger_domain as domain;
pub mod error;
pub mod i18n;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod services;
#[cfg(feature = "ssr")]
pub mod store;
pub mod texts;
pub mod views;

pub use app::{App, shell};

/// Browser entry point, called once before the page's islands hydrate (each `#[island]` is its
/// own exported function, called by the loader in [`components::page_scripts`]): sets up the
/// reactive root the islands share and gives them the page's language, read from `<html lang>`,
/// and its `texts` (every message's key and its text in that language, JSON, from
/// [`i18n::texts_for_browser`]).
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate(texts: String) {
    console_error_panic_hook::set_once();
    // The bundle has no texts of its own: the page's language's, fetched beside it.
    let installed =
        serde_json::from_str::<i18n::BrowserTexts>(&texts).is_ok_and(|t| i18n::install_texts(t.keys, t.texts));
    if !installed {
        leptos::logging::warn!("the page's texts did not match this build: messages are empty");
    }
    leptos::mount::hydrate_islands();
    leptos::prelude::provide_context(i18n::locale_from_document());
    // An island that sets the page's title (a record's name, known once it is loaded).
    leptos_meta::provide_meta_context();
}
