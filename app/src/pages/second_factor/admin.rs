//! Administrators' security setting: require a second factor for managers and administrators.
//! Switching it on needs the administrator's own second factor and ends the sessions of every
//! manager and administrator without one; they set one up at their next sign-in.

use crate::{
    components::{forms::ActionError, guard::admin_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t},
};
use leptos::prelude::*;
use leptos_meta::Title;

/// Whether managers and administrators must have a second factor (administrators only).
#[server(endpoint = "admin/second_factor")]
pub async fn second_factor_required() -> Result<bool, AppError> {
    use crate::{auth, store};
    auth::require_admin()?;
    Ok(store::site::second_factor_required(&auth::db()?).await?)
}

/// Sets the requirement (`required` = `on` | `off`).
#[server(endpoint = "admin/second_factor/set")]
pub async fn set_second_factor_required(required: String) -> Result<(), AppError> {
    use crate::{auth, services::second_factor};
    let admin = auth::require_admin()?;
    let required = match required.as_str() {
        "on" => true,
        "off" => false,
        _ => {
            return Err(AppError::InvalidFields(vec![crate::error::FieldIssue::new(
                "required", "required",
            )]));
        }
    };
    let state = auth::state()?;
    second_factor::set_required(&state.db, &state.sessions, admin.user_id, required).await
}

/// The security settings page.
#[component]
pub fn AdminSecurityPage() -> impl IntoView {
    admin_page(|_caller| {
        let set = ServerAction::<SetSecondFactorRequired>::new();
        let required = Resource::new(move || set.version().get(), |_| second_factor_required());
        view! {
            <Title text=t(Msg::SecondFactorAdminTitle) />
            <section class="card narrow" data-testid="admin-security">
                <h1>{t(Msg::SecondFactorAdminTitle)}</h1>
                <p class="lead">{t(Msg::SecondFactorAdminLead)}</p>
                <Loaded resource=required keep_while_reloading=true let:required>
                    <p data-testid="second-factor-required">
                        {t(if required { Msg::SecondFactorAdminOn } else { Msg::SecondFactorAdminOff })}
                    </p>
                    <ActionForm action=set attr:class="form-inline">
                        <input type="hidden" name="required" value=if required { "off" } else { "on" } />
                        <button type="submit">
                            {t(if required { Msg::SecondFactorAdminSwitchOff } else { Msg::SecondFactorAdminSwitchOn })}
                        </button>
                    </ActionForm>
                </Loaded>
                <ActionError action=set />
            </section>
        }
        .into_any()
    })
}
