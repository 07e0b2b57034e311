//! `Workload::validate`, the headroom bounds and the VRAM need.

use super::fixtures::workload;
use crate::quotes::{Deadline, ErrorCode, FieldError, Workload};
use crate::tco::TotalWork;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn with_headroom(pct: Decimal) -> Result<(), Vec<FieldError>> {
    let mut w = workload();
    w.headroom_pct = pct;
    w.validate()
}

fn out_of_range() -> Result<(), Vec<FieldError>> {
    Err(vec![FieldError::new(
        "headroom_pct",
        ErrorCode::OutOfRange { allowed: "[15, 25]" },
    )])
}

#[test]
fn headroom_of_exactly_15_and_25_percent_is_valid() {
    assert_eq!(with_headroom(dec!(15)), Ok(()));
    assert_eq!(with_headroom(dec!(25)), Ok(()));
    assert_eq!(with_headroom(dec!(15.0)), Ok(()));
}

#[test]
fn headroom_just_outside_is_invalid() {
    assert_eq!(with_headroom(dec!(14.9)), out_of_range());
    assert_eq!(with_headroom(dec!(25.1)), out_of_range());
}

#[test]
fn headroom_defaults_to_20_percent() {
    let mut json = serde_json::to_value(workload()).expect("serialize");
    json.as_object_mut().expect("object").remove("headroom_pct");
    let w: Workload = serde_json::from_value(json).expect("deserialize");
    assert_eq!(w.headroom_pct, dec!(20));
}

#[test]
fn required_vram_adds_the_headroom() {
    let mut w = workload();
    assert_eq!(w.required_vram_gib(), dec!(48));
    w.headroom_pct = dec!(15);
    w.vram_peak_gib = dec!(10);
    assert_eq!(w.required_vram_gib(), dec!(11.5));
}

#[test]
fn needs_gpus_peak_and_concurrency() {
    let mut w = workload();
    w.gpus_needed = 0;
    w.vram_peak_gib = dec!(0);
    w.concurrency = 0;
    let fields: Vec<_> = w.validate().unwrap_err().into_iter().map(|e| e.field).collect();
    assert_eq!(fields, ["vram_peak_gib", "concurrency", "gpus_needed"]);
}

#[test]
fn needs_run_hours_or_total_work() {
    let mut w = workload();
    w.run_hours = None;
    assert_eq!(
        w.validate(),
        Err(vec![FieldError::new("run_hours", ErrorCode::NoWorkSize)])
    );
    w.total_work = Some(TotalWork {
        amount: dec!(2000000000),
        unit: "tokens".into(),
    });
    assert_eq!(w.validate(), Ok(()));
    assert_eq!(w.to_tco().total_work, w.total_work);
}

#[test]
fn rejects_negative_data_and_empty_name() {
    let mut w = workload();
    w.name = String::new();
    w.data_gb = dec!(-1);
    w.checkpoint_gb = dec!(-2);
    assert_eq!(
        w.validate(),
        Err(vec![
            FieldError::new("name", ErrorCode::Required),
            FieldError::new("data_gb", ErrorCode::Negative),
            FieldError::new("checkpoint_gb", ErrorCode::Negative),
        ])
    );
}

/// "48 h" is saved as the moment it names: from the earliest start when stated, else from the
/// moment of saving; a moment stays; hours that would leave the schedule's range stay hours.
#[test]
fn a_deadline_in_hours_is_saved_as_the_moment_it_names() {
    let saved_at = 1_796_000_000; // 2026-11-29 (the moment of saving)
    let start = 1_893_484_800; // 2030-01-01 00:00 UTC
    let hours = |h: i64| Some(Deadline::HoursFromStart(Decimal::from(h)));
    let with = |deadline, earliest_start| Workload {
        deadline,
        earliest_start,
        ..workload()
    };
    let from_saving = with(hours(48), None).with_fixed_deadline(saved_at);
    assert_eq!(from_saving.deadline, Some(Deadline::At(saved_at + 48 * 3600)));
    let from_start = with(hours(48), Some(start)).with_fixed_deadline(saved_at);
    assert_eq!(from_start.deadline, Some(Deadline::At(start + 48 * 3600)));
    let half = Deadline::HoursFromStart(Decimal::new(15, 1)).fixed_from(start);
    assert_eq!(half, Deadline::At(start + 5400), "1.5 h");
    assert_eq!(
        Deadline::At(start).fixed_from(saved_at),
        Deadline::At(start),
        "a moment stays"
    );
    let far = Deadline::HoursFromStart(Decimal::from(10_000_000));
    assert_eq!(
        far.fixed_from(start),
        far,
        "past 2200: left as hours, and refused by the checks"
    );
    assert!(from_start.validate().is_ok());
}
