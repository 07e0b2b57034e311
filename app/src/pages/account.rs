//! The user's own account: change password, second factor.

use crate::{
    components::{
        account_fields::NewPasswordFields,
        forms::{ActionError, saved_in_url},
        guard::member_page,
        loaded::Loaded,
    },
    error::AppError,
    i18n::{Msg, t},
    pages::second_factor::{ReauthCode, SecondFactorSection},
    views::second_factor::{Enrolment, SecondFactorStatus},
};
use leptos::{prelude::*, server_fn::ServerFn};
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
    start_session(&auth::session()?, user.id, user.auth_epoch + 1).await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The account page.
#[component]
pub fn AccountPage() -> impl IntoView {
    member_page(|caller| {
        // One resource per load (see the tokens page).
        let factor = Resource::new(|| (), |()| super::second_factor::second_factor_state());
        let pending = Resource::new(|| (), |()| super::second_factor::pending_enrolment());
        let (name, email) = (caller.display_name.clone(), caller.email.clone());
        view! {
            <Title text=t(Msg::AccountTitle) />
            <Loaded resource=factor let:factor>
                <AccountLoaded name=name.clone() email=email.clone() factor pending />
            </Loaded>
        }
        .into_any()
    })
}

/// The account once its second factor is read, and the set-up under way once that is.
#[component]
fn AccountLoaded(
    name: String,
    email: String,
    factor: SecondFactorStatus,
    pending: Resource<Result<Option<Enrolment>, AppError>>,
) -> impl IntoView {
    let read = StoredValue::new((name, email, factor));
    view! {
        <Loaded resource=pending let:enrolment>
            {
                let (name, email, factor) = read.get_value();
                view! { <AccountWork name email factor enrolment /> }
            }
        </Loaded>
    }
}

/// The password change and the second factor. Every form saves in place (`data-in-place`) or
/// posts as a plain form; the server's page then shows the account as it now is (the code field
/// of the password change once the second factor is on, the recovery codes that one time).
#[component]
fn AccountWork(name: String, email: String, factor: SecondFactorStatus, enrolment: Option<Enrolment>) -> impl IntoView {
    let action = ServerAction::<ChangePassword>::new();
    let changed = saved_in_url(ChangePassword::PATH);
    let reauth = factor.clone();
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
            <ActionForm action attr:class="form" attr:data-in-place="">
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
                <ReauthCode status=reauth />
                <ActionError action />
                {changed.then(|| view! { <p class="form-ok" role="status">{t(Msg::AccountPasswordChanged)}</p> })}
                <button type="submit">{t(Msg::AccountChangePassword)}</button>
            </ActionForm>
        </section>
        <SecondFactorSection status=factor enrolment />
    }
}
