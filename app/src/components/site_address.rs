//! The site's public address (`--public-url`, as the mails use it), for what a page shows to be
//! copied elsewhere: the `curl` line of a new API token, a vendor's link.

use leptos::prelude::*;

/// The site's public address, without a trailing slash (the server provides it to every page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteAddress(pub String);

/// The site's public address; the address the server listens on in a test without one.
pub fn site_address() -> String {
    use_context::<SiteAddress>().map_or_else(|| "http://127.0.0.1:3000".to_owned(), |a| a.0)
}
