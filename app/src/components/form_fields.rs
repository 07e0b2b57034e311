//! Form fields: the messages of a rejected form, each shown next to its input.

use crate::{
    components::forms::{ActionError, last_error},
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg, t, use_locale},
};
use leptos::{prelude::*, server_fn::ServerFn};

/// The field issues of the last submission of `action` (empty unless it failed field checks).
pub fn field_issues<S>(action: ServerAction<S>) -> Signal<Vec<FieldIssue>>
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Signal::derive(move || match last_error(action) {
        Some(AppError::InvalidFields(issues)) => issues,
        _ => Vec::new(),
    })
}

/// The end of an edit form: the error of the last save, “Saved.” after a success, the button.
#[component]
pub fn SaveFooter<S>(action: ServerAction<S>) -> impl IntoView
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    // Saved in place, or (posted without a script) the page says so in its address.
    let posted = crate::components::forms::saved_in_url(S::PATH);
    let saved = move || posted || matches!(action.value().get(), Some(Ok(_)));
    view! {
        <ActionError action />
        {move || saved().then(|| view! { <p class="form-ok" role="status">{t(Msg::FormSaved)}</p> })}
        <button type="submit" disabled=move || action.pending().get()>{t(Msg::FormSave)}</button>
    }
}

/// The message for one issue in `locale`, its limit filled in ([`FieldIssue::text`]).
pub fn issue_text(locale: Locale, issue: &FieldIssue) -> String {
    issue.text(locale)
}

/// The messages for `field`, if the last submission rejected it. Give the input
/// `aria-describedby` = `{field}-error` so screen readers announce them with the input.
#[component]
pub fn FieldMessage(issues: Signal<Vec<FieldIssue>>, field: &'static str) -> impl IntoView {
    let locale = use_locale();
    let texts = move || {
        issues.with(|all| {
            all.iter()
                .filter(|i| i.field == field)
                .map(|i| issue_text(locale, i))
                .collect::<Vec<_>>()
        })
    };
    move || {
        let texts = texts();
        (!texts.is_empty()).then(|| {
            view! {
                <span class="field-error" id=format!("{field}-error") data-field=field>
                    {texts.join(" ")}
                </span>
            }
        })
    }
}

/// Whether `field` was rejected by the last submission (for `aria-invalid`).
pub fn is_invalid(issues: Signal<Vec<FieldIssue>>, field: &'static str) -> impl Fn() -> &'static str + Copy {
    move || {
        if issues.with(|all| all.iter().any(|i| i.field == field)) {
            "true"
        } else {
            "false"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(code: &str, limit: Option<&str>) -> FieldIssue {
        FieldIssue {
            field: "headroom_pct".into(),
            code: code.into(),
            limit: limit.map(Into::into),
        }
    }

    #[test]
    fn messages_fill_the_limit_in_both_languages() {
        for locale in Locale::ALL {
            let text = issue_text(locale, &issue("out_of_range", Some("[15, 25]")));
            assert!(text.contains("[15, 25]") && !text.contains("{limit}"), "{text}");
        }
        assert_eq!(
            issue_text(Locale::En, &issue("made_up", None)),
            Locale::En.t(Msg::FieldErrorInvalid)
        );
    }
}
