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

/// After `action` succeeds, reloads the page at the element with id `anchor` (the form's card):
/// the reader stays where they saved instead of landing at the top of a long page.
pub fn reload_at<S>(action: ServerAction<S>, anchor: &'static str)
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(_))) {
            let location = window().location();
            let path = location.pathname().unwrap_or_else(|_| "/".into());
            let here = format!("{path}{}#{anchor}", location.search().unwrap_or_default());
            // Same document: only the fragment changes (no history entry), then the reload
            // opens the page at it.
            let _ = location.replace(&here);
            let _ = location.reload();
        }
    });
}
