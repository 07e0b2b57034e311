//! The friendly 404 page.

use crate::i18n::{Msg, t};
use leptos::prelude::*;
use leptos_meta::Title;

/// Shown for any unknown path, with status 404.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text=t(Msg::NotFoundTitle) />
        <section class="card narrow error-page" data-testid="not-found">
            <p class="error-code">"404"</p>
            <h1>{t(Msg::NotFoundTitle)}</h1>
            <p>{t(Msg::NotFoundBody)}</p>
            <p><a href="/">{t(Msg::NotFoundHome)}</a></p>
        </section>
    }
}
