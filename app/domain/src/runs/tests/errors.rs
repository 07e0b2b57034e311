use serde_json::json;

use super::super::{Format, ParseError, detect, parse, parse_nvidia_smi};
use super::{SMI_UNITS, VLLM};

#[test]
fn empty_and_blank_inputs() {
    assert_eq!(parse(b"", None), Err(ParseError::Empty));
    assert_eq!(parse(b" \n\t\r\n", None), Err(ParseError::Empty));
    assert_eq!(detect(b""), Err(ParseError::Empty));
    assert_eq!(parse_nvidia_smi(&b""[..]), Err(ParseError::Empty));
    assert_eq!(parse(b"", Some(Format::NvidiaSmi)), Err(ParseError::Empty));
}

#[test]
fn garbage_bytes_report_their_offset() {
    let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D];
    assert_eq!(parse(&png, None), Err(ParseError::InvalidUtf8 { offset: 0 }));
    assert_eq!(parse(b"abc\x00def", None), Err(ParseError::Binary { offset: 3 }));
    assert_eq!(
        parse(b"{\"a\": \"\xff\"}", None),
        Err(ParseError::InvalidUtf8 { offset: 7 })
    );
    assert_eq!(detect(b"ok so far\x01"), Err(ParseError::Binary { offset: 9 }));
}

#[test]
fn truncated_json_reports_line_and_column() {
    let text = std::str::from_utf8(VLLM).expect("utf8");
    let cut = text.find("\"mean_tpot_ms\": 37.9").expect("key present") + 20;
    let truncated = &text[..cut];
    let line = truncated.lines().count();
    let column = truncated.lines().last().map_or(0, str::len);
    assert_eq!(
        parse(truncated.as_bytes(), None),
        Err(ParseError::TruncatedJson { line, column })
    );
    assert_eq!((line, column), (27, 22), "the cut is inside line 27 of the fixture");
}

#[test]
fn malformed_json_reports_line_and_column() {
    let doc = b"{\"output_throughput\": 1.0,\n  \"duration\": oops}";
    assert_eq!(parse(doc, None), Err(ParseError::MalformedJson { line: 2, column: 15 }));
}

#[test]
fn unknown_json_lists_supported_formats() {
    for doc in [
        &br#"{"foo": 1}"#[..],
        b"[]",
        b"[1, 2]",
        b"\"text\"",
        br#"{"schema": "other/v1"}"#,
    ] {
        let err = parse(doc, None).expect_err("unrecognised");
        assert_eq!(err, ParseError::UnrecognizedFormat { supported: Format::ALL });
        assert_eq!(
            err.to_string(),
            "unrecognised format; supported: canonical, vllm, vllm_legacy, sglang, llama_bench, mlperf, nvidia_smi, amd_smi, dcgmi_dmon, nccl_tests"
        );
    }
    assert!(matches!(
        parse(b"hello world", None),
        Err(ParseError::UnrecognizedFormat { .. })
    ));
}

#[test]
fn unknown_canonical_schema_version() {
    let doc = br#"{"schema": "nodeledger.run/v2", "source_format": "canonical"}"#;
    assert_eq!(
        parse(doc, None),
        Err(ParseError::UnknownSchemaVersion {
            found: "nodeledger.run/v2".into(),
            expected: "nodeledger.run/v1"
        })
    );
}

#[test]
fn canonical_with_wrong_types_reports_position() {
    let doc = b"{\"schema\": \"nodeledger.run/v1\",\n \"source_format\": \"vllm\",\n \"duration_s\": \"long\"}";
    assert!(matches!(
        parse(doc, None),
        Err(ParseError::InvalidCanonical { line: 3, .. })
    ));
    let missing = br#"{"schema": "nodeledger.run/v1"}"#;
    assert!(matches!(
        parse(missing, None),
        Err(ParseError::InvalidCanonical { line: 1, .. })
    ));
}

#[test]
fn csv_without_timestamp_column() {
    let csv = b"index, name, utilization.gpu [%]\n0, NVIDIA A100, 45 %\n";
    assert_eq!(parse(csv, None), Err(ParseError::CsvNoTimestamp));
    assert_eq!(parse_nvidia_smi(&csv[..]), Err(ParseError::CsvNoTimestamp));
}

#[test]
fn csv_without_header() {
    let csv = b"2024/05/01 12:00:00.123, 0, NVIDIA A100, 45 %\n";
    assert_eq!(parse(csv, None), Err(ParseError::CsvNoHeader));
    assert_eq!(parse_nvidia_smi(&csv[..]), Err(ParseError::CsvNoHeader));
}

#[test]
fn csv_row_with_wrong_field_count_reports_line() {
    let text = std::str::from_utf8(SMI_UNITS).expect("utf8");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let short = lines[4].rsplit_once(',').expect("has fields").0.to_owned();
    lines[4] = short;
    let broken = lines.join("\n");
    assert_eq!(
        parse(broken.as_bytes(), None),
        Err(ParseError::CsvFieldCount {
            line: 5,
            expected: 16,
            found: 15
        })
    );
}

#[test]
fn csv_bad_timestamp_reports_line_and_column() {
    let csv = b"timestamp, index\n2024/05/01 12:00:00.000, 0\nyesterday, 0\n";
    assert_eq!(
        parse(csv, None),
        Err(ParseError::CsvBadValue {
            line: 3,
            column: "timestamp".into()
        })
    );
}

#[test]
fn csv_header_only_has_no_data() {
    assert_eq!(
        parse(b"timestamp, index, utilization.gpu [%]\n", None),
        Err(ParseError::NoData {
            format: Format::NvidiaSmi
        })
    );
}

#[test]
fn csv_with_too_many_gpus() {
    let mut csv = String::from("timestamp, index\n");
    for i in 0..=super::super::MAX_GPUS {
        csv.push_str(&format!("2024/05/01 12:00:00.000, {i}\n"));
    }
    assert!(matches!(
        parse(csv.as_bytes(), None),
        Err(ParseError::TooManyGpus { line: 66, limit: 64 })
    ));
}

#[test]
fn forced_format_that_does_not_fit() {
    assert_eq!(
        parse(VLLM, Some(Format::LlamaBench)),
        Err(ParseError::FormatMismatch {
            expected: Format::LlamaBench
        })
    );
    assert_eq!(
        parse(super::MLPERF_OFFLINE, Some(Format::Vllm)),
        Err(ParseError::FormatMismatch { expected: Format::Vllm })
    );
    assert_eq!(
        parse(b"a: b\n", Some(Format::Mlperf)),
        Err(ParseError::NoData { format: Format::Mlperf })
    );
}

#[test]
fn errors_serialize_as_codes_with_data() {
    let e = ParseError::TruncatedJson { line: 3, column: 7 };
    assert_eq!(
        serde_json::to_value(&e).ok(),
        Some(json!({"code": "truncated_json", "line": 3, "column": 7}))
    );
    let samples = [
        ParseError::Empty,
        ParseError::CsvNoTimestamp,
        ParseError::CsvFieldCount {
            line: 1,
            expected: 2,
            found: 3,
        },
        ParseError::UnrecognizedFormat { supported: Format::ALL },
        ParseError::UnknownSchemaVersion {
            found: "x".into(),
            expected: "y",
        },
    ];
    for e in samples {
        let v = serde_json::to_value(&e).expect("serializes");
        assert_eq!(v.get("code").and_then(|c| c.as_str()), Some(e.code()));
    }
}
