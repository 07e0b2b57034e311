//! The static table: order, completeness, ids, citations.

use std::collections::HashSet;

use super::super::{
    AppliesTo, ITEMS, Item, PrefillSource, SECTIONS, Section, WorkloadKind, applicable_items, item,
};

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
fn each_section_has_five_to_nine_items() {
    for s in Section::ALL {
        let n = ITEMS.iter().filter(|i| i.section == s).count();
        assert!((5..=9).contains(&n), "{s:?} has {n} items");
    }
}

#[test]
fn every_item_is_bilingual_and_cited() {
    for i in ITEMS {
        for t in [i.text, i.why] {
            assert!(
                !t.en.trim().is_empty() && !t.zh.trim().is_empty(),
                "{}",
                i.id
            );
            assert!(has_cjk(t.zh), "{}: zh text has no Chinese", i.id);
            assert!(!has_cjk(t.en), "{}: en text has Chinese", i.id);
        }
        assert!(!i.cites.is_empty(), "{} cites nothing", i.id);
        for c in i.cites {
            assert!(
                c.seed <= 2 && !c.part.trim().is_empty(),
                "{}: bad cite {c:?}",
                i.id
            );
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

fn all_sources() -> [PrefillSource; 15] {
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
        | P::EgressPricing => (),
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
    assert_eq!(
        expect("gpu.vram_headroom").prefill,
        Some(PrefillSource::VramHeadroom)
    );
    assert_eq!(
        expect("gpu.no_memory_pooling").applies_to,
        AppliesTo::MultiGpu
    );
    assert_eq!(
        expect("gpu.training_memory").applies_to,
        AppliesTo::Training
    );
    assert_eq!(
        expect("gpu.inference_peak").applies_to,
        AppliesTo::Inference
    );
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
    let training = ids(WorkloadKind::Training, false);
    assert!(training.contains(&"gpu.training_memory"));
    assert!(!training.contains(&"gpu.inference_peak"));
    assert!(!training.contains(&"perf.total_time"));
    assert!(!training.contains(&"gpu.no_memory_pooling"));
    let multi = ids(WorkloadKind::Training, true);
    assert!(multi.contains(&"gpu.no_memory_pooling") && multi.contains(&"net.cross_node"));
    let inference = ids(WorkloadKind::Inference, false);
    assert!(inference.contains(&"net.inference_ingress"));
    assert!(!inference.contains(&"env.training_dry_run"));
    assert!(ids(WorkloadKind::Batch, false).contains(&"perf.total_time"));
    let all = ITEMS
        .iter()
        .filter(|i| i.applies_to == AppliesTo::All)
        .count();
    let extra = |k, m| {
        ITEMS
            .iter()
            .filter(|i| i.applies_to != AppliesTo::All && i.applies(k, m))
            .count()
    };
    assert_eq!(training.len(), all + extra(WorkloadKind::Training, false));
    // Table order is kept.
    let pos = |id| ITEMS.iter().position(|i| i.id == id);
    let positions: Vec<_> = multi.iter().map(|id| pos(*id)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]));
}
