//! `<Loaded>`: the one way a page waits for its data.

use crate::{
    components::forms::ErrorBox,
    error::AppError,
    i18n::{Msg, t},
};
use leptos::prelude::*;
use serde::{Serialize, de::DeserializeOwned};

/// Waits for `resource`, then renders `children` with the loaded data, or the error box (in the
/// user's language) when loading failed.
///
/// While waiting it shows the loading line, or nothing with `quiet` (for a part of a page whose
/// absence for a moment is no news, e.g. the choices of a form). With `keep_while_reloading` it
/// is a `<Transition>`: a list that reloads after an action keeps showing the last data instead
/// of the loading line; without it a `<Suspense>`.
///
/// ```ignore
/// <Loaded resource=members let:members>
///     <MemberTable members />
/// </Loaded>
/// ```
#[component]
pub fn Loaded<T, V, F>(
    resource: Resource<Result<T, AppError>>,
    #[prop(optional)] keep_while_reloading: bool,
    #[prop(optional)] quiet: bool,
    children: F,
) -> impl IntoView
where
    T: Clone + Send + Sync + Serialize + DeserializeOwned + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let fallback = move || {
        if quiet {
            ().into_any()
        } else {
            view! { <p class="loading">{t(Msg::Loading)}</p> }.into_any()
        }
    };
    let content = move || {
        let children = children.clone();
        Suspend::new(async move {
            match resource.await {
                Ok(data) => children(data).into_any(),
                Err(error) => view! { <ErrorBox error /> }.into_any(),
            }
        })
    };
    if keep_while_reloading {
        view! { <Transition fallback>{content}</Transition> }.into_any()
    } else {
        view! { <Suspense fallback>{content}</Suspense> }.into_any()
    }
}

/// `list` through `table`, or the empty-state line `none` when there is nothing to list.
pub fn list_or_empty<T, V>(list: Vec<T>, none: Msg, table: impl FnOnce(Vec<T>) -> V) -> AnyView
where
    V: IntoView + 'static,
{
    if list.is_empty() {
        view! { <p class="empty-state">{t(none)}</p> }.into_any()
    } else {
        table(list).into_any()
    }
}
