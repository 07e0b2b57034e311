//! The reader's language in a page: the glue between the message catalogue
//! ([`nodeledger_messages`]) and Leptos (the request's headers on the server, `<html lang>` in
//! the browser, the locale in the page's context).

use leptos::prelude::*;

pub use nodeledger_messages::{LANG_COOKIE, Locale, Msg, figure, group, grouped};

#[cfg(not(feature = "ssr"))]
pub use nodeledger_messages::install_texts;

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

/// `view` rendered to HTML in `locale`, outside any page: what a server function answers for a
/// form's island to show (a bill's or a run's preview) in the reader's language.
#[cfg(feature = "ssr")]
pub fn markup_in<V: IntoView>(locale: Locale, view: impl FnOnce() -> V) -> String {
    Owner::new().with(|| {
        provide_context(locale);
        view().to_html()
    })
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

/// What a page with islands installs in the browser bundle, which has neither texts nor message
/// keys of its own: every message's key and its text in the page's language, in the order of
/// [`Msg::ALL`].
#[derive(serde::Serialize, serde::Deserialize)]
pub struct BrowserTexts {
    /// The keys (`nav.vendors`), in key order.
    pub keys: Vec<String>,
    /// The texts, in the same order.
    pub texts: Vec<String>,
}

/// Every message's key and text in `locale` ([`BrowserTexts`]), as JSON. With its address
/// (`/pkg/texts/<tag>.<hash>.json`: the hash of the content, 22 characters like cargo-leptos'
/// own, so the file is kept for a year like the bundle).
#[cfg(feature = "ssr")]
pub fn texts_for_browser(locale: Locale) -> &'static (String, String) {
    use sha2::{Digest, Sha256};
    use std::sync::OnceLock;
    static TEXTS: [OnceLock<(String, String)>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match locale {
        Locale::En => &TEXTS[0],
        Locale::ZhCn => &TEXTS[1],
    };
    slot.get_or_init(|| {
        let texts = BrowserTexts {
            keys: Msg::ALL.iter().map(|m| m.key().to_owned()).collect(),
            texts: Msg::ALL.iter().map(|m| locale.t(*m).to_owned()).collect(),
        };
        let json = serde_json::to_string(&texts).unwrap_or_else(|_| "{}".into());
        let hash = hex::encode(&Sha256::digest(json.as_bytes())[..11]);
        (format!("/pkg/texts/{}.{hash}.json", locale.tag()), json)
    })
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn the_browsers_texts_are_every_message_in_catalogue_order_at_an_address_of_their_content() {
        for locale in Locale::ALL {
            let (address, json) = texts_for_browser(locale);
            let BrowserTexts { keys, texts } = serde_json::from_str(json).expect("keys and texts");
            assert_eq!(texts.len(), Msg::ALL.len());
            assert_eq!(keys.len(), Msg::ALL.len());
            assert_eq!(texts[Msg::NavVendors as usize], locale.t(Msg::NavVendors));
            assert_eq!(keys[Msg::NavVendors as usize], Msg::NavVendors.key());
            assert!(
                keys.windows(2).all(|w| w[0] < w[1]),
                "in key order, as `from_key` searches"
            );
            let name = address.strip_prefix("/pkg/texts/").expect("under /pkg/texts");
            assert!(name.starts_with(locale.tag()) && name.ends_with(".json"), "{address}");
        }
        assert_ne!(texts_for_browser(Locale::En).0, texts_for_browser(Locale::ZhCn).0);
    }
}
