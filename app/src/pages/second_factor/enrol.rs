//! The account page's second-factor section: set up an authenticator app (QR code, secret in
//! groups, first code), the recovery codes shown once, new recovery codes, switching it off.

use super::{ConfirmEnrolment, DisableSecondFactor, RegenerateRecoveryCodes, StartEnrolment, second_factor_state};
use crate::{
    components::{forms::ActionError, loaded::reloaded},
    i18n::{Msg, t, use_locale},
    views::second_factor::{Enrolment, SecondFactorStatus},
};
use leptos::prelude::*;

/// The second-factor section of the account page. `changed` counts the changes that
/// succeeded, so other forms of the page ([`ReauthCode`]) follow.
#[component]
pub fn SecondFactorSection(changed: RwSignal<u32>, status: SecondFactorStatus) -> impl IntoView {
    let confirm = ServerAction::<ConfirmEnrolment>::new();
    let regenerate = ServerAction::<RegenerateRecoveryCodes>::new();
    let disable = ServerAction::<DisableSecondFactor>::new();
    // Reloaded only after a change succeeded: a wrong code keeps the form (and the enrolment
    // under way) as it is.
    count_success(confirm, changed);
    count_success(regenerate, changed);
    count_success(disable, changed);
    let status = reloaded(status, move || {
        changed.track();
        second_factor_state()
    });
    view! {
        <section class="card narrow" data-testid="second-factor">
            <h2>{t(Msg::SecondFactorTitle)}</h2>
            <p class="lead">{t(Msg::SecondFactorLead)}</p>
            {move || {
                let ended = matches!(confirm.value().get(), Some(Ok(_))) || matches!(disable.value().get(), Some(Ok(())));
                ended.then(|| view! { <p class="form-ok" role="status" data-testid="others-ended">{t(Msg::ReauthOthersEnded)}</p> })
            }}
            {move || status_view(status.get(), confirm, regenerate, disable)}
        </section>
    }
}

fn count_success<S>(action: ServerAction<S>, changed: RwSignal<u32>)
where
    S: leptos::server_fn::ServerFn<Error = crate::error::AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(_))) {
            changed.update(|n| *n += 1);
        }
    });
}

fn status_view(
    status: SecondFactorStatus,
    confirm: ServerAction<ConfirmEnrolment>,
    regenerate: ServerAction<RegenerateRecoveryCodes>,
    disable: ServerAction<DisableSecondFactor>,
) -> AnyView {
    if !status.enabled {
        let required = status
            .required
            .then(|| view! { <p class="callout">{t(Msg::SecondFactorRequiredHint)}</p> });
        return view! {
            {required}
            <p data-testid="second-factor-state">{t(Msg::SecondFactorOff)}</p>
            <EnrolmentPanel confirm ask_password=true />
        }
        .into_any();
    }
    let locale = use_locale();
    let left = locale.fmt(
        Msg::SecondFactorCodesLeft,
        &[("count", &status.recovery_codes_left.to_string())],
    );
    let switch_off = (!status.required).then(|| disable_form(disable));
    view! {
        {move || confirm.value().get().and_then(Result::ok).map(|codes| view! { <RecoveryCodes codes /> })}
        <p class="form-ok" data-testid="second-factor-state">{t(Msg::SecondFactorOn)}</p>
        <p data-testid="recovery-codes-left">{left}</p>
        <h3>{t(Msg::SecondFactorRegenerate)}</h3>
        <ActionForm action=regenerate attr:class="form" attr:data-testid="regenerate-form">
            <p class="hint">{t(Msg::ReauthLead)}</p>
            <PasswordField />
            <CodeField recovery=true />
            <ActionError action=regenerate />
            <button type="submit">{t(Msg::SecondFactorRegenerate)}</button>
        </ActionForm>
        {move || regenerate.value().get().and_then(Result::ok).map(|codes| view! { <RecoveryCodes codes /> })}
        {switch_off}
    }
    .into_any()
}

fn disable_form(disable: ServerAction<DisableSecondFactor>) -> impl IntoView {
    view! {
        <h3>{t(Msg::SecondFactorDisable)}</h3>
        <ActionForm action=disable attr:class="form" attr:data-testid="disable-form">
            <PasswordField />
            <CodeField recovery=true />
            <ActionError action=disable />
            <button type="submit" class="danger">{t(Msg::SecondFactorDisable)}</button>
        </ActionForm>
    }
}

/// The current password, asked before a change to one's own account.
#[component]
pub fn PasswordField() -> impl IntoView {
    view! {
        <label>
            {t(Msg::FieldCurrentPassword)}
            <input type="password" name="password" required autocomplete="current-password" data-testid="reauth-password" />
        </label>
    }
}

