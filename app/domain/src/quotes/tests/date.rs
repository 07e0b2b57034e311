//! `Date`: parsing, arithmetic, order, serde; `is_expired`.

use super::fixtures::date;
use crate::quotes::{Date, ErrorCode, is_expired};

#[test]
fn parses_valid_dates_and_leap_days() {
    let d = date("2024-02-29");
    assert_eq!((d.year(), d.month(), d.day()), (2024, 2, 29));
    assert_eq!(d.to_string(), "2024-02-29");
    assert_eq!(Date::parse(" 2025-12-31 ").map(super::super::date::Date::day), Ok(31));
}

#[test]
fn rejects_malformed_and_impossible_dates() {
    for bad in [
        "2023-02-29",
        "2025-13-01",
        "2025-04-31",
        "2025-4-01",
        "25-04-01",
        "2025/04/01",
        "",
        "0000-01-01",
        "2025-04-0a",
    ] {
        assert_eq!(Date::parse(bad), Err(ErrorCode::InvalidDate), "{bad}");
    }
}

#[test]
fn adds_days_across_months_years_and_leap_days() {
    assert_eq!(date("2024-02-28").add_days(1), Some(date("2024-02-29")));
    assert_eq!(date("2023-02-28").add_days(1), Some(date("2023-03-01")));
    assert_eq!(date("2025-12-31").add_days(1), Some(date("2026-01-01")));
    assert_eq!(date("2025-05-01").add_days(30), Some(date("2025-05-31")));
    assert_eq!(date("2000-01-01").add_days(366), Some(date("2001-01-01")));
    assert_eq!(date("9999-12-31").add_days(1), None);
    assert_eq!(date("2025-01-01").days_until(date("2024-01-01")), -366);
}

#[test]
fn orders_chronologically() {
    assert!(date("2025-01-31") < date("2025-02-01"));
    assert!(date("2024-12-31") < date("2025-01-01"));
}

#[test]
fn serializes_as_a_string() {
    let json = serde_json::to_string(&date("2025-04-09")).expect("serialize");
    assert_eq!(json, "\"2025-04-09\"");
    let back: Date = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(back, date("2025-04-09"));
    assert!(serde_json::from_str::<Date>("\"2025-02-30\"").is_err());
}

#[test]
fn a_quote_expires_the_day_after_valid_until() {
    let until = date("2025-04-30");
    assert!(!is_expired(until, date("2025-04-29")));
    assert!(!is_expired(until, until));
    assert!(is_expired(until, date("2025-05-01")));
}
