//! Numbers as people type them into a form: the one parser behind every numeric field.
//!
//! A procurement person copies `2,000,000,000` from a vendor's PDF, types `2 000 000` or `12,50`
//! the way their office writes it, and expects the form to read it; what they typed is shown back
//! normalised (`2000000000`, `2000000`, `12.50`). A number that could be read two ways is refused
//! with a message that says what to type, never guessed.
//!
//! # Grammar
//!
//! ```text
//! number   = [sign] body                      surrounding white space is ignored
//! sign     = "+" | "-" | "−" (U+2212)
//! body     = integer [mark [digits]] | mark digits
//! integer  = digits | group1 (sep group3)+    one kind of separator in one number
//! group1   = 1 to 3 digits;  group3 = exactly 3 digits
//! sep      = "," | "." | space | "_" | "'"    space: U+0020, U+00A0, U+202F narrow, U+2009 thin;
//!                                             "'" also as U+2019 (Swiss 1'234.50)
//! mark     = "." | ","                        the decimal mark; never a separator in the same number
//! ```
//!
//! Which of `.` and `,` is the decimal mark:
//! - both appear: the one that comes last, and it appears once (`1,234.56` and `1.234,56` are both
//!   1234.56); `1,234.5.6` is refused (`mixed_separators`).
//! - only dots: one dot is the decimal mark (`1.234` is 1.234, as the app writes numbers); two or
//!   more are thousands separators (`1.234.567`).
//! - only commas: two or more are thousands separators (`2,000,000`). A single comma is a decimal
//!   comma (`12,50`, `3,1415`, `0,125`, `1 234,5`) — **except** when exactly three digits follow it
//!   and one to three digits without a leading zero precede it, with no other separator: then it
//!   separates thousands, as in an English price (`1,234` is 1234, `0,234` is 0.234). To mean
//!   1.234, type `1.234`.
//!
//! Digits after the decimal mark are never grouped. Digits before it are grouped in threes
//! (Indian `20,00,000` and typos such as `12 50` are refused: `misgrouped_number`). Exponents,
//! `nan`, `inf` and currency signs are not numbers here (`invalid_number`).
//!
//! A value keeps the digits typed after the mark (`12,50` → 12.50: its scale is 2), so money reads
//! back as it was written. Up to 28 digits after the mark and a magnitude below 2⁹⁶ fit a
//! [`Decimal`]; anything longer is refused, whatever its length, without panicking.

use crate::tco::Currency;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;

/// Why a typed number was refused; [`NumberError::code`] names it for messages and the API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Nothing but white space.
    Empty,
    /// A character that is not a digit, sign, decimal mark or digit separator (letters, `e`,
    /// currency signs), a sign in the wrong place, or no digit at all.
    Invalid,
    /// Both `.` and `,` used as decimal marks, or two kinds of digit separator in one number.
    MixedSeparators,
    /// Digits not grouped in threes before the decimal mark, or a separator after it.
    Misgrouped,
    /// Beyond what a [`Decimal`] holds (about 7.9 × 10²⁸).
    TooLarge,
    /// More than 28 digits after the decimal mark.
    TooPrecise,
    /// A whole number was asked for: a fraction, or out of the field's range.
    NotWhole,
}

impl NumberError {
    /// The machine code: the API's `code` and the message key's last part.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            NumberError::Empty => "required",
            NumberError::Invalid => "invalid_number",
            NumberError::MixedSeparators => "mixed_separators",
            NumberError::Misgrouped => "misgrouped_number",
            NumberError::TooLarge => "number_too_large",
            NumberError::TooPrecise => "too_many_decimals",
            NumberError::NotWhole => "invalid_integer",
        }
    }
}

/// The kinds of digit separator; one number uses one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    Dot,
    Comma,
    Space,
    Underscore,
    Apostrophe,
}

fn sep_of(ch: char) -> Option<Sep> {
    match ch {
        '.' => Some(Sep::Dot),
        ',' => Some(Sep::Comma),
        ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' => Some(Sep::Space),
        '_' => Some(Sep::Underscore),
        '\'' | '\u{2019}' => Some(Sep::Apostrophe),
        _ => None,
    }
}

