//! "Next open item": one key moves to the next checklist item the viewer still has to answer.
//!
//! `N` (when focus is not in a text field, a list box or a text area), the button's access key
//! (Alt+Shift+N in Chromium) or the button itself focuses the next open item after the one that
//! holds focus, wrapping around; Tab then moves into its form. The page says so beside the button.
//! The server marks each item open or not (`data-open`); the page's script moves the focus
//! (`components/next_open.js`).

use crate::{
    i18n::{Msg, t},
    views::orders::ItemLine,
};
use leptos::prelude::*;

/// Whether the viewer still has to answer `line`: it is theirs and open, or it blocks at the
/// item (a missing reason, explanation or evidence).
pub(super) fn is_open(line: &ItemLine) -> bool {
    line.can_answer && (line.status == "open" || line.blocker.is_some())
}

/// The button, its hint and the place where the page says that no open item is left.
pub(super) fn next_open_bar() -> impl IntoView {
    view! {
        <div class="next-open no-print" data-testid="next-open">
            <button type="button" class="small secondary" accesskey="n" aria-keyshortcuts="N Alt+Shift+N" data-testid="next-open-button" data-next-open="">
                {t(Msg::OrdersNextOpen)}
            </button>
            " " <span class="hint" data-testid="next-open-hint">{t(Msg::OrdersNextOpenHint)}</span>
            " " <span role="status" aria-live="polite" data-next-open-none=t(Msg::OrdersNoOpenItems)></span>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::is_open;
    use crate::views::orders::ItemLine;

    #[test]
    fn an_item_is_open_for_whoever_answers_it_until_answered_and_while_it_blocks() {
        let mine = |status: &str, blocker: Option<&str>| ItemLine {
            can_answer: true,
            status: status.into(),
            blocker: blocker.map(str::to_string),
            ..ItemLine::default()
        };
        assert!(is_open(&mine("open", None)));
        assert!(!is_open(&mine("confirmed", None)));
        assert!(is_open(&mine("confirmed", Some("evidence missing"))));
        let theirs = ItemLine {
            can_answer: false,
            ..mine("open", None)
        };
        assert!(!is_open(&theirs));
    }
}