/// The code asked with the current password before a change to one's own account, shown when
/// the signed-in user has a second factor (an app code or a recovery code); asked again when
/// `changed` moves (the factor switched on or off on the same page).
#[component]
pub fn ReauthCode(#[prop(optional)] changed: Option<RwSignal<u32>>, status: SecondFactorStatus) -> impl IntoView {
    let status = reloaded(status, move || {
        if let Some(changed) = changed {
            changed.track();
        }
        second_factor_state()
    });
    view! {
        {move || status.with(|s| s.enabled).then(|| view! { <CodeField recovery=true /> })}
    }
}

/// The code input: six digits from the app (or, with `recovery`, a recovery code).
#[component]
pub fn CodeField(recovery: bool) -> impl IntoView {
    let label = if recovery {
        Msg::SecondFactorCodeOrRecovery
    } else {
        Msg::SecondFactorCode
    };
    view! {
        <label>
            {t(label)}
            <input
                type="text"
                name="code"
                required
                autocomplete="one-time-code"
                spellcheck="false"
                maxlength="20"
                data-testid="second-factor-code"
            />
        </label>
    }
}

/// "Set up an authenticator app": starts enrolment, shows the QR code and the secret, and asks
/// for a first code; then shows the recovery codes. `confirm` is the caller's action, so the
/// page can react when the second factor is on. With `ask_password` (a signed-in user, not a
/// sign-in that must enrol first) the start asks for the current password.
#[component]
pub fn EnrolmentPanel(confirm: ServerAction<ConfirmEnrolment>, ask_password: bool) -> impl IntoView {
    let start = ServerAction::<StartEnrolment>::new();
    view! {
        <ActionForm action=start attr:class="form-inline" attr:data-testid="enrol-start">
            {ask_password.then(|| view! { <PasswordField /> })}
            <button type="submit" disabled=move || start.pending().get()>{t(Msg::SecondFactorSetUp)}</button>
        </ActionForm>
        <ActionError action=start />
        {move || start.value().get().and_then(Result::ok).map(|enrolment| enrolment_view(enrolment, confirm))}
    }
}

fn enrolment_view(enrolment: Enrolment, confirm: ServerAction<ConfirmEnrolment>) -> impl IntoView {
    let Enrolment {
        qr_svg,
        secret,
        account,
    } = enrolment;
    view! {
        <div class="enrolment" data-testid="enrolment">
            <ol class="steps">
                <li>{t(Msg::SecondFactorStepScan)}</li>
                <li>{t(Msg::SecondFactorStepType)}</li>
                <li>{t(Msg::SecondFactorStepConfirm)}</li>
            </ol>
            <div class="qr" role="img" aria-label=t(Msg::SecondFactorQrLabel) inner_html=qr_svg></div>
            <dl class="facts">
                <dt>{t(Msg::SecondFactorAccount)}</dt>
                <dd>{account}</dd>
                <dt>{t(Msg::SecondFactorSecret)}</dt>
                <dd><code class="token" data-testid="second-factor-secret">{secret}</code></dd>
            </dl>
            <ActionForm action=confirm attr:class="form" attr:data-testid="enrol-confirm">
                <CodeField recovery=false />
                <ActionError action=confirm />
                <button type="submit" disabled=move || confirm.pending().get()>{t(Msg::SecondFactorSwitchOn)}</button>
            </ActionForm>
        </div>
    }
}

/// The recovery codes, shown once, with print and download.
#[component]
pub fn RecoveryCodes(codes: Vec<String>) -> impl IntoView {
    let text = codes.join("\n");
    let href = format!("data:text/plain;charset=utf-8,{}", text.replace('\n', "%0A"));
    view! {
        <div class="callout callout-ok recovery-codes" role="status" data-testid="recovery-codes">
            <p><strong>{t(Msg::SecondFactorCodesTitle)}</strong></p>
            <p>{t(Msg::SecondFactorCodesLead)}</p>
            <ol class="codes">
                {codes.into_iter().map(|c| view! { <li><code>{c}</code></li> }).collect_view()}
            </ol>
            <p class="actions">
                <a href=href download="nodeledger-recovery-codes.txt" class="button">{t(Msg::SecondFactorCodesDownload)}</a>
                " "
                <button type="button" on:click=move |_| print_page()>{t(Msg::SecondFactorCodesPrint)}</button>
            </p>
        </div>
    }
}

fn print_page() {
    #[cfg(feature = "hydrate")]
    {
        let _ = window().print();
    }
}