/// Reads a decimal number as people type it (see the module's grammar).
///
/// # Errors
/// The first rule the text breaks, as a [`NumberError`].
pub fn parse_decimal(text: &str) -> Result<Decimal, NumberError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(NumberError::Empty);
    }
    let (negative, body) = match s.chars().next() {
        Some(c @ ('-' | '+' | '\u{2212}')) => (c != '+', &s[c.len_utf8()..]),
        _ => (false, s),
    };
    if body.chars().any(|c| !c.is_ascii_digit() && sep_of(c).is_none()) {
        return Err(NumberError::Invalid);
    }
    let (integer, fraction) = match decimal_mark(body)? {
        Some(at) => (&body[..at], &body[at + 1..]),
        None => (body, ""),
    };
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Misgrouped);
    }
    let integer = ungroup(integer)?;
    if integer.is_empty() && fraction.is_empty() {
        return Err(NumberError::Invalid);
    }
    let mut plain = String::with_capacity(integer.len() + fraction.len() + 3);
    if negative {
        plain.push('-');
    }
    plain.push_str(if integer.is_empty() { "0" } else { &integer });
    if !fraction.is_empty() {
        plain.push('.');
        plain.push_str(fraction);
    }
    Decimal::from_str_exact(&plain).map_err(|e| match e {
        rust_decimal::Error::Underflow | rust_decimal::Error::ScaleExceedsMaximumPrecision(_) => {
            NumberError::TooPrecise
        }
        _ => NumberError::TooLarge,
    })
}

/// Reads a whole number as people type it (`2,000` is 2000; `8.0` is 8) that fits `T`.
///
/// # Errors
/// [`NumberError::NotWhole`] for a fraction or a value outside `T`; otherwise as
/// [`parse_decimal`].
pub fn parse_integer<T: TryFrom<i64>>(text: &str) -> Result<T, NumberError> {
    let value = parse_decimal(text)?;
    if !value.fract().is_zero() {
        return Err(NumberError::NotWhole);
    }
    value
        .to_i64()
        .and_then(|n| T::try_from(n).ok())
        .ok_or(NumberError::NotWhole)
}

/// The byte index of the decimal mark in `body` (sign removed), if there is one.
fn decimal_mark(body: &str) -> Result<Option<usize>, NumberError> {
    let dots: Vec<usize> = body.match_indices('.').map(|(i, _)| i).collect();
    let commas: Vec<usize> = body.match_indices(',').map(|(i, _)| i).collect();
    Ok(match (dots.as_slice(), commas.as_slice()) {
        ([], []) => None,
        ([dot], []) => Some(*dot),
        ([], [comma]) => comma_is_decimal(body, *comma).then_some(*comma),
        (_, []) | ([], _) => None,
        (dots, commas) => {
            let (last_dot, last_comma) = (dots[dots.len() - 1], commas[commas.len() - 1]);
            let (marks, at) = if last_dot > last_comma {
                (dots.len(), last_dot)
            } else {
                (commas.len(), last_comma)
            };
            if marks != 1 {
                return Err(NumberError::MixedSeparators);
            }
            Some(at)
        }
    })
}

/// Whether the only comma of `body`, at `at`, is a decimal comma: yes unless exactly three digits
/// follow it and 1–3 digits without a leading zero, and nothing else, precede it (`1,234`).
fn comma_is_decimal(body: &str, at: usize) -> bool {
    let (before, after) = (&body[..at], &body[at + 1..]);
    let thousands = after.len() == 3
        && after.bytes().all(|b| b.is_ascii_digit())
        && (1..=3).contains(&before.len())
        && before.bytes().all(|b| b.is_ascii_digit())
        && !before.starts_with('0');
    !thousands
}

/// The digits of an integer part, its separators checked (one kind, groups of three) and removed.
fn ungroup(integer: &str) -> Result<String, NumberError> {
    let mut kind = None;
    for sep in integer.chars().filter_map(sep_of) {
        if kind.is_some_and(|k| k != sep) {
            return Err(NumberError::MixedSeparators);
        }
        kind = Some(sep);
    }
    if kind.is_none() {
        return Ok(integer.to_string());
    }
    let mut digits = String::with_capacity(integer.len());
    for (i, group) in integer.split(|c| sep_of(c).is_some()).enumerate() {
        let fits = if i == 0 {
            (1..=3).contains(&group.len())
        } else {
            group.len() == 3
        };
        if !fits {
            return Err(NumberError::Misgrouped);
        }
        digits.push_str(group);
    }
    Ok(digits)
}

