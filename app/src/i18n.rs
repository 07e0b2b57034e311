//! Languages of the UI (简体中文 and English) and the message catalogue.
//!
//! All user-facing text lives in `app/locales/en/*.json` and `app/locales/zh-CN/*.json`; the build
//! script turns their keys into the [`Msg`] enum, so a typo in a key is a compile error and a
//! key missing in one language fails the build.

use leptos::prelude::*;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

include!(concat!(env!("OUT_DIR"), "/messages.rs"));

/// A message travels as its key (`"quotes.title"`), as serde's derive would write it, but without
/// the derive's per-variant code, which for a thousand variants was the largest code in the
/// browser bundle.
impl Serialize for Msg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for Msg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Reads a key of the locale files.
        struct Key;

        impl serde::de::Visitor<'_> for Key {
            type Value = Msg;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a message key of app/locales")
            }

            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Msg, E> {
                Msg::from_key(key).ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(key), &self))
            }
        }

        deserializer.deserialize_str(Key)
    }
}

/// Name of the cookie that remembers the chosen language.
pub const LANG_COOKIE: &str = "nl_lang";

/// A language of the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Locale {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Locale {
    /// Every supported language, in the order the switch shows them.
    pub const ALL: [Locale; 2] = [Locale::ZhCn, Locale::En];

    /// The BCP 47 tag, as used in `<html lang>` and in the cookie.
    pub const fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::ZhCn => "zh-CN",
        }
    }

    /// Parses a tag as stored in the cookie or sent by the language switch.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let tag = tag.trim().to_ascii_lowercase();
        if tag == "en" || tag.starts_with("en-") {
            Some(Locale::En)
        } else if tag == "zh" || tag.starts_with("zh-") {
            Some(Locale::ZhCn)
        } else {
            None
        }
    }

    /// Picks the best language from an `Accept-Language` header (RFC 9110 §12.5.4):
    /// the supported language with the highest quality, English when nothing matches.
    pub fn negotiate(accept_language: &str) -> Locale {
        let mut best: Option<(u16, Locale)> = None;
        for (position, entry) in accept_language.split(',').enumerate() {
            let mut parts = entry.split(';');
            let Some(locale) = parts.next().and_then(Locale::from_tag) else {
                continue;
            };
            let quality = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(1000, parse_quality);
            // Earlier entries win ties, as browsers list preferences in order.
            let score = quality.saturating_mul(64).saturating_sub(position.min(63) as u16);
            if quality > 0 && best.is_none_or(|(s, _)| score > s) {
                best = Some((score, locale));
            }
        }
        best.map_or(Locale::En, |(_, l)| l)
    }

    /// The text of `msg` in this language.
    pub const fn t(self, msg: Msg) -> &'static str {
        match self {
            Locale::En => msg.en(),
            Locale::ZhCn => msg.zh_cn(),
        }
    }

    /// The text of `msg` with `{name}` placeholders replaced.
    pub fn fmt(self, msg: Msg, args: &[(&str, &str)]) -> String {
        let mut text = self.t(msg).to_string();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// A count in words: `one` when `n` is 1 (`Import the bill (1 line)`), else `many` with
    /// `{n}` written grouped by thousands (`Import the bill (1,250 lines)`).
    pub fn count(self, one: Msg, many: Msg, n: u64) -> String {
        if n == 1 {
            self.t(one).to_string()
        } else {
            self.fmt(many, &[("n", &group(n.into(), 0))])
        }
    }
}

/// Parses an HTTP quality value ("0.8") to thousandths, without floating point.
fn parse_quality(q: &str) -> u16 {
    let q = q.trim();
    let (whole, frac) = q.split_once('.').unwrap_or((q, ""));
    let whole: u16 = match whole {
        "1" => 1,
        "0" | "" => 0,
        _ => return 0,
    };
    let frac: String = frac.chars().chain("000".chars()).take(3).collect();
    (whole * 1000 + frac.parse::<u16>().unwrap_or(0)).min(1000)
}

/// The language of this request (server) or of the rendered page (browser).
pub fn request_locale() -> Locale {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .map(|p| locale_from_headers(&p.headers))
            .unwrap_or_default()
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        locale_from_document()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Locale::default()
    }
}

