//! Languages of the UI (简体中文 and English) and the message catalogue, with no web framework:
//! the pure core names its messages through this crate, and the app shows them.
//!
//! All user-facing text lives in `app/locales/en/*.json` and `app/locales/zh-CN/*.json`; the build
//! script turns their keys into the [`Msg`] enum, so a typo in a key is a compile error and a
//! key missing in one language fails the build.

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

#[cfg(not(feature = "texts"))]
pub use installed::install_texts;

/// The texts of a build without them (the browser's), as the page installed them, with the
/// messages' keys.
#[cfg(not(feature = "texts"))]
mod installed {
    use super::Msg;
    use std::sync::OnceLock;

    static TEXTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    static KEYS: OnceLock<Vec<&'static str>> = OnceLock::new();

    /// Installs the page's texts: every message's key and text in the order of [`Msg::ALL`]
    /// (key order), once per page. False, and nothing installed, when the lists do not match
    /// this build's catalogue (texts of another build), the keys are not in order, or texts are
    /// installed already.
    pub fn install_texts(keys: Vec<String>, texts: Vec<String>) -> bool {
        let count = Msg::ALL.len();
        if texts.len() != count || keys.len() != count || !keys.windows(2).all(|w| w[0] < w[1]) {
            return false;
        }
        // Kept for the page's life, as compiled-in texts would be.
        let leak = |list: Vec<String>| list.into_iter().map(|t| &*Box::leak(t.into_boxed_str())).collect();
        KEYS.set(leak(keys)).is_ok() && TEXTS.set(leak(texts)).is_ok()
    }

    pub(super) fn key(msg: Msg) -> &'static str {
        KEYS.get()
            .and_then(|all| all.get(msg as usize))
            .copied()
            .unwrap_or_default()
    }

    pub(super) fn text(msg: Msg) -> &'static str {
        TEXTS
            .get()
            .and_then(|all| all.get(msg as usize))
            .copied()
            .unwrap_or_else(|| msg.key())
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
    #[cfg(feature = "texts")]
    pub const fn t(self, msg: Msg) -> &'static str {
        match self {
            Locale::En => msg.en(),
            Locale::ZhCn => msg.zh_cn(),
        }
    }

    /// The text of `msg` in the page's language (a page shows one): from the texts the page
    /// installed ([`install_texts`]); the message's key until then.
    #[cfg(not(feature = "texts"))]
    pub fn t(self, msg: Msg) -> &'static str {
        let _ = self;
        installed::text(msg)
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

/// `amount` rounded to `digits` decimals with thousands separators, as both languages write a
/// number (`1,234,567.89`); money and counts alike are shown through it.
pub fn group(amount: Decimal, digits: u32) -> String {
    let rounded = amount.round_dp_with_strategy(digits, RoundingStrategy::MidpointAwayFromZero);
    // No "-0.00": a negative amount that rounds to zero is written as zero.
    let rounded = if rounded.is_zero() { rounded.abs() } else { rounded };
    grouped(&format!("{:.*}", digits as usize, rounded))
}

/// A measured figure with at most `decimals` places, without trailing zeros, grouped by
/// thousands ("12.5", "600", "81,920"); "—" when it is not a number.
pub fn figure(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = format!("{value:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    // No "-0" once the places are cut.
    let text = match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b == b'0') => digits,
        _ => text,
    };
    grouped(text)
}

/// A plain number text (`-1234567.89`, as `format!` writes one) with a comma every three digits
/// of its whole part: the one thousands grouping behind every number the app shows.
pub fn grouped(number: &str) -> String {
    let (sign, digits) = number.strip_prefix('-').map_or(("", number), |rest| ("-", rest));
    let (whole, fraction) = digits.split_at(digits.find('.').unwrap_or(digits.len()));
    let mut out = String::with_capacity(number.len() + whole.len() / 3);
    out.push_str(sign);
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out.push_str(fraction);
    out
}

#[cfg(all(test, feature = "texts"))]
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
    fn a_messages_place_in_the_catalogue_is_its_number() {
        // A build without texts finds a message's text at `msg as usize` in the list the page
        // installed, written in the order of `Msg::ALL`.
        for (i, m) in Msg::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i, "{}", m.key());
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
    fn numbers_are_grouped_by_thousands_one_way() {
        assert_eq!(grouped("1234567.891"), "1,234,567.891");
        assert_eq!(grouped("-1234"), "-1,234");
        assert_eq!(grouped("123"), "123");
        assert_eq!(grouped("-0.5"), "-0.5");
        assert_eq!(grouped(""), "");
        assert_eq!(group(Decimal::new(-123_456_789, 2), 2), "-1,234,567.89");
        assert_eq!(group(Decimal::new(-4, 3), 2), "0.00", "no minus on a zero");
        assert_eq!(group(Decimal::new(12_345, 1), 0), "1,235", "half away from zero");
        assert_eq!(figure(81_920.0, 1), "81,920");
        assert_eq!(figure(12.50, 2), "12.5");
        assert_eq!(figure(-0.04, 1), "0", "no minus once the places are cut");
        assert_eq!(figure(-1234.56, 1), "-1,234.6");
        assert_eq!(figure(f64::NAN, 1), "—");
    }

    #[test]
    fn placeholders_are_filled() {
        let text = Locale::En.fmt(Msg::LoginThrottled, &[("minutes", "7")]);
        assert!(text.contains('7') && !text.contains("{minutes}"), "{text}");
    }
}

/// The browser's build (no `texts`): run by `.ci/test` with `--no-default-features`.
#[cfg(all(test, not(feature = "texts")))]
mod installed_tests {
    use super::{Locale, Msg, install_texts};

    /// Made-up keys in key order (`k0000`, `k0001`…) and texts naming them.
    fn catalogue() -> (Vec<String>, Vec<String>) {
        let keys: Vec<String> = (0..Msg::ALL.len()).map(|i| format!("k{i:04}")).collect();
        let texts = keys.iter().map(|k| format!("text of {k}")).collect();
        (keys, texts)
    }

    /// One test: what a page installs stays for the page's life (a process-wide cell).
    #[test]
    fn a_page_installs_every_key_and_text_once_and_only_a_matching_catalogue() {
        assert_eq!(Msg::NavVendors.key(), "", "no keys before the page installs them");
        let (keys, texts) = catalogue();
        assert!(!install_texts(keys[1..].to_vec(), texts.clone()), "a key short");
        assert!(!install_texts(keys.clone(), texts[1..].to_vec()), "a text short");
        let mut unordered = keys.clone();
        unordered.swap(0, 1);
        assert!(!install_texts(unordered, texts.clone()), "keys out of order");
        assert_eq!(Msg::NavVendors.key(), "", "nothing installed by a refused list");

        assert!(install_texts(keys.clone(), texts.clone()));
        let i = Msg::NavVendors as usize;
        assert_eq!(Msg::NavVendors.key(), keys[i]);
        assert_eq!(Locale::En.t(Msg::NavVendors), texts[i]);
        assert_eq!(Msg::from_key(&keys[i]), Some(Msg::NavVendors), "found by its key");
        assert_eq!(Msg::from_key("k9999x"), None);
        assert!(!install_texts(keys, texts), "once per page");
    }
}
