//! The JSON Schemas of scenario files and results: both are valid draft 2020-12, and every
//! scenario built here and its result validate.

use crate::tco::{
    AssumptionOverrides, RESULT_SCHEMA_JSON, SCENARIO_SCHEMA_JSON, Scenario, ScenarioResult, run_scenario,
};
use jsonschema::Validator;
use rust_decimal_macros::dec;
use serde_json::{Value, json};
use std::collections::BTreeSet;

use super::schema_scenarios::{full, representative};

pub(super) const EXAMPLE: &str = include_str!("../example-scenario.json");

/// Parses a schema, checks it against the draft 2020-12 meta-schema and compiles it.
fn compile(text: &str) -> Validator {
    let schema: Value = serde_json::from_str(text).expect("schema file is JSON");
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        panic!("not a valid draft 2020-12 schema: {e} at {}", e.instance_path());
    }
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

pub(super) fn scenario_schema() -> Validator {
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
pub(super) fn accepted(doc: &Value, what: &str) -> bool {
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
pub(super) fn check_both(scenario: &Scenario, what: &str) -> ScenarioResult {
    let doc = serde_json::to_value(scenario).expect("scenario serialises");
    assert_valid(&scenario_schema(), &doc, what);
    let result = run_scenario(scenario).unwrap_or_else(|e| panic!("{what}: {e}"));
    let out = serde_json::to_value(&result).expect("result serialises");
    assert_valid(&result_schema(), &out, &format!("result of {what}"));
    result
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
    let mut banded = false;
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
                banded |= c.get("bands").is_some();
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
        "early_release_refund",
    ]);
    assert_eq!(kinds, every_kind);
    assert!(banded, "a traffic line in tiers shows its bands");
    let every_warning = all(&[
        "throughput_assumed",
        "stated_run_length_ignored",
        "nodes_below_requirement",
        "minimum_billable_applied",
        "price_not_stated",
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
