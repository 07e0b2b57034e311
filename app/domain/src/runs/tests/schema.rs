use serde_json::Value;

use super::super::{CanonicalRun, RUN_SCHEMA_JSON, TOP_LEVEL_FIELDS};
use super::{CANONICAL_FULL, CANONICAL_MINIMAL, FIXTURES, run_of};

fn schema() -> Value {
    serde_json::from_str(RUN_SCHEMA_JSON).expect("schema file is valid JSON")
}

#[test]
fn canonical_fixtures_deserialize_directly() {
    for bytes in [CANONICAL_FULL, CANONICAL_MINIMAL] {
        let run: CanonicalRun = serde_json::from_slice(bytes).expect("deserializes");
        assert_eq!(run.schema, "nodeledger.run/v1");
    }
}

#[test]
fn schema_is_draft_2020_12_and_names_every_top_level_property() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let props = s["properties"].as_object().expect("properties");
    for field in TOP_LEVEL_FIELDS {
        assert!(props.contains_key(field), "schema lacks {field}");
    }
    assert_eq!(props.len(), TOP_LEVEL_FIELDS.len());
}

#[test]
fn top_level_fields_match_what_serde_writes() {
    let full = run_of(CANONICAL_FULL);
    let value = serde_json::to_value(&full).expect("serializes");
    let keys: Vec<&str> = value.as_object().expect("object").keys().map(String::as_str).collect();
    let mut expected = TOP_LEVEL_FIELDS.to_vec();
    let mut got = keys.clone();
    expected.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, expected, "canonical_full.json must populate every field");
}

/// Checks object keys against `properties` wherever the schema closes an
/// object with `"additionalProperties": false` (a small subset of validation).
fn check_closed(schema: &Value, root: &Value, value: &Value, path: &str) {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix("#/")
            .map_or(schema, |p| p.split('/').fold(root, |s, k| &s[k])),
        None => schema,
    };
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        assert!(allowed.contains(value), "{path}: {value} not in enum");
    }
    match value {
        Value::Object(obj) => {
            let props = schema.get("properties").and_then(Value::as_object);
            for (k, v) in obj {
                match props.and_then(|p| p.get(k)) {
                    Some(sub) => check_closed(sub, root, v, &format!("{path}.{k}")),
                    None => assert_ne!(
                        schema.get("additionalProperties"),
                        Some(&Value::Bool(false)),
                        "{path}: unexpected key {k}"
                    ),
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    check_closed(item_schema, root, v, &format!("{path}[{i}]"));
                }
            }
        }
        _ => {}
    }
}

#[test]
fn every_parsed_fixture_fits_the_schema_keys_and_enums() {
    let s = schema();
    for (name, bytes, _) in FIXTURES {
        let run = run_of(bytes);
        let value = serde_json::to_value(&run).expect("serializes");
        check_closed(&s, &s, &value, name);
        let judged = super::super::assess(run, &super::super::VerdictContext::default());
        check_closed(&s, &s, &serde_json::to_value(&judged).expect("serializes"), name);
    }
}

