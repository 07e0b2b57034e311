//! The questions for the vendor: every item still waiting for something only the vendor can say
//! (what the quote does not state), as a list, as one message to copy, and as one e-mail to the
//! vendor's address when its record has one. A save redraws it with the page.

use crate::{
    i18n::{Msg, t, use_locale},
    views::orders::ItemLine,
};
use leptos::prelude::*;

/// The questions of the items not yet done, in checklist order.
fn questions(lines: &[ItemLine]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.done)
        .filter_map(|l| l.ask_vendor.clone())
        .collect()
}

/// The first e-mail address in a vendor's contact ("Li Wei, ops@vendor.example, +86 …").
fn email_in(contact: &str) -> Option<String> {
    contact
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '<' | '>' | '(' | ')'))
        .find(|w| {
            w.split_once('@')
                .is_some_and(|(user, host)| !user.is_empty() && host.contains('.') && !host.contains('@'))
        })
        .map(str::to_string)
}

/// `text` percent-encoded for a `mailto:` address's query: everything but the unreserved
/// characters of RFC 3986.
fn encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The message: a greeting naming the order, the numbered questions, thanks.
fn message(intro: &str, thanks: &str, questions: &[String]) -> String {
    let numbered: Vec<String> = questions
        .iter()
        .enumerate()
        .map(|(n, q)| format!("{}. {q}", n + 1))
        .collect();
    format!("{intro}\n\n{}\n\n{thanks}", numbered.join("\n"))
}

/// The card part: folded, with the count in its summary; nothing when nothing is left to ask.
pub(super) fn vendor_questions(title: &str, contact: Option<&str>, lines: &[ItemLine]) -> impl IntoView + use<> {
    let locale = use_locale();
    let asked = questions(lines);
    (!asked.is_empty()).then(|| {
        let n = asked.len().to_string();
        let intro = locale.fmt(Msg::ChecklistVendorMailIntro, &[("title", title)]);
        let subject = locale.fmt(Msg::ChecklistVendorMailSubject, &[("title", title)]);
        let body = message(&intro, locale.t(Msg::ChecklistVendorMailThanks), &asked);
        let mail = contact.and_then(email_in).map(|to| {
            let href = format!("mailto:{to}?subject={}&body={}", encoded(&subject), encoded(&body));
            let send = locale.fmt(Msg::ChecklistVendorMailSend, &[("n", &n), ("to", &to)]);
            view! { <p><a class="button" href=href data-testid="vendor-questions-mail">{send}</a></p> }
        });
        view! {
            <details class="vendor-questions no-print" data-keep-open="" data-testid="vendor-questions">
                <summary>{locale.fmt(Msg::ChecklistVendorQuestions, &[("n", &n)])}</summary>
                <p class="hint">{t(Msg::ChecklistVendorQuestionsHint)}</p>
                <ol data-testid="vendor-questions-list">{asked.into_iter().map(|q| view! { <li>{q}</li> }).collect_view()}</ol>
                {mail}
                <label>{t(Msg::ChecklistVendorMailCopy)}
                    <textarea readonly rows="6" data-testid="vendor-questions-text">{body}</textarea>
                </label>
            </details>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{email_in, encoded, message, questions};
    use crate::views::orders::ItemLine;

    #[test]
    fn only_items_not_done_with_a_question_are_asked() {
        let ask = |q: &str, done| ItemLine {
            ask_vendor: Some(q.into()),
            done,
            ..ItemLine::default()
        };
        let lines = [
            ask("disk encryption?", false),
            ask("answered", true),
            ItemLine::default(),
        ];
        assert_eq!(questions(&lines), ["disk encryption?"]);
    }

    #[test]
    fn the_address_is_the_first_word_that_reads_as_one() {
        assert_eq!(
            email_in("Li Wei, ops@vendor.example, +86 21 5555").as_deref(),
            Some("ops@vendor.example")
        );
        assert_eq!(email_in("<sales@gpu.example>").as_deref(), Some("sales@gpu.example"));
        assert_eq!(email_in("+86 21 5555 0100"), None);
        assert_eq!(email_in("@handle"), None);
    }

    #[test]
    fn the_message_numbers_the_questions_and_encodes_for_mailto() {
        let m = message("Hello,", "Thanks.", &["A?".into(), "B?".into()]);
        assert_eq!(m, "Hello,\n\n1. A?\n2. B?\n\nThanks.");
        assert_eq!(encoded("a b&c=d\n磁"), "a%20b%26c%3Dd%0A%E7%A3%81");
    }
}
