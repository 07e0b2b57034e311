//! Form helpers: error messages from server functions, and what happens after success.

use crate::{error::AppError, i18n::use_locale};
use leptos::{prelude::*, server_fn::ServerFn};

/// The error of the last submission of `action`, if it failed: the only way pages read it.
///
/// Before anything was submitted from this page (`version` 0) the value comes from the page's
/// address — the error a form posted without WASM is sent back with (`__err`), which any link
/// can carry — so it is read with [`AppError::from_url`]: our own messages only, no text of the
/// link's author.
pub fn last_error<S>(action: ServerAction<S>) -> Option<AppError>
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    let error = action.value().get().and_then(Result::err)?;
    Some(if action.version().get() == 0 {
        error.from_url()
    } else {
        error
    })
}

/// Shows the error of the last submission of `action`, if it failed.
#[component]
pub fn ActionError<S>(action: ServerAction<S>) -> impl IntoView
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    let locale = use_locale();
    move || last_error(action).map(|e| view! { <p class="form-error" role="alert">{e.localized(locale)}</p> })
}

/// Shows an error box for a failed load.
#[component]
pub fn ErrorBox(error: AppError) -> impl IntoView {
    let locale = use_locale();
    view! { <p class="form-error" role="alert">{error.localized(locale)}</p> }
}

/// After `action` succeeds, loads `target` as a new page (so the whole page, header
/// included, shows the new session state).
pub fn reload_on_success<S>(action: ServerAction<S>, target: &'static str)
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(_))) {
            let target = if target.is_empty() {
                let location = window().location();
                let path = location.pathname().unwrap_or_else(|_| "/".into());
                path + &location.search().unwrap_or_default()
            } else {
                target.to_string()
            };
            let _ = window().location().set_href(&target);
        }
    });
}

/// After a form posted without a script (the browser asked for a page, not data), opens `path`
/// instead of the page the form was on — what the hydrated form does with the answer (a new
/// order opens itself). Posts from scripts and API clients get their answer as before.
#[cfg(feature = "ssr")]
pub fn open_after_plain_post(path: &str) {
    if wants_page() {
        leptos_axum::redirect(path);
    }
}

/// Whether the post asked for a page (a form posted by the page's script or without one), not
/// for data (a hydrated form, a script, an API client).
#[cfg(feature = "ssr")]
fn wants_page() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    })
}

/// After a form posted as a page made something shown only once (a new API token, a vendor's
/// new link): back to the page it was posted from, as [`saved_after_plain_post`], which then
/// shows `value` this once ([`shown_once`]). The value waits in the session, never in the
/// address. Answers whether it was kept: then the server function's own answer (the body of
/// the redirect) must not repeat it. Posts that asked for data get the value in their answer.
#[cfg(feature = "ssr")]
pub async fn show_once_after_plain_post<T: serde::Serialize>(form: &str, value: &T) -> Result<bool, AppError> {
    if !wants_page() {
        return Ok(false);
    }
    let Some(back) = referer().and_then(|r| saved_address(&r, form)) else {
        return Ok(false);
    };
    crate::auth::shown_once::keep(&crate::auth::session()?, form, &back, value).await?;
    leptos_axum::redirect(&back);
    Ok(true)
}

/// What `form` (a server function's path) made for this page to show once, after a post that
/// asked for a page ([`show_once_after_plain_post`]); `None` on any other load of the page.
pub fn shown_once<T: serde::de::DeserializeOwned>(form: &str) -> Option<T> {
    #[cfg(feature = "ssr")]
    {
        let parts = use_context::<http::request::Parts>()?;
        let kept = parts.extensions.get::<crate::auth::shown_once::ShownOnce>()?;
        (kept.form == form)
            .then(|| serde_json::from_value(kept.value.clone()).ok())
            .flatten()
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = form;
        None
    }
}

/// After a form posted without a script saved what it edits: back to the page it was posted
/// from, with `saved=<the server function's path>` in its address, which [`saved_in_url`] reads
/// so that form says "Saved." as the hydrated form does. Only a path of this site is followed (the `Referer` of a plain
/// post); the marks of an earlier answer (`saved`, Leptos' `__err`/`__path`) are dropped.
#[cfg(feature = "ssr")]
pub fn saved_after_plain_post() {
    let Some(form) = use_context::<http::request::Parts>().map(|p| p.uri.path().to_owned()) else {
        return;
    };
    if let Some(back) = referer().and_then(|r| saved_address(&r, &form)) {
        open_after_plain_post(&back);
    }
}

