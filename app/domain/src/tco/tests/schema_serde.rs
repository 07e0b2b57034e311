//! The scenario schema agrees with serde on what it rejects (unknown fields, numbers for
//! decimals, bad currencies, missing fields), and the known gaps between them.

use crate::tco::Scenario;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use super::schema::{EXAMPLE, accepted, check_both, scenario_schema};
use super::schema_scenarios::full;

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
    // An increment or package period is a named length or whole seconds up to a year, written
    // as serde writes it; what people type ("10 min", "daily") is read by the quote form and CSV.
    for good in ["second", "day", "week", "month", "1s", "600s", "31536000s"] {
        let increment = with("/quotes/0/price_sheet/billing_increment", json!(good));
        assert!(accepted(&increment, &format!("increment {good:?}")));
        let mut period = base.clone();
        period["quotes"][0]["price_sheet"]["package_period"] = json!(good);
        assert!(accepted(&period, &format!("package period {good:?}")));
    }
    for bad in [
        "daily",
        "10 min",
        "600",
        "600 s",
        "0s",
        "010s",
        "31536001s",
        "99999999s",
        "s",
        "Hour",
        "",
    ] {
        let increment = with("/quotes/0/price_sheet/billing_increment", json!(bad));
        assert!(!accepted(&increment, &format!("increment {bad:?}")));
    }
    let mut refund = base.clone();
    refund["quotes"][0]["price_sheet"]["early_release_refund"] = json!("prorated_week");
    assert!(!accepted(&refund, "an unknown refund rule"));
    let mut period = base.clone();
    period["quotes"][0]["price_sheet"]["traffic_period"] = json!("year");
    assert!(!accepted(&period, "an unknown traffic period"));
    let mut open_tier = base.clone();
    open_tier["quotes"][0]["price_sheet"]["egress_tiers"] = json!([{ "price_gb": "0.09" }]);
    assert!(accepted(&open_tier, "an open tier"));
    open_tier["quotes"][0]["price_sheet"]["egress_tiers"] = json!([{ "up_to_gb": "10" }]);
    assert!(!accepted(&open_tier, "a tier without a price"));
    let mut packages_only = base.clone();
    let sheet = packages_only["quotes"][0]["price_sheet"].as_object_mut().unwrap();
    sheet.remove("on_demand_hourly");
    assert!(accepted(&packages_only, "no on-demand price"));
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
