//! "Next open item": one key moves to the next checklist item the viewer still has to answer.
//!
//! `N` (when focus is not in a text field, a list box or a text area), the button's access key
//! (Alt+Shift+N in Chromium) or the button itself focuses the next open item after the one that
//! holds focus, wrapping around; Tab then moves into its form. The page says so beside the button.

use crate::{
    i18n::{Msg, t},
    views::orders::ItemLine,
};
use leptos::prelude::*;

/// Every item of the page in order, each with its live line (updated in place when saved).
pub(super) type Items = StoredValue<Vec<RwSignal<ItemLine>>>;

/// Whether the viewer still has to answer `line`: it is theirs and open, or it blocks at the
/// item (a missing reason, explanation or evidence).
pub(super) fn is_open(line: &ItemLine) -> bool {
    line.can_answer && (line.status == "open" || line.blocker.is_some())
}

/// The id of the first open item after `current` in page order, wrapping around to the first
/// (`current` `None` or unknown: the first open item; `None`: no open item).
pub(super) fn next_open<'a>(items: &'a [(String, bool)], current: Option<&str>) -> Option<&'a str> {
    let start = current
        .and_then(|c| items.iter().position(|(id, _)| id == c))
        .map_or(0, |i| i + 1);
    let (before, after) = items.split_at(start.min(items.len()));
    after
        .iter()
        .chain(before)
        .find(|(_, open)| *open)
        .map(|(id, _)| id.as_str())
}

/// The button, its hint and the `N` key for the whole page (installed once the page hydrated).
pub(super) fn next_open_bar(items: Items) -> impl IntoView {
    let none_left = RwSignal::new(false);
    let go = move || none_left.set(!browser::focus_next(items));
    Effect::new(move |_| browser::on_next_key(go));
    view! {
        <div class="next-open no-print" data-testid="next-open">
            <button type="button" class="small secondary" accesskey="n" aria-keyshortcuts="N Alt+Shift+N" data-testid="next-open-button" on:click=move |_| go()>
                {t(Msg::OrdersNextOpen)}
            </button>
            " " <span class="hint" data-testid="next-open-hint">{t(Msg::OrdersNextOpenHint)}</span>
            " " <span role="status" aria-live="polite">{move || none_left.get().then(|| t(Msg::OrdersNoOpenItems))}</span>
        </div>
    }
}

/// The lines as [`next_open`] reads them: id and whether it is open.
fn open_lines(items: Items) -> Vec<(String, bool)> {
    items.with_value(|all| {
        all.iter()
            .map(|line| line.with_untracked(|l| (l.id.clone(), is_open(l))))
            .collect()
    })
}

/// What only a browser does: focus, the key listener.
#[cfg(feature = "hydrate")]
mod browser {
    use super::{Items, next_open, open_lines};
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;

    /// Focuses the next open item after the one holding focus; `false` when none is left.
    pub(super) fn focus_next(items: Items) -> bool {
        let open = open_lines(items);
        let current = focused_item();
        let Some(id) = next_open(&open, current.as_deref()) else {
            return false;
        };
        let element = document().get_element_by_id(&format!("item-{id}"));
        if let Some(el) = element.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
        true
    }

    /// Calls `go` on every bare `N` typed outside a text field, until the page goes away.
    pub(super) fn on_next_key(go: impl Fn() + Clone + 'static) {
        let handle = window_event_listener(leptos::ev::keydown, move |e| {
            if is_next_key(&e) {
                e.prevent_default();
                go();
            }
        });
        on_cleanup(move || handle.remove());
    }

    /// The id of the checklist item that holds focus, if any.
    fn focused_item() -> Option<String> {
        let active = document().active_element()?;
        let item = active.closest("[data-testid=checklist-item]").ok()??;
        item.id().strip_prefix("item-").map(str::to_string)
    }

    /// Whether `e` is a bare `N` typed outside a text field (where it would be text).
    fn is_next_key(e: &web_sys::KeyboardEvent) -> bool {
        if !e.key().eq_ignore_ascii_case("n") || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return false;
        }
        let Some(active) = document().active_element() else {
            return true;
        };
        let typing = match active.tag_name().to_ascii_lowercase().as_str() {
            "textarea" | "select" => true,
            "input" => !matches!(
                active.get_attribute("type").unwrap_or_default().as_str(),
                "checkbox" | "radio" | "button" | "submit" | "reset"
            ),
            _ => active.get_attribute("contenteditable").is_some_and(|v| v != "false"),
        };
        !typing
    }
}

/// On the server nothing is focused and no key is pressed.
#[cfg(not(feature = "hydrate"))]
mod browser {
    use super::{Items, next_open, open_lines};

    /// Nothing to focus on the server: only whether an item is left.
    pub(super) fn focus_next(items: Items) -> bool {
        next_open(&open_lines(items), None).is_some()
    }

    /// No keys on the server.
    pub(super) fn on_next_key(_go: impl Fn() + Clone + 'static) {}
}

#[cfg(test)]
mod tests {
    use super::next_open;

    fn items() -> Vec<(String, bool)> {
        [("a", false), ("b", true), ("c", false), ("d", true)]
            .into_iter()
            .map(|(id, open)| (id.to_string(), open))
            .collect()
    }

    #[test]
    fn the_next_open_item_follows_the_focused_one_and_wraps_around() {
        let items = items();
        assert_eq!(next_open(&items, None), Some("b"));
        assert_eq!(next_open(&items, Some("a")), Some("b"));
        assert_eq!(next_open(&items, Some("b")), Some("d"), "not the item itself");
        assert_eq!(next_open(&items, Some("c")), Some("d"));
        assert_eq!(next_open(&items, Some("d")), Some("b"), "wraps around");
        assert_eq!(next_open(&items, Some("gone")), Some("b"));
        let done: Vec<(String, bool)> = items.into_iter().map(|(id, _)| (id, false)).collect();
        assert_eq!(next_open(&done, Some("b")), None);
        assert_eq!(next_open(&[], None), None);
    }
}
