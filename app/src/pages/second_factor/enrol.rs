//! The account page's second-factor section: set up an authenticator app (QR code, secret in
//! groups, first code), the recovery codes shown once, new recovery codes, switching it off; and
//! the set-up panel of the sign-in's island.

use super::{ConfirmEnrolment, DisableSecondFactor, RegenerateRecoveryCodes, StartEnrolment};
use crate::{
    components::forms::{ActionError, saved_in_url, shown_once},
    i18n::{Msg, t, use_locale},
    views::second_factor::{Enrolment, SecondFactorStatus},
};
use leptos::{prelude::*, server_fn::ServerFn};

/// The second-factor section of the account page, as the server reads it: off, with the set-up
/// this session started (`enrolment`) if any, or on, with the recovery codes just made (shown
/// this once) and the forms for new codes and switching it off. Every form saves in place
/// (`data-in-place`) or posts as a plain form.
#[component]
pub fn SecondFactorSection(status: SecondFactorStatus, enrolment: Option<Enrolment>) -> impl IntoView {
    let confirm = ServerAction::<ConfirmEnrolment>::new();
    let regenerate = ServerAction::<RegenerateRecoveryCodes>::new();
    let disable = ServerAction::<DisableSecondFactor>::new();
    let first_codes = shown_once::<Vec<String>>(ConfirmEnrolment::PATH);
    let ended = first_codes.is_some() || saved_in_url(DisableSecondFactor::PATH);
    view! {
        <section class="card narrow" data-testid="second-factor">
            <h2>{t(Msg::SecondFactorTitle)}</h2>
            <p class="lead">{t(Msg::SecondFactorLead)}</p>
            {ended.then(|| view! { <p class="form-ok" role="status" data-testid="others-ended">{t(Msg::ReauthOthersEnded)}</p> })}
            {status_view(status, enrolment, first_codes, confirm, regenerate, disable)}
        </section>
    }
}

fn status_view(
    status: SecondFactorStatus,
    enrolment: Option<Enrolment>,
    first_codes: Option<Vec<String>>,
    confirm: ServerAction<ConfirmEnrolment>,
    regenerate: ServerAction<RegenerateRecoveryCodes>,
    disable: ServerAction<DisableSecondFactor>,
) -> AnyView {
    if !status.enabled {
        let required = status
            .required
            .then(|| view! { <p class="callout">{t(Msg::SecondFactorRequiredHint)}</p> });
        let start = ServerAction::<StartEnrolment>::new();
        return view! {
            {required}
            <p data-testid="second-factor-state">{t(Msg::SecondFactorOff)}</p>
            <ActionForm action=start attr:class="form-inline" attr:data-testid="enrol-start" attr:data-in-place="">
                <PasswordField />
                <button type="submit">{t(Msg::SecondFactorSetUp)}</button>
            </ActionForm>
            <ActionError action=start />
            {enrolment.map(|enrolment| enrolment_view(enrolment, confirm, true))}
        }
        .into_any();
    }
    let locale = use_locale();
    let left = locale.fmt(
        Msg::SecondFactorCodesLeft,
        &[("count", &status.recovery_codes_left.to_string())],
    );
    let switch_off = (!status.required).then(|| disable_form(disable));
    let new_codes = shown_once::<Vec<String>>(RegenerateRecoveryCodes::PATH);
    view! {
        {first_codes.map(|codes| view! { <RecoveryCodes codes /> })}
        <p class="form-ok" data-testid="second-factor-state">{t(Msg::SecondFactorOn)}</p>
        <p data-testid="recovery-codes-left">{left}</p>
        <h3>{t(Msg::SecondFactorRegenerate)}</h3>
        <ActionForm action=regenerate attr:class="form" attr:data-testid="regenerate-form" attr:data-in-place="">
            <p class="hint">{t(Msg::ReauthLead)}</p>
            <PasswordField />
            <CodeField recovery=true />
            <ActionError action=regenerate />
            <button type="submit">{t(Msg::SecondFactorRegenerate)}</button>
        </ActionForm>
        {new_codes.map(|codes| view! { <RecoveryCodes codes /> })}
        {switch_off}
    }
    .into_any()
}

fn disable_form(disable: ServerAction<DisableSecondFactor>) -> impl IntoView {
    view! {
        <h3>{t(Msg::SecondFactorDisable)}</h3>
        <ActionForm action=disable attr:class="form" attr:data-testid="disable-form" attr:data-in-place="">
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
/// the signed-in user has a second factor (an app code or a recovery code).
#[component]
pub fn ReauthCode(status: SecondFactorStatus) -> impl IntoView {
    status.enabled.then(|| view! { <CodeField recovery=true /> })
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
        {move || start.value().get().and_then(Result::ok).map(|enrolment| enrolment_view(enrolment, confirm, false))}
    }
}

/// The QR code, the secret and the form for the first code; with `in_place` the form saves in
/// place (the account page), else it is a hydrated form (the sign-in's island).
fn enrolment_view(enrolment: Enrolment, confirm: ServerAction<ConfirmEnrolment>, in_place: bool) -> impl IntoView {
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
            <ActionForm action=confirm attr:class="form" attr:data-testid="enrol-confirm" attr:data-in-place=in_place.then_some("")>
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
                <button type="button" data-print="">{t(Msg::SecondFactorCodesPrint)}</button>
            </p>
        </div>
    }
}
