//! The JSON Schemas of scenario files and results: both are valid draft 2020-12, every
//! scenario built here and its result validate, and the scenario schema agrees with serde on
//! what it rejects (unknown fields, numbers for decimals, bad currencies, missing fields).

use super::fixtures::{assumptions, hours, shape, sheet, work};
use crate::domain::tco::{
    AssumptionOverrides, Assumptions, BillingIncrement, Currency, Demand, ExchangeRate, Fee, NodeShape, PriceBasis,
    PriceSheet, Quote, RESULT_SCHEMA_JSON, SCENARIO_SCHEMA_JSON, Scenario, ScenarioResult, TotalWork, run_scenario,
};
use jsonschema::Validator;
use rust_decimal_macros::dec;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const EXAMPLE: &str = include_str!("../example-scenario.json");

/// Parses a schema, checks it against the draft 2020-12 meta-schema and compiles it.
fn compile(text: &str) -> Validator {
    let schema: Value = serde_json::from_str(text).expect("schema file is JSON");
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        panic!("not a valid draft 2020-12 schema: {e} at {}", e.instance_path());
    }
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

fn scenario_schema() -> Validator {
    compile(SCENARIO_SCHEMA_JSON)
}

fn result_schema() -> Validator {
    compile(RESULT_SCHEMA_JSON)
}

