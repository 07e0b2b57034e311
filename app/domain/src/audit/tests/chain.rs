//! Chain building, verification and tamper detection.

use serde_json::{Value, json};

use super::super::{
    Action, AuditEvent, ChainError, ChainFault, ChainHead, EventError, GENESIS_HASH, canonical_json, event_hash,
    is_rfc3339_utc, next_event, verify_chain, verify_next,
};

/// Python: sha256 of `json.dumps(obj, sort_keys=True, separators=(",",":"), ensure_ascii=False)`.
const PY_EVENT_HASH: &str = "e39170a3bfc681ed610b81a0f595ddf7323813bb331c5275fc811d409c2aef32";

fn py_data() -> Value {
    json!({"item_id": "gpu.vram_headroom", "status": "confirmed", "note": "余量 20%", "n": [3, -1]})
}

#[test]
fn event_hash_matches_python() {
    let at = "2025-01-02T03:04:05Z";
    let h = event_hash(1, 42, 7, at, Action::ItemAnswered, &py_data(), GENESIS_HASH).expect("hash");
    assert_eq!(h, PY_EVENT_HASH);
    // The same as hashing the generic canonical form of the seven-field object.
    let obj = json!({"seq": 1, "order_id": 42, "actor_id": 7, "at": at, "action": "item_answered",
        "data": py_data(), "prev_hash": GENESIS_HASH});
    let text = canonical_json(&obj).expect("canonical");
    assert!(text.starts_with("{\"action\":\"item_answered\",\"actor_id\":7,\"at\":"));
    assert_eq!(super::super::sha256_hex(&text), PY_EVENT_HASH);
}

#[test]
fn action_names_match_serde() {
    for a in Action::ALL {
        assert_eq!(serde_json::to_value(a).expect("action"), json!(a.as_str()));
    }
}

pub(super) fn chain(n: usize) -> Vec<AuditEvent> {
    let mut head = ChainHead::genesis();
    let mut out = Vec::new();
    for i in 0..n {
        let action = Action::ALL[i % Action::ALL.len()];
        let at = format!("2025-03-{:02}T10:00:00Z", i % 28 + 1);
        let e = next_event(&head, 9, 3, &at, action, json!({"i": i, "s": "中"})).expect("event");
        head = verify_next(&head, &e).expect("valid");
        out.push(e);
    }
    out
}

fn fault(events: Vec<AuditEvent>) -> ChainError {
    verify_chain(events).expect_err("tampering must be detected")
}

#[test]
fn valid_chain_verifies_and_reports_head() {
    let events = chain(5);
    let head = verify_chain(events.clone()).expect("valid");
    assert_eq!(
        head,
        ChainHead {
            count: 5,
            head_hash: events[4].hash.clone()
        }
    );
    assert_eq!(events[0].prev_hash, GENESIS_HASH);
    assert!(
        events
            .windows(2)
            .all(|w| w[1].prev_hash == w[0].hash && w[1].seq == w[0].seq + 1)
    );
    assert_eq!(verify_chain(Vec::new()).expect("empty"), ChainHead::genesis());
}

#[test]
fn changing_one_byte_of_data_is_a_bad_hash_at_that_seq() {
    let mut events = chain(5);
    events[2].data = json!({"i": 2, "s": "串"});
    assert_eq!(
        fault(events),
        ChainError {
            seq: 3,
            fault: ChainFault::BadHash
        }
    );
}

#[test]
fn rehashed_edit_breaks_the_next_link() {
    let mut events = chain(5);
    events[1].actor_id = 99;
    events[1].hash = events[1].compute_hash().expect("hash");
    assert_eq!(
        fault(events),
        ChainError {
            seq: 3,
            fault: ChainFault::BrokenLink
        }
    );
}

#[test]
fn broken_link_names_its_seq() {
    let mut events = chain(4);
    events[3].prev_hash = events[1].hash.clone();
    assert_eq!(
        fault(events.clone()),
        ChainError {
            seq: 4,
            fault: ChainFault::BrokenLink
        }
    );
    events[0].prev_hash = "f".repeat(64);
    assert_eq!(
        fault(events),
        ChainError {
            seq: 1,
            fault: ChainFault::BrokenLink
        }
    );
}

#[test]
fn skipped_or_repeated_seq_is_a_gap() {
    let mut events = chain(5);
    events.remove(2);
    assert_eq!(
        fault(events),
        ChainError {
            seq: 4,
            fault: ChainFault::SeqGap { expected: 3 }
        }
    );
    let mut events = chain(3);
    events.insert(2, events[1].clone());
    assert_eq!(
        fault(events),
        ChainError {
            seq: 2,
            fault: ChainFault::SeqGap { expected: 3 }
        }
    );
    let events = chain(3).into_iter().skip(1);
    assert_eq!(
        fault(events.collect()),
        ChainError {
            seq: 2,
            fault: ChainFault::SeqGap { expected: 1 }
        }
    );
}

#[test]
fn uppercase_hash_and_float_data_are_faults() {
    let mut events = chain(2);
    events[1].hash = events[1].hash.to_uppercase();
    assert_eq!(
        fault(events),
        ChainError {
            seq: 2,
            fault: ChainFault::BadHash
        }
    );
    let mut events = chain(2);
    events[0].data = json!({"x": 0.5});
    assert!(matches!(
        fault(events),
        ChainError {
            seq: 1,
            fault: ChainFault::Uncanonical(_)
        }
    ));
}

#[test]
fn next_event_validates_input() {
    let head = ChainHead::genesis();
    let bad_time = next_event(&head, 1, 1, "2025-01-02 03:04:05", Action::Create, json!({}));
    assert_eq!(bad_time, Err(EventError::BadTimestamp));
    let float = next_event(&head, 1, 1, "2025-01-02T03:04:05Z", Action::Create, json!([1.5]));
    assert!(matches!(float, Err(EventError::Uncanonical(_))));
    let full = ChainHead {
        count: u64::try_from(i64::MAX).expect("fits"),
        head_hash: GENESIS_HASH.into(),
    };
    let overflow = next_event(&full, 1, 1, "2025-01-02T03:04:05Z", Action::Create, json!({}));
    assert_eq!(overflow, Err(EventError::SeqOverflow));
}

#[test]
fn timestamp_shape() {
    for ok in [
        "2025-01-02T03:04:05Z",
        "2025-12-31T23:59:60.123456789Z",
        "2025-01-02T03:04:05.1Z",
    ] {
        assert!(is_rfc3339_utc(ok), "{ok}");
    }
    for bad in [
        "",
        "2025-01-02T03:04:05",
        "2025-01-02T03:04:05+00:00",
        "2025-13-02T03:04:05Z",
        "2025-01-00T03:04:05Z",
        "2025-01-02T24:04:05Z",
        "2025-01-02T03:04:05.Z",
        "2025-01-02T03:04:05.1234567890Z",
        "2025-01-02t03:04:05Z",
        "२०२५-01-02T03:04:05Z",
    ] {
        assert!(!is_rfc3339_utc(bad), "{bad}");
    }
}

#[test]
fn events_round_trip_through_json() {
    let e = chain(2).remove(1);
    let text = serde_json::to_string(&e).expect("serialize");
    assert!(text.contains("\"action\":\"item_answered\""));
    let back: AuditEvent = serde_json::from_str(&text).expect("parse");
    assert_eq!(
        verify_next(
            &ChainHead {
                count: 1,
                head_hash: e.prev_hash.clone()
            },
            &back
        )
        .map(|h| h.count),
        Ok(2)
    );
}
