use super::*;
use crate::checklist::{ITEMS, applicable_items};

fn day(s: &str) -> Date {
    Date::parse(s).expect("date")
}

fn quote(id: i64, vendor: &str, until: &str) -> QuoteFact {
    QuoteFact {
        quote_id: id,
        vendor: vendor.into(),
        gpus: "8× H100".into(),
        valid_until: day(until),
    }
}

fn order(id: i64, state: OrderState) -> OrderFact {
    OrderFact {
        order_id: id,
        title: format!("Order {id}"),
        revision: 1,
        state,
        submitted: None,
        decided_on: None,
        comment: String::new(),
        answers: Vec::new(),
        kind: OrderKind::Training,
        multi_gpu: false,
        quote_valid_until: None,
        run_or_waiver: false,
    }
}

fn answer(item_id: &str, status: ItemStatus) -> ItemAnswer {
    ItemAnswer {
        item_id: item_id.into(),
        status,
        answer: String::new(),
        evidence: Vec::new(),
        answered_by: 1,
        answered_at: "2026-12-01T10:00:00Z".into(),
    }
}

const TODAY: &str = "2026-12-01";

#[test]
fn the_expiry_window_runs_from_today_to_fourteen_days_later_both_included() {
    let facts = TeamFacts {
        expiring: vec![
            quote(1, "Late", "2026-12-16"),
            quote(2, "Edge", "2026-12-15"),
            quote(3, "Today", "2026-12-01"),
            quote(4, "Gone", "2026-11-30"),
            quote(5, "Soon", "2026-12-03"),
        ],
        ..TeamFacts::default()
    };
    let todo = todo(TeamRole::Procurement, 9, &facts, day(TODAY));
    let listed: Vec<(i64, i64)> = todo
        .iter()
        .map(|t| match t {
            Todo::QuoteExpiring { quote, days_left } => (quote.quote_id, *days_left),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        listed,
        vec![(3, 0), (5, 2), (2, 14)],
        "16 Dec is 15 days away, 30 Nov is past"
    );
    assert_eq!(expiry_window(day(TODAY)), Some((day(TODAY), day("2026-12-15"))));
}

#[test]
fn quotes_expiring_the_same_day_are_listed_by_vendor() {
    let facts = TeamFacts {
        expiring: vec![quote(7, "Zeta", "2026-12-05"), quote(8, "Alpha", "2026-12-05")],
        ..TeamFacts::default()
    };
    let ids: Vec<String> = todo(TeamRole::Procurement, 9, &facts, day(TODAY))
        .iter()
        .map(Todo::key)
        .collect();
    assert_eq!(ids, ["quote_expiring:8:2026-12-05", "quote_expiring:7:2026-12-05"]);
}

#[test]
fn procurement_sees_rejections_first_then_drafts_newest_first_then_quotes() {
    let mut rejected = order(2, OrderState::Rejected);
    rejected.decided_on = Some(day("2026-11-28"));
    rejected.comment = "Ask for a longer validity".into();
    let facts = TeamFacts {
        open_orders: vec![
            order(1, OrderState::Draft),
            rejected,
            order(3, OrderState::Draft),
            order(4, OrderState::Submitted),
        ],
        expiring: vec![quote(5, "Acme", "2026-12-02")],
        without_run: vec![quote(6, "Acme", "2027-01-01")],
        flagged_bills: Vec::new(),
    };
    let todo = todo(TeamRole::Procurement, 9, &facts, day(TODAY));
    let keys: Vec<String> = todo.iter().map(Todo::key).collect();
    assert_eq!(
        keys,
        [
            "order_rejected:2:1",
            "order_draft:3:1",
            "order_draft:1:1",
            "quote_expiring:5:2026-12-02"
        ]
    );
    assert!(matches!(&todo[0], Todo::OrderRejected { days: 3, comment, .. } if comment == "Ask for a longer validity"));
    assert_eq!(todo[0].href(), "/orders/2");
    assert_eq!(todo[3].href(), "/quotes/5");
}

#[test]
fn a_drafts_blocks_name_the_items_the_quote_and_the_run() {
    let fresh = order(1, OrderState::Draft);
    let required = applicable_items(fresh.kind, fresh.multi_gpu)
        .iter()
        .filter(|i| i.required)
        .count();
    assert_eq!(
        blocks(&fresh, day(TODAY)),
        vec![
            Block::Items(u32::try_from(required).expect("small")),
            Block::NoQuote,
            Block::NoRun
        ]
    );

    let mut expired = order(2, OrderState::Draft);
    expired.quote_valid_until = Some(day("2026-11-30"));
    expired.run_or_waiver = true;
    assert!(blocks(&expired, day(TODAY)).contains(&Block::QuoteExpired));

    let mut last_day = expired.clone();
    last_day.quote_valid_until = Some(day(TODAY));
    assert!(
        !blocks(&last_day, day(TODAY)).contains(&Block::QuoteExpired),
        "valid on its last day"
    );
    assert!(!blocks(&last_day, day(TODAY)).contains(&Block::NoRun));
}

#[test]
fn engineers_see_their_unanswered_items_on_drafts_only() {
    let engineer_items: Vec<&str> = applicable_items(OrderKind::Training, false)
        .into_iter()
        .filter(|i| i.expert == Expert::Engineer)
        .map(|i| i.id)
        .collect();
    assert!(engineer_items.len() >= 2, "the checklist has engineers' items");
    let procurement_item = ITEMS
        .iter()
        .find(|i| i.expert == Expert::Procurement)
        .expect("a procurement item");

    let mut draft = order(5, OrderState::Draft);
    draft.answers = vec![
        answer(engineer_items[0], ItemStatus::Confirmed),
        answer(procurement_item.id, ItemStatus::Open),
        answer(
            engineer_items[1],
            ItemStatus::Problem {
                note: "throttles".into(),
            },
        ),
    ];
    let open = engineer_items_open(&draft);
    assert_eq!(
        open.len(),
        engineer_items.len() - 2,
        "answered items, even problems, no longer wait"
    );
    assert!(!open.contains(&procurement_item.id));

    let mut submitted = order(4, OrderState::Submitted);
    submitted.submitted = Some((3, day(TODAY)));
    let facts = TeamFacts {
        open_orders: vec![draft, submitted, order(2, OrderState::Draft)],
        without_run: vec![quote(9, "Zeta", "2027-01-01"), quote(8, "Acme", "2027-01-01")],
        ..TeamFacts::default()
    };
    let todo = todo(TeamRole::Engineer, 9, &facts, day(TODAY));
    let keys: Vec<String> = todo.iter().map(Todo::key).collect();
    assert_eq!(
        keys,
        [
            "items_to_answer:2:1",
            "items_to_answer:5:1",
            "quote_without_run:8",
            "quote_without_run:9"
        ]
    );
    let Todo::ItemsToAnswer { items, first_item, .. } = &todo[1] else {
        panic!("items entry")
    };
    assert_eq!(*items as usize, open.len());
    assert_eq!(first_item, open[0]);
    assert_eq!(todo[1].href(), format!("/orders/5#item-{}", open[0]));
}

#[test]
fn managers_see_waiting_orders_longest_waiting_first_with_their_age() {
    let mut old = order(1, OrderState::Submitted);
    old.submitted = Some((3, day("2026-11-28")));
    let mut new = order(2, OrderState::Submitted);
    new.submitted = Some((3, day(TODAY)));
    let mut own = order(3, OrderState::Submitted);
    own.submitted = Some((9, day("2026-11-01")));
    let facts = TeamFacts {
        open_orders: vec![new, order(4, OrderState::Draft), old, own],
        ..TeamFacts::default()
    };
    let todo = todo(TeamRole::Manager, 9, &facts, day(TODAY));
    let ages: Vec<(i64, i64)> = todo
        .iter()
        .map(|t| match t {
            Todo::AwaitingSignOff { order_id, days, .. } => (*order_id, *days),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(ages, vec![(1, 3), (2, 0)], "their own submission is not theirs to sign");
}

#[test]
fn managers_see_flagged_bills_after_the_sign_offs_and_nobody_else_does() {
    let mut waiting = order(1, OrderState::Submitted);
    waiting.submitted = Some((3, day(TODAY)));
    let flagged = |order_id, bill_id, pct: Option<&str>| FlaggedBill {
        order_id,
        title: format!("Order {order_id}"),
        bill_id,
        variance_pct: pct.map(str::to_string),
    };
    let facts = TeamFacts {
        open_orders: vec![waiting],
        flagged_bills: vec![flagged(7, 12, Some("14.2")), flagged(5, 9, None)],
        ..TeamFacts::default()
    };
    let todo = todo(TeamRole::Manager, 9, &facts, day(TODAY));
    let shown: Vec<(&str, String, String)> = todo.iter().map(|t| (t.kind(), t.href(), t.key())).collect();
    assert_eq!(
        shown,
        vec![
            (
                "awaiting_sign_off",
                "/orders/1".to_string(),
                "awaiting_sign_off:1:1".to_string()
            ),
            (
                "bill_over_threshold",
                "/orders/7#bill".to_string(),
                "bill_over_threshold:7:12".to_string()
            ),
            (
                "bill_over_threshold",
                "/orders/5#bill".to_string(),
                "bill_over_threshold:5:9".to_string()
            ),
        ],
        "a second bill on the same order is news again: the key names the bill"
    );
    for role in [TeamRole::Procurement, TeamRole::Engineer] {
        let theirs = super::todo(role, 9, &facts, day(TODAY));
        assert!(theirs.iter().all(|t| t.kind() != "bill_over_threshold"), "{role:?}");
    }
}

#[test]
fn an_empty_team_has_nothing_waiting_for_anyone() {
    for role in TeamRole::ALL {
        assert!(todo(role, 1, &TeamFacts::default(), day(TODAY)).is_empty());
    }
}

#[test]
fn administrators_see_users_without_a_team_by_name() {
    let users = [
        LoneUser {
            user_id: 4,
            name: "zoe".into(),
            email: "z@example.com".into(),
        },
        LoneUser {
            user_id: 3,
            name: "Adam".into(),
            email: "a@example.com".into(),
        },
    ];
    let todo = admin_todo(&users);
    assert_eq!(
        todo.iter().map(Todo::key).collect::<Vec<_>>(),
        ["user_without_team:3", "user_without_team:4"]
    );
    assert_eq!(todo[0].href(), "/admin/users");
}

#[test]
fn stored_timestamps_give_their_day() {
    assert_eq!(day_of("2026-11-28T23:59:59Z"), Some(day("2026-11-28")));
    assert_eq!(day_of("soon"), None);
}

#[test]
fn orders_are_counted_in_lifecycle_order_with_every_state_shown() {
    let counts = order_counts(&[(OrderState::Rejected, 1), (OrderState::Draft, 2)]);
    let shown: Vec<(Counted, i64)> = counts.iter().map(|c| (c.what, c.n)).collect();
    assert_eq!(
        shown,
        vec![
            (Counted::Orders(OrderState::Draft), 2),
            (Counted::Orders(OrderState::Submitted), 0),
            (Counted::Orders(OrderState::Approved), 0),
            (Counted::Orders(OrderState::Rejected), 1),
        ]
    );
}

#[test]
fn an_entrys_kind_is_its_serialized_tag() {
    let entry = Todo::QuoteWithoutRun {
        quote: quote(1, "Acme", TODAY),
    };
    let json = serde_json::to_value(&entry).expect("json");
    assert_eq!(json["kind"], entry.kind());
}

mod measure {
    use super::{day, quote};
    use crate::{
        dashboard::{RunCandidate, Weighed, quotes_to_measure},
        quotes::{NodeSpec, Sharing, Workload, WorkloadKind},
    };
    use rust_decimal_macros::dec;

    /// A batch job needing 20 GiB on one GPU (24 GiB with the headroom).
    fn workload() -> Workload {
        Workload {
            name: "chat".into(),
            kind: WorkloadKind::Batch,
            model: "Qwen2-7B".into(),
            precision: "bf16".into(),
            vram_peak_gib: dec!(20),
            vram_peak_measured: true,
            concurrency: 8,
            gpus_needed: 1,
            run_hours: Some(dec!(72)),
            total_work: None,
            data_gb: dec!(10),
            checkpoint_gb: dec!(0),
            headroom_pct: dec!(20),
            gpu_use: crate::runs::GpuUse::OneJob,
            deadline: None,
            earliest_start: None,
            response_target: None,
        }
    }

    /// Quote `id` of `vendor` on a node of one GPU with `vram` GiB, valid until `until`.
    fn candidate(id: i64, vendor: &str, vram: u32, until: &str, has_valid_run: bool) -> RunCandidate {
        RunCandidate {
            fact: quote(id, vendor, until),
            spec: NodeSpec::new("L40S", 1, rust_decimal::Decimal::from(vram), Sharing::Exclusive),
            has_valid_run,
        }
    }

    fn weighed(quotes: &[i64]) -> Weighed {
        Weighed {
            workload: Some(workload()),
            quotes: quotes.to_vec(),
        }
    }

    fn ids(open: &[Weighed], candidates: &[RunCandidate]) -> Vec<i64> {
        quotes_to_measure(open, candidates, day("2026-12-01"))
            .into_iter()
            .map(|q| q.quote_id)
            .collect()
    }

    #[test]
    fn a_quote_an_open_order_weighs_that_fits_and_lacks_a_run_is_asked_for() {
        let candidates = [
            candidate(2, "Zeta", 48, "2027-01-01", false),
            candidate(1, "Acme", 48, "2027-01-01", false),
        ];
        assert_eq!(ids(&[weighed(&[2, 1])], &candidates), [1, 2], "by vendor");
        // Weighed by two orders: asked for once.
        assert_eq!(ids(&[weighed(&[1]), weighed(&[1])], &candidates[1..]), [1]);
    }

    #[test]
    fn a_quote_no_open_order_weighs_is_never_asked_for() {
        // A catalogue import of fifty rows, or the quote of an order rented and released (an
        // approved order is not open, so it weighs nothing here): no entry.
        let catalogue: Vec<RunCandidate> = (1..=50)
            .map(|id| candidate(id, "Cloud", 48, "2027-01-01", false))
            .collect();
        assert!(ids(&[], &catalogue).is_empty());
        assert_eq!(ids(&[weighed(&[7])], &catalogue), [7], "only the one an order weighs");
    }

    #[test]
    fn a_quote_that_fails_the_workload_is_not_asked_for() {
        let small = candidate(3, "Acme", 16, "2027-01-01", false);
        assert!(
            ids(&[weighed(&[3])], std::slice::from_ref(&small)).is_empty(),
            "16 GiB < 24 GiB"
        );
        // It fits another open order's smaller workload: asked for.
        let mut light = workload();
        light.vram_peak_gib = dec!(8);
        let other = Weighed {
            workload: Some(light),
            quotes: vec![3],
        };
        assert_eq!(ids(&[weighed(&[3]), other], std::slice::from_ref(&small)), [3]);
        // The order's workload is gone: nothing to fail.
        let gone = Weighed {
            workload: None,
            quotes: vec![3],
        };
        assert_eq!(ids(&[gone], &[small]), [3]);
    }

    #[test]
    fn a_quote_with_a_valid_run_or_past_its_last_day_is_not_asked_for() {
        let measured = candidate(4, "Acme", 48, "2027-01-01", true);
        let expired = candidate(5, "Acme", 48, "2026-11-30", false);
        let last_day = candidate(6, "Acme", 48, "2026-12-01", false);
        assert_eq!(ids(&[weighed(&[4, 5, 6])], &[measured, expired, last_day]), [6]);
    }
}