/// Every schema error, one per line, with where it is in the document.
fn errors(schema: &Validator, doc: &Value) -> String {
    schema
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_valid(schema: &Validator, doc: &Value, what: &str) {
    let errs = errors(schema, doc);
    assert!(errs.is_empty(), "{what} does not match its schema:\n{errs}\n{doc:#}");
}

/// Whether the scenario schema accepts `doc`, after checking serde reads it exactly when the
/// schema accepts it.
fn accepted(doc: &Value, what: &str) -> bool {
    let by_schema = scenario_schema().is_valid(doc);
    let by_serde = serde_json::from_value::<Scenario>(doc.clone());
    assert_eq!(
        by_schema,
        by_serde.is_ok(),
        "schema and serde disagree on {what}: schema errors [{}], serde {:?}",
        errors(&scenario_schema(), doc),
        by_serde.err()
    );
    by_schema
}

/// Serialises `scenario`, checks it against the scenario schema, runs it and checks the
/// serialised result against the result schema.
fn check_both(scenario: &Scenario, what: &str) -> ScenarioResult {
    let doc = serde_json::to_value(scenario).expect("scenario serialises");
    assert_valid(&scenario_schema(), &doc, what);
    let result = run_scenario(scenario).unwrap_or_else(|e| panic!("{what}: {e}"));
    let out = serde_json::to_value(&result).expect("result serialises");
    assert_valid(&result_schema(), &out, &format!("result of {what}"));
    result
}

fn scenario(title: &str, workload: Demand, a: Assumptions, quotes: Vec<Quote>) -> Scenario {
    Scenario {
        title: Some(title.into()),
        workload,
        assumptions: a,
        quotes,
        compare_currency: None,
        exchange_rates: Vec::new(),
    }
}

fn quote(id: &str, price_sheet: PriceSheet, node_shape: NodeShape) -> Quote {
    Quote {
        id: id.into(),
        label: format!("Vendor {id}"),
        price_sheet,
        node_shape,
        measured_throughput_per_s: None,
        n_run: None,
        assumption_overrides: None,
    }
}

/// Every optional field set, every list non-empty: two currencies, overrides, fees, a monthly
/// offer, stopped billing, disks, traffic and snapshots.
fn full() -> Scenario {
    let a = Assumptions {
        setup_h: dec!(1),
        data_prep_h: dec!(0.5),
        download_h: dec!(0.25),
        export_h: dec!(0.25),
        idle_h: dec!(1),
        stopped_h: dec!(2),
        rerun_share: dec!(0.1),
        egress_gb: dec!(100),
        ingress_gb: dec!(50),
        snapshot_gb: dec!(200),
        snapshot_months: dec!(1.5),
        nodes: Some(2),
        efficiency: dec!(0.9),
        measured_throughput_per_s: Some(dec!(10)),
        n_run: Some(2),
    };
    let gpu_sheet = PriceSheet {
        basis: PriceBasis::PerGpu,
        billing_increment: BillingIncrement::Minute,
        monthly_price: Some(dec!(100000)),
        commitment_months: Some(1),
        stopped_bills_compute: true,
        disk_price_gb_month: dec!(0.5),
        snapshot_price_gb_month: dec!(0.2),
        egress_price_gb: dec!(0.8),
        free_egress_gb: dec!(10),
        ingress_price_gb: dec!(0.1),
        public_ip_hourly: dec!(0.05),
        other_fees: vec![Fee {
            label: "setup fee".into(),
            amount: dec!(100),
        }],
        ..sheet(dec!(20.00))
    };
    let disks = NodeShape {
        system_disk_gb: dec!(100),
        data_disk_gb: dec!(500),
        ..shape(8)
    };
    let overrides = AssumptionOverrides {
        setup_h: Some(dec!(2)),
        data_prep_h: Some(dec!(1)),
        download_h: Some(dec!(0.5)),
        export_h: Some(dec!(0.5)),
        idle_h: Some(dec!(0)),
        stopped_h: Some(dec!(4)),
        rerun_share: Some(dec!(0.05)),
        egress_gb: Some(dec!(20)),
        ingress_gb: Some(dec!(0)),
        snapshot_gb: Some(dec!(0)),
        snapshot_months: Some(dec!(0)),
        nodes: Some(1),
        efficiency: Some(dec!(1)),
    };
    let usd_sheet = PriceSheet {
        currency: Currency::USD,
        billing_increment: BillingIncrement::Second,
        minimum_billable_hours: dec!(1000),
        ..sheet(dec!(10))
    };
    let mut a_quote = quote("a", gpu_sheet, disks);
    a_quote.measured_throughput_per_s = Some(dec!(50));
    a_quote.n_run = Some(1);
    a_quote.assumption_overrides = Some(overrides);
    let workload = Demand {
        gpus_needed: 16,
        total_work: Some(TotalWork {
            amount: dec!(1000000),
            unit: "tokens".into(),
        }),
        run_hours: Some(dec!(10)),
    };
    Scenario {
        compare_currency: Some(Currency::CNY),
        exchange_rates: vec![ExchangeRate {
            from: Currency::USD,
            to: Currency::CNY,
            rate: dec!(7.2),
            date: "2024-06-30".into(),
        }],
        ..scenario(
            "every field",
            workload,
            a,
            vec![a_quote, quote("b", usd_sheet, shape(4))],
        )
    }
}

/// Representative scenarios: per-GPU pricing, a monthly commitment that wins, other fees with
/// stopped billing, traffic both ways, yen, exchange rates and overrides.
fn representative() -> Vec<(&'static str, Scenario)> {
    let per_gpu = PriceSheet {
        basis: PriceBasis::PerGpu,
        ..sheet(dec!(2.50))
    };
    let monthly = PriceSheet {
        monthly_price: Some(dec!(5000)),
        commitment_months: Some(1),
        ..sheet(dec!(10.00))
    };
    let fees_and_stopped = PriceSheet {
        stopped_bills_compute: true,
        snapshot_price_gb_month: dec!(0.1),
        egress_price_gb: dec!(0.80),
        free_egress_gb: dec!(100),
        ingress_price_gb: dec!(0.5),
        public_ip_hourly: dec!(0.02),
        other_fees: vec![
            Fee {
                label: "setup".into(),
                amount: dec!(99),
            },
            Fee {
                label: "support".into(),
                amount: dec!(1.5),
            },
        ],
        ..sheet(dec!(3))
    };
    let usage = Assumptions {
        stopped_h: dec!(5),
        idle_h: dec!(2),
        egress_gb: dec!(150),
        ingress_gb: dec!(10),
        snapshot_gb: dec!(200),
        snapshot_months: dec!(3),
        ..assumptions()
    };
    let yen = PriceSheet {
        currency: Currency::JPY,
        ..sheet(dec!(1500))
    };
    let mut mixed = scenario(
        "yen and yuan",
        hours(dec!(10), 1),
        assumptions(),
        vec![quote("jpy", yen, shape(1)), quote("cny", sheet(dec!(70)), shape(1))],
    );
    mixed.compare_currency = Some(Currency::CNY);
    mixed.exchange_rates = vec![ExchangeRate {
        from: Currency::CNY,
        to: Currency::JPY,
        rate: dec!(21.5),
        date: "2024-01-31".into(),
    }];
    mixed.quotes[0].assumption_overrides = Some(AssumptionOverrides {
        setup_h: Some(dec!(1)),
        ..AssumptionOverrides::default()
    });
    let mut untitled = scenario(
        "",
        work(dec!(2592000), 1),
        assumptions(),
        vec![quote("tput", sheet(dec!(10)), shape(1))],
    );
    untitled.title = None;
    untitled.quotes[0].measured_throughput_per_s = Some(dec!(10));
    vec![
        (
            "per-GPU pricing",
            scenario(
                "per GPU",
                hours(dec!(24), 16),
                assumptions(),
                vec![quote("gpu", per_gpu, shape(8))],
            ),
        ),
        (
            "monthly commitment",
            scenario(
                "monthly",
                hours(dec!(600), 1),
                assumptions(),
                vec![quote("m", monthly, shape(1))],
            ),
        ),
        (
            "other fees and stopped billing",
            scenario(
                "fees",
                hours(dec!(7), 1),
                usage,
                vec![quote("fees", fees_and_stopped, shape(1))],
            ),
        ),
        ("exchange rates and overrides", mixed),
        ("no title, measured throughput", untitled),
        ("every field", full()),
    ]
}

#[test]
fn both_schemas_are_valid_draft_2020_12() {
    scenario_schema();
    result_schema();
}

#[test]
fn every_property_has_a_description() {
    fn walk(v: &Value, path: &str, missing: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    for (name, prop) in props {
                        let described = prop
                            .get("description")
                            .and_then(Value::as_str)
                            .is_some_and(|d| !d.trim().is_empty());
                        if !described {
                            missing.push(format!("{path}/properties/{name}"));
                        }
                    }
                }
                for (k, child) in map {
                    walk(child, &format!("{path}/{k}"), missing);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    walk(child, &format!("{path}/{i}"), missing);
                }
            }
            _ => {}
        }
    }
    for text in [SCENARIO_SCHEMA_JSON, RESULT_SCHEMA_JSON] {
        let schema: Value = serde_json::from_str(text).unwrap();
        let mut missing = Vec::new();
        walk(&schema, "", &mut missing);
        assert!(missing.is_empty(), "properties without a description: {missing:?}");
    }
}

