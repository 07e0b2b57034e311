use super::bid::{BidRecord, WrittenAnswer, answers_to};
use super::*;
use std::collections::BTreeMap;

#[test]
fn a_link_has_256_random_bits_and_only_its_hash_is_kept() {
    let link = link_from_bytes(&[7; LINK_BYTES]);
    assert!(link.starts_with(LINK_PREFIX));
    assert!(well_formed(&link), "{link}");
    let hash = link_hash(&link);
    assert_eq!(hash.len(), 64);
    assert!(!hash.contains(&link[LINK_PREFIX.len()..]));
    // Another link, another hash; a cut or padded link is refused before any lookup.
    assert_ne!(hash, link_hash(&link_from_bytes(&[8; LINK_BYTES])));
    assert!(!well_formed(&link[..link.len() - 1]));
    assert!(!well_formed(&format!("{link}A")));
    assert!(!well_formed(&link.replace(LINK_PREFIX, "nlt_")));
    assert!(!well_formed("nlb_../../etc/passwd"));
}

#[test]
fn bids_are_sealed_until_they_are_opened_and_late_ones_are_refused() {
    let close = 1_000;
    assert_eq!(Phase::at(999, close, None), Phase::Open);
    assert_eq!(Phase::at(1_000, close, None), Phase::Due);
    assert_eq!(Phase::at(500, close, Some(400)), Phase::Closed);
    // Sealed while open and while due; readable only once opened.
    assert!(!bids_visible(Phase::Open));
    assert!(!bids_visible(Phase::Due));
    assert!(bids_visible(Phase::Closed));
    // A bid at the close time is late; a link stops opening at the close or when revoked.
    assert!(accepts_bids(Phase::at(999, close, None)));
    assert!(!accepts_bids(Phase::at(1_000, close, None)));
    assert!(!accepts_bids(Phase::Closed));
    assert!(link_opens(Phase::Open, false));
    assert!(!link_opens(Phase::Open, true));
    assert!(!link_opens(Phase::Due, false));
}

fn bid() -> BidRecord {
    BidRecord {
        request_id: 3,
        vendor: "星河算力".into(),
        revision: 1,
        submitted_at: "2026-12-10T08:00:00Z".into(),
        fields: BTreeMap::from([
            ("spec.gpu_model".to_string(), "H100 80GB".to_string()),
            ("price.on_demand_hourly".to_string(), "21.50".to_string()),
        ]),
        answers: vec![WrittenAnswer {
            item: "env.software".into(),
            question: "Which driver and CUDA?".into(),
            answer: "驱动 550.54，CUDA 12.4，可用 Docker".into(),
        }],
        files: vec![bid::BidFile {
            name: "price-sheet.pdf".into(),
            sha256: "ab".repeat(32),
        }],
    }
}

#[test]
fn a_bid_reads_back_as_written_and_its_receipt_changes_with_any_field() {
    let b = bid();
    let stored = b.encode();
    assert!(stored.starts_with('{') && stored.contains("\"version\":1"), "{stored}");
    assert_eq!(BidRecord::decode(&stored), Ok(b.clone()));
    let receipt = b.receipt();
    assert_eq!(receipt.len(), 64);
    assert_eq!(receipt, bid().receipt(), "the same bid, the same receipt");
    let mut cheaper = b.clone();
    cheaper.fields.insert("price.on_demand_hourly".into(), "21.49".into());
    assert_ne!(cheaper.receipt(), receipt);
    let mut revised = b.clone();
    revised.revision = 2;
    assert_ne!(revised.receipt(), receipt);
    let mut reworded = b.clone();
    reworded.answers[0].answer.push('。');
    assert_ne!(reworded.receipt(), receipt);
    let mut other_sheet = b;
    other_sheet.files[0].sha256 = "cd".repeat(32);
    assert_ne!(other_sheet.receipt(), receipt, "another price sheet, another receipt");
}

