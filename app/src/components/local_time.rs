//! People's times in their own time zone.
//!
//! The server stores and sends every moment in UTC (RFC 3339, `2026-11-03T10:00:00Z`) and knows
//! no reader's zone; the browser does. So a moment is rendered as UTC text
//! (`2026-11-03 10:00 UTC`, [`crate::texts::moment`]) in a `<time data-moment>`, which says
//! which zone it shows when no script runs; the page's script
//! ([`crate::components::page_scripts`]) then words it in the browser's zone, with the offset
//! said (`2026-11-03 18:00 UTC+8`); the UTC text stays in the tooltip. Pages with and without
//! islands alike: the conversion needs no WASM.
//!
//! Moments inside sentences the server words (an order's history, a bill's import line) stay in
//! UTC, labelled so.

use crate::texts::moment;
use leptos::prelude::*;

/// A stored moment (`at`, RFC 3339 UTC), in the reader's time zone once the page's script ran
/// (see the module). Text that is not such a moment is shown as it is.
#[component]
pub fn Moment(#[prop(into)] at: String) -> impl IntoView {
    let utc = moment(&at);
    let is_moment = utc != at;
    let title = utc.clone();
    view! { <time datetime=at title=title data-moment=is_moment.then_some("")>{utc}</time> }
}
