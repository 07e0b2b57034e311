//! The sign-in's second step, shown after a correct password: the code from the app (or a
//! recovery code), or — when the site requires a second factor and the user has none — setting
//! one up before anything else.

use super::{
    ConfirmEnrolment, LoginCode, RestartSignIn,
    enrol::{CodeField, EnrolmentPanel, RecoveryCodes},
};
use crate::{
    components::forms::ActionError,
    domain::second_factor::LoginStep,
    i18n::{Msg, t},
};
use leptos::prelude::*;

/// The second step for `step` (the answer of the password step).
#[component]
pub fn SecondStep(step: LoginStep) -> impl IntoView {
    match step {
        LoginStep::Enrol => view! { <EnrolAtSignIn /> }.into_any(),
        _ => view! { <CodeStep /> }.into_any(),
    }
}

#[component]
fn CodeStep() -> impl IntoView {
    let action = ServerAction::<LoginCode>::new();
    view! {
        <section class="card narrow" data-testid="login-code">
            <h1>{t(Msg::SecondFactorLoginTitle)}</h1>
            <p class="lead">{t(Msg::SecondFactorLoginLead)}</p>
            <ActionForm action attr:class="form" attr:data-testid="login-code-form">
                <CodeField recovery=true />
                <ActionError action />
                <button type="submit" disabled=move || action.pending().get()>{t(Msg::LoginSubmit)}</button>
            </ActionForm>
            <StartAgain />
        </section>
    }
}

/// Forgets the matched password and shows the password form again (a form, not a link: the
/// session keeps the pending step, and the page shows it until it is dropped).
#[component]
fn StartAgain() -> impl IntoView {
    let restart = ServerAction::<RestartSignIn>::new();
    view! {
        <ActionForm action=restart attr:class="inline-form">
            <button type="submit" class="link-button" data-testid="login-start-again">
                {t(Msg::SecondFactorStartAgain)}
            </button>
        </ActionForm>
    }
}

/// Setting up a second factor before anything else: the sign-in page's one island (the QR code
/// and the recovery codes are the answers of its forms, shown in place), loaded only in this
/// step.
#[island(lazy)]
fn EnrolAtSignIn() -> impl IntoView {
    let confirm = ServerAction::<ConfirmEnrolment>::new();
    view! {
        <section class="card narrow" data-testid="login-enrol">
            <h1>{t(Msg::SecondFactorEnrolTitle)}</h1>
            <p class="lead">{t(Msg::SecondFactorEnrolLead)}</p>
            <Show
                when=move || matches!(confirm.value().get(), Some(Ok(_)))
                fallback=move || view! { <EnrolmentPanel confirm ask_password=false /> <StartAgain /> }
            >
                {move || confirm.value().get().and_then(Result::ok).map(|codes| view! { <RecoveryCodes codes /> })}
                <p><a href="/" rel="external" class="button" data-testid="continue">{t(Msg::SecondFactorContinue)}</a></p>
            </Show>
        </section>
    }
}
