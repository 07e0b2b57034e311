//! Signing in (signing out is [`crate::components::session::logout`], used by the header).

use crate::pages::second_factor::SecondStep;
use crate::{
    components::{forms::ActionError, session::SessionResource},
    domain::second_factor::LoginStep,
    error::AppError,
    i18n::{Msg, t},
    views::SessionInfo,
};
use leptos::{nonce::use_nonce, prelude::*};
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

/// The sign-in page, rendered on the server only (no island, no WASM): the form posts to
/// [`login`], and the server function answers the plain post by sending the browser back here —
/// with the error in the address, or with the session now waiting for its second step, which
/// [`SessionInfo::sign_in_step`] brings back, or signed in, which this page sends on to the
/// dashboard.
#[component]
pub fn LoginPage() -> impl IntoView {
    let SessionResource(session) = expect_context::<SessionResource>();
    let action = ServerAction::<Login>::new();
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
                    info => {
                        let pending = info.ok().and_then(|i| i.sign_in_step);
                        let second_step = move || next_step(action.value().get(), pending);
                        view! {
                            <Show
                                when=move || second_step().is_none()
                                fallback=move || second_step().map(|step| view! { <SecondStep step /> })
                            >
                                <PasswordStep action ended />
                            </Show>
                        }
                            .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// The step to show instead of the password form: the answer of a password posted from this
/// page, else the step the session waits for (`pending`). A failed password shows the form.
fn next_step(answer: Option<Result<LoginStep, AppError>>, pending: Option<LoginStep>) -> Option<LoginStep> {
    match answer {
        Some(Ok(step)) => (step != LoginStep::Done).then_some(step),
        Some(Err(_)) => None,
        None => pending,
    }
}

/// The e-mail and password form.
#[component]
fn PasswordStep(action: ServerAction<Login>, ended: impl Fn() -> bool + Send + Sync + 'static) -> impl IntoView {
    view! {
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
            {keep_email_script()}
        </section>
    }
}

/// On the page sent without WASM each try is a new page, which would empty the e-mail field
/// after a wrong password. This script (no WASM, the page's CSP nonce) keeps what was typed for
/// the tab while the page shows an error, and forgets it otherwise.
fn keep_email_script() -> impl IntoView {
    const SCRIPT: &str = r#"(() => {
  const form = document.querySelector('[data-testid="login-form"]');
  const email = form && form.elements.namedItem("email");
  if (!email) return;
  const key = "nodeledger.sign_in_email";
  if (form.querySelector('[role="alert"]')) email.value = email.value || sessionStorage.getItem(key) || "";
  else sessionStorage.removeItem(key);
  form.addEventListener("submit", () => sessionStorage.setItem(key, email.value));
})();"#;
    view! { <script nonce=use_nonce()>{SCRIPT}</script> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_shows_the_answer_of_its_own_post_before_the_pending_step() {
        use LoginStep::{Code, Done, Enrol};
        // Hydrated: the answer decides; signed in (`Done`) leaves the form until the page changes.
        assert_eq!(next_step(Some(Ok(Code)), None), Some(Code));
        assert_eq!(next_step(Some(Ok(Enrol)), Some(Code)), Some(Enrol));
        assert_eq!(next_step(Some(Ok(Done)), Some(Code)), None);
        // A wrong password after "start again" shows the form, whatever the session held.
        assert_eq!(next_step(Some(Err(AppError::BadCredentials)), Some(Code)), None);
        // Loaded again after a plain post (or a reload): the session's pending step.
        assert_eq!(next_step(None, Some(Code)), Some(Code));
        assert_eq!(next_step(None, Some(Enrol)), Some(Enrol));
        assert_eq!(next_step(None, None), None);
    }
}
