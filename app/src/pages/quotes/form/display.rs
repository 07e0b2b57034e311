//! A stored quote value as a person reads it: yes/no and choices in the page's language, numbers
//! grouped, billing lengths named.

use super::{Input, chosen, yes_no_value};
use crate::{
    domain::{quotes::is_free_word, tco::BillingIncrement},
    i18n::{Msg, t, use_locale},
};

/// A stored value as a person reads it: yes/no and choices in the page's language; an empty
/// yes/no is "not stated" in words, never "no".
pub(crate) fn display_value(input: Input, value: &str) -> String {
    match input {
        Input::YesNo => match yes_no_value(value) {
            "yes" => t(Msg::QcYes).to_string(),
            "no" => t(Msg::QcNo).to_string(),
            // Spelled out: a dash next to "yes"/"no" reads too easily as "no".
            _ => t(Msg::QcUnknown).to_string(),
        },
        Input::Choice(options) => chosen(options, value).map_or_else(|| value.to_string(), |(_, l)| t(*l).to_string()),
        Input::Sharing => match value.split_once(':') {
            Some(("mig", profile)) => format!("{} {profile}", t(Msg::QcMig)),
            Some(("fractional", share)) => format!("{} {share}", t(Msg::QcFractional)),
            _ if value == "exclusive" => t(Msg::QcExclusive).to_string(),
            _ if value == "vgpu" => t(Msg::QcVgpu).to_string(),
            _ => value.to_string(),
        },
        // Blank is "not offered" and 0 is "free", never a bare 0.00.
        Input::PriceOrFree => match value.trim() {
            "" => t(Msg::QuotesNotOffered).to_string(),
            word if is_free_word(word) => t(Msg::QuotesFree).to_string(),
            number => number_text(number),
        },
        _ if value.trim().is_empty() => t(Msg::QuotesNotStated).to_string(),
        // A stated quantity without the zeros a stored scale adds ("200", not "200.0").
        Input::Number => number_text(&normalized(value)),
        Input::Length => length_text(value),
        Input::Hours => crate::domain::quotes::parse_hours(value).map_or_else(
            || value.to_string(),
            |h| crate::i18n::use_locale().fmt(Msg::QcHoursValue, &[("n", &number_text(&h.normalize().to_string()))]),
        ),
        _ => value.to_string(),
    }
}

/// A decimal without trailing zeros (`200.0` → `200`); as written when it is no number.
fn normalized(value: &str) -> String {
    value
        .trim()
        .parse::<rust_decimal::Decimal>()
        .map_or_else(|_| value.to_string(), |d| d.normalize().to_string())
}

/// A number as stated, every digit kept, grouped by thousands (`3,840`).
fn number_text(value: &str) -> String {
    value
        .trim()
        .parse::<rust_decimal::Decimal>()
        .map_or_else(|_| value.to_string(), |d| crate::domain::money::group(d, d.scale()))
}

/// A billing increment or package period in the page's language (`per day`, `10 min`, `按天`,
/// `10 分钟`); as written when it is not one.
pub(super) fn length_text(value: &str) -> String {
    let Some(length) = BillingIncrement::parse(value) else {
        return value.to_string();
    };
    let seconds = length.seconds();
    let named = [
        (BillingIncrement::SECOND, Msg::QcSecond),
        (BillingIncrement::MINUTE, Msg::QcMinute),
        (BillingIncrement::HOUR, Msg::QcHour),
        (BillingIncrement::DAY, Msg::QcDay),
        (BillingIncrement::WEEK, Msg::QcWeek),
        (BillingIncrement::MONTH, Msg::QcMonth),
    ];
    if let Some((_, name)) = named.iter().find(|(n, _)| *n == length) {
        return t(*name).to_string();
    }
    let counted = [(86_400, Msg::QcNDays), (3_600, Msg::QcNHours), (60, Msg::QcNMinutes)];
    let (unit, msg) = counted
        .into_iter()
        .find(|(unit, _)| seconds.is_multiple_of(*unit))
        .unwrap_or((1, Msg::QcNSeconds));
    use_locale().fmt(msg, &[("n", &(seconds / unit).to_string())])
}
