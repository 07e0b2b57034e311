//! The new-password inputs: one definition of their limits and browser hints, shared by
//! set-up, the account page and user creation.

use crate::{
    domain::accounts::{PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS},
    i18n::{Msg, t},
};
use leptos::prelude::*;

/// A new password and its confirmation: `name` and `confirm_name` are the posted field names,
/// `label` the first input's label. The length limits are the ones
/// [`crate::domain::accounts::check_new_password`] enforces on the server; with `hint` the rule
/// is also spelled out under the first input.
#[component]
pub fn NewPasswordFields(
    name: &'static str,
    confirm_name: &'static str,
    label: Msg,
    #[prop(optional)] hint: bool,
) -> impl IntoView {
    view! {
        <label>
            {t(label)}
            <input
                type="password"
                name=name
                required
                minlength=PASSWORD_MIN_CHARS.to_string()
                maxlength=PASSWORD_MAX_CHARS.to_string()
                autocomplete="new-password"
            />
            {hint.then(|| view! { <small class="hint">{t(Msg::PasswordHint)}</small> })}
        </label>
        <label>
            {t(Msg::FieldPasswordConfirm)}
            <input type="password" name=confirm_name required autocomplete="new-password" />
        </label>
    }
}
