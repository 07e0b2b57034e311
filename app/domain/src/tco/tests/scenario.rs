//! Scenario files: serde round trip, typo rejection, ranking and currencies.

use super::fixtures::{assumptions, shape, sheet, work};
use crate::tco::{
    AssumptionOverrides, Currency, ErrorReason as R, ExchangeRate, PriceSheet, Quote, Scenario, run_scenario,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn quote(id: &str, label: &str, hourly: Decimal, gpus: u32, throughput: Decimal) -> Quote {
    Quote {
        id: id.into(),
        label: label.into(),
        price_sheet: sheet(hourly),
        node_shape: shape(gpus),
        measured_throughput_per_s: Some(throughput),
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    }
}

/// The worked example as a scenario, plus a second 720.00 quote to test the tie-break.
fn example() -> Scenario {
    Scenario {
        title: Some("fine-tune".into()),
        workload: work(dec!(2592000), 1),
        assumptions: assumptions(),
        quotes: vec![
            quote("big", "Vendor C 4×GPU", dec!(35.00), 4, dec!(30)),
            quote("b", "Vendor B 1×GPU", dec!(10.00), 1, dec!(10)),
            quote("a", "Vendor A 1×GPU", dec!(10.00), 1, dec!(10)),
        ],
        compare_currency: None,
        exchange_rates: Vec::new(),
    }
}

#[test]
fn quotes_rank_cheapest_first_ties_by_label() {
    let r = run_scenario(&example()).unwrap();
    let got: Vec<_> = r
        .quotes
        .iter()
        .map(|q| (q.rank, q.id.as_str(), q.compared_total))
        .collect();
    assert_eq!(
        got,
        vec![(1, "a", dec!(720.00)), (2, "b", dec!(720.00)), (3, "big", dec!(840.00))]
    );
    assert_eq!(r.compare_currency, Currency::CNY);
}

#[test]
fn per_quote_overrides_change_only_that_quote() {
    let mut s = example();
    let setup = AssumptionOverrides {
        setup_h: Some(dec!(10)),
        ..AssumptionOverrides::default()
    };
    s.quotes[2].assumption_overrides = Some(setup);
    let r = run_scenario(&s).unwrap();
    let a = r.quotes.iter().find(|q| q.id == "a").unwrap();
    assert_eq!((a.rank, a.compared_total), (2, dec!(820.00)));
}

#[test]
fn mixed_currencies_need_a_comparison_currency_and_rates() {
    let mut s = example();
    s.quotes[0].price_sheet = PriceSheet {
        currency: Currency::USD,
        ..sheet(dec!(5.00))
    };
    assert_eq!(run_scenario(&s).unwrap_err().field, "scenario.compare_currency");
    s.compare_currency = Some(Currency::CNY);
    let err = run_scenario(&s).unwrap_err();
    assert_eq!(
        (err.field, err.quote.as_deref()),
        ("scenario.exchange_rates", Some("big"))
    );
    let rate = |r, d: &str| ExchangeRate {
        from: Currency::USD,
        to: Currency::CNY,
        rate: r,
        date: d.into(),
    };
    s.exchange_rates = vec![rate(dec!(7.0), "2024-01-01"), rate(dec!(7.2), "2024-06-30")];
    let r = run_scenario(&s).unwrap();
    let big = r.quotes.iter().find(|q| q.id == "big").unwrap();
    // 24 h × 5.00 USD = 120.00 USD × 7.2 (latest rate) = 864.00 CNY.
    assert_eq!((big.estimate.total, big.compared_total), (dec!(120.00), dec!(864.00)));
    assert_eq!((big.rank, big.rate_date.as_deref()), (3, Some("2024-06-30")));
    assert_eq!(r.quotes[0].rate_date, None);
}

#[test]
fn scenario_must_have_unique_quotes() {
    let mut s = example();
    s.quotes[1].id = "a".into();
    assert_eq!(run_scenario(&s).unwrap_err().reason, R::Duplicate { value: "a".into() });
    s.quotes.clear();
    assert_eq!(run_scenario(&s).unwrap_err().reason, R::Empty);
}

#[test]
fn quote_errors_name_the_quote() {
    let mut s = example();
    s.quotes[1].node_shape.gpus_per_node = 0;
    let err = run_scenario(&s).unwrap_err();
    assert_eq!(
        (err.field, err.quote.as_deref()),
        ("node_shape.gpus_per_node", Some("b"))
    );
}

#[test]
fn scenario_survives_a_json_round_trip_with_decimals_as_strings() {
    let mut s = example();
    s.quotes[0].assumption_overrides = Some(AssumptionOverrides {
        nodes: Some(2),
        ..Default::default()
    });
    s.quotes[0].price_sheet.monthly_price = Some(dec!(9000.50));
    s.quotes[0].price_sheet.commitment_months = Some(1);
    let json = serde_json::to_string_pretty(&s).unwrap();
    assert!(json.contains(r#""on_demand_hourly": "35.00""#), "{json}");
    assert_eq!(serde_json::from_str::<Scenario>(&json).unwrap(), s);
    let result = run_scenario(&s).unwrap();
    let out = serde_json::to_value(&result).unwrap();
    assert_eq!(out["quotes"][0]["estimate"]["total"], "720.00");
}

#[test]
fn unknown_fields_and_float_numbers_are_rejected() {
    let json = serde_json::to_string(&example()).unwrap();
    let typo = json.replacen(r#""setup_h""#, r#""setup_hours""#, 1);
    let err = serde_json::from_str::<Scenario>(&typo).unwrap_err().to_string();
    assert!(err.contains("unknown field `setup_hours`"), "{err}");
    let nested = json.replacen(r#""free_egress_gb""#, r#""free_egres_gb""#, 1);
    assert!(serde_json::from_str::<Scenario>(&nested).is_err());
    let float = json.replacen(r#""on_demand_hourly":"35.00""#, r#""on_demand_hourly":35.0"#, 1);
    assert_ne!(float, json);
    assert!(serde_json::from_str::<Scenario>(&float).is_err());
}
