//! Every version of the record reads; a new record's text is one exact canonical form.

use super::{
    AcknowledgedProblem, Acknowledgement, ChosenQuote, DecodeError, EncodeError, OrderRecord, SignedComponent,
    SignedCostRow, SignedPlan, SignedPricing, SignedRate, SignedRows, SignedThroughput, SignedUnitCost, SignedWarning,
    SignedWhatIf, ToMeasure, decode,
};
use crate::{
    audit::{content_hash, sha256_hex},
    tco::Currency,
};
use rust_decimal_macros::dec;

/// An approved record written by the release before version 2 (an order submitted with a
/// comparison of two quotes, one in USD, and approved; the text as `order_revisions.content`
/// held it), and the hash its approval event pinned.
const V1: &str = include_str!("../fixtures/record-v1.json");
const V1_APPROVED_HASH: &str = include_str!("../fixtures/record-v1.sha256");

/// The same order approved by the release that wrote version 2, and the hash its approval
/// pinned.
const V2: &str = include_str!("../fixtures/record-v2.json");
const V2_APPROVED_HASH: &str = include_str!("../fixtures/record-v2.sha256");

/// An order chosen on the plan page, approved by this release: [`full`] as written.
const V3: &str = include_str!("../fixtures/record-v3.json");

#[test]
fn a_version_1_record_still_hashes_to_what_its_approval_pinned() {
    assert_eq!(sha256_hex(V1), V1_APPROVED_HASH.trim());
    // Verification hashes the parsed text the audit way: the same hash, whatever the version.
    let value: serde_json::Value = serde_json::from_str(V1).expect("json");
    assert_eq!(content_hash(&value).expect("canonical"), V1_APPROVED_HASH.trim());
}

#[test]
fn a_version_1_record_reads_with_its_chosen_quote_totals_and_answers() {
    let record = decode(V1).expect("version 1 reads");
    let chosen = record.chosen_quote().expect("a quote was chosen");
    assert!(chosen.revision_id.is_some());
    let Some(SignedRows::V1(rows)) = &record.tco else {
        panic!("version 1 rows: {:?}", record.tco);
    };
    assert_eq!(rows.len(), 2);
    let row = rows
        .iter()
        .find(|r| r.quote_id == chosen.quote_id)
        .expect("the chosen quote is costed");
    let (ranked, quote) = record.chosen_costing().expect("the chosen quote is frozen");
    assert_eq!(quote.id, chosen.quote_id.to_string());
    assert_eq!(
        row.total_exact.parse::<rust_decimal::Decimal>().ok(),
        Some(ranked.estimate.total)
    );
    assert_eq!(
        row.compared_exact.parse::<rust_decimal::Decimal>().ok(),
        Some(ranked.compared_total)
    );
    assert!(rows.iter().any(|r| r.currency == "USD" && r.rate_note.is_some()));
    assert!(!record.answers.is_empty());
    assert!(
        record
            .answers
            .values()
            .all(|a| a.status == crate::checklist::ItemStatus::Confirmed)
    );
    assert!(record.frozen.is_some() && record.comparison.is_some());
    // Read, never written again: a new revision starts without the old rows.
    assert!(matches!(record.canonical(), Err(EncodeError::OldRows)));
    let mut next = record;
    next.tco = None;
    assert!(next.canonical().expect("canonical").starts_with("{\"answers\":"));
}

#[test]
fn a_version_2_record_still_hashes_to_what_its_approval_pinned() {
    assert_eq!(sha256_hex(V2), V2_APPROVED_HASH.trim());
    let value: serde_json::Value = serde_json::from_str(V2).expect("json");
    assert_eq!(content_hash(&value).expect("canonical"), V2_APPROVED_HASH.trim());
}

