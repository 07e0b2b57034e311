//! Canonical JSON against fixed strings and hashes computed independently with Python.

use serde_json::{Value, json};

use super::super::{CanonicalError, canonical_json, content_hash, sha256_hex};

/// Input parsed by both Rust and Python (`json.loads`).
const INPUT: &str = r#"{"b":2,"a":[1,-3,18446744073709551615,-9223372036854775808,true,false,null],
"\u00e9":"na\u00efve \u4e2d\u6587 \"q\" \\ / \n\t\r\b\f\u0001\u001f\u007f\u2028",
"A":{"z":{},"y":[]},"aa":"","a\u0000":"nul key","\ud83d\ude00":"emoji","\uffff":"bmp-high","\u00e4":0}"#;

/// `json.dumps(json.loads(INPUT), sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
const EXPECTED: &str = "{\"A\":{\"y\":[],\"z\":{}},\"a\":[1,-3,18446744073709551615,-9223372036854775808,true,false,null],\"a\\u0000\":\"nul key\",\"aa\":\"\",\"b\":2,\"ä\":0,\"é\":\"naïve 中文 \\\"q\\\" \\\\ / \\n\\t\\r\\b\\f\\u0001\\u001f\u{7f}\u{2028}\",\"\u{ffff}\":\"bmp-high\",\"😀\":\"emoji\"}";

/// `hashlib.sha256(EXPECTED.encode("utf-8")).hexdigest()`, computed with python3.
const EXPECTED_SHA256: &str = "bac65a469dca77b60514d982cd7830b79f50408b3817c0768913205d9e21a6fe";

fn parse(s: &str) -> Value {
    serde_json::from_str(s).expect("valid JSON")
}

#[test]
fn matches_python_text_and_hash() {
    let v = parse(INPUT);
    assert_eq!(canonical_json(&v).expect("canonical"), EXPECTED);
    assert_eq!(content_hash(&v).expect("hash"), EXPECTED_SHA256);
    assert_eq!(sha256_hex(EXPECTED), EXPECTED_SHA256);
}

#[test]
fn key_order_is_utf8_bytes_not_utf16() {
    // UTF-16 would put U+1F600 (surrogate 0xD83D) before U+FFFF.
    let v = json!({"😀": 1, "\u{ffff}": 2, "B": 3, "a": 4});
    assert_eq!(
        canonical_json(&v).expect("canonical"),
        "{\"B\":3,\"a\":4,\"\u{ffff}\":2,\"😀\":1}"
    );
}

#[test]
fn canonical_is_a_fixed_point_and_valid_json() {
    let v = parse(INPUT);
    let c = canonical_json(&v).expect("canonical");
    assert_eq!(parse(&c), v);
    assert_eq!(canonical_json(&parse(&c)).expect("canonical"), c);
}

#[test]
fn string_escaping_equals_serde_json_for_every_char() {
    let chars: Vec<char> = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
    for chunk in chars.chunks(512) {
        let s: String = chunk.iter().collect();
        let ours = canonical_json(&Value::String(s.clone())).expect("string");
        assert_eq!(
            ours,
            serde_json::to_string(&s).expect("serde"),
            "chunk at {:?}",
            chunk[0]
        );
    }
}

#[test]
fn floats_are_rejected_with_their_path() {
    let err = |v: Value| canonical_json(&v).expect_err("float must fail");
    assert_eq!(err(json!(1.5)), CanonicalError::NonInteger { path: String::new() });
    assert_eq!(
        err(json!({"a": [0, 2.0]})),
        CanonicalError::NonInteger { path: "/a/1".into() }
    );
    assert_eq!(
        err(json!({"x/y~": {"k": 1e3}})),
        CanonicalError::NonInteger {
            path: "/x~1y~0/k".into()
        }
    );
    assert!(content_hash(&parse("[1.0]")).is_err());
    assert!(canonical_json(&json!([i64::MIN, u64::MAX, 0, -1])).is_ok());
}

#[test]
fn empty_containers_and_scalars() {
    for (v, s) in [
        (json!(null), "null"),
        (json!(true), "true"),
        (json!({}), "{}"),
        (json!([]), "[]"),
        (json!(""), "\"\""),
    ] {
        assert_eq!(canonical_json(&v).expect("canonical"), s);
    }
}
