//! Submission blockers.

use super::super::{
    AnswerIssue, Blocker, BlockerReason as R, Evidence, ITEMS, ItemAnswer, ItemStatus, OpenProblem, OrderKind, Section,
    applicable_items, open_problems, submission_blockers,
};

fn answer(id: &str, status: ItemStatus) -> ItemAnswer {
    ItemAnswer {
        item_id: id.into(),
        status,
        answer: String::new(),
        evidence: vec![Evidence::Note { text: "ok".into() }, Evidence::Run { run_id: 1 }],
        answered_by: 7,
        answered_at: "2025-01-02T03:04:05Z".into(),
    }
}

fn confirm_all(kind: OrderKind, multi: bool) -> Vec<ItemAnswer> {
    applicable_items(kind, multi)
        .iter()
        .map(|i| answer(i.id, ItemStatus::Confirmed))
        .collect()
}

fn na(reason: &str) -> ItemStatus {
    ItemStatus::NotApplicable { reason: reason.into() }
}

#[test]
fn no_answers_blocks_every_required_applicable_item() {
    let blockers = submission_blockers(&[], OrderKind::Training, false);
    let expected: Vec<&str> = applicable_items(OrderKind::Training, false)
        .iter()
        .filter(|i| i.required)
        .map(|i| i.id)
        .collect();
    assert_eq!(blockers.iter().map(|b| b.item_id).collect::<Vec<_>>(), expected);
    assert!(blockers.iter().all(|b| b.reason == R::Unanswered));
    assert!(!expected.contains(&"perf.bottleneck"), "optional items never block");
    assert_eq!(
        blockers[0],
        Blocker {
            item_id: "gpu.model_vram",
            section: Section::Gpu,
            reason: R::Unanswered
        }
    );
}

#[test]
fn all_confirmed_means_no_blockers() {
    for kind in [OrderKind::Training, OrderKind::Inference, OrderKind::Batch] {
        for multi in [false, true] {
            assert!(submission_blockers(&confirm_all(kind, multi), kind, multi).is_empty());
        }
    }
}

#[test]
fn each_unsettled_status_blocks_with_its_reason() {
    let kind = OrderKind::Inference;
    let cases = [
        (ItemStatus::Open, Some(R::Open)),
        (ItemStatus::Problem { note: " ".into() }, Some(R::Problem)),
        (
            ItemStatus::Problem {
                note: "driver 470".into(),
            },
            None,
        ),
        (na(""), Some(R::NotApplicableWithoutReason)),
        (na("  \t"), Some(R::NotApplicableWithoutReason)),
        (na("no sensitive data"), None),
        (ItemStatus::Confirmed, None),
    ];
    for (status, expected) in cases {
        let mut answers = confirm_all(kind, false);
        answers.push(answer("sec.disk_encryption", status.clone()));
        let blockers = submission_blockers(&answers, kind, false);
        let got: Vec<_> = blockers.iter().map(|b| (b.item_id, b.reason)).collect();
        let want: Vec<_> = expected.map(|r| ("sec.disk_encryption", r)).into_iter().collect();
        assert_eq!(got, want, "{status:?}");
    }
}

#[test]
fn optional_and_non_applicable_items_never_block() {
    let kind = OrderKind::Training;
    let mut answers = confirm_all(kind, false);
    answers.push(answer("perf.bottleneck", ItemStatus::Problem { note: "cpu".into() }));
    answers.push(answer("net.inference_ingress", ItemStatus::Open));
    answers.push(answer("no.such_item", ItemStatus::Open));
    assert!(submission_blockers(&answers, kind, false).is_empty());
}

#[test]
fn last_answer_for_an_item_counts() {
    let kind = OrderKind::Batch;
    let mut answers = confirm_all(kind, false);
    answers.push(answer("perf.total_time", ItemStatus::Open));
    let ids: Vec<_> = submission_blockers(&answers, kind, false)
        .iter()
        .map(|b| b.item_id)
        .collect();
    assert_eq!(ids, ["perf.total_time"]);
    answers.push(answer("perf.total_time", ItemStatus::Confirmed));
    assert!(submission_blockers(&answers, kind, false).is_empty());
}

#[test]
fn multi_gpu_items_block_only_multi_gpu_orders() {
    let kind = OrderKind::Training;
    let answers = confirm_all(kind, false);
    let ids: Vec<_> = submission_blockers(&answers, kind, true)
        .iter()
        .map(|b| b.item_id)
        .collect();
    let want: Vec<_> = ITEMS
        .iter()
        .filter(|i| i.required && i.applies_to == super::super::AppliesTo::MultiGpu)
        .map(|i| i.id)
        .collect();
    assert_eq!(ids, want);
    assert!(ids.contains(&"gpu.no_memory_pooling"));
}

#[test]
fn answers_round_trip_through_json() {
    let a = answer("gpu.vram_headroom", na("sliced"));
    let mut a2 = a.clone();
    a2.evidence = vec![
        Evidence::QuoteField {
            quote_revision_id: 3,
            field: "vram_mib".into(),
        },
        Evidence::Run { run_id: 9 },
        Evidence::TcoComparison { id: 2 },
        Evidence::File {
            sha256: "00".repeat(32),
            name: "bench.log".into(),
        },
    ];
    for x in [a, a2] {
        let json = serde_json::to_string(&x).expect("serialize");
        assert_eq!(serde_json::from_str::<ItemAnswer>(&json).expect("parse"), x);
    }
    let json = serde_json::to_value(na("x")).expect("serialize");
    assert_eq!(json, serde_json::json!({"kind": "not_applicable", "reason": "x"}));
}