#[test]
fn the_example_scenario_and_its_result_validate() {
    let doc: Value = serde_json::from_str(EXAMPLE).unwrap();
    assert!(accepted(&doc, "the example scenario"));
    let s: Scenario = serde_json::from_value(doc).unwrap();
    let r = check_both(&s, "the example scenario");
    assert_eq!(r.quotes[0].compared_total, dec!(720.00));
}

#[test]
fn representative_scenarios_and_results_validate() {
    let mut kinds = BTreeSet::new();
    let mut warnings = BTreeSet::new();
    let mut pricings = BTreeSet::new();
    for (what, s) in representative() {
        let result = check_both(&s, what);
        let out = serde_json::to_value(&result).unwrap();
        for q in out["quotes"].as_array().unwrap() {
            let e = &q["estimate"];
            pricings.insert(e["pricing_used"].to_string());
            for w in e["warnings"].as_array().unwrap() {
                warnings.insert(w["code"].as_str().unwrap().to_owned());
            }
            for c in e["components"].as_array().unwrap() {
                let kind = &c["kind"];
                kinds.insert(match kind.as_object() {
                    Some(fee) => fee.keys().next().unwrap().clone(),
                    None => kind.as_str().unwrap().to_owned(),
                });
            }
        }
    }
    // The results between them show every shape the result schema describes.
    let all = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect::<BTreeSet<_>>();
    let every_kind = all(&[
        "on_demand_compute",
        "monthly_commitment",
        "stopped_compute",
        "disk",
        "public_ip",
        "traffic",
        "snapshots",
        "other_fee",
    ]);
    assert_eq!(kinds, every_kind);
    let every_warning = all(&[
        "throughput_assumed",
        "stated_run_length_ignored",
        "nodes_below_requirement",
        "minimum_billable_applied",
    ]);
    assert_eq!(warnings, every_warning);
    assert_eq!(pricings, all(&[r#""on_demand""#, r#""monthly""#]));
}

#[test]
fn serialised_overrides_leave_out_absent_fields_and_still_validate() {
    let mut s = full();
    s.quotes[0].assumption_overrides = Some(AssumptionOverrides::default());
    let doc = serde_json::to_value(&s).unwrap();
    assert_eq!(doc["quotes"][0]["assumption_overrides"], json!({}));
    assert!(accepted(&doc, "empty overrides"));
}

/// The scenario schema and serde agree on the named negative cases.
#[test]
fn schema_and_serde_reject_the_same_mistakes() {
    let base: Value = serde_json::from_str(EXAMPLE).unwrap();
    let with = |pointer: &str, value: Value| {
        let mut doc = base.clone();
        *doc.pointer_mut(pointer).expect("pointer exists") = value;
        doc
    };
    let mut unknown = base.clone();
    unknown["assumptions"]["setup_hours"] = json!("1");
    assert!(!accepted(&unknown, "an unknown field"));
    let mut nested = base.clone();
    nested["quotes"][0]["price_sheet"]["free_egres_gb"] = json!("0");
    assert!(!accepted(&nested, "an unknown nested field"));
    let number = with("/quotes/0/price_sheet/on_demand_hourly", json!(35.0));
    assert!(!accepted(&number, "a number for a decimal"));
    let integer = with("/assumptions/efficiency", json!(1));
    assert!(!accepted(&integer, "an integer for a decimal"));
    for bad in ["cny", "CN", "CNYY", "SEK", ""] {
        let doc = with("/quotes/0/price_sheet/currency", json!(bad));
        assert!(!accepted(&doc, &format!("currency {bad:?}")));
    }
    let mut missing = base.clone();
    missing["quotes"][0]["node_shape"]
        .as_object_mut()
        .unwrap()
        .remove("gpus_per_node");
    assert!(!accepted(&missing, "a missing required field"));
    let mut defaulted = base.clone();
    let top = defaulted.as_object_mut().unwrap();
    for key in ["title", "compare_currency", "exchange_rates"] {
        top.remove(key);
    }
    assert!(accepted(&defaulted, "defaulted fields left out"));
    assert!(!accepted(&with("/exchange_rates", Value::Null), "null rates"));
    assert!(!accepted(&with("/workload/gpus_needed", json!(-1)), "negative count"));
    let too_big = with("/workload/gpus_needed", json!(4_294_967_296_u64));
    assert!(!accepted(&too_big, "count above u32"));
    assert!(!accepted(
        &with("/quotes/0/price_sheet/basis", json!("perNode")),
        "camelCase"
    ));
    let increment = with("/quotes/0/price_sheet/billing_increment", json!("day"));
    assert!(!accepted(&increment, "an unknown billing increment"));
}

/// JSON pointers of every object member in `v`, and of every object.
fn members(v: &Value, at: &str, fields: &mut Vec<String>, objects: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            objects.push(at.to_owned());
            for (k, child) in map {
                let p = format!("{at}/{k}");
                fields.push(p.clone());
                members(child, &p, fields, objects);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                members(child, &format!("{at}/{i}"), fields, objects);
            }
        }
        _ => {}
    }
}

/// Mutates every field of the fullest scenario (left out, null, wrong type) and adds an unknown
/// field to every object: the schema must accept exactly what serde accepts.
#[test]
fn schema_and_serde_agree_on_every_field() {
    let base = serde_json::to_value(full()).unwrap();
    assert!(accepted(&base, "the full scenario"));
    let (mut fields, mut objects) = (Vec::new(), Vec::new());
    members(&base, "", &mut fields, &mut objects);
    for p in &fields {
        let (parent, key) = p.rsplit_once('/').unwrap();
        let mut left_out = base.clone();
        left_out
            .pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .unwrap()
            .remove(key);
        accepted(&left_out, &format!("{p} left out"));
        let original = base.pointer(p).unwrap();
        let wrong = match original {
            Value::String(_) => vec![json!(1.5), json!(1)],
            Value::Number(_) => vec![json!("1"), json!(1.5), json!(-1)],
            Value::Bool(_) => vec![json!("true"), json!(1)],
            Value::Object(_) | Value::Array(_) => vec![json!("x"), json!(1)],
            Value::Null => vec![],
        };
        for value in wrong.into_iter().chain([Value::Null]) {
            let mut doc = base.clone();
            *doc.pointer_mut(p).unwrap() = value.clone();
            accepted(&doc, &format!("{p} = {value}"));
        }
    }
    for o in &objects {
        let mut doc = base.clone();
        let obj = doc.pointer_mut(o).and_then(Value::as_object_mut).unwrap();
        obj.insert("unexpected".into(), json!("1"));
        assert!(!accepted(&doc, &format!("unknown field in {o:?}")));
    }
}

/// The known gaps, as documented on [`SCENARIO_SCHEMA_JSON`]: serde reads a few spellings the
/// schema leaves out, and rejects counts written `2.0` (an integer to JSON Schema) and decimals
/// too large for `rust_decimal`, which the schema lets through.
#[test]
fn known_gaps_between_schema_and_serde() {
    let base: Value = serde_json::from_str(EXAMPLE).unwrap();
    for (pointer, spelling) in [
        ("/assumptions/setup_h", "1e1"),
        ("/assumptions/setup_h", "+1"),
        ("/assumptions/setup_h", "1_000"),
        ("/assumptions/setup_h", ".5"),
        ("/workload/run_hours", ""),
    ] {
        let mut doc = base.clone();
        *doc.pointer_mut(pointer).unwrap() = json!(spelling);
        assert!(serde_json::from_value::<Scenario>(doc.clone()).is_ok(), "{spelling:?}");
        assert!(!scenario_schema().is_valid(&doc), "{spelling:?}");
    }
    let mut fee_as_array = base.clone();
    fee_as_array["quotes"][0]["price_sheet"]["other_fees"] = json!([["setup", "1"]]);
    assert!(serde_json::from_value::<Scenario>(fee_as_array.clone()).is_ok());
    assert!(!scenario_schema().is_valid(&fee_as_array));
    for (pointer, value) in [
        ("/workload/gpus_needed", json!(2.0)),
        ("/assumptions/setup_h", json!("99999999999999999999999999999999")),
    ] {
        let mut doc = base.clone();
        *doc.pointer_mut(pointer).unwrap() = value.clone();
        assert!(serde_json::from_value::<Scenario>(doc.clone()).is_err(), "{value}");
        assert!(scenario_schema().is_valid(&doc), "{value}");
    }
}

/// Scenario files written before cost model v2 have no `n_run`: they still read, as one node.
#[test]
fn files_without_n_run_still_read_as_one_node() {
    let mut doc: Value = serde_json::from_str(EXAMPLE).unwrap();
    doc["assumptions"].as_object_mut().unwrap().remove("n_run");
    for q in doc["quotes"].as_array_mut().unwrap() {
        q.as_object_mut().unwrap().remove("n_run");
    }
    assert!(accepted(&doc, "a v1 scenario file"));
    let s: Scenario = serde_json::from_value(doc).unwrap();
    assert!(s.quotes.iter().all(|q| q.n_run.is_none()));
    let r = check_both(&s, "a v1 scenario file");
    assert_eq!(r.quotes[0].compared_total, dec!(720.00));
    assert_eq!(r.quotes[0].estimate.n_run, Some(1));
}
