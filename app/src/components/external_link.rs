//! Links to other sites (a vendor's web site): only `http`/`https`, opened without giving the
//! other site a handle on this page.

use leptos::prelude::*;

/// The address to link to for `website`, or `None` when it must not become a link
/// (`javascript:`, `data:`, anything but http(s)). A bare host (`example.com/x`) gets `https://`.
pub fn safe_href(website: &str) -> Option<String> {
    let w = website.trim();
    if w.is_empty() || w.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let lower = w.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return (w.len() > lower.find("://").unwrap_or(0) + 3).then(|| w.to_string());
    }
    let host = w.split(['/', '?', '#']).next().unwrap_or_default();
    let bare_host = !w.contains(':') && host.contains('.') && !host.starts_with('.');
    bare_host.then(|| format!("https://{w}"))
}

/// `text` as an external link when [`safe_href`] allows it, else as plain text.
#[component]
pub fn ExternalLink(text: String) -> impl IntoView {
    match safe_href(&text) {
        Some(href) => view! { <a href=href target="_blank" rel="noopener noreferrer">{text}</a> }.into_any(),
        None => view! { <span>{text}</span> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::safe_href;

    #[test]
    fn only_web_addresses_become_links() {
        assert_eq!(
            safe_href("https://gpu.example.com").as_deref(),
            Some("https://gpu.example.com")
        );
        assert_eq!(
            safe_href(" HTTP://x.example/a?b ").as_deref(),
            Some("HTTP://x.example/a?b")
        );
        assert_eq!(
            safe_href("example.com/pricing").as_deref(),
            Some("https://example.com/pricing")
        );
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,x",
            "//evil.example",
            "https://",
            "a b.com",
            "",
            "localhost",
            "mailto:a@b.c",
        ] {
            assert_eq!(safe_href(bad), None, "{bad}");
        }
    }
}
