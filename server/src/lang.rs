//! `POST /lang`: the language switch. Remembers the choice in a cookie and goes back to the
//! page the user was on. A plain form post, so it works before the page is interactive.
//! `GET /pkg/texts/<tag>.<hash>.json`: one language's texts for the browser bundle, which has
//! none of its own.

use crate::listed::Listed;
use app::{
    cookies::SecureCookies,
    i18n::{LANG_COOKIE, Locale},
};
use axum::{
    Form,
    extract::{Path, State},
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
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
    Listed::new()
        .route("/lang", post(set_language))
        .route("/pkg/texts/{file}", get(texts))
}

/// Every message's text in one language ([`app::i18n::texts_for_browser`]), at the address
/// pages of this build name: a static file in all but name (kept for a year, as its name holds
/// its content's hash). Any other name is not found (a page of another build).
pub async fn texts(Path(file): Path<String>) -> Response {
    let locale = file.split('.').next().and_then(Locale::from_tag);
    let Some((address, json)) = locale.map(app::i18n::texts_for_browser) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if address.strip_prefix("/pkg/texts/") != Some(file.as_str()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    ([(header::CONTENT_TYPE, "application/json")], json.as_str()).into_response()
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
