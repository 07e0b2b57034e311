//! Signing in (signing out is [`crate::components::session::logout`], used by the header).

use crate::pages::second_factor::SecondStep;
use crate::{
    components::{forms::ActionError, session::SessionResource},
    domain::second_factor::LoginStep,
    error::AppError,
    i18n::{Msg, t},
    views::SessionInfo,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::{components::Redirect, hooks::use_query_map};

/// Signs in. Wrong e-mail and wrong password get the same answer in the same time; after ten
/// failures within 15 minutes the account is locked for 15 minutes, after thirty from one
/// address that address is (see [`crate::domain::throttle`]). A user with a second factor is
/// not signed in yet: the answer says which step follows ([`LoginStep`]).
#[server(endpoint = "login")]
pub async fn login(email: String, password: String) -> Result<LoginStep, AppError> {
    server::login(email, password).await
}

#[cfg(feature = "ssr")]
mod server {
    use super::*;
    use crate::{
        auth::{
            self,
            throttle::{Purpose, check_password},
        },
        domain::accounts::PASSWORD_MAX_CHARS,
        store,
    };

    pub async fn login(email: String, password: String) -> Result<LoginStep, AppError> {
        let email = email.trim().to_lowercase();
        if email.is_empty() || password.is_empty() {
            return Err(AppError::Invalid(Msg::LoginMissingFields));
        }
        if email.len() > 254 || password.chars().count() > PASSWORD_MAX_CHARS {
            return Err(AppError::BadCredentials);
        }
        let db = auth::db()?;
        // Throttled by account and client address (shared with sign-off and password change).
        let user = store::users::by_email(&db, &email).await?;
        let phc = user.as_ref().map(|u| u.password_hash.clone());
        let matches = check_password(&db, &email, password, phc, Purpose::SignIn).await?;
        let user = match user {
            Some(user) if matches => user,
            _ => {
                tracing::info!(%email, "sign-in failed");
                return Err(AppError::BadCredentials);
            }
        };
        if user.disabled {
            return Err(AppError::Refused(Msg::LoginDisabled));
        }
        tracing::info!(user_id = user.id, "password matched");
        crate::services::second_factor::after_password(&db, &auth::session()?, &user).await
    }
}

/// The sign-in page.
#[component]
pub fn LoginPage() -> impl IntoView {
    let SessionResource(session) = expect_context::<SessionResource>();
    let action = ServerAction::<Login>::new();
    // Signed in: load the start page; a second step (code or enrolment) replaces the form.
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(LoginStep::Done))) {
            let _ = window().location().set_href("/");
        }
    });
    let second_step = move || {
        action
            .value()
            .get()
            .and_then(Result::ok)
            .filter(|s| *s != LoginStep::Done)
    };
    // A guarded page sends `?ended=1` when the browser's session timed out or was ended.
    let query = use_query_map();
    let ended = move || query.read().get("ended").is_some();
    // Not `<Loaded>`: when the session cannot be read this page shows the sign-in form, not an
    // error box.
    view! {
        <Title text=t(Msg::LoginTitle) />
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || Suspend::new(async move {
                match session.await {
                    Ok(SessionInfo { setup_needed: true, .. }) => {
                        view! { <Redirect path="/setup" /> }.into_any()
                    }
                    Ok(SessionInfo { caller: Some(_), .. }) => view! { <Redirect path="/" /> }.into_any(),
                    _ => {
                        view! {
                            <Show
                                when=move || second_step().is_none()
                                fallback=move || second_step().map(|step| view! { <SecondStep step /> })
                            >
                            <section class="card narrow">
                                <h1>{t(Msg::LoginTitle)}</h1>
                                {move || {
                                    ended()
                                        .then(|| {
                                            view! {
                                                <p class="form-error" role="alert" data-testid="session-ended">
                                                    {t(Msg::ErrorUnauthenticated)}
                                                </p>
                                            }
                                        })
                                }}
                                <ActionForm action attr:class="form" attr:data-testid="login-form">
                                    <label>
                                        {t(Msg::FieldEmail)}
                                        <input type="email" name="email" required autocomplete="username" />
                                    </label>
                                    <label>
                                        {t(Msg::FieldPassword)}
                                        <input type="password" name="password" required autocomplete="current-password" />
                                    </label>
                                    <ActionError action />
                                    <button type="submit" disabled=move || action.pending().get()>
                                        {t(Msg::LoginSubmit)}
                                    </button>
                                </ActionForm>
                            </section>
                            </Show>
                        }
                            .into_any()
                    }
                }
            })}
        </Suspense>
    }
}