#[test]
fn confirmed_without_the_evidence_an_item_asks_for_blocks() {
    let bare = |id: &str, evidence: Vec<Evidence>| ItemAnswer {
        evidence,
        ..answer(id, ItemStatus::Confirmed)
    };
    let mut answers = confirm_all(OrderKind::Batch, false);
    // perf.benchmark asks for a run; a note does not do.
    answers.push(bare("perf.benchmark", vec![Evidence::Note { text: "ran it".into() }]));
    // gpu.model_vram takes a quote field, a document or a note, but not a blank note.
    answers.push(bare("gpu.model_vram", vec![Evidence::Note { text: "  ".into() }]));
    // bill.budget_alert asks for nothing.
    answers.push(bare("bill.budget_alert", vec![]));
    let blockers = submission_blockers(&answers, OrderKind::Batch, false);
    let ids: Vec<(&str, R)> = blockers.iter().map(|b| (b.item_id, b.reason)).collect();
    assert_eq!(
        ids,
        [
            ("gpu.model_vram", R::EvidenceMissing),
            ("perf.benchmark", R::EvidenceMissing)
        ]
    );
    answers.push(bare("perf.benchmark", vec![Evidence::Run { run_id: 3 }]));
    answers.push(bare(
        "gpu.model_vram",
        vec![Evidence::QuoteField {
            quote_revision_id: 1,
            field: "spec.gpu_model".into(),
        }],
    ));
    assert!(submission_blockers(&answers, OrderKind::Batch, false).is_empty());
    // Not applicable with a reason needs no evidence.
    let mut na_only = confirm_all(OrderKind::Batch, false);
    na_only.push(ItemAnswer {
        evidence: vec![],
        ..answer("perf.benchmark", na("covered by the waiver"))
    });
    assert!(submission_blockers(&na_only, OrderKind::Batch, false).is_empty());
}

#[test]
fn every_evidence_kind_is_recognised_and_a_blank_note_is_none() {
    use super::super::{EvidenceKind as V, evidence_kind};
    let cases = [
        (Evidence::Run { run_id: 1 }, Some(V::Run)),
        (
            Evidence::QuoteField {
                quote_revision_id: 1,
                field: "x".into(),
            },
            Some(V::QuoteField),
        ),
        (
            Evidence::File {
                sha256: "ab".into(),
                name: "q.pdf".into(),
            },
            Some(V::Document),
        ),
        (Evidence::TcoComparison { id: 1 }, Some(V::CostComparison)),
        (
            Evidence::Note {
                text: "called the vendor".into(),
            },
            Some(V::Note),
        ),
        (Evidence::Note { text: " \n".into() }, None),
    ];
    for (e, kind) in cases {
        assert_eq!(evidence_kind(&e), kind, "{e:?}");
    }
}

#[test]
fn a_blank_reason_or_explanation_is_refused_at_the_item() {
    assert_eq!(na("").check(), Err(AnswerIssue::ReasonRequired));
    assert_eq!(na(" \t\n").check(), Err(AnswerIssue::ReasonRequired));
    assert_eq!(na("single node").check(), Ok(()));
    let problem = |note: &str| ItemStatus::Problem { note: note.into() };
    assert_eq!(problem("  ").check(), Err(AnswerIssue::ExplanationRequired));
    assert_eq!(problem("driver 470 only").check(), Ok(()));
    assert_eq!(ItemStatus::Open.check(), Ok(()));
    assert_eq!(ItemStatus::Confirmed.check(), Ok(()));
    assert_eq!(AnswerIssue::ReasonRequired.code(), "reason_required");
    assert_eq!(AnswerIssue::ExplanationRequired.code(), "explanation_required");
}

#[test]
fn explained_problems_are_listed_in_table_order_for_acknowledgement() {
    let kind = OrderKind::Training;
    let mut answers = confirm_all(kind, false);
    let problem = |note: &str| ItemStatus::Problem { note: note.into() };
    answers.push(answer("sec.disk_encryption", problem("  no encryption at rest  ")));
    answers.push(answer("perf.bottleneck", problem("CPU-bound data loader")));
    answers.push(answer("gpu.model_vram", problem(" ")));
    answers.push(answer("no.such_item", problem("ignored")));
    let got = open_problems(&answers, kind, false);
    let ids: Vec<_> = got.iter().map(|p| p.item_id).collect();
    let order: Vec<_> = applicable_items(kind, false)
        .iter()
        .map(|i| i.id)
        .filter(|id| ["sec.disk_encryption", "perf.bottleneck"].contains(id))
        .collect();
    assert_eq!(ids, order, "optional items are listed too; blank ones are not");
    let encryption = got.iter().find(|p| p.item_id == "sec.disk_encryption");
    assert_eq!(
        encryption,
        Some(&OpenProblem {
            item_id: "sec.disk_encryption",
            section: Section::Security,
            note: "no encryption at rest".into()
        })
    );
    // Only the unexplained problem blocks; the explained ones wait for the acknowledgement.
    let blockers: Vec<_> = submission_blockers(&answers, kind, false)
        .iter()
        .map(|b| (b.item_id, b.reason))
        .collect();
    assert_eq!(blockers, [("gpu.model_vram", R::Problem)]);
    answers.push(answer("sec.disk_encryption", ItemStatus::Confirmed));
    assert_eq!(open_problems(&answers, kind, false).len(), 1, "the last answer counts");
}
