use super::super::{Format, detect, parse};
use super::{FIXTURES, LLAMA, VLLM, run_of};

#[test]
fn every_fixture_is_detected_as_its_format() {
    for (name, bytes, expected) in FIXTURES {
        assert_eq!(detect(bytes), Ok(*expected), "{name}");
    }
}

#[test]
fn source_format_follows_detection() {
    for (name, bytes, expected) in FIXTURES {
        let run = run_of(bytes);
        if *expected != Format::Canonical {
            assert_eq!(run.source_format, *expected, "{name}");
        }
        assert_eq!(run.schema, "nodeledger.run/v1", "{name}");
    }
}

#[test]
fn byte_order_mark_is_ignored() {
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(VLLM);
    assert_eq!(detect(&with_bom), Ok(Format::Vllm));
    assert!(parse(&with_bom, None).is_ok());
    let mut csv = b"\xEF\xBB\xBF".to_vec();
    csv.extend_from_slice(super::SMI_UNITS);
    assert_eq!(detect(&csv), Ok(Format::NvidiaSmi));
    assert_eq!(super::super::parse_nvidia_smi(&csv[..]), Ok(run_of(super::SMI_UNITS)));
}

#[test]
fn llama_bench_jsonl_is_detected_and_matches_json() {
    let rows: serde_json::Value = serde_json::from_slice(LLAMA).expect("fixture is JSON");
    let jsonl: String = rows
        .as_array()
        .expect("array")
        .iter()
        .map(|r| format!("{r}\n"))
        .collect();
    assert_eq!(detect(jsonl.as_bytes()), Ok(Format::LlamaBench));
    let a = run_of(LLAMA);
    let b = run_of(jsonl.as_bytes());
    assert_eq!(a.throughputs, b.throughputs);
    assert_eq!(a.throughput, b.throughput);
}

#[test]
fn forced_format_overrides_detection() {
    let run = parse(VLLM, Some(Format::VllmLegacy)).expect("parses");
    assert_eq!(run.source_format, Format::VllmLegacy);
}

#[test]
fn legacy_key_with_colon_decides_legacy() {
    let new = br#"{"output_throughput": 1.0, "request_goodput": null}"#;
    let old = br#"{"output_throughput": 1.0, "request_goodput:": null}"#;
    assert_eq!(detect(new), Ok(Format::Vllm));
    assert_eq!(detect(old), Ok(Format::VllmLegacy));
}

#[test]
fn csv_header_without_timestamp_is_still_nvidia_smi() {
    assert_eq!(
        detect(b"index, name, utilization.gpu [%]\n0, A, 1 %\n"),
        Ok(Format::NvidiaSmi)
    );
}