/// The `Referer` of the post being answered: the page the form was on.
#[cfg(feature = "ssr")]
fn referer() -> Option<String> {
    let parts = use_context::<http::request::Parts>()?;
    let referer = parts.headers.get(http::header::REFERER)?.to_str().ok()?;
    Some(referer.to_owned())
}

/// The address to go back to after `form` (a server function's path) saved, posted from
/// `referer`: its path and query on this site, without earlier marks, with `saved=<form>`.
/// `None` for what is not an absolute web address with a path of its own.
#[cfg(feature = "ssr")]
fn saved_address(referer: &str, form: &str) -> Option<String> {
    back_address(referer, Some(&format!("saved={form}")))
}

/// The page a post came from (`referer`) as the answer goes back to it: its path on this site
/// and its query but the marks of an earlier answer (`saved`, `__err`, `__path`), plus `mark`.
/// `None` for what is not an absolute web address with a path of its own.
#[cfg(feature = "ssr")]
fn back_address(referer: &str, mark: Option<&str>) -> Option<String> {
    let uri: http::Uri = referer.parse().ok()?;
    uri.scheme()?;
    let path = uri.path_and_query()?.path();
    // `//host/…` would be read by the browser as another site.
    if path.starts_with("//") {
        return None;
    }
    let kept: Vec<&str> = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .filter(|kv| !kv.is_empty())
        .filter(|kv| {
            let key = kv.split('=').next().unwrap_or_default();
            !matches!(key, "saved" | "__err" | "__path")
        })
        .chain(mark)
        .collect();
    Some(if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    })
}

/// After a form posted as a page (by the page's script or without one) on a page with one form
/// per thing (an answer form per checklist item): the one page load the post goes back to
/// shows the answer — "Saved." or the error — at the form `key` names, not at every form of
/// the same server function. Saved: back to the page, without the marks of an earlier answer;
/// refused: the same page with the error in its address as Leptos writes it (`__err`). Either
/// way at the element `at` (its id), so a browser without a script lands where the reader was
/// (the page's script keeps its own place: a fetched answer's address has no fragment).
#[cfg(feature = "ssr")]
pub async fn answered_at<T>(form: &str, key: &str, at: &str, result: &Result<T, AppError>) -> Result<(), AppError> {
    if !wants_page() {
        return Ok(());
    }
    let Some(back) = referer().and_then(|r| back_address(&r, None)) else {
        return Ok(());
    };
    let page = match result {
        Ok(_) => back,
        Err(e) => {
            let url = leptos::server_fn::error::ServerFnUrlError::new(form, e.clone())
                .to_url(&format!("http://page{back}"))
                .map_err(|_| AppError::Internal)?;
            url.query()
                .map_or_else(|| url.path().to_string(), |q| format!("{}?{q}", url.path()))
        }
    };
    crate::auth::shown_once::keep(&crate::auth::session()?, form, &page, &key).await?;
    leptos_axum::redirect(&format!("{page}#{at}"));
    Ok(())
}

/// Whether this page was opened after a plain post to `form` (a server function's path) saved
/// ([`saved_after_plain_post`]). The server reads it from the request, the browser from its
/// address: both render the same.
pub fn saved_in_url(form: &str) -> bool {
    let query = {
        #[cfg(feature = "ssr")]
        {
            use_context::<http::request::Parts>().and_then(|p| p.uri.query().map(str::to_owned))
        }
        #[cfg(not(feature = "ssr"))]
        {
            window().location().search().ok()
        }
    };
    let mark = format!("saved={form}");
    query.is_some_and(|q| q.trim_start_matches('?').split('&').any(|kv| kv == mark))
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::saved_address;

    #[test]
    fn a_save_goes_back_to_its_page_on_this_site_saying_saved() {
        let form = "/api/vendors/update";
        assert_eq!(
            saved_address("http://desk.example.com/vendors/3", form).as_deref(),
            Some("/vendors/3?saved=/api/vendors/update")
        );
        assert_eq!(
            saved_address(
                "https://desk.example.com/rates?saved=/api/x&__err=x&__path=%2Fapi&tab=2#top",
                "/api/r"
            )
            .as_deref(),
            Some("/rates?tab=2&saved=/api/r")
        );
        assert_eq!(
            saved_address("https://desk.example.com", form).as_deref(),
            Some("/?saved=/api/vendors/update"),
            "no path: the site's root"
        );
        assert_eq!(saved_address("/vendors/3", form), None, "not a web address");
        assert_eq!(
            saved_address("https://a.example//evil.example/x", form),
            None,
            "no other site"
        );
    }
}
