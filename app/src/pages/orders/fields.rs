//! The messages of the order forms, each shown next to the field it is about.
//!
//! Every order form (create, answer an item, submit, decide) shows a rejected field's message
//! beside that field, with `aria-describedby` pointing at it; the form's summary line shows only
//! what belongs to no field. Ids are scoped (`{field}-error-{scope}`) because one page holds an
//! answer form per checklist item.

use crate::{
    components::{form_fields::issue_text, forms::last_error},
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg, use_locale},
};
use leptos::{prelude::*, server_fn::ServerFn};

/// The order pages' wording for a rejected field, when they have one (`None`: the generic
/// message of [`issue_text`]).
pub(super) fn field_msg(field: &str, code: &str) -> Option<Msg> {
    Some(match (field, code) {
        ("status_note", "reason_required") => Msg::OrdersFerrReasonRequired,
        ("status_note", "explanation_required") => Msg::OrdersFerrExplanationRequired,
        ("status", _) => Msg::OrdersFerrStatusInvalid,
        ("evidence_quote_field", _) => Msg::OrdersFerrQuoteFieldInvalid,
        ("comment", _) => Msg::OrdersFerrCommentRequired,
        ("decision", _) => Msg::OrdersFerrDecisionRequired,
        ("acknowledge_problems", "changed") => Msg::OrdersFerrAcknowledgeChanged,
        ("acknowledge_problems", _) => Msg::OrdersFerrAcknowledgeRequired,
        ("title", _) => Msg::OrdersFerrTitleRequired,
        _ => return None,
    })
}

/// The text for one field issue in `locale`.
pub(super) fn field_text(locale: Locale, issue: &FieldIssue) -> String {
    field_msg(&issue.field, &issue.code).map_or_else(|| issue_text(locale, issue), |m| locale.t(m).to_string())
}

/// The id of `field`'s message in the form `scope` (for `aria-describedby`).
pub(super) fn message_id(field: &str, scope: &str) -> String {
    format!("{field}-error-{scope}")
}

/// The issues of the last submission of `action`, plus one for `field` when it failed with the
/// refusal `refused` (a refusal that is about one field, such as a wrong password).
pub(super) fn issues_of<S>(action: ServerAction<S>, refused: Option<(Msg, &'static str)>) -> Signal<Vec<FieldIssue>>
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    Signal::derive(move || match last_error(action) {
        Some(AppError::InvalidFields(issues)) => issues,
        Some(AppError::Refused(m)) => match refused {
            Some((msg, field)) if msg == m => vec![FieldIssue::new(field, "refused")],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    })
}

/// The message next to `field` in the form `scope`, when the last submission rejected it.
#[component]
pub(super) fn FieldNote(
    issues: Signal<Vec<FieldIssue>>,
    field: &'static str,
    #[prop(into)] scope: String,
    /// The text for a refusal mapped to this field by [`issues_of`].
    #[prop(optional)]
    refused: Option<Msg>,
) -> impl IntoView {
    let locale = use_locale();
    let id = message_id(field, &scope);
    move || {
        let texts: Vec<String> = issues.with(|all| {
            all.iter()
                .filter(|i| i.field == field)
                .map(|i| match (i.code.as_str(), refused) {
                    ("refused", Some(m)) => locale.t(m).to_string(),
                    _ => field_text(locale, i),
                })
                .collect()
        });
        (!texts.is_empty()).then(|| {
            view! {
                <span class="field-error" id=id.clone() data-field=field role="alert" data-testid="field-error">
                    {texts.join(" ")}
                </span>
            }
        })
    }
}

/// `"true"` while the last submission rejected `field` (for `aria-invalid`).
pub(super) fn invalid(issues: Signal<Vec<FieldIssue>>, field: &'static str) -> impl Fn() -> &'static str + Copy {
    move || {
        if issues.with(|all| all.iter().any(|i| i.field == field)) {
            "true"
        } else {
            "false"
        }
    }
}

/// The error of the last submission of `action` that belongs to no field (field errors and
/// `at_field`, a refusal shown at its field, are shown there instead).
#[component]
pub(super) fn FormError<S>(action: ServerAction<S>, #[prop(optional)] at_field: Option<Msg>) -> impl IntoView
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    let locale = use_locale();
    move || {
        last_error(action).and_then(|e| match e {
            AppError::InvalidFields(_) => None,
            AppError::Refused(m) if Some(m) == at_field => None,
            e => Some(view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{field_msg, field_text, message_id};
    use crate::{error::FieldIssue, i18n::Locale};

    #[test]
    fn every_order_form_field_has_its_own_message_in_both_languages() {
        let cases = [
            ("status_note", "reason_required"),
            ("status_note", "explanation_required"),
            ("status", "invalid"),
            ("evidence_quote_field", "invalid"),
            ("comment", "required"),
            ("decision", "required"),
            ("acknowledge_problems", "required"),
            ("acknowledge_problems", "changed"),
            ("title", "required"),
        ];
        for (field, code) in cases {
            assert!(field_msg(field, code).is_some(), "{field} {code}");
            for locale in Locale::ALL {
                let text = field_text(locale, &FieldIssue::new(field, code));
                assert!(!text.is_empty() && !text.contains("see the messages"), "{text}");
            }
        }
        assert_eq!(
            field_text(Locale::En, &FieldIssue::new("comment", "required")),
            "A rejection needs a comment: say what must change before it can be approved."
        );
        assert_ne!(
            field_msg("status_note", "reason_required"),
            field_msg("status_note", "explanation_required")
        );
        assert_eq!(field_msg("headroom_pct", "required"), None);
        assert_eq!(
            message_id("status_note", "gpu.model_vram"),
            "status_note-error-gpu.model_vram"
        );
    }
}
