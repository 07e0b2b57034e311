//! The comparison page's closed parts (`<details data-lazy=…>`: the per-quote overrides, every
//! breakdown but the cheapest) load when opened: one `toggle` listener on the comparison (in the
//! capture phase: `toggle` does not bubble) fetches the part's HTML from
//! [`super::cost_page_part`] once and puts it into the part's `.lazy-body`. A part opened
//! before the page hydrated loads at hydration.

use wasm_bindgen::{JsCast, closure::Closure};
use web_sys::{Element, Event};

/// Loads the open parts inside `root` now and every other part when it is opened.
pub fn watch(root: &Element, query: &str) {
    while let Ok(Some(open)) = root.query_selector("details[data-lazy][open]:not([data-loaded])") {
        load(open, query.to_string());
    }
    let query = query.to_string();
    let on_toggle = Closure::<dyn FnMut(Event)>::new(move |e: Event| {
        let details = e.target().and_then(|t| t.dyn_into::<Element>().ok());
        if let Some(details) = details.filter(|d| d.has_attribute("open") && d.has_attribute("data-lazy")) {
            load(details, query.clone());
        }
    });
    let _ = root.add_event_listener_with_callback_and_bool("toggle", on_toggle.as_ref().unchecked_ref(), true);
    // The listener lives as long as the comparison's element (dropped with it by the browser).
    on_toggle.forget();
}

/// Fetches `details`' part once (marked `data-loaded`; unmarked again when the fetch fails, so
/// opening it again retries).
fn load(details: Element, query: String) {
    let Some(part) = details.get_attribute("data-lazy") else {
        return;
    };
    if details.has_attribute("data-loaded") {
        return;
    }
    let _ = details.set_attribute("data-loaded", "");
    leptos::task::spawn_local(async move {
        match super::cost_page_part(query, part).await {
            Ok(html) => {
                if let Ok(Some(body)) = details.query_selector(".lazy-body") {
                    body.set_inner_html(&html);
                }
            }
            Err(_) => {
                let _ = details.remove_attribute("data-loaded");
            }
        }
    });
}