#[test]
fn a_stored_bid_of_an_unknown_version_or_shape_is_named_not_guessed() {
    assert_eq!(
        BidRecord::decode(r#"{"version":9}"#),
        Err(bid::BidDecodeError::UnknownVersion(9))
    );
    assert!(matches!(
        BidRecord::decode("{}"),
        Err(bid::BidDecodeError::Unreadable(_))
    ));
    assert!(matches!(
        BidRecord::decode("not json"),
        Err(bid::BidDecodeError::Unreadable(_))
    ));
    assert!(matches!(
        BidRecord::decode(r#"{"version":1,"vendor":3}"#),
        Err(bid::BidDecodeError::Unreadable(_))
    ));
}

#[test]
fn blank_answers_are_left_out_and_long_ones_cut() {
    let questions = vec![
        ("env.software".to_string(), "Driver?".to_string()),
        (String::new(), "Anything else?".to_string()),
        ("sec.cleanup_after_release".to_string(), "Wiped?".to_string()),
    ];
    let typed = BTreeMap::from([
        (0, "  550.54  ".to_string()),
        (1, "   ".to_string()),
        (2, "x".repeat(MAX_ANSWER_CHARS + 10)),
        (7, "no such question".to_string()),
    ]);
    let answers = answers_to(&questions, &typed);
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0].answer, "550.54");
    assert_eq!(answers[0].item, "env.software");
    assert_eq!(answers[1].answer.chars().count(), MAX_ANSWER_CHARS);
}

#[test]
fn questions_are_one_a_line_within_limits() {
    assert_eq!(
        questions_from_text("  Driver and CUDA?\n\n是否支持 Docker？\r\n"),
        Ok(vec!["Driver and CUDA?".to_string(), "是否支持 Docker？".to_string()])
    );
    assert_eq!(questions_from_text(" \n "), Err(RequestError::Questions));
    assert_eq!(
        questions_from_text(&"q?\n".repeat(MAX_QUESTIONS + 1)),
        Err(RequestError::Questions)
    );
    assert_eq!(
        questions_from_text(&"长".repeat(MAX_QUESTION_CHARS + 1)),
        Err(RequestError::Questions)
    );
    assert_eq!(short_text("  ", RequestError::Title), Err(RequestError::Title));
    assert_eq!(
        short_text(" H100 for Qwen ", RequestError::Title),
        Ok("H100 for Qwen".into())
    );
}

#[test]
fn the_email_is_found_in_a_contact_as_people_write_it() {
    assert_eq!(
        contact_email("Li Lei <Li@Example.com>, +86 138"),
        Some("li@example.com".into())
    );
    assert_eq!(
        contact_email("销售：王芳，wang@xinghe.cn；电话 400-1"),
        Some("wang@xinghe.cn".into())
    );
    assert_eq!(contact_email("mailto:sales@acme.io"), Some("sales@acme.io".into()));
    assert_eq!(contact_email("+86 138 0000 0000"), None);
    assert_eq!(contact_email("a@b"), None);
    assert_eq!(contact_email("@example.com"), None);
}

