//! The static table: order, completeness, ids, citations.

use std::collections::HashSet;

use super::super::{AppliesTo, ITEMS, Item, OrderKind, PrefillSource, SECTIONS, Section, applicable_items, item};

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn six_sections_in_seed_order() {
    let numbers: Vec<u8> = SECTIONS.iter().map(|s| s.section.number()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    assert_eq!(SECTIONS.map(|s| s.section), Section::ALL);
    assert_eq!(SECTIONS[0].title.zh, "显卡型号与显存");
    assert_eq!(SECTIONS[5].title.zh, "安全、权限与故障处理");
    // Items are grouped by section, in section order, and every section is present.
    let mut seen: Vec<Section> = Vec::new();
    for i in ITEMS {
        if seen.last() != Some(&i.section) {
            assert!(!seen.contains(&i.section), "{} breaks the grouping", i.id);
            seen.push(i.section);
        }
    }
    assert_eq!(seen, Section::ALL);
}

#[test]
fn each_section_has_seven_to_twelve_items_and_the_table_has_58() {
    let counts: Vec<usize> = Section::ALL
        .iter()
        .map(|s| ITEMS.iter().filter(|i| i.section == *s).count())
        .collect();
    assert_eq!(counts, [10, 8, 8, 9, 12, 11]);
    assert_eq!(ITEMS.len(), 58);
}

#[test]
fn every_item_is_bilingual_and_cited() {
    for i in ITEMS {
        for t in [i.text, i.why] {
            assert!(!t.en.trim().is_empty() && !t.zh.trim().is_empty(), "{}", i.id);
            assert!(has_cjk(t.zh), "{}: zh text has no Chinese", i.id);
            assert!(!has_cjk(t.en), "{}: en text has Chinese", i.id);
        }
        assert!(!i.cites.is_empty(), "{} cites nothing", i.id);
        for c in i.cites {
            assert!(c.seed <= 2 && !c.part.trim().is_empty(), "{}: bad cite {c:?}", i.id);
        }
    }
}

#[test]
fn section_titles_are_bilingual() {
    for s in &SECTIONS {
        assert!(!s.title.en.is_empty() && has_cjk(s.title.zh));
    }
}

#[test]
fn ids_are_unique_well_formed_and_match_their_section() {
    let mut ids = HashSet::new();
    for i in ITEMS {
        assert!(ids.insert(i.id), "duplicate id {}", i.id);
        let (area, name) = i.id.split_once('.').expect("area.name");
        let ok = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        assert!(ok(area) && ok(name), "{}", i.id);
        let areas: &[&str] = match i.section {
            Section::Gpu => &["gpu"],
            Section::Software => &["env"],
            Section::Performance => &["perf"],
            Section::StorageNetwork => &["store", "net"],
            Section::Billing => &["bill"],
            Section::Security => &["sec"],
        };
        assert!(areas.contains(&area), "{} is in {:?}", i.id, i.section);
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "every source, one per line, twice: the match and the list"
)]
fn all_sources() -> [PrefillSource; 43] {
    use PrefillSource as P;
    // Exhaustive match: a new variant must be added to the list below.
    let guard = |p: P| match p {
        P::GpuModel
        | P::FormFactor
        | P::Exclusivity
        | P::VramHeadroom
        | P::Interconnect
        | P::SoftwareImage
        | P::SmokeRun
        | P::BenchmarkRun
        | P::Throttling
        | P::QuoteVsObserved
        | P::StoppedBilling
        | P::MinimumDuration
        | P::OtherFees
        | P::DiskRelease
        | P::EgressPricing
        | P::PeakNearLimit
        | P::UsableVram
        | P::Snapshots
        | P::AutoRenewal
        | P::EarlyRelease
        | P::DataRegion
        | P::Disks
        | P::ListedFees
        | P::PrivateNetwork
        | P::Bandwidth
        | P::StackVersions
        | P::Access
        | P::StartupTime
        | P::SupportContact
        | P::FaultHandling
        | P::Cleanup
        | P::DiskMigration
        | P::CostChoice
        | P::TotalCost
        | P::TrialRun
        | P::RunMetrics
        | P::TotalTime
        | P::TwoSpecs
        | P::TempDirectory
        | P::CheckpointStorage
        | P::TransferTime
        | P::Bottleneck
        | P::CleanSystemDisk => (),
    };
    let all = [
        P::GpuModel,
        P::FormFactor,
        P::Exclusivity,
        P::VramHeadroom,
        P::Interconnect,
        P::SoftwareImage,
        P::SmokeRun,
        P::BenchmarkRun,
        P::Throttling,
        P::QuoteVsObserved,
        P::StoppedBilling,
        P::MinimumDuration,
        P::OtherFees,
        P::DiskRelease,
        P::EgressPricing,
        P::PeakNearLimit,
        P::UsableVram,
        P::Snapshots,
        P::AutoRenewal,
        P::EarlyRelease,
        P::DataRegion,
        P::Disks,
        P::ListedFees,
        P::PrivateNetwork,
        P::Bandwidth,
        P::StackVersions,
        P::Access,
        P::StartupTime,
        P::SupportContact,
        P::FaultHandling,
        P::Cleanup,
        P::DiskMigration,
        P::CostChoice,
        P::TotalCost,
        P::TrialRun,
        P::RunMetrics,
        P::TotalTime,
        P::TwoSpecs,
        P::TempDirectory,
        P::CheckpointStorage,
        P::TransferTime,
        P::Bottleneck,
        P::CleanSystemDisk,
    ];
    all.iter().copied().for_each(guard);
    all
}

#[test]
fn every_prefill_source_is_used_exactly_once() {
    for p in all_sources() {
        let n = ITEMS.iter().filter(|i| i.prefill == Some(p)).count();
        assert_eq!(n, 1, "{p:?} used {n} times");
    }
}

#[test]
fn key_items_from_the_brief_exist() {
    let expect = |id: &str| -> &'static Item { item(id).unwrap_or_else(|| panic!("{id} missing")) };
    assert_eq!(expect("gpu.vram_headroom").prefill, Some(PrefillSource::VramHeadroom));
    assert_eq!(expect("gpu.no_memory_pooling").applies_to, AppliesTo::MultiGpu);
    assert_eq!(expect("gpu.training_memory").applies_to, AppliesTo::Training);
    assert_eq!(expect("gpu.inference_peak").applies_to, AppliesTo::Inference);
    assert_eq!(expect("perf.total_time").applies_to, AppliesTo::Batch);
    assert_eq!(
        expect("bill.stop_vs_release").prefill,
        Some(PrefillSource::StoppedBilling)
    );
    assert!(expect("sec.checkpoints").required);
    assert!(item("gpu.nope").is_none());
}

#[test]
fn applicability_filters_by_kind_and_multi_gpu() {
    let ids = |k, m| -> Vec<&str> { applicable_items(k, m).iter().map(|i| i.id).collect() };
    let training = ids(OrderKind::Training, false);
    assert!(training.contains(&"gpu.training_memory"));
    assert!(!training.contains(&"gpu.inference_peak"));
    assert!(!training.contains(&"perf.total_time"));
    assert!(!training.contains(&"gpu.no_memory_pooling"));
    let multi = ids(OrderKind::Training, true);
    assert!(multi.contains(&"gpu.no_memory_pooling") && multi.contains(&"net.cross_node"));
    let inference = ids(OrderKind::Inference, false);
    assert!(inference.contains(&"net.inference_ingress"));
    assert!(!inference.contains(&"env.training_dry_run"));
    assert!(ids(OrderKind::Batch, false).contains(&"perf.total_time"));
    let all = ITEMS.iter().filter(|i| i.applies_to == AppliesTo::All).count();
    let extra = |k, m| {
        ITEMS
            .iter()
            .filter(|i| i.applies_to != AppliesTo::All && i.applies(k, m))
            .count()
    };
    assert_eq!(training.len(), all + extra(OrderKind::Training, false));
    // Table order is kept.
    let pos = |id| ITEMS.iter().position(|i| i.id == id);
    let positions: Vec<_> = multi.iter().map(|id| pos(*id)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn the_buying_guides_points_without_an_item_before_have_items() {
    // (id, guide, section, applies to): points of the buying guides 001 and 002 that had no item
    // before; each item's rule is its own text in the checklist table.
    let expected = [
        ("sec.training_record", 1, "§6", AppliesTo::Training),
        ("sec.private_network", 1, "§6", AppliesTo::All),
        ("env.clean_system_disk", 1, "§3", AppliesTo::All),
        ("store.small_files_tmp", 1, "§4", AppliesTo::All),
        ("bill.image_management_fees", 1, "§5", AppliesTo::All),
        ("bill.startup_time", 0, "§5", AppliesTo::All),
        ("bill.inference_availability", 0, "§5", AppliesTo::Inference),
        ("gpu.memory_leak_check", 2, "step 1", AppliesTo::All),
        ("perf.sync_bandwidth", 2, "parallelism", AppliesTo::MultiGpu),
        ("bill.trial_rental", 2, "selection flow", AppliesTo::All),
    ];
    for (id, seed, part, applies) in expected {
        let i = item(id).unwrap_or_else(|| panic!("{id} missing"));
        assert!(
            i.cites.iter().any(|c| c.seed == seed && c.part == part),
            "{id} cites {:?}",
            i.cites
        );
        assert_eq!(i.applies_to, applies, "{id}");
    }
    assert_eq!(
        item("gpu.memory_leak_check").and_then(|i| i.prefill),
        Some(PrefillSource::PeakNearLimit)
    );
}

#[test]
fn the_zh_and_en_texts_say_the_same() {
    let text = |id: &str| item(id).unwrap_or_else(|| panic!("{id}"));
    // 明确 is "stated", not "measured": the peak is measured, the concurrency stated.
    let peak = text("gpu.inference_peak").text;
    assert!(peak.zh.contains("明确目标并发量") && peak.en.contains("target concurrency is stated"));
    // 快照或对象存储: "or".
    let snapshots = text("store.snapshots");
    assert!(snapshots.text.zh.contains("快照或对象存储") && snapshots.text.en.contains("snapshots or object storage"));
    assert!(
        snapshots.why.zh.contains("快照或独立存储") && snapshots.why.en.contains("Snapshots or independent storage")
    );
    // 更适合: "better suited", not "need".
    let exclusive = text("gpu.exclusivity").why;
    assert!(exclusive.zh.contains("更适合独占") && exclusive.en.contains("better suited to exclusive"));
    assert!(!exclusive.en.contains("need"));
    // Seed 002's hours include the model download.
    let total = text("bill.total_cost").text;
    assert!(total.zh.contains("模型下载") && total.en.contains("model download"));
}

#[test]
fn items_ask_for_evidence_where_data_can_prove_them() {
    use super::super::EvidenceKind as V;
    let ev = |id: &str| item(id).unwrap_or_else(|| panic!("{id}")).evidence;
    assert_eq!(ev("perf.benchmark"), [V::Run]);
    assert_eq!(ev("perf.quote_vs_observed"), [V::Run]);
    assert!(ev("gpu.model_vram").contains(&V::QuoteField) && ev("gpu.model_vram").contains(&V::Document));
    assert!(ev("bill.total_cost").contains(&V::CostComparison));
    assert!(ev("sec.support_contact").contains(&V::Note));
    assert!(
        ev("bill.budget_alert").is_empty(),
        "a reminder set in another system: no evidence asked"
    );
    // Every item with a pre-fill from data that may be accepted asks for evidence of that data.
    for i in ITEMS.iter().filter(|i| i.prefill.is_some_and(|p| !p.only_shown())) {
        assert!(
            !i.evidence.is_empty(),
            "{} is judged from data but asks for no evidence",
            i.id
        );
    }
}