#[test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
fn schema_lists_every_reason_code() {
    use super::super::{Difference, QuoteField, Reason};
    use rust_decimal::Decimal;
    let s = schema();
    let codes = &s["properties"]["verdict"]["properties"]["reasons"]["items"]["properties"]["code"]["enum"];
    let samples = [
        Reason::WarmupExcluded {
            warmup_s: 1.0,
            steady_util_mean_pct: None,
            throughput_incl_warmup: None,
        },
        Reason::WarmupIncluded {
            warmup_s: 30.0,
            duration_s: 412.0,
            share: 30.0 / 412.0,
            max_share: 0.1,
        },
        Reason::DurationUnknown,
        Reason::DurationFromMlperf { min_duration_s: 600.0 },
        Reason::ShortRun {
            duration_s: 1.0,
            warmup_s: 0.0,
            min_s: 2.0,
        },
        Reason::TelemetryMissing,
        Reason::RunWindow {
            start_s: 0.0,
            end_s: 1.0,
            covered_share: 1.0,
        },
        Reason::RunWindowUnknown,
        Reason::ThermalOrPowerSlowdown {
            active_s: 1.0,
            share: None,
            max_share: 0.1,
            reasons: Vec::new(),
        },
        Reason::PowerCapped {
            active_s: 1.0,
            share: None,
        },
        Reason::VramHeadroomLow {
            peak_mib: 1.0,
            usable_mib: 1.0,
            headroom_pct: Decimal::from(20),
            required_mib: Decimal::new(12, 1),
            actual_pct: Some(0),
            basis: None,
        },
        Reason::VramUsableUnknown,
        Reason::LowUtilization {
            mean_pct: 1.0,
            threshold_pct: 50.0,
        },
        Reason::MlperfInvalid {
            min_duration_satisfied: None,
            min_queries_satisfied: None,
            early_stopping_satisfied: None,
        },
        Reason::FilesDisagree {
            difference: Difference::GpuModel,
            result: "a".into(),
            telemetry: "b".into(),
        },
        Reason::GpuNameMismatch {
            quoted: "a".into(),
            observed: "b".into(),
        },
        Reason::GpuFormMismatch {
            quoted: crate::gpus::GpuMount::Sxm,
            observed: crate::gpus::GpuMount::Pcie,
            gpu: "b".into(),
        },
        Reason::UnknownGpuModel { name: "a".into() },
        Reason::GpuCountMismatch { quoted: 1, observed: 2 },
        Reason::VramShortfall {
            quoted_mib: 2.0,
            observed_mib: 1.0,
            shortfall_share: 0.5,
        },
        Reason::VramExceeds {
            quoted_mib: 1.0,
            observed_mib: 2.0,
        },
        Reason::DriverMismatch {
            quoted: "a".into(),
            observed: "b".into(),
        },
        Reason::MigMismatch {
            quoted: true,
            observed: false,
        },
        Reason::QuoteUnverifiable { field: QuoteField::Mig },
        Reason::CommandFailed { exit_code: 1 },
        Reason::ImpossibleFigure {
            field: "duration".into(),
            problem: crate::runs::FigureProblem::Zero,
        },
        Reason::RequestsFailed {
            completed: 0,
            failed: 1,
            share: 1.0,
            max_share: 0.01,
        },
        Reason::ThroughputInconsistent {
            field: "output_throughput".into(),
            stated: 2.0,
            computed: 1.0,
            max_gap: 0.05,
        },
        Reason::NoThroughput,
        Reason::BusBandwidth {
            bus_gbps: 1.0,
            largest_bytes: 8,
            ranks: 2,
            expected: None,
        },
        Reason::BusTestWrong { wrong: 1 },
        Reason::BusTestSmall {
            largest_bytes: 8,
            least_bytes: 16,
        },
        Reason::BusTestUnchecked,
        Reason::Retired { was: "x".into() },
        Reason::VramReserved {
            reserved_mib: 1.0,
            share: None,
            slice: false,
            source: crate::runs::ReserveSource::Stated,
            need_mib: None,
            basis: None,
        },
        Reason::GpusUsed {
            used: vec![0],
            idle: Vec::new(),
            named: true,
        },
        Reason::PartOfNode {
            used: 1,
            node_gpus: 8,
            job_gpus: None,
            gpu_use: crate::runs::GpuUse::TaskPerGpu,
        },
        Reason::WorkloadDiffers {
            what: crate::runs::WorkloadField::Model,
            run: "a".into(),
            workload: "b".into(),
            stands_for: false,
        },
    ];
    assert_eq!(codes.as_array().map(Vec::len), Some(samples.len()));
    for r in samples {
        let v = serde_json::to_value(&r).expect("serializes");
        assert_eq!(v["code"], r.code());
        assert!(codes.as_array().is_some_and(|c| c.contains(&v["code"])), "{}", r.code());
    }
}
