//! Accepting suggestions, by section with progress, and the evidence picker's order.

use super::super::{
    Acceptable, Evidence, EvidenceSources, Expert, Fact, ITEMS, Item, ItemAnswer, ItemStatus, OrderKind, PrefillFacts,
    Progress, RunVerdict, Section, Suggested, acceptable, accepted_status, applicable_items, by_section,
    fields_by_relevance, is_done, progress, quote_fields, relevant_fields, source_facts, suggestion_key,
    takes_suggestion,
};
use super::prefill::{full, get};
use crate::quotes::QUOTE_FIELDS as QUOTE_FIELDS_FOR_TESTS;

const SOURCES: EvidenceSources = EvidenceSources {
    quote_revision_id: Some(90),
    valid_run: Some(5),
    comparison: Some(7),
};

/// Every quote field is stated.
fn all(_: &str) -> bool {
    true
}

fn accept(id: &str, f: &PrefillFacts) -> Option<Acceptable> {
    acceptable(get(id), f, &SOURCES, &all)
}

fn field(name: &str) -> Evidence {
    Evidence::QuoteField {
        quote_revision_id: 90,
        field: name.into(),
    }
}

fn answer(id: &str, status: ItemStatus, evidence: Vec<Evidence>) -> ItemAnswer {
    ItemAnswer {
        item_id: id.into(),
        status,
        answer: String::new(),
        evidence,
        answered_by: 1,
        answered_at: "2026-12-01T10:00:00Z".into(),
    }
}

#[test]
fn a_confirmed_suggestion_cites_the_quote_fields_it_read() {
    let a = accept("gpu.model_vram", &full()).expect("acceptable");
    assert_eq!(a.suggestion.status, Suggested::Confirmed);
    assert_eq!(a.evidence, vec![field("spec.gpu_model"), field("spec.vram_gib")]);
    let a = accept("gpu.form_factor", &full()).expect("acceptable");
    assert_eq!(
        a.evidence,
        vec![field("spec.form_factor"), Evidence::Run { run_id: 5 }],
        "the run's GPU name backs the mount"
    );
}

#[test]
fn a_run_fact_cites_the_valid_backing_run_and_only_that() {
    let a = accept("perf.benchmark", &full()).expect("acceptable");
    assert_eq!(a.evidence, vec![Evidence::Run { run_id: 5 }]);
    let none = EvidenceSources {
        valid_run: None,
        ..SOURCES
    };
    assert_eq!(
        acceptable(get("perf.benchmark"), &full(), &none, &all),
        None,
        "a run-only item without a citable run has nothing to accept"
    );
}

#[test]
fn a_field_the_quote_leaves_blank_is_not_cited_and_the_next_one_is() {
    // Usable VRAM is read from the stated usable VRAM, else the VRAM.
    let stated = |f: &str| f != "spec.usable_vram_gib";
    let a = acceptable(get("perf.quote_vs_observed"), &full(), &SOURCES, &stated).expect("acceptable");
    assert!(a.evidence.contains(&field("spec.vram_gib")));
    assert!(!a.evidence.contains(&field("spec.usable_vram_gib")));
    let nothing = |_: &str| false;
    assert_eq!(
        acceptable(get("gpu.model_vram"), &full(), &SOURCES, &nothing),
        None,
        "confirmed without the evidence the item asks for: nothing to accept"
    );
}

#[test]
fn problems_and_not_applicable_are_accepted_with_what_the_data_says() {
    let mut f = full();
    f.run_verdict = Some(RunVerdict::Fail);
    let a = accept("env.smoke_test", &f).expect("a problem may be accepted");
    assert_eq!(a.suggestion.status, Suggested::Problem);
    f.multi_gpu = Some(false);
    let a = accept("gpu.multi_gpu_interconnect", &f).expect("not applicable may be accepted");
    assert_eq!(a.suggestion.status, Suggested::NotApplicable);
    assert_eq!(
        accepted_status(Suggested::Problem, " run failed "),
        Some(ItemStatus::Problem {
            note: "run failed".into()
        })
    );
    assert_eq!(
        accepted_status(Suggested::NotApplicable, "single GPU"),
        Some(ItemStatus::NotApplicable {
            reason: "single GPU".into()
        })
    );
    assert_eq!(accepted_status(Suggested::Confirmed, "x"), Some(ItemStatus::Confirmed));
    assert_eq!(accepted_status(Suggested::Open, "x"), None);
}

