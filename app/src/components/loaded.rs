//! `<Loaded>`: the one way a page waits for its data.

use crate::{
    components::forms::ErrorBox,
    error::AppError,
    i18n::{Msg, t},
};
use leptos::prelude::*;
use serde::{Serialize, de::DeserializeOwned};

/// Waits for `resource` inside a `<Suspense>` that shows the loading line, then renders
/// `children` with the loaded data, or the error box (in the user's language) when loading
/// failed.
///
/// ```ignore
/// <Loaded resource=members let:members>
///     <MemberTable members />
/// </Loaded>
/// ```
#[component]
pub fn Loaded<T, V, F>(resource: Resource<Result<T, AppError>>, children: F) -> impl IntoView
where
    T: Clone + Send + Sync + Serialize + DeserializeOwned + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    view! {
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || {
                let children = children.clone();
                Suspend::new(async move {
                    match resource.await {
                        Ok(data) => children(data).into_any(),
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
