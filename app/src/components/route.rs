//! Reading a page's address and writing links: the record id in the path, a missing id as
//! "not found", query values percent-encoded.

use crate::error::AppError;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

/// The `:id` of the current route, if it is a number (tracked: it changes with the route).
pub fn route_id() -> impl Fn() -> Option<i64> + Copy + Send + Sync + 'static {
    let params = use_params_map();
    move || params.read().get("id").and_then(|id| id.parse::<i64>().ok())
}

/// Loads record `id` with `load`; an address without a readable id is "not found" without
/// asking the server.
pub async fn load_or_not_found<T, Fut>(id: Option<i64>, load: impl FnOnce(i64) -> Fut) -> Result<T, AppError>
where
    Fut: Future<Output = Result<T, AppError>>,
{
    match id {
        Some(id) => load(id).await,
        None => Err(AppError::NotFound),
    }
}

/// Percent-encodes a query value: everything but the unreserved characters of RFC 3986
/// (`A–Z a–z 0–9 - _ . ~`), byte by byte of its UTF-8.
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_all_but_the_unreserved_characters() {
        assert_eq!(urlencode("H100-80G_v1.2~"), "H100-80G_v1.2~");
        assert_eq!(urlencode("tokens/s & more"), "tokens%2Fs%20%26%20more");
        assert_eq!(urlencode("显存"), "%E6%98%BE%E5%AD%98");
    }

    #[tokio::test]
    async fn a_missing_id_is_not_found_without_loading() {
        let load = |id: i64| async move { Ok::<_, AppError>(id * 2) };
        assert_eq!(load_or_not_found(Some(21), load).await, Ok(42));
        // Loading would answer "internal error": "not found" shows it was not asked.
        let failing = |_: i64| async { Err::<i64, _>(AppError::Internal) };
        assert_eq!(load_or_not_found(None, failing).await, Err(AppError::NotFound));
    }
}