#[test]
fn needs_come_from_the_workload_with_headroom_and_read_back() {
    use crate::quotes::{Deadline, Workload, WorkloadKind};
    use rust_decimal_macros::dec;
    let workload = Workload {
        name: "internal name".into(),
        kind: WorkloadKind::Training,
        model: "Qwen2-7B".into(),
        precision: "bf16".into(),
        vram_peak_gib: dec!(60),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 8,
        run_hours: Some(dec!(72)),
        total_work: None,
        data_gb: dec!(500),
        checkpoint_gb: dec!(200),
        headroom_pct: dec!(20),
        gpu_use: crate::runs::GpuUse::OneJob,
        deadline: Some(Deadline::At(1_800_000_000)),
        earliest_start: Some(1_799_000_000),
        response_target: None,
    };
    let needs = needs::Needs::from_workload(&workload, " 上海 ", None);
    assert_eq!(needs.vram_gib, dec!(72.0), "60 GiB peak + 20 %");
    assert_eq!(needs.gpus, 8);
    assert!(needs.exclusive && needs.interconnect);
    assert_eq!(needs.disk_gb(), dec!(700));
    assert_eq!(needs.region, "上海");
    assert_eq!(needs.done_by, Some(1_800_000_000));
    assert_eq!(needs.budget, None, "the budget is left out unless chosen");
    let stored = needs.encode();
    assert!(
        !stored.contains("internal name"),
        "the workload's own name stays in the team"
    );
    assert_eq!(needs::Needs::decode(&stored), Ok(needs));
    assert!(needs::Needs::decode(r#"{"version":2}"#).is_err());
}

#[test]
fn a_queued_mail_is_sent_only_while_it_holds_and_a_receipt_always() {
    use mail::{MailKind, still_worth_sending};
    for kind in [MailKind::Invitation, MailKind::Reminder] {
        assert!(still_worth_sending(kind, Phase::Open, false, false), "{kind:?}");
        assert!(
            !still_worth_sending(kind, Phase::Open, true, false),
            "{kind:?}: revoked"
        );
        assert!(
            !still_worth_sending(kind, Phase::Due, false, false),
            "{kind:?}: past the close"
        );
        assert!(
            !still_worth_sending(kind, Phase::Closed, false, false),
            "{kind:?}: opened"
        );
    }
    assert!(
        still_worth_sending(MailKind::Invitation, Phase::Open, false, true),
        "a replaced link goes to a vendor that has submitted too"
    );
    assert!(
        !still_worth_sending(MailKind::Reminder, Phase::Open, false, true),
        "submitted"
    );
    for phase in [Phase::Open, Phase::Due, Phase::Closed] {
        assert!(still_worth_sending(MailKind::Receipt, phase, true, true), "{phase:?}");
    }
}

#[test]
fn the_reminder_comes_once_in_the_last_day_and_not_after_a_fresh_invitation() {
    use mail::{REMINDER_BEFORE_CLOSE as DAY, ReminderCandidate, reminder_due};
    let close = 10 * DAY;
    let due = ReminderCandidate {
        close_at: close,
        closed_at: None,
        revoked: false,
        has_bid: false,
        reminded: false,
        last_invited_at: Some(close - 5 * DAY),
    };
    assert!(
        reminder_due(close - DAY, &due),
        "the window opens a day before the close"
    );
    assert!(reminder_due(close - 1, &due));
    assert!(!reminder_due(close - DAY - 1, &due), "too early");
    assert!(!reminder_due(close, &due), "the close passed");
    let now = close - 3_600;
    assert!(
        reminder_due(
            now,
            &ReminderCandidate {
                last_invited_at: None,
                ..due
            }
        ),
        "invited by hand"
    );
    for not in [
        ReminderCandidate {
            closed_at: Some(now - 1),
            ..due
        },
        ReminderCandidate { revoked: true, ..due },
        ReminderCandidate { has_bid: true, ..due },
        ReminderCandidate { reminded: true, ..due },
        ReminderCandidate {
            last_invited_at: Some(close - DAY),
            ..due
        },
    ] {
        assert!(!reminder_due(now, &not), "{not:?}");
    }
}

#[test]
fn mail_facts_read_back_only_as_their_own_kind() {
    use mail::{MailFacts, MailKind};
    let invitation = MailFacts::Invitation {
        path: "/bid/nlb_x".into(),
        replaces: true,
    };
    let receipt = MailFacts::Receipt {
        revision: 2,
        receipt: "ab".repeat(32),
        submitted_at: 1_800_000_000,
    };
    for facts in [invitation.clone(), MailFacts::Reminder, receipt.clone()] {
        let kind = facts.kind();
        assert_eq!(MailKind::parse(kind.as_str()), Some(kind));
        assert_eq!(MailFacts::decode(kind, &facts.encode()), Some(facts));
    }
    assert_eq!(
        MailFacts::decode(MailKind::Receipt, &invitation.encode()),
        None,
        "another kind"
    );
    assert_eq!(MailFacts::decode(MailKind::Invitation, ""), None, "blanked once sent");
    assert_eq!(MailKind::parse("digest"), None);
}

#[test]
fn the_fuzzers_seeds_read_as_a_bid_and_needs_of_the_current_version() {
    let bid = BidRecord::decode(include_str!("../../../fuzz/corpus/rfq/bid-v1.json")).expect("the bid seed reads");
    assert_eq!(bid.vendor, "星河算力");
    assert_eq!(bid.files.len(), 1);
    assert_eq!(BidRecord::decode(&bid.encode()), Ok(bid));
    let needs =
        needs::Needs::decode(include_str!("../../../fuzz/corpus/rfq/needs-v1.json")).expect("the needs seed reads");
    assert_eq!(needs.gpus, 8);
    assert!(well_formed(include_str!("../../../fuzz/corpus/rfq/link.txt")));
}

#[test]
fn requested_fields_are_quote_columns_the_vendor_types_and_blank_ones_are_named() {
    let chosen = requested_fields(["price.other_fees", "vendor", "no.such", "spec.cuda", "spec.cuda"]);
    assert_eq!(
        chosen,
        vec!["spec.cuda".to_string(), "price.other_fees".to_string()],
        "form order, once"
    );
    assert!(
        DEFAULT_REQUESTED
            .iter()
            .all(|f| crate::quotes::QUOTE_FIELDS.contains(f))
    );
    let cells = BTreeMap::from([
        ("spec.cuda".to_string(), "12.4".to_string()),
        ("price.other_fees".to_string(), "  ".to_string()),
    ]);
    assert_eq!(missing_requested(&cells, &chosen), vec!["price.other_fees".to_string()]);
}
