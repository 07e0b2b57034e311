//! First run: create the first administrator. Gone for good once done.

use crate::{
    components::{
        account_fields::{NewPasswordFields, NewUserFields},
        forms::{ActionError, reload_on_success},
        session::SessionResource,
    },
    error::AppError,
    i18n::{Msg, t},
    views::SessionInfo,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Redirect;

/// Creates the first administrator and signs them in. Refused once any administrator exists.
#[server(endpoint = "setup")]
pub async fn create_first_admin(
    email: String,
    display_name: String,
    password: String,
    password_confirm: String,
) -> Result<(), AppError> {
    use crate::{
        auth::{self, password, start_session},
        domain::accounts,
        store::{self, users::UserForCreate},
    };
    let email = accounts::normalize_email(&email).map_err(AppError::Invalid)?;
    let display_name = accounts::normalize_display_name(&display_name).map_err(AppError::Invalid)?;
    accounts::check_new_password_quality(&password, &password_confirm, &[&email, &display_name])?;
    let db = auth::db()?;
    if store::site::setup_completed(&db).await? {
        return Err(AppError::Conflict(Msg::SetupAlreadyDone));
    }
    let hash = password::hash(password).await?;
    let mut tx = store::begin_write(&db).await?;
    if !store::site::complete_setup(&mut tx).await? {
        return Err(AppError::Conflict(Msg::SetupAlreadyDone));
    }
    let user = UserForCreate {
        email: &email,
        display_name: &display_name,
        password_hash: &hash,
        is_admin: true,
    };
    let id = store::users::insert(&mut tx, &user)
        .await?
        .ok_or(AppError::Conflict(Msg::EmailTaken))?;
    // Audit (issue 13): the first administrator, created by themselves.
    let event = crate::services::site_audit::user_created(id, &email, true, None, "setup");
    crate::services::site_audit::record(&mut tx, id, crate::domain::audit::Action::UserCreated, event).await?;
    tx.commit().await?;
    tracing::info!(user_id = id, "first administrator created");
    start_session(&auth::session()?, id, 0).await
}

/// The first-run page.
#[component]
pub fn SetupPage() -> impl IntoView {
    let SessionResource(session) = expect_context::<SessionResource>();
    let action = ServerAction::<CreateFirstAdmin>::new();
    reload_on_success(action, "/");
    // Not `<Loaded>`: when the session cannot be read this page sends the browser home, it shows
    // no error box.
    view! {
        <Title text=t(Msg::SetupTitle) />
        <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
            {move || Suspend::new(async move {
                match session.await {
                    Ok(SessionInfo { setup_needed: true, .. }) => {
                        view! {
                            <section class="card narrow">
                                <h1>{t(Msg::SetupTitle)}</h1>
                                <p class="lead">{t(Msg::SetupLead)}</p>
                                <ActionForm action attr:class="form" attr:data-testid="setup-form">
                                    <NewUserFields own=true />
                                    <NewPasswordFields name="password" confirm_name="password_confirm" label=Msg::FieldPassword hint=true />
                                    <ActionError action />
                                    <button type="submit" disabled=move || action.pending().get()>
                                        {t(Msg::SetupSubmit)}
                                    </button>
                                </ActionForm>
                            </section>
                        }
                            .into_any()
                    }
                    _ => view! { <Redirect path="/" /> }.into_any(),
                }
            })}
        </Suspense>
    }
}
