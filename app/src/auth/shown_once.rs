//! What a form shows once after it saved — a new API token, a vendor's new link — when it was
//! posted as a page (the page's script or no script at all) and the answer is the page it was
//! posted from. The value is kept in the session, never in an address (logs, history and the
//! `Referer` of the next click would keep it), and shown by the one page load the post goes
//! back to; the next page load drops it, a reload of that page included.

use serde::{Deserialize, Serialize};
use tower_sessions::Session;

/// The session key of what waits to be shown.
pub const SESSION_KEY: &str = "shown_once";

/// A value waiting for the page that shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShownOnce {
    /// The path of the server function that made it: the form that shows it.
    pub form: String,
    /// The address (path and query) of the page load that shows it.
    pub page: String,
    /// What to show.
    pub value: serde_json::Value,
    /// Whether that page load happened.
    pub seen: bool,
}

/// What a page load does with a kept value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnPageLoad {
    /// The page it waits for: show it, and mark it seen.
    Show,
    /// Any other page load, or that page again: it is gone.
    Drop,
}

impl ShownOnce {
    /// What the load of `page` (path and query) does with this value.
    pub fn on_page_load(&self, page: &str) -> OnPageLoad {
        if !self.seen && self.page == page {
            OnPageLoad::Show
        } else {
            OnPageLoad::Drop
        }
    }
}

/// Whether a request is a page load: a `GET` asking for HTML (a navigation, or the page's
/// script following a saved form's answer). A script's or the browser's other requests
/// (bundles, prefetches, data) leave the value alone, so one in flight meanwhile does not
/// take it from the page it waits for.
pub fn is_page_load(method: &http::Method, headers: &http::HeaderMap) -> bool {
    method == http::Method::GET
        && headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
}

/// Keeps `value` for the load of `page`, made by `form`.
pub async fn keep<T: Serialize>(
    session: &Session,
    form: &str,
    page: &str,
    value: &T,
) -> Result<(), crate::error::AppError> {
    let value = serde_json::to_value(value).map_err(|e| {
        tracing::error!(error = %e, "cannot keep a value to show once");
        crate::error::AppError::Internal
    })?;
    let kept = ShownOnce {
        form: form.to_owned(),
        page: page.to_owned(),
        value,
        seen: false,
    };
    session.insert(SESSION_KEY, kept).await.map_err(|e| {
        tracing::error!(error = %e, "cannot keep a value to show once in the session");
        crate::error::AppError::Internal
    })
}

/// On a page load: the value this load shows (marked seen in the session), if any; a value
/// waiting for another page is dropped. A session that cannot be read shows nothing.
pub async fn take_for_page(session: &Session, page: &str) -> Option<ShownOnce> {
    let kept = session.get::<ShownOnce>(SESSION_KEY).await.ok().flatten()?;
    match kept.on_page_load(page) {
        OnPageLoad::Show => {
            let seen = ShownOnce {
                seen: true,
                ..kept.clone()
            };
            if let Err(e) = session.insert(SESSION_KEY, seen).await {
                tracing::warn!(error = %e, "cannot mark a value shown");
            }
            Some(kept)
        }
        OnPageLoad::Drop => {
            if let Err(e) = session.remove::<ShownOnce>(SESSION_KEY).await {
                tracing::warn!(error = %e, "cannot drop a value shown once");
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(seen: bool) -> ShownOnce {
        ShownOnce {
            form: "/api/tokens/create".into(),
            page: "/account/tokens?saved=/api/tokens/create".into(),
            value: serde_json::json!("nlt_x"),
            seen,
        }
    }

    #[test]
    fn only_the_page_the_post_went_back_to_shows_it_and_only_once() {
        let page = "/account/tokens?saved=/api/tokens/create";
        assert_eq!(kept(false).on_page_load(page), OnPageLoad::Show);
        assert_eq!(
            kept(true).on_page_load(page),
            OnPageLoad::Drop,
            "a reload shows it no more"
        );
        assert_eq!(kept(false).on_page_load("/account/tokens"), OnPageLoad::Drop);
        assert_eq!(kept(false).on_page_load("/"), OnPageLoad::Drop);
    }

    #[test]
    fn a_page_load_is_a_get_for_html() {
        let mut html = http::HeaderMap::new();
        html.insert(
            http::header::ACCEPT,
            "text/html,application/xhtml+xml,*/*;q=0.8".parse().unwrap(),
        );
        let mut any = http::HeaderMap::new();
        any.insert(http::header::ACCEPT, "*/*".parse().unwrap());
        assert!(is_page_load(&http::Method::GET, &html));
        assert!(!is_page_load(&http::Method::POST, &html));
        assert!(
            !is_page_load(&http::Method::GET, &any),
            "a prefetch or a script's request"
        );
        assert!(!is_page_load(&http::Method::GET, &http::HeaderMap::new()));
    }
}
