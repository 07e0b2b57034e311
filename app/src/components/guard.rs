//! Guards: render a page only for a signed-in user (or an administrator), else redirect.

use crate::{
    components::{forms::ErrorBox, loaded::Loaded, session::SessionResource},
    error::AppError,
    views::{Caller, SessionInfo},
};
use leptos::prelude::*;
use leptos_router::components::Redirect;

/// Renders `page` for any signed-in user; sends others to set-up or sign-in. What the caller may
/// do in their team is checked by each server function, not here.
pub fn member_page<F>(page: F) -> impl IntoView
where
    F: Fn(Caller) -> AnyView + Clone + Send + Sync + 'static,
{
    signed_in(false, page)
}

/// Renders `page` for a site administrator; a signed-in non-administrator sees "forbidden",
/// others are sent to set-up or sign-in.
pub fn admin_page<F>(page: F) -> impl IntoView
where
    F: Fn(Caller) -> AnyView + Clone + Send + Sync + 'static,
{
    signed_in(true, page)
}

fn signed_in<F>(admin_only: bool, page: F) -> impl IntoView
where
    F: Fn(Caller) -> AnyView + Clone + Send + Sync + 'static,
{
    let SessionResource(session) = expect_context::<SessionResource>();
    let page = move |info: SessionInfo| match info {
        SessionInfo { setup_needed: true, .. } => view! { <Redirect path="/setup" /> }.into_any(),
        SessionInfo {
            caller: None,
            session_ended,
            ..
        } => {
            let path = if session_ended { "/login?ended=1" } else { "/login" };
            view! { <Redirect path /> }.into_any()
        }
        SessionInfo {
            caller: Some(caller), ..
        } => {
            if admin_only && !caller.is_admin {
                view! { <ErrorBox error=AppError::Forbidden /> }.into_any()
            } else {
                page(caller)
            }
        }
    };
    view! { <Loaded resource=session children=page /> }
}
