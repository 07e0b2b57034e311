//! The reader's language in a page: the glue between the message catalogue
//! ([`nodeledger_messages`]) and Leptos (the request's headers on the server, `<html lang>` in
//! the browser, the locale in the page's context).

use leptos::prelude::*;

pub use nodeledger_messages::{LANG_COOKIE, Locale, Msg, figure, group, grouped};

/// The language of this request (server) or of the rendered page (browser).
pub fn request_locale() -> Locale {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .map(|p| locale_from_headers(&p.headers))
            .unwrap_or_default()
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        locale_from_document()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Locale::default()
    }
}

/// The language of the current page, provided by [`crate::App`].
pub fn use_locale() -> Locale {
    use_context::<Locale>().unwrap_or_default()
}

/// Shorthand: the text of `msg` in the current page's language.
pub fn t(msg: Msg) -> &'static str {
    use_locale().t(msg)
}

/// The language for this request: the cookie if set, else `Accept-Language`.
#[cfg(feature = "ssr")]
pub fn locale_from_headers(headers: &http::HeaderMap) -> Locale {
    let from_cookie = crate::cookies::request_cookie(headers, LANG_COOKIE).and_then(Locale::from_tag);
    from_cookie.unwrap_or_else(|| {
        headers
            .get(http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map_or(Locale::En, Locale::negotiate)
    })
}

/// The language the server rendered the page in, read from `<html lang>` during hydration.
#[cfg(feature = "hydrate")]
pub fn locale_from_document() -> Locale {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|tag| Locale::from_tag(&tag))
        .unwrap_or_default()
}
