//! Property: any single-field change to any event of a valid chain is detected there.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::super::{Action, AuditEvent, ChainHead, canonical_json, event_hash, next_event, sha256_hex, verify_chain};

fn data() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("\\PC{0,4}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn chain() -> impl Strategy<Value = Vec<AuditEvent>> {
    let event = (
        any::<i64>(),
        any::<i64>(),
        0..Action::ALL.len(),
        data(),
        0u32..1_000_000,
    );
    prop::collection::vec(event, 1..8).prop_map(|specs| {
        let mut head = ChainHead::genesis();
        let mut out = Vec::new();
        for (order_id, actor_id, a, data, secs) in specs {
            let at = format!(
                "2025-06-{:02}T{:02}:{:02}:{:02}Z",
                secs % 28 + 1,
                secs % 24,
                secs % 60,
                secs % 61
            );
            let e = next_event(&head, order_id, actor_id, &at, Action::ALL[a], data).expect("event");
            head = ChainHead {
                count: head.count + 1,
                head_hash: e.hash.clone(),
            };
            out.push(e);
        }
        out
    })
}

/// Changes field `field` (0..8) of `e` to a different value.
fn mutate(e: &mut AuditEvent, field: usize, salt: i64) {
    let salt = salt.max(1);
    match field {
        0 => e.seq = e.seq.wrapping_add(salt),
        1 => e.order_id = e.order_id.wrapping_add(salt),
        2 => e.actor_id = e.actor_id.wrapping_add(salt),
        3 => e.at.push('0'),
        4 => {
            let i = Action::ALL.iter().position(|a| *a == e.action).unwrap_or(0);
            e.action = Action::ALL[(i + 1) % Action::ALL.len()];
        }
        5 => e.data = json!({ "was": e.data.take() }),
        6 => e.prev_hash = flip(&e.prev_hash),
        _ => e.hash = flip(&e.hash),
    }
}

/// Changes the first hex digit of `h`.
fn flip(h: &str) -> String {
    let first = if h.starts_with('0') { '1' } else { '0' };
    format!("{first}{}", &h[1..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn valid_chains_verify(events in chain()) {
        let n = events.len() as u64;
        prop_assert_eq!(verify_chain(events).map(|h| h.count), Ok(n));
    }

    #[test]
    fn any_single_field_mutation_is_detected_at_that_event(
        events in chain(),
        pick in any::<prop::sample::Index>(),
        field in 0usize..8,
        salt in 1i64..1000,
    ) {
        let mut events = events;
        let i = pick.index(events.len());
        let before = events[i].clone();
        mutate(&mut events[i], field, salt);
        prop_assert_ne!(&events[i], &before);
        let seq = events[i].seq;
        let err = verify_chain(events).expect_err("mutation must be detected");
        prop_assert_eq!(err.seq, seq);
    }

    #[test]
    fn event_hash_equals_hash_of_generic_canonical_object(
        seq in any::<i64>(), order_id in any::<i64>(), actor_id in any::<i64>(),
        at in "\\PC{0,12}", a in 0..Action::ALL.len(), data in data(), prev in "\\PC{0,8}",
    ) {
        let action = Action::ALL[a];
        let obj = json!({"seq": seq, "order_id": order_id, "actor_id": actor_id, "at": at,
            "action": action.as_str(), "data": data, "prev_hash": prev});
        let generic = sha256_hex(&canonical_json(&obj).expect("canonical"));
        let direct = event_hash(seq, order_id, actor_id, &at, action, &data, &prev).expect("hash");
        prop_assert_eq!(direct, generic);
    }
}