#[test]
fn a_version_2_record_reads_and_is_written_again_as_the_newest_version_without_a_plan() {
    let record = decode(V2).expect("version 2 reads");
    assert_eq!(record.plan, None);
    // A new revision of an old order is written as the newest version: the same keys, the
    // version number raised, and `plan` null (version 2 had no plan).
    let rewritten = V2
        .replacen(
            r#","quote_id":1,"quote_revision_id""#,
            r#","plan":null,"quote_id":1,"quote_revision_id""#,
            1,
        )
        .replacen(r#""version":2,"waiver""#, r#""version":5,"waiver""#, 1);
    assert_eq!(record.canonical().expect("canonical"), rewritten);
    assert_eq!(decode(&rewritten).expect("reads back"), record);
    let chosen = record.chosen_quote().expect("a quote was chosen");
    let Some(SignedRows::V2(rows)) = &record.tco else {
        panic!("version 2 rows: {:?}", record.tco);
    };
    assert_eq!(rows.len(), 2);
    let row = rows
        .iter()
        .find(|r| r.quote_id == chosen.quote_id)
        .expect("the chosen quote is costed");
    let (ranked, _) = record.chosen_costing().expect("the chosen quote is frozen");
    assert_eq!(
        (row.total, row.compared_total),
        (ranked.estimate.total, ranked.compared_total)
    );
    let usd = rows.iter().find(|r| r.currency.code() == "USD").expect("the USD quote");
    assert_eq!(usd.rate.as_ref().map(|r| r.rate), Some(dec!(7.1234)));
    assert!(!record.answers.is_empty());
}

/// A row with every kind of value, in a record with every key set.
#[expect(clippy::too_many_lines, reason = "one value with every field, read top to bottom")]
fn full() -> OrderRecord {
    let cny = Currency::parse("CNY").expect("CNY");
    let usd = Currency::parse("USD").expect("USD");
    let row = SignedCostRow {
        rank: 1,
        quote_id: 7,
        revision: 2,
        label: "Far Cloud · L4-USD · 1× L4 24GB".into(),
        currency: usd,
        total: dec!(12.20),
        compare_currency: cny,
        compared_total: dec!(86.91),
        rate: Some(SignedRate {
            from: usd,
            to: cny,
            rate: dec!(7.1234),
            date: "2026-11-15".into(),
        }),
        unit_cost: Some(SignedUnitCost {
            scale: 1_000_000,
            unit: "tokens".into(),
            compared: Some(dec!(2.5700)),
            own: Some(dec!(0.3600)),
        }),
        gpu_hour: Some(dec!(4.35)),
        gpu_hour_own: Some(dec!(0.61)),
        time_to_finish_h: dec!(20),
        busy_h: dec!(20),
        billable_h: dec!(20),
        rental_h: dec!(23),
        nodes: 1,
        idle: dec!(1.83),
        pricing: Some(SignedPricing {
            monthly_used: false,
            monthly: dec!(300),
            on_demand: dec!(12.20),
            break_even_h: None,
        }),
        components: vec![
            SignedComponent {
                code: "on_demand_compute".into(),
                fee: None,
                unit: "node_hour".into(),
                quantity: dec!(20),
                unit_price: Some(dec!(0.61)),
                cost: dec!(12.20),
                bands: Vec::new(),
            },
            SignedComponent {
                code: "other_fee".into(),
                fee: Some("Setup".into()),
                unit: "item".into(),
                quantity: dec!(1),
                unit_price: None,
                cost: dec!(0),
                bands: Vec::new(),
            },
        ],
        what_if: vec![
            SignedWhatIf::Low { total: dec!(11) },
            SignedWhatIf::Slower {
                pct: 20,
                total: dec!(15),
            },
            SignedWhatIf::SlowestRun {
                run_id: 4,
                total: dec!(16),
            },
        ],
        warnings: vec![
            SignedWarning::Expired,
            SignedWarning::Requirement {
                requirement: "vram".into(),
            },
            SignedWarning::PriceNotStated { price: "disk".into() },
            SignedWarning::RunNotUsed {
                run_id: 5,
                invalid: true,
            },
            SignedWarning::OverBudget { budget: dec!(80) },
        ],
        run_ids: vec![4, 6],
        throughput: Some(SignedThroughput {
            one_node_per_s: dec!(1500.5),
            planned_per_s: dec!(1500.5),
            unit: "tokens".into(),
            n_run: 1,
            at_target: None,
        }),
        over_budget: true,
        estimated: false,
        stated: false,
        to_measure: Some(ToMeasure::Run),
    };
    OrderRecord {
        workload_id: 3,
        quote_id: Some(7),
        quote_revision_id: Some(90),
        considered: vec![7, 2],
        runs: vec![4, 6],
        waiver: String::new(),
        tco: Some(SignedRows::V2(vec![row])),
        comparison: Some("workload=3&q=7".into()),
        problems_acknowledged: Some(Acknowledgement {
            by: 7,
            at: "2026-12-01T10:00:00Z".into(),
            problems: vec![AcknowledgedProblem {
                item_id: "sec.disk_encryption".into(),
                note: "no encryption at rest".into(),
            }],
        }),
        plan: Some(SignedPlan {
            quote_id: 7,
            nodes: 2,
            pricing: crate::tco::Pricing::OnDemand,
            compared_total: dec!(86.91),
            compare_currency: cny,
            earliest_start: 1_894_608_000,
            finish_s: 36_000,
            pessimistic_finish_s: 43_200,
            deadline_s: Some(86_400),
            deadline_at: Some(1_894_694_400),
            budget: Some(dec!(80)),
            at_risk: false,
            recommended: true,
        }),
        ..OrderRecord::default()
    }
}

#[test]
fn a_full_record_round_trips_and_holds_no_formatted_text() {
    let record = full();
    let text = record.canonical().expect("canonical");
    assert!(
        text.starts_with("{\"answers\":{},\"comparison\":\"workload=3&q=7\""),
        "{text}"
    );
    assert!(text.contains(r#""version":5"#), "{text}");
    assert!(
        text.contains(r#""plan":{"at_risk":false,"budget":"80","compare_currency":"CNY","compared_total":"86.91""#),
        "the plan, exact and in key order: {text}"
    );
    assert!(
        text.contains(r#""compared_total":"86.91""#) && text.contains(r#""currency":"USD""#),
        "exact amounts and codes: {text}"
    );
    assert!(!text.contains('$') && !text.contains('¥'), "no money formatted: {text}");
    let back = decode(&text).expect("reads back");
    assert_eq!(back, record);
    assert_eq!(back.canonical().expect("canonical"), text);
    assert_eq!(
        back.chosen_quote(),
        Some(ChosenQuote {
            quote_id: 7,
            revision_id: Some(90),
        })
    );
}

#[test]
fn a_new_orders_record_is_one_exact_canonical_text_that_reads_back() {
    let record = OrderRecord {
        workload_id: 3,
        considered: vec![7, 2],
        waiver: "run booked for May".into(),
        ..OrderRecord::default()
    };
    let text = record.canonical().expect("canonical");
    assert_eq!(
        text,
        r#"{"answers":{},"comparison":null,"considered":[7,2],"frozen":null,"plan":null,"quote_id":null,"quote_revision_id":null,"runs":[],"tco":null,"version":5,"waiver":"run booked for May","workload_id":3}"#
    );
    assert_eq!(decode(&text).expect("reads back"), record);
    assert_eq!(record.chosen_quote(), None);
}

#[test]
fn an_acknowledgement_is_part_of_the_hashed_record_and_absent_without_one() {
    let mut record = OrderRecord {
        workload_id: 3,
        ..OrderRecord::default()
    };
    assert!(!record.canonical().expect("canonical").contains("problems_acknowledged"));
    record.problems_acknowledged = Some(Acknowledgement {
        by: 7,
        at: "2026-12-01T10:00:00Z".into(),
        problems: vec![AcknowledgedProblem {
            item_id: "sec.disk_encryption".into(),
            note: "no encryption at rest".into(),
        }],
    });
    let text = record.canonical().expect("canonical");
    assert!(
        text.contains(r#""problems_acknowledged":{"at":"2026-12-01T10:00:00Z","by":7,"problems":[{"item_id":"sec.disk_encryption","note":"no encryption at rest"}]}"#),
        "{text}"
    );
    assert_eq!(decode(&text).expect("reads back"), record);
}

#[test]
fn a_version_no_release_wrote_or_a_key_of_no_version_is_refused() {
    let v6 = r#"{"answers":{},"comparison":null,"considered":[],"frozen":null,"plan":null,"quote_id":null,"quote_revision_id":null,"runs":[],"tco":null,"version":6,"waiver":"","workload_id":3}"#;
    assert!(matches!(decode(v6), Err(DecodeError::UnknownVersion(_))));
    let plan_in_v2 = r#"{"answers":{},"comparison":null,"considered":[],"frozen":null,"plan":null,"quote_id":null,"quote_revision_id":null,"runs":[],"tco":null,"version":2,"waiver":"","workload_id":3}"#;
    assert!(
        matches!(decode(plan_in_v2), Err(DecodeError::Shape(_))),
        "version 2 had no plan"
    );
    let unknown_key = r#"{"answers":{},"comparison":null,"considered":[],"extra":1,"frozen":null,"quote_id":null,"quote_revision_id":null,"runs":[],"tco":null,"version":2,"waiver":"","workload_id":3}"#;
    assert!(matches!(decode(unknown_key), Err(DecodeError::Shape(_))));
    assert!(matches!(decode("not json"), Err(DecodeError::Shape(_))));
}

#[test]
fn a_version_3_record_with_a_plan_reads_and_is_written_again_only_with_the_version_raised() {
    let record = decode(V3).expect("version 3 reads");
    assert_eq!(record, full());
    assert_eq!(
        record.canonical().expect("canonical"),
        V3.replacen(r#""version":3"#, r#""version":5"#, 1)
    );
    let plan = record.plan.expect("the plan");
    assert_eq!((plan.quote_id, plan.nodes, plan.deadline_s), (7, 2, Some(86_400)));
}

/// Version 4: a tiered traffic line carries its bands, each GB × price = cost, and reads back
/// exactly (the free first 1,000 GB, 9,000 GB at 0.09, 500 GB above at 0.07).
#[test]
fn a_version_4_record_keeps_the_bands_of_a_tiered_traffic_line() {
    use super::SignedBand;
    let mut record = full();
    let band = |free, from_gb, up_to_gb, quantity_gb, price_gb, cost| SignedBand {
        direction: "egress".into(),
        free,
        from_gb,
        up_to_gb,
        quantity_gb,
        price_gb,
        cost,
    };
    let Some(SignedRows::V2(rows)) = record.tco.as_mut() else {
        panic!("rows")
    };
    rows[0].components.push(SignedComponent {
        code: "traffic".into(),
        fee: None,
        unit: "gb".into(),
        quantity: dec!(10500),
        unit_price: None,
        cost: dec!(845.00),
        bands: vec![
            band(true, dec!(0), Some(dec!(1000)), dec!(1000), dec!(0), dec!(0)),
            band(
                false,
                dec!(1000),
                Some(dec!(10000)),
                dec!(9000),
                dec!(0.09),
                dec!(810.00),
            ),
            band(false, dec!(10000), None, dec!(500), dec!(0.07), dec!(35.00)),
        ],
    });
    let text = record.canonical().expect("canonical");
    assert!(
        text.contains(r#""bands":[{"cost":"0","direction":"egress","free":true"#),
        "{text}"
    );
    assert_eq!(decode(&text).expect("reads back"), record);
    let added: rust_decimal::Decimal = rows_of(&record)[0].components[2].bands.iter().map(|b| b.cost).sum();
    assert_eq!(added, dec!(845.00), "the bands add up to the line");
}

/// Version 5: a throughput read at the workload's response-time target says so, with what one
/// million tokens of each kind cost there; a version 4 row without it reads as before.
#[test]
fn a_version_5_record_keeps_the_response_time_target_a_throughput_was_read_at() {
    use super::SignedAtTarget;
    use crate::runs::{LatencyMetric, Percentile, ResponseTarget, TokenCosts};
    let mut record = full();
    let Some(SignedRows::V2(rows)) = record.tco.as_mut() else {
        panic!("rows")
    };
    let throughput = rows[0].throughput.as_mut().expect("a measured row");
    throughput.at_target = Some(SignedAtTarget {
        target: ResponseTarget {
            metric: LatencyMetric::Tpot,
            percentile: Percentile::P95,
            max_ms: dec!(22),
        },
        per_million: Some(TokenCosts {
            output: dec!(8.432),
            input: Some(dec!(8.43)),
            total: Some(dec!(4.215)),
        }),
    });
    let text = record.canonical().expect("canonical");
    assert!(
        text.contains(
            r#""at_target":{"per_million":{"input":"8.43","output":"8.432","total":"4.215"},"target":{"max_ms":"22","metric":"tpot","percentile":"p95"}}"#
        ),
        "{text}"
    );
    assert_eq!(decode(&text).expect("reads back"), record);
    let v4 = full()
        .canonical()
        .expect("canonical")
        .replacen(r#""version":5"#, r#""version":4"#, 1);
    assert!(!v4.contains("at_target"));
    assert_eq!(decode(&v4).expect("version 4 reads"), full());
}

fn rows_of(record: &OrderRecord) -> &[super::SignedCostRow] {
    match &record.tco {
        Some(SignedRows::V2(rows)) => rows,
        _ => &[],
    }
}
