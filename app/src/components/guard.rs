//! Guards: render a page only for a signed-in user (or an administrator), else redirect.

use crate::{
    app::SessionResource,
    components::forms::ErrorBox,
    error::AppError,
    i18n::{Msg, t},
    model::{Caller, SessionInfo},
};
use leptos::prelude::*;
use leptos_router::components::Redirect;

/// Renders `page` with the signed-in caller; sends others to set-up or sign-in.
/// With `admin_only`, a signed-in non-administrator sees "forbidden".
pub fn signed_in<F>(admin_only: bool, page: F) -> impl IntoView
where
    F: Fn(Caller) -> AnyView + Clone + Send + Sync + 'static,
{
    let SessionResource(session) = expect_context::<SessionResource>();
    view! {
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || {
                let page = page.clone();
                Suspend::new(async move {
                    match session.await {
                        Ok(SessionInfo { setup_needed: true, .. }) => {
                            view! { <Redirect path="/setup" /> }.into_any()
                        }
                        Ok(SessionInfo { caller: None, session_ended, .. }) => {
                            let path = if session_ended { "/login?ended=1" } else { "/login" };
                            view! { <Redirect path /> }.into_any()
                        }
                        Ok(SessionInfo { caller: Some(caller), .. }) => {
                            if admin_only && !caller.is_admin {
                                view! { <ErrorBox error=AppError::Forbidden /> }.into_any()
                            } else {
                                page(caller)
                            }
                        }
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