/// The language of the current page, provided by [`crate::App`].
pub fn use_locale() -> Locale {
    use_context::<Locale>().unwrap_or_default()
}

/// Shorthand: the text of `msg` in the current page's language.
pub fn t(msg: Msg) -> &'static str {
    use_locale().t(msg)
}

/// The language for this request: the cookie if set, else `Accept-Language`.
#[cfg(feature = "ssr")]
pub fn locale_from_headers(headers: &http::HeaderMap) -> Locale {
    let from_cookie = crate::cookies::request_cookie(headers, LANG_COOKIE).and_then(Locale::from_tag);
    from_cookie.unwrap_or_else(|| {
        headers
            .get(http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map_or(Locale::En, Locale::negotiate)
    })
}

/// The language the server rendered the page in, read from `<html lang>` during hydration.
#[cfg(feature = "hydrate")]
pub fn locale_from_document() -> Locale {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .and_then(|tag| Locale::from_tag(&tag))
        .unwrap_or_default()
}

/// `amount` rounded to `digits` decimals with thousands separators, as both languages write a
/// number (`1,234,567.89`); money and counts alike are shown through it.
pub fn group(amount: Decimal, digits: u32) -> String {
    let rounded = amount.round_dp_with_strategy(digits, RoundingStrategy::MidpointAwayFromZero);
    let text = format!("{:.*}", digits as usize, rounded.abs());
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut grouped = String::with_capacity(text.len() + whole.len() / 3 + 1);
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if rounded.is_sign_negative() && !rounded.is_zero() {
        "-"
    } else {
        ""
    };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiates_by_quality_and_order() {
        assert_eq!(Locale::negotiate("zh-CN,zh;q=0.9,en;q=0.8"), Locale::ZhCn);
        assert_eq!(Locale::negotiate("en-US,en;q=0.9,zh-CN;q=0.8"), Locale::En);
        assert_eq!(Locale::negotiate("fr-FR, zh;q=0.5, en;q=0.4"), Locale::ZhCn);
        assert_eq!(Locale::negotiate("en;q=0.2, zh-TW;q=0.7"), Locale::ZhCn);
        assert_eq!(Locale::negotiate("de, fr"), Locale::En);
        assert_eq!(Locale::negotiate(""), Locale::En);
        assert_eq!(Locale::negotiate("zh;q=0, en;q=0.1"), Locale::En);
    }

    #[test]
    fn parses_tags() {
        assert_eq!(Locale::from_tag("zh-CN"), Some(Locale::ZhCn));
        assert_eq!(Locale::from_tag("EN-gb"), Some(Locale::En));
        assert_eq!(Locale::from_tag("english"), None);
        for l in Locale::ALL {
            assert_eq!(Locale::from_tag(l.tag()), Some(l));
        }
    }

    #[test]
    fn every_message_has_text_in_both_languages() {
        for m in Msg::ALL {
            assert!(!Locale::En.t(*m).trim().is_empty(), "{} empty in en", m.key());
            assert!(!Locale::ZhCn.t(*m).trim().is_empty(), "{} empty in zh-CN", m.key());
        }
    }

    #[test]
    fn every_message_is_found_by_its_key_and_travels_as_it() {
        for m in Msg::ALL {
            assert_eq!(Msg::from_key(m.key()), Some(*m), "{}", m.key());
            let json = serde_json::to_string(m).expect("serializes");
            assert_eq!(json, format!("\"{}\"", m.key()));
            assert_eq!(serde_json::from_str::<Msg>(&json).expect("deserializes"), *m);
        }
        assert_eq!(Msg::from_key("quotes.no_such_key"), None);
        assert_eq!(Msg::from_key(""), None);
        let err = serde_json::from_str::<Msg>("\"quotes.no_such_key\"").expect_err("unknown key");
        assert!(err.to_string().contains("quotes.no_such_key"), "{err}");
        assert!(serde_json::from_str::<Msg>("7").is_err());
    }

    #[test]
    fn placeholders_are_filled() {
        let text = Locale::En.fmt(Msg::LoginThrottled, &[("minutes", "7")]);
        assert!(text.contains('7') && !text.contains("{minutes}"), "{text}");
    }
}
