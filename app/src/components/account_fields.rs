//! The inputs of a new account and a new password: one definition of their limits and browser
//! hints, shared by set-up, the account page and user creation.

use crate::{
    domain::accounts::{NAME_MAX_CHARS, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS},
    i18n::{Msg, t},
};
use leptos::prelude::*;

/// The e-mail and display name of a new user. With `own` the person types their own (set-up):
/// the browser may offer to fill them in and remember them; an administrator creating someone
/// else's account gets no such offer.
#[component]
pub fn NewUserFields(own: bool) -> impl IntoView {
    let (email, name) = if own { ("username", "name") } else { ("off", "off") };
    view! {
        <label>
            {t(Msg::FieldEmail)}
            <input type="email" name="email" required autocomplete=email />
        </label>
        <label>
            {t(Msg::FieldDisplayName)}
            <input type="text" name="display_name" required maxlength=NAME_MAX_CHARS.to_string() autocomplete=name />
        </label>
    }
}

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
