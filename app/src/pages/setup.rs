//! First run: create the first administrator. Gone for good once done.

use crate::{
    components::{
        account_fields::{NewPasswordFields, NewUserFields},
        form_fields::{FieldMessage, field_issues, is_invalid},
        forms::ActionError,
        session::SessionResource,
    },
    error::{AppError, FieldIssue},
    i18n::{Msg, t},
    views::SessionInfo,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Redirect;

/// Creates the first administrator and signs them in, given the one-time set-up code the
/// server printed at start ([`crate::auth::setup_code`]). Refused (409) once set-up is closed:
/// any user exists, even one added from the command line without an administrator; a wrong or
/// missing code is refused (422 on `setup_code`) and counted against the client address like a
/// wrong password.
#[server(endpoint = "setup")]
pub async fn create_first_admin(
    #[server(default)] setup_code: String,
    email: String,
    display_name: String,
    password: String,
    password_confirm: String,
) -> Result<(), AppError> {
    use crate::{
        auth::{self, start_session, throttle},
        services::accounts::{NewUser, Origin, create_user},
        store,
    };
    let state = auth::state()?;
    let db = state.db.clone();
    if !store::site::setup_open(&db).await? {
        return Err(AppError::Conflict(Msg::SetupAlreadyDone));
    }
    if !throttle::check_setup_code(&db, || state.setup_code.matches(&setup_code)).await? {
        return Err(AppError::InvalidFields(vec![FieldIssue::new(
            "setup_code",
            "setup_code_wrong",
        )]));
    }
    let user = NewUser::check(&email, &display_name, password, &password_confirm, true)?;
    let id = create_user(&db, user, None, Origin::Setup).await?.user_id;
    state.setup_code.used();
    tracing::info!(user_id = id, "first administrator created");
    start_session(&auth::session()?, id, 0).await
}

/// The set-up code input, with where to find the code and the message when it was wrong.
#[component]
fn SetupCodeField(issues: Signal<Vec<FieldIssue>>) -> impl IntoView {
    view! {
        <label>
            {t(Msg::SetupCode)}
            <input
                type="text"
                name="setup_code"
                required
                autocomplete="off"
                autocapitalize="characters"
                spellcheck="false"
                maxlength="64"
                aria-describedby="setup_code-hint setup_code-error"
                aria-invalid=is_invalid(issues, "setup_code")
            />
            <small class="hint" id="setup_code-hint">{t(Msg::SetupCodeHint)}</small>
            <FieldMessage issues field="setup_code" />
        </label>
    }
}

/// The first-run page.
#[component]
pub fn SetupPage() -> impl IntoView {
    let SessionResource(session) = expect_context::<SessionResource>();
    // Not `<Loaded>`: when the session cannot be read this page sends the browser home, it shows
    // no error box.
    view! {
        <Title text=t(Msg::SetupTitle) />
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || Suspend::new(async move {
                match session.await {
                    Ok(SessionInfo { setup_needed: true, .. }) => {
                        view! { <SetupForm /> }.into_any()
                    }
                    _ => view! { <Redirect path="/" /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The first administrator's form, checked in place (`data-in-place`: what was typed stays
/// after an error), then the dashboard opens.
#[component]
fn SetupForm() -> impl IntoView {
    let action = ServerAction::<CreateFirstAdmin>::new();
    view! {
        <section class="card narrow">
            <h1>{t(Msg::SetupTitle)}</h1>
            <p class="lead">{t(Msg::SetupLead)}</p>
            <ActionForm action attr:class="form" attr:data-testid="setup-form" attr:data-in-place="">
                <SetupCodeField issues=field_issues(action) />
                <NewUserFields own=true />
                <NewPasswordFields name="password" confirm_name="password_confirm" label=Msg::FieldPassword hint=true />
                <ActionError action />
                <button type="submit" disabled=move || action.pending().get()>
                    {t(Msg::SetupSubmit)}
                </button>
            </ActionForm>
        </section>
    }
}
