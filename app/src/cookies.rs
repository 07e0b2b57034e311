//! The cookies a request carries (server only): one reading of the `Cookie` headers for the
//! session, language and bundle cookies, and whether the site's own cookies are `Secure`.

/// Whether the language and bundle cookies carry `Secure` (the site is served over https). The
/// server puts it in the Leptos context and hands it to its own routes.
#[derive(Clone, Copy, Debug, Default)]
pub struct SecureCookies(pub bool);

/// The value of the cookie `name` in a request's `headers` (trimmed), if the browser sent it;
/// the first one when it sent several. Only the exact name: `nl_theme_x` is not `nl_theme`.
pub fn request_cookie<'h>(headers: &'h http::HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.split_once('='))
        .find(|(n, _)| n.trim() == name)
        .map(|(_, value)| value.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(lines: &[&str]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for l in lines {
            h.append(http::header::COOKIE, http::HeaderValue::from_str(l).unwrap());
        }
        h
    }

    #[test]
    fn a_cookie_is_found_by_its_exact_name_in_any_header_line() {
        let h = headers(&["a=1; nl_theme_x=2", " nl_theme = 3 ;lang=zh-CN"]);
        assert_eq!(request_cookie(&h, "nl_theme"), Some("3"));
        assert_eq!(request_cookie(&h, "lang"), Some("zh-CN"));
        assert_eq!(request_cookie(&h, "a"), Some("1"));
        assert_eq!(request_cookie(&h, "b"), None);
        assert_eq!(request_cookie(&headers(&["novalue"]), "novalue"), None);
    }
}
