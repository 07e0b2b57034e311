//! `validate`: one test per rule, and all errors at once.

use super::fixtures::{date, draft};
use crate::quotes::{ErrorCode, FieldError, QuoteDraft, Sharing, Vendor, validate, validate_vendor};
use crate::tco::Fee;
use rust_decimal_macros::dec;

/// The (field, code) pairs `validate` reports for `d`.
fn errors(d: &QuoteDraft) -> Vec<(&'static str, ErrorCode)> {
    validate(d)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|FieldError { field, code }| (field, code))
        .collect()
}

fn only(d: &QuoteDraft, field: &'static str, code: ErrorCode) {
    assert_eq!(errors(d), vec![(field, code)]);
}

#[test]
fn the_fixture_is_valid() {
    assert_eq!(validate(&draft()), Ok(()));
}

/// Found by the bounds test: `1e-28` GiB passed the check, then rounded to 0 MiB and broke the
/// quote list's `vram_mib > 0` constraint when saved (a 500). Less than one MiB is refused.
#[test]
fn vram_below_one_mib_is_rejected() {
    let mut d = draft();
    d.spec.usable_vram_gib = None;
    d.spec.vram_gib = dec!(0.0000000000000000000000000001);
    only(
        &d,
        "spec.vram_gib",
        ErrorCode::OutOfRange {
            allowed: "[0.0009765625, 1024]",
        },
    );
    d.spec.vram_gib = dec!(0.0009765625);
    assert_eq!(validate(&d), Ok(()), "exactly one MiB");
}

#[test]
fn vram_zero_is_rejected() {
    let mut d = draft();
    d.spec.vram_gib = dec!(0);
    only(&d, "spec.vram_gib", ErrorCode::NotPositive);
}

#[test]
fn vram_above_1024_gib_is_absurd() {
    let mut d = draft();
    d.spec.vram_gib = dec!(1024);
    assert_eq!(validate(&d), Ok(()));
    d.spec.vram_gib = dec!(1024.5);
    d.spec.usable_vram_gib = None;
    only(&d, "spec.vram_gib", ErrorCode::TooLarge { max: dec!(1024) });
}

#[test]
fn gpus_per_node_must_be_1_to_64() {
    let mut d = draft();
    d.spec.gpus_per_node = 0;
    only(&d, "spec.gpus_per_node", ErrorCode::NotPositive);
    d.spec.gpus_per_node = 65;
    only(&d, "spec.gpus_per_node", ErrorCode::TooLarge { max: dec!(64) });
}

#[test]
fn negative_price_is_rejected() {
    let mut d = draft();
    d.price.on_demand_hourly = Some(dec!(-0.01));
    only(&d, "price.on_demand_hourly", ErrorCode::Negative);
}

#[test]
fn hourly_price_above_a_million_is_absurd() {
    let mut d = draft();
    d.price.on_demand_hourly = Some(dec!(1000000.01));
    only(&d, "price.on_demand_hourly", ErrorCode::TooLarge { max: dec!(1000000) });
}

#[test]
fn negative_minimum_billable_hours_is_rejected() {
    let mut d = draft();
    d.price.minimum_billable_hours = dec!(-1);
    only(&d, "price.minimum_billable_hours", ErrorCode::Negative);
}

#[test]
fn commitment_needs_price_and_term_in_range() {
    let mut d = draft();
    d.price.monthly_price = Some(dec!(-5));
    d.price.commitment_months = Some(3);
    only(&d, "price.monthly_price", ErrorCode::Negative);
    d.price.monthly_price = Some(dec!(118000));
    d.price.commitment_months = Some(0);
    only(&d, "price.commitment_months", ErrorCode::NotPositive);
    d.price.commitment_months = Some(121);
    only(&d, "price.commitment_months", ErrorCode::TooLarge { max: dec!(120) });
    d.price.commitment_months = None;
    only(&d, "price.commitment_months", ErrorCode::IncompleteCommitment);
}

#[test]
fn valid_until_before_received_on_is_rejected() {
    let mut d = draft();
    d.valid_until = date("2025-03-31");
    only(&d, "valid_until", ErrorCode::EndBeforeStart);
    d.valid_until = d.received_on;
    assert_eq!(validate(&d), Ok(()));
}

#[test]
fn usable_vram_above_vram_is_rejected() {
    let mut d = draft();
    d.spec.usable_vram_gib = Some(dec!(80.5));
    only(&d, "spec.usable_vram_gib", ErrorCode::ExceedsVram);
    d.spec.usable_vram_gib = Some(dec!(80));
    assert_eq!(validate(&d), Ok(()));
}