/// The units a field's name may end in (`spec.vram_gib` holds GiB), longest ending first, as
/// its label says them (`VRAM per GPU (GiB)`).
const FIELD_UNITS: [(&str, &str); 4] = [("_gbps", "Gbps"), ("_mbps", "Mbps"), ("_gib", "GiB"), ("_gb", "GB")];

/// `text` without a trailing `unit` (any case, with or without a space before it): a field
/// labelled "(GiB)" reads `80 GiB`, `80GiB` and `80 gib` as it reads `80`. Only the field's own
/// unit is taken off; another (`80 GB` in a GiB field) is left, and refused as not a number,
/// never converted or guessed.
#[must_use]
pub fn without_unit<'a>(text: &'a str, unit: &str) -> &'a str {
    let trimmed = text.trim_end();
    let Some(at) = trimmed.len().checked_sub(unit.len()) else {
        return text;
    };
    match trimmed.get(at..) {
        Some(end) if at > 0 && end.eq_ignore_ascii_case(unit) => trimmed[..at].trim_end(),
        _ => text,
    }
}

/// Reads the value of field `name` with [`parse_decimal`], after taking off the unit the name
/// ends in ([`without_unit`]): `("vram_peak_gib", "80 GiB")` is 80.
///
/// # Errors
/// As [`parse_decimal`].
pub fn parse_field(name: &str, text: &str) -> Result<Decimal, NumberError> {
    let unit = FIELD_UNITS
        .iter()
        .find(|(end, _)| name.ends_with(end))
        .map(|(_, unit)| *unit);
    parse_decimal(unit.map_or(text, |u| without_unit(text, u)))
}

/// `text` without a leading sign or code of `currency` (`¥8.50`, `￥8.50` or `CNY 8.50` for the
/// yuan, `$8.50` or `USD 8.50` for the dollar): a price typed as the vendor's sheet prints it.
/// Another currency's sign is left, and refused as not a number, so `$8.50` in a yuan quote is
/// never read as 8.50 yuan.
pub fn without_currency(text: &str, currency: Option<Currency>) -> &str {
    let trimmed = text.trim();
    let Some(currency) = currency else { return trimmed };
    let yen = currency == Currency::CNY || currency == Currency::JPY;
    let extra: &[&str] = if yen { &["¥", "￥", "RMB"] } else { &[] };
    [currency.symbol(), currency.code()]
        .into_iter()
        .chain(extra.iter().copied())
        .find_map(|sign| {
            let head = trimmed.get(..sign.len())?;
            head.eq_ignore_ascii_case(sign)
                .then(|| trimmed[sign.len()..].trim_start())
        })
        .unwrap_or(trimmed)
}

/// Reads each of `names` in `fields` with [`parse_field`] and writes it back normalised
/// (`2,000,000` → `2000000`, `12,50` → `12.50`, `80 GiB` → `80`); an empty value stays empty for
/// the form's own "required" rule. Returns the fields that could not be read; their text is
/// left as typed.
///
/// A price (`price.…`) may start with the sign or code of the quote's own currency (the
/// `currency` field): `¥8.50` in a CNY quote is 8.50 ([`without_currency`]).
pub fn normalise_fields(fields: &mut BTreeMap<String, String>, names: &[&str]) -> Vec<(String, NumberError)> {
    let currency = fields
        .get("currency")
        .and_then(|code| Currency::parse(code.trim()).ok());
    let mut refused = Vec::new();
    for name in names {
        let Some(value) = fields.get_mut(*name) else { continue };
        if value.trim().is_empty() {
            continue;
        }
        let text = if name.starts_with("price.") {
            without_currency(value, currency)
        } else {
            value.as_str()
        };
        match parse_field(name, text) {
            Ok(number) => *value = number.to_string(),
            Err(e) => refused.push(((*name).to_string(), e)),
        }
    }
    refused
}

#[cfg(test)]
#[path = "numbers_tests.rs"]
mod tests;
