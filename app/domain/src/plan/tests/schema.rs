//! The plan schemas: valid draft 2020-12; the example file and results validate.

use super::fixtures::{EXAMPLE, example, run};
use crate::plan::{PLAN_RESULT_SCHEMA_JSON, PLAN_SCHEMA_JSON, PlanScenario};
use crate::tco::SCENARIO_SCHEMA_JSON;
use jsonschema::Validator;
use serde_json::{Value, json};

/// Checks `schema` against the draft 2020-12 meta-schema.
fn meta_valid(schema: &Value) {
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("not a valid draft 2020-12 schema: {e} at {}", e.instance_path());
    }
}

/// The plan schema with the scenario schema it references bundled in (its `$id` is the
/// address the relative `$ref` resolves to), compiled.
fn plan_schema() -> Validator {
    let mut plan: Value = serde_json::from_str(PLAN_SCHEMA_JSON).expect("JSON");
    meta_valid(&plan);
    let mut scenario: Value = serde_json::from_str(SCENARIO_SCHEMA_JSON).expect("JSON");
    scenario["$id"] = json!("https://nodeledger.invalid/schemas/scenario.schema.json");
    plan["$defs"]["bundled_scenario"] = scenario;
    jsonschema::draft202012::new(&plan).expect("schema compiles")
}

fn result_schema() -> Validator {
    let schema: Value = serde_json::from_str(PLAN_RESULT_SCHEMA_JSON).expect("JSON");
    meta_valid(&schema);
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

fn errors(v: &Validator, doc: &Value) -> String {
    v.iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_example_file_validates_and_reads() {
    // Rule: the documented example is a valid plan file, and serde reads what it validates.
    let doc: Value = serde_json::from_str(EXAMPLE).expect("JSON");
    let v = plan_schema();
    assert_eq!(errors(&v, &doc), "");
    assert!(serde_json::from_value::<PlanScenario>(doc).is_ok());
}

#[test]
fn the_schema_rejects_what_serde_rejects() {
    // Rule: unknown fields, decimals as numbers, an unknown GPU use and a bad moment fail both.
    let v = plan_schema();
    let base: Value = serde_json::from_str(EXAMPLE).expect("JSON");
    let bad = |f: &dyn Fn(&mut Value)| {
        let mut doc = base.clone();
        f(&mut doc);
        (v.is_valid(&doc), serde_json::from_value::<PlanScenario>(doc).is_ok())
    };
    assert_eq!(bad(&|d| d["plan"]["deadline"] = json!("48")), (false, false));
    assert_eq!(bad(&|d| d["plan"]["deadline_h"] = json!(48)), (false, false));
    assert_eq!(bad(&|d| d["plan"]["gpu_use"] = json!("sometimes")), (false, false));
    assert_eq!(
        bad(&|d| d["plan"]["earliest_start"] = json!("13/12/2026")),
        (false, false)
    );
    assert_eq!(bad(&|d| d["plan"]["quotes"][0]["capacity"] = json!(1)), (false, false));
    assert_eq!(bad(&|d| d["scenario"]["quotes"][0]["typo"] = json!(1)), (false, false));
    assert_eq!(bad(&|d| d["plan"]["max_nodes"] = json!(8)), (true, true));
}

#[test]
fn results_validate_against_the_result_schema() {
    // Rule: the output of `nodeledger plan` always matches its documented schema: with and
    // without a deadline, a budget, monthly pricing and runs.
    let v = result_schema();
    let mut s = example();
    let check = |s: &PlanScenario| {
        let doc = serde_json::to_value(run(s)).expect("serialises");
        let errs = errors(&v, &doc);
        assert!(errs.is_empty(), "{errs}\n{doc:#}");
    };
    check(&s);
    s.plan.deadline_h = None;
    s.plan.budget = Some(rust_decimal_macros::dec!(700));
    s.plan.quotes[0].runs = vec![crate::plan::RunFigure {
        per_s: rust_decimal_macros::dec!(10),
        nodes: 1,
    }];
    s.scenario.quotes[0].price_sheet.monthly_price = Some(rust_decimal_macros::dec!(5000));
    s.scenario.quotes[0].price_sheet.commitment_months = Some(1);
    s.plan.quotes[1].capacity_nodes = None;
    check(&s);
    s.plan.earliest_start = None;
    s.plan.budget = None;
    check(&s);
}
