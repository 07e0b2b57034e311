//! The user's own account: change password, second factor.

use crate::{
    components::{account_fields::NewPasswordFields, forms::ActionError, guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t},
    pages::second_factor::{ReauthCode, SecondFactorSection},
    views::second_factor::SecondFactorStatus,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// Changes the caller's password after checking the current one (throttled like sign-in) and,
/// when the caller has a second factor, a current `code` (or a recovery code). The new one must
/// pass the password rules, quality included. Every other session of the user ends, and every
/// API token of theirs is revoked; this session continues. The user is mailed.
#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    new_password_confirm: String,
    code: Option<String>,
) -> Result<(), AppError> {
    use crate::{
        auth::{self, password, start_session, throttle::Purpose},
        services::{account_security, password_quality},
        store,
    };
    let caller = auth::require_caller()?;
    let db = auth::db()?;
    let user = store::users::by_id(&db, caller.user_id)
        .await?
        .ok_or(AppError::Unauthenticated)?;
    password_quality::check_new_password_quality(
        &new_password,
        &new_password_confirm,
        &[&user.email, &user.display_name],
    )?;
    account_security::confirm(
        &db,
        &user,
        Some(current_password),
        code.as_deref(),
        Purpose::PasswordChange,
    )
    .await?;
    let hash = password::hash(new_password).await?;
    let mut tx = store::begin_write(&db).await?;
    store::users::set_password(&mut tx, user.id, &hash).await?;
    // Every API token of the user ends with the old password (recorded in the audit chain).
    crate::services::tokens::on_password_changed(&mut tx, user.id).await?;
    tx.commit().await?;
    // This session continues under a new id (stored once this answer is sent): none is kept.
    account_security::end_other_sessions(&auth::state()?.sessions, user.id, None).await?;
    start_session(&auth::session()?, user.id, user.auth_epoch + 1).await
}

/// The account page.
#[component]
pub fn AccountPage() -> impl IntoView {
    member_page(|caller| {
        let factor = Resource::new(|| (), |()| super::second_factor::second_factor_state());
        let (name, email) = (caller.display_name.clone(), caller.email.clone());
        view! {
            <Title text=t(Msg::AccountTitle) />
            <Loaded resource=factor let:factor>
                <AccountWork name=name.clone() email=email.clone() factor />
            </Loaded>
        }
        .into_any()
    })
}

/// The password change and the second factor, which answer in place (switching the factor on
/// or off adds or drops the code field of the password change): the page's island.
#[island(lazy)]
fn AccountWork(name: String, email: String, factor: SecondFactorStatus) -> impl IntoView {
    let factor_now = factor.clone();
    let action = ServerAction::<ChangePassword>::new();
    let changed = RwSignal::new(0u32);
    view! {
        <section class="card narrow">
            <h1>{t(Msg::AccountTitle)}</h1>
            <dl class="facts">
                <dt>{t(Msg::FieldDisplayName)}</dt>
                <dd>{name}</dd>
                <dt>{t(Msg::FieldEmail)}</dt>
                <dd>{email}</dd>
            </dl>
            <h2>{t(Msg::AccountChangePassword)}</h2>
            <ActionForm action attr:class="form">
                <label>
                    {t(Msg::FieldCurrentPassword)}
                    <input type="password" name="current_password" required autocomplete="current-password" />
                </label>
                <NewPasswordFields
                    name="new_password"
                    confirm_name="new_password_confirm"
                    label=Msg::FieldNewPassword
                    hint=true
                />
                <ReauthCode changed status=factor_now />
                <ActionError action />
                {move || {
                    matches!(action.value().get(), Some(Ok(())))
                        .then(|| view! { <p class="form-ok" role="status">{t(Msg::AccountPasswordChanged)}</p> })
                }}
                <button type="submit" disabled=move || action.pending().get()>
                    {t(Msg::AccountChangePassword)}
                </button>
            </ActionForm>
        </section>
        <SecondFactorSection changed status=factor />
    }
}
