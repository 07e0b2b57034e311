//! `POST /lang`: the language switch. Remembers the choice in a cookie and goes back to the
//! page the user was on. A plain form post, so it works before the page is interactive.

use crate::listed::Listed;
use app::{
    cookies::SecureCookies,
    i18n::{LANG_COOKIE, Locale},
};
use axum::{
    Form,
    extract::State,
    response::{IntoResponse, Redirect, Response},
    routing::post,
};
use http::{HeaderValue, StatusCode, header};
use serde::Deserialize;

/// The language switch form.
#[derive(Debug, Deserialize)]
pub struct LanguageForm {
    /// Tag of the chosen language (`en`, `zh-CN`).
    pub lang: String,
    /// Where to go back to: a path on this site.
    #[serde(default)]
    pub next: String,
}

/// Whether `next` is a path on this site (not `//other.site` or a full URL).
fn is_local_path(next: &str) -> bool {
    next.starts_with('/') && !next.starts_with("//") && !next.contains('\\') && !next.chars().any(char::is_control)
}

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new().route("/lang", post(set_language))
}

/// Sets the language cookie and redirects (303) back.
pub async fn set_language(
    State(SecureCookies(secure)): State<SecureCookies>,
    Form(form): Form<LanguageForm>,
) -> Response {
    let Some(locale) = Locale::from_tag(&form.lang) else {
        return (StatusCode::UNPROCESSABLE_ENTITY, "unknown language / 未知语言").into_response();
    };
    let next = if is_local_path(&form.next) {
        form.next.as_str()
    } else {
        "/"
    };
    let secure = if secure { "; Secure" } else { "" };
    let value = format!(
        "{LANG_COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax{secure}",
        locale.tag()
    );
    let mut res = Redirect::to(next).into_response();
    if let Ok(v) = HeaderValue::from_str(&value) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_followed() {
        assert!(is_local_path("/admin/teams?x=1"));
        assert!(!is_local_path("//evil.example"));
        assert!(!is_local_path("https://evil.example"));
        assert!(!is_local_path("/\\evil.example"));
        assert!(!is_local_path(""));
    }
}
