//! The user's own account: change password, second factor.

use crate::{
    components::{account_fields::NewPasswordFields, forms::ActionError, guard::member_page},
    error::AppError,
    i18n::{Msg, t},
    pages::second_factor::SecondFactorSection,
};
use leptos::prelude::*;
use leptos_meta::Title;

/// Changes the caller's password after checking the current one (throttled like sign-in). The
/// new one must pass the password rules, quality included. Every other session of the user
/// ends, and every API token of theirs is revoked; this session continues.
#[server(endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    new_password_confirm: String,
) -> Result<(), AppError> {
    use crate::{
        auth::{
            self, password, start_session,
            throttle::{Purpose, check_password},
        },
        domain::accounts,
        store,
    };
    let caller = auth::require_caller()?;
    let db = auth::db()?;
    let user = store::users::by_id(&db, caller.user_id)
        .await?
        .ok_or(AppError::Unauthenticated)?;
    accounts::check_new_password_quality(&new_password, &new_password_confirm, &[&user.email, &user.display_name])?;
    let phc = Some(user.password_hash.clone());
    if !check_password(&db, &user.email, current_password, phc, Purpose::PasswordChange).await? {
        return Err(AppError::Invalid(Msg::PasswordCurrentWrong));
    }
    let hash = password::hash(new_password).await?;
    let mut tx = store::begin_write(&db).await?;
    store::users::set_password(&mut tx, user.id, &hash).await?;
    // Every API token of the user ends with the old password (recorded in the audit chain).
    crate::services::tokens::on_password_changed(&mut tx, user.id).await?;
    tx.commit().await?;
    auth::state()?.sessions.delete_for_user(user.id).await?;
    start_session(&auth::session()?, user.id, user.auth_epoch + 1).await
}

/// The account page.
#[component]
pub fn AccountPage() -> impl IntoView {
    member_page(|caller| {
        let action = ServerAction::<ChangePassword>::new();
        view! {
            <Title text=t(Msg::AccountTitle) />
            <section class="card narrow">
                <h1>{t(Msg::AccountTitle)}</h1>
                <dl class="facts">
                    <dt>{t(Msg::FieldDisplayName)}</dt>
                    <dd>{caller.display_name.clone()}</dd>
                    <dt>{t(Msg::FieldEmail)}</dt>
                    <dd>{caller.email.clone()}</dd>
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
            <SecondFactorSection />
        }
        .into_any()
    })
}
