//! People's times in their own time zone.
//!
//! The server stores and sends every moment in UTC (RFC 3339, `2026-11-03T10:00:00Z`) and knows
//! no reader's zone; the browser does. So a moment is rendered twice over:
//! - on the server, and in the browser while it hydrates, as the same UTC text
//!   (`2026-11-03 10:00 UTC`, [`crate::texts::moment`]) — the two renders agree, so hydration
//!   never meets a mismatch, and a page sent without WASM still says which zone it shows;
//! - once hydrated, an effect (effects run in the browser only) switches it to the browser's
//!   zone, with the offset said (`2026-11-03 18:00 UTC+8`); the UTC text stays in the tooltip.
//!
//! Moments inside sentences the server words (an order's history, a bill's import line) stay in
//! UTC, labelled so.

use crate::texts::moment;
use leptos::prelude::*;

/// A stored moment (`at`, RFC 3339 UTC) in the reader's time zone once the page is hydrated
/// (see the module). Text that is not such a moment is shown as it is.
#[component]
pub fn Moment(#[prop(into)] at: String) -> impl IntoView {
    let in_browser = RwSignal::new(false);
    Effect::new(move |_| in_browser.set(true));
    let utc = moment(&at);
    let shown = {
        let (at, utc) = (at.clone(), utc.clone());
        move || {
            if in_browser.get() {
                local_moment(&at).unwrap_or_else(|| utc.clone())
            } else {
                utc.clone()
            }
        }
    };
    view! { <time datetime=at title=utc>{shown}</time> }
}

/// `at` in the browser's time zone: `2026-11-03 18:00 UTC+8`, `2026-11-03 05:30 UTC-4:30`,
/// `2026-11-03 10:00 UTC` at no offset. `None` outside the browser or for text that is no moment.
#[must_use]
pub fn local_moment(at: &str) -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        if moment(at) == at {
            return None;
        }
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_str(at));
        if date.get_time().is_nan() {
            return None;
        }
        Some(format_local(
            (date.get_full_year(), date.get_month() + 1, date.get_date()),
            (date.get_hours(), date.get_minutes()),
            date.get_timezone_offset(),
        ))
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = at;
        None
    }
}

/// Today's date in the browser's time zone (`2026-12-06`), for a date field's default; `None`
/// outside the browser.
#[must_use]
pub fn browser_today() -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        let now = js_sys::Date::new_0();
        Some(format!(
            "{:04}-{:02}-{:02}",
            now.get_full_year(),
            now.get_month() + 1,
            now.get_date()
        ))
    }
    #[cfg(not(feature = "hydrate"))]
    {
        None
    }
}

/// A local date and time with its offset from UTC. `offset_min` is what the browser's
/// `getTimezoneOffset` gives: minutes to *add* to local time to reach UTC (-480 in Beijing).
#[must_use]
pub fn format_local((y, mo, d): (u32, u32, u32), (h, mi): (u32, u32), offset_min: f64) -> String {
    #[expect(clippy::cast_possible_truncation, reason = "an offset of at most a day, in minutes")]
    let east = -(offset_min.round() as i32);
    let zone = if east == 0 {
        "UTC".to_owned()
    } else {
        let sign = if east > 0 { '+' } else { '-' };
        let (hours, minutes) = (east.abs() / 60, east.abs() % 60);
        if minutes == 0 {
            format!("UTC{sign}{hours}")
        } else {
            format!("UTC{sign}{hours}:{minutes:02}")
        }
    };
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02} {zone}")
}

#[cfg(test)]
mod tests {
    use super::format_local;

    #[test]
    fn a_local_time_says_its_offset() {
        assert_eq!(format_local((2026, 11, 3), (18, 0), -480.0), "2026-11-03 18:00 UTC+8");
        assert_eq!(format_local((2026, 11, 3), (5, 30), 270.0), "2026-11-03 05:30 UTC-4:30");
        assert_eq!(format_local((2026, 1, 9), (10, 5), 0.0), "2026-01-09 10:05 UTC");
        assert_eq!(
            format_local((2026, 11, 3), (15, 45), -345.0),
            "2026-11-03 15:45 UTC+5:45"
        );
    }
}