#[test]
fn an_open_suggestion_is_only_shown() {
    let mut f = full();
    f.run_verdict = Some(RunVerdict::Inconclusive);
    assert_eq!(accept("env.smoke_test", &f), None);
    assert_eq!(accept("sec.credentials", &f), None, "no source, no suggestion");
    assert_eq!(accept("sec.fault_handling", &f), None, "only shown");
}

#[test]
fn only_an_unanswered_or_open_item_takes_a_suggestion() {
    assert!(takes_suggestion(None));
    assert!(takes_suggestion(Some(&answer("x", ItemStatus::Open, vec![]))));
    assert!(!takes_suggestion(Some(&answer("x", ItemStatus::Confirmed, vec![]))));
    assert!(!takes_suggestion(Some(&answer(
        "x",
        ItemStatus::Problem { note: "n".into() },
        vec![]
    ))));
}

#[test]
fn the_key_changes_with_the_suggestion_its_evidence_and_the_answer_it_replaces() {
    let a = accept("gpu.model_vram", &full()).expect("acceptable");
    let key = suggestion_key("gpu.model_vram", &a, None);
    assert_eq!(key.len(), 64);
    assert_eq!(key, suggestion_key("gpu.model_vram", &a, None), "stable");
    let mut f = full();
    f.gpu_model = Some("L40".into());
    let other = accept("gpu.model_vram", &f).expect("acceptable");
    assert_ne!(key, suggestion_key("gpu.model_vram", &other, None), "another model");
    let mut moved = a.clone();
    moved.evidence.pop();
    assert_ne!(key, suggestion_key("gpu.model_vram", &moved, None), "other evidence");
    let open = answer("gpu.model_vram", ItemStatus::Open, vec![]);
    assert_ne!(
        key,
        suggestion_key("gpu.model_vram", &a, Some(&open)),
        "an answer since"
    );
    assert_ne!(key, suggestion_key("gpu.form_factor", &a, None), "another item");
}

#[test]
fn items_group_by_section_in_order_and_progress_counts_each_role() {
    let items = applicable_items(OrderKind::Inference, false);
    let sections = by_section(&items);
    let order: Vec<Section> = sections.iter().map(|(s, _)| *s).collect();
    assert_eq!(order, Section::ALL.to_vec());
    assert_eq!(sections.iter().map(|(_, i)| i.len()).sum::<usize>(), items.len());
    for (section, of) in &sections {
        assert!(of.iter().all(|i| i.section == *section));
    }
    let procurement = items.iter().filter(|i| i.expert == Expert::Procurement).count();
    let none = |_: &str| None;
    let p = progress(&items, &none);
    assert_eq!(
        p.procurement,
        Progress {
            done: 0,
            total: u32::try_from(procurement).expect("small")
        }
    );
    assert_eq!(p.procurement.plus(p.engineer).total as usize, items.len());
    // Confirmed with its evidence, an explained problem and a reasoned "not applicable" are
    // done; a confirmation without evidence and an open answer are not.
    let answers = [
        answer("gpu.model_vram", ItemStatus::Confirmed, vec![field("spec.gpu_model")]),
        answer("gpu.form_factor", ItemStatus::Confirmed, vec![]),
        answer("gpu.exclusivity", ItemStatus::Problem { note: "MIG".into() }, vec![]),
        answer(
            "gpu.usable_vram",
            ItemStatus::NotApplicable { reason: "r".into() },
            vec![],
        ),
        answer("store.disks", ItemStatus::Open, vec![]),
        answer(
            "gpu.vram_headroom",
            ItemStatus::Confirmed,
            vec![Evidence::Run { run_id: 5 }],
        ),
    ];
    let of = |id: &str| answers.iter().find(|a| a.item_id == id);
    let p = progress(&items, &of);
    assert_eq!((p.procurement.done, p.engineer.done), (3, 1));
    let gpu: Vec<&Item> = sections[0].1.clone();
    let g = progress(&gpu, &of);
    assert_eq!(g.procurement.done, 3);
    assert!(!g.procurement.complete());
    assert!(!is_done(get("gpu.form_factor"), of("gpu.form_factor")));
    assert!(is_done(get("gpu.exclusivity"), of("gpu.exclusivity")));
    assert!(!is_done(get("sec.fault_handling"), None));
    assert!(Progress::default().complete(), "nothing to do is done");
}