#[test]
fn empty_vendor_reference_and_model_are_rejected() {
    let mut d = draft();
    d.vendor = "  ".into();
    d.reference = String::new();
    d.spec.gpu_model = String::new();
    assert_eq!(
        errors(&d),
        vec![
            ("vendor", ErrorCode::Required),
            ("reference", ErrorCode::Required),
            ("spec.gpu_model", ErrorCode::Required),
        ]
    );
}

#[test]
fn overlong_texts_are_rejected() {
    let mut d = draft();
    d.reference = "参".repeat(201);
    d.notes = "x".repeat(4001);
    assert_eq!(
        errors(&d),
        vec![
            ("reference", ErrorCode::TooLong { max_chars: 200 }),
            ("notes", ErrorCode::TooLong { max_chars: 4000 }),
        ]
    );
    d.reference = "参".repeat(200);
    d.notes = "x".repeat(4000);
    assert_eq!(validate(&d), Ok(()));
}

#[test]
fn fractional_share_must_lie_strictly_between_0_and_1() {
    let mut d = draft();
    for share in [dec!(0), dec!(1), dec!(-0.5), dec!(1.5)] {
        d.spec.sharing = Sharing::Fractional { share };
        only(&d, "spec.sharing", ErrorCode::OutOfRange { allowed: "(0, 1)" });
    }
    d.spec.sharing = Sharing::Fractional { share: dec!(0.25) };
    assert_eq!(validate(&d), Ok(()));
}

#[test]
fn mig_needs_a_profile() {
    let mut d = draft();
    d.spec.sharing = Sharing::Mig { profile: String::new() };
    only(&d, "spec.sharing", ErrorCode::Required);
}

#[test]
fn fee_labels_must_be_present_and_unreserved() {
    let mut d = draft();
    d.price.other_fees = vec![
        Fee {
            label: "安装费=".into(),
            amount: dec!(500),
        },
        Fee {
            label: String::new(),
            amount: dec!(-1),
        },
    ];
    assert_eq!(
        errors(&d),
        vec![
            ("price.other_fees", ErrorCode::ReservedCharacter),
            ("price.other_fees", ErrorCode::Required),
            ("price.other_fees", ErrorCode::Negative),
        ]
    );
}

#[test]
fn negative_sizes_and_unit_prices_are_rejected() {
    let mut d = draft();
    d.spec.data_disk_gb = Some(dec!(-1));
    d.spec.network_gbps = Some(dec!(-100));
    d.price.egress_price_gb = dec!(-0.8);
    assert_eq!(
        errors(&d),
        vec![
            ("spec.network_gbps", ErrorCode::Negative),
            ("spec.data_disk_gb", ErrorCode::Negative),
            ("price.egress_price_gb", ErrorCode::Negative),
        ]
    );
}

#[test]
fn reports_every_error_at_once() {
    let mut d = draft();
    d.vendor = String::new();
    d.valid_until = date("2025-01-01");
    d.spec.vram_gib = dec!(0);
    d.spec.usable_vram_gib = Some(dec!(10));
    d.price.on_demand_hourly = Some(dec!(-1));
    let fields: Vec<_> = errors(&d).into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        [
            "vendor",
            "valid_until",
            "spec.vram_gib",
            "spec.usable_vram_gib",
            "price.on_demand_hourly"
        ]
    );
}

#[test]
fn unknown_currency_is_rejected_when_read() {
    let mut json = serde_json::to_value(draft()).expect("serialize");
    json["price"]["currency"] = "XYZ".into();
    let err = serde_json::from_value::<QuoteDraft>(json).expect_err("unknown currency");
    assert!(err.to_string().contains("XYZ"), "{err}");
}

#[test]
fn a_draft_survives_json() {
    let mut d = draft();
    d.spec.sharing = Sharing::Mig {
        profile: "3g.40gb".into(),
    };
    let json = serde_json::to_string(&d).expect("serialize");
    assert!(json.contains("\"on_demand_hourly\":\"220.00\""), "{json}");
    assert_eq!(serde_json::from_str::<QuoteDraft>(&json).expect("deserialize"), d);
}

#[test]
fn a_vendor_needs_a_name() {
    let mut v = Vendor {
        name: "德讯电讯".into(),
        ..Vendor::default()
    };
    assert_eq!(validate_vendor(&v), Ok(()));
    v.name = String::new();
    assert_eq!(
        validate_vendor(&v),
        Err(vec![FieldError::new("name", ErrorCode::Required)])
    );
}