#[test]
fn the_evidence_picker_offers_the_fields_an_item_is_about_first() {
    let (fields, first) = fields_by_relevance(get("gpu.model_vram"));
    assert_eq!(&fields[..first], &["spec.gpu_model", "spec.vram_gib"]);
    assert_eq!(fields.len(), QUOTE_FIELDS_FOR_TESTS.len(), "every field once");
    let (fields, first) = fields_by_relevance(get("bill.stop_vs_release"));
    assert_eq!(
        &fields[..first],
        &["price.stopped_bills_compute", "price.disk_price_gb_month"]
    );
    assert_eq!(relevant_fields(get("sec.data_region")), vec!["spec.region"]);
    assert_eq!(relevant_fields(get("bill.auto_renewal"))[0], "auto_renewal");
    // A run-only item is about no quote field: the list stays in the quote form's order.
    let (fields, first) = fields_by_relevance(get("perf.throttling"));
    assert_eq!(first, 0);
    assert_eq!(fields, QUOTE_FIELDS_FOR_TESTS.to_vec());
}

#[test]
fn every_field_named_is_a_quote_field_and_every_source_reads_its_facts() {
    for item in ITEMS {
        for f in relevant_fields(item) {
            assert!(QUOTE_FIELDS_FOR_TESTS.contains(&f), "{}: {f}", item.id);
        }
        // What a suggestion uses is among what its source may read.
        if let Some(source) = item.prefill
            && let super::super::Prefill::Suggest(s) = super::super::prefill(item, &full())
        {
            for fact in &s.facts_used {
                assert!(source_facts(source).contains(fact), "{}: {fact:?}", item.id);
            }
        }
    }
    assert!(quote_fields(Fact::Workload).is_empty());
    for (id, _) in super::super::ITEM_FIELDS {
        assert!(ITEMS.iter().any(|i| i.id == *id), "{id}");
    }
}

#[test]
fn what_the_quote_states_answers_usable_vram_storage_renewal_release_and_region() {
    use super::super::AnswerCode as C;
    use super::prefill::suggestion;
    let f = full();
    assert_eq!(
        suggestion("gpu.usable_vram", &f),
        (Suggested::Confirmed, C::UsableVramStated { mib: 46_000 })
    );
    assert_eq!(
        suggestion("store.snapshots", &f),
        (
            Suggested::Confirmed,
            C::StorageOffered {
                snapshots: Some(true),
                object_storage: Some(false)
            }
        )
    );
    assert_eq!(
        suggestion("bill.auto_renewal", &f),
        (Suggested::Confirmed, C::AutoRenewal { renews: false })
    );
    assert_eq!(
        suggestion("sec.data_region", &f),
        (
            Suggested::Confirmed,
            C::Region {
                region: "cn-east-2".into()
            }
        )
    );
    for (id, fields) in [
        ("gpu.usable_vram", vec!["spec.usable_vram_gib"]),
        ("store.snapshots", vec!["spec.snapshots", "spec.object_storage"]),
        ("bill.auto_renewal", vec!["auto_renewal"]),
        ("bill.early_release", vec!["early_release"]),
        ("sec.data_region", vec!["spec.region"]),
    ] {
        let a = accept(id, &f).expect(id);
        assert_eq!(a.evidence, fields.into_iter().map(field).collect::<Vec<_>>(), "{id}");
    }
    // One of the two storage facts is enough; neither is missing; a zero usable VRAM is invalid.
    let mut f = full();
    f.object_storage_offered = None;
    assert_eq!(
        accept("store.snapshots", &f).expect("one known").evidence,
        vec![field("spec.snapshots")]
    );
    f.snapshots_offered = None;
    assert_eq!(
        super::super::prefill(get("store.snapshots"), &f),
        super::super::Prefill::Missing(vec![Fact::SnapshotsOffered, Fact::ObjectStorageOffered])
    );
    f.stated_usable_vram_mib = Some(0);
    assert_eq!(
        accept("gpu.usable_vram", &f),
        None,
        "an invalid fact leaves the item open"
    );
}
