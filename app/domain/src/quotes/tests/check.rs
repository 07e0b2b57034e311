//! `check`: every requirement kind, with Pass, Warning, Fail and Unknown; “not stated” is a
//! question for the vendor, never a failure.

use super::fixtures::{spec, workload};
use crate::quotes::{
    Figure, Interconnect, LOW_CONCURRENCY_MAX, NodeSpec, Note, Requirement, RequirementKind, RequirementStatus,
    Sharing, Unstated, Workload, WorkloadKind, check, mig_profile_gib, vendor_questions,
};
use rust_decimal_macros::dec;

fn find(w: &Workload, s: &NodeSpec, kind: RequirementKind) -> Option<Requirement> {
    check(w, s).into_iter().find(|r| r.kind == kind)
}

fn get(w: &Workload, s: &NodeSpec, kind: RequirementKind) -> Requirement {
    find(w, s, kind).unwrap_or_else(|| panic!("{kind:?} not checked"))
}

#[test]
fn vram_exactly_at_the_limit_passes() {
    let mut w = workload();
    w.headroom_pct = dec!(25);
    w.vram_peak_gib = dec!(64);
    let s = spec(1);
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.required, Some(Figure::Gib(dec!(80))));
    assert_eq!(r.offered, Some(Figure::Gib(dec!(80))));
    assert_eq!(r.status, RequirementStatus::Pass);
    w.vram_peak_gib = dec!(64.01);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Fail);
    w.headroom_pct = dec!(20);
    w.vram_peak_gib = dec!(66.4);
    assert_eq!(
        get(&w, &s, RequirementKind::Vram).required,
        Some(Figure::Gib(dec!(79.68)))
    );
}

#[test]
fn vram_at_the_fifteen_and_twenty_five_percent_edges() {
    let mut w = workload();
    w.vram_peak_gib = dec!(40);
    let mut s = spec(1);
    for (headroom, needed) in [(dec!(15), dec!(46)), (dec!(25), dec!(50))] {
        w.headroom_pct = headroom;
        s.vram_gib = needed;
        let r = get(&w, &s, RequirementKind::Vram);
        assert_eq!(r.required, Some(Figure::Gib(needed)), "{headroom} %");
        assert_eq!(
            r.status,
            RequirementStatus::Pass,
            "exactly {needed} GiB at {headroom} % headroom"
        );
        s.vram_gib = needed - dec!(0.01);
        assert_eq!(
            get(&w, &s, RequirementKind::Vram).status,
            RequirementStatus::Fail,
            "just under at {headroom} %"
        );
    }
}

#[test]
fn vram_uses_usable_vram_when_stated() {
    let mut w = workload();
    w.vram_peak_gib = dec!(66);
    w.headroom_pct = dec!(20);
    let mut s = spec(1);
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(
        (r.status, r.notes.clone()),
        (RequirementStatus::Pass, vec![Note::UsableVramNotStated])
    );
    s.usable_vram_gib = Some(dec!(79));
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.status, RequirementStatus::Fail);
    assert_eq!(r.offered, Some(Figure::Gib(dec!(79))));
}

#[test]
fn an_estimated_peak_is_noted() {
    let mut w = workload();
    w.vram_peak_measured = false;
    let notes = get(&w, &spec(1), RequirementKind::Vram).notes;
    assert!(notes.contains(&Note::PeakNotMeasured));
}

#[test]
fn several_nodes_pass_but_are_flagged() {
    let mut w = workload();
    w.gpus_needed = 16;
    let r = get(&w, &spec(8), RequirementKind::GpuCount);
    assert_eq!(r.status, RequirementStatus::Pass);
    assert_eq!(r.notes, vec![Note::NeedsNodes { nodes: 2 }]);
    w.gpus_needed = 8;
    let r = get(&w, &spec(8), RequirementKind::GpuCount);
    assert!(r.notes.is_empty());
    assert!(find(&w, &spec(8), RequirementKind::Network).is_none());
}

#[test]
fn multi_node_needs_network_facts() {
    let mut w = workload();
    w.gpus_needed = 16;
    let mut s = spec(8);
    s.interconnect = Some(Interconnect::Nvswitch);
    let r = get(&w, &s, RequirementKind::Network);
    assert_eq!((r.status, r.offered), (RequirementStatus::Unknown, None));
    assert_eq!(
        r.notes,
        vec![Note::AskVendor {
            about: Unstated::NetworkBandwidth
        }]
    );
    s.network_gbps = Some(dec!(400));
    let r = get(&w, &s, RequirementKind::Network);
    assert_eq!((r.status, r.notes), (RequirementStatus::Pass, vec![]));
}

#[test]
fn rdma_not_stated_is_a_question_for_the_vendor_never_a_failure() {
    let mut w = workload();
    w.gpus_needed = 16;
    let mut s = spec(8);
    s.network_gbps = Some(dec!(400));
    assert_eq!(s.rdma, None);
    let r = get(&w, &s, RequirementKind::Rdma);
    assert_eq!((r.status, r.offered.clone()), (RequirementStatus::Unknown, None));
    assert_eq!(r.notes, vec![Note::AskVendor { about: Unstated::Rdma }]);
    let all = check(&w, &s);
    assert!(all.iter().all(|r| r.status != RequirementStatus::Fail), "{all:?}");
    assert!(vendor_questions(&all).contains(&Unstated::Rdma));
    s.rdma = Some(false);
    let r = get(&w, &s, RequirementKind::Rdma);
    assert_eq!((r.status, r.notes), (RequirementStatus::Warning, vec![Note::NoRdma]));
    s.rdma = Some(true);
    let r = get(&w, &s, RequirementKind::Rdma);
    assert_eq!(
        (r.status, r.offered),
        (RequirementStatus::Pass, Some(Figure::Flag(true)))
    );
    assert!(!vendor_questions(&check(&w, &s)).contains(&Unstated::Rdma));
    w.gpus_needed = 8;
    assert!(
        find(&w, &s, RequirementKind::Rdma).is_none(),
        "one node: no RDMA needed"
    );
}

#[test]
fn disk_compares_data_plus_checkpoints_with_both_disks() {
    let w = workload();
    let mut s = spec(1);
    let r = get(&w, &s, RequirementKind::Disk);
    assert_eq!(
        (r.status, r.notes),
        (
            RequirementStatus::Unknown,
            vec![Note::AskVendor {
                about: Unstated::DiskSizes
            }]
        )
    );
    s.system_disk_gb = Some(dec!(30));
    let r = get(&w, &s, RequirementKind::Disk);
    assert_eq!(
        (r.status, r.notes),
        (
            RequirementStatus::Unknown,
            vec![
                Note::PartialDiskInfo,
                Note::AskVendor {
                    about: Unstated::DiskSizes
                }
            ]
        )
    );
    s.data_disk_gb = Some(dec!(50));
    let r = get(&w, &s, RequirementKind::Disk);
    assert_eq!(r.required, Some(Figure::Gb(dec!(80))));
    assert_eq!(r.status, RequirementStatus::Pass);
    s.data_disk_gb = Some(dec!(49.9));
    assert_eq!(get(&w, &s, RequirementKind::Disk).status, RequirementStatus::Fail);
    s.data_disk_gb = None;
    s.system_disk_gb = Some(dec!(100));
    assert_eq!(get(&w, &s, RequirementKind::Disk).status, RequirementStatus::Pass);
}

#[test]
fn training_on_a_slice_is_a_warning_better_suited_exclusive_not_a_failure() {
    let mut w = workload();
    w.vram_peak_gib = dec!(30);
    let mut s = spec(1);
    assert_eq!(get(&w, &s, RequirementKind::Exclusive).status, RequirementStatus::Pass);
    s.sharing = Sharing::Mig {
        profile: "3g.40gb".into(),
    };
    let r = get(&w, &s, RequirementKind::Exclusive);
    assert_eq!(r.status, RequirementStatus::Warning);
    assert_eq!(r.notes, vec![Note::BetterSuitedExclusive]);
    assert_eq!(r.offered, Some(Figure::Sharing(s.sharing.clone())));
    // 30 GiB × 1.2 = 36 GiB fits the 40 GiB slice: nothing fails.
    assert!(check(&w, &s).iter().all(|r| r.status != RequirementStatus::Fail));
    // 40 GiB × 1.2 = 48 GiB does not: the VRAM requirement fails, the sharing one still warns.
    w.vram_peak_gib = dec!(40);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Fail);
    assert_eq!(
        get(&w, &s, RequirementKind::Exclusive).status,
        RequirementStatus::Warning
    );
    w.kind = WorkloadKind::Batch;
    assert!(find(&w, &s, RequirementKind::Exclusive).is_none());
}

#[test]
fn a_slice_passes_low_concurrency_inference_and_warns_above_the_threshold() {
    assert_eq!(LOW_CONCURRENCY_MAX, 4);
    let mut w = workload();
    w.kind = WorkloadKind::InferenceService;
    w.vram_peak_gib = dec!(8);
    w.concurrency = 4;
    let mut s = NodeSpec::new(
        "A100 80GB",
        1,
        dec!(80),
        Sharing::Mig {
            profile: "1g.10gb".into(),
        },
    );
    let r = get(&w, &s, RequirementKind::Exclusive);
    assert_eq!(
        (r.status, r.notes),
        (RequirementStatus::Pass, vec![Note::SliceForLowConcurrency { max: 4 }])
    );
    // 8 GiB × 1.2 = 9.6 GiB fits the 10 GiB slice.
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Pass);
    w.concurrency = 5;
    let r = get(&w, &s, RequirementKind::Exclusive);
    assert_eq!(
        (r.status, r.notes),
        (RequirementStatus::Warning, vec![Note::BetterSuitedExclusive])
    );
    w.concurrency = 1;
    s.sharing = Sharing::Vgpu;
    assert_eq!(get(&w, &s, RequirementKind::Exclusive).status, RequirementStatus::Pass);
}

#[test]
fn multi_gpu_in_one_node_needs_a_link() {
    let mut w = workload();
    w.gpus_needed = 4;
    let mut s = spec(8);
    assert_eq!(
        get(&w, &s, RequirementKind::Interconnect).status,
        RequirementStatus::Unknown
    );
    s.interconnect = Some(Interconnect::None);
    assert_eq!(
        get(&w, &s, RequirementKind::Interconnect).status,
        RequirementStatus::Fail
    );
    s.interconnect = Some(Interconnect::Pcie);
    let r = get(&w, &s, RequirementKind::Interconnect);
    assert_eq!((r.status, r.notes), (RequirementStatus::Pass, vec![Note::PcieOnly]));
    for link in [Interconnect::Nvlink, Interconnect::Nvswitch] {
        s.interconnect = Some(link);
        let r = get(&w, &s, RequirementKind::Interconnect);
        assert_eq!((r.status, r.notes), (RequirementStatus::Pass, vec![]));
    }
    w.gpus_needed = 1;
    assert!(find(&w, &s, RequirementKind::Interconnect).is_none());
}

#[test]
fn memory_is_never_assumed_to_pool() {
    let mut w = workload();
    w.vram_peak_gib = dec!(100);
    let mut s = spec(8);
    // Not stated: 120 GiB would fit 8 × 80 GiB only if pooled — ask, do not fail.
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(
        (r.status, r.notes),
        (
            RequirementStatus::Unknown,
            vec![Note::FitsOnlyIfPooled, Note::UsableVramNotStated]
        )
    );
    let r = get(&w, &s, RequirementKind::MemoryPooling);
    assert_eq!((r.status, r.offered), (RequirementStatus::Unknown, None));
    assert_eq!(
        r.notes,
        vec![Note::AskVendor {
            about: Unstated::MemoryPooling
        }]
    );
    s.memory_pooling = Some(false);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Fail);
    let r = get(&w, &s, RequirementKind::MemoryPooling);
    assert_eq!(
        (r.status, r.offered),
        (RequirementStatus::Fail, Some(Figure::Flag(false)))
    );
    s.memory_pooling = Some(true);
    assert_eq!(
        get(&w, &s, RequirementKind::MemoryPooling).status,
        RequirementStatus::Pass
    );
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.status, RequirementStatus::Pass);
    assert!(r.notes.contains(&Note::PooledAcrossGpus));
    w.vram_peak_gib = dec!(40);
    assert!(find(&w, &s, RequirementKind::MemoryPooling).is_none());
}

#[test]
fn a_spec_without_gpus_gives_unknown_count() {
    let w = workload();
    let r = get(&w, &spec(0), RequirementKind::GpuCount);
    assert_eq!(r.status, RequirementStatus::Unknown);
}

#[test]
fn pooling_not_stated_still_fails_when_even_the_sum_is_too_small() {
    let mut w = workload();
    // 200 GiB × 1.2 = 240 GiB > 2 × 80 GiB even pooled.
    w.vram_peak_gib = dec!(200);
    let s = spec(2);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Fail);
    let r = get(&w, &s, RequirementKind::MemoryPooling);
    assert_eq!((r.status, r.offered), (RequirementStatus::Fail, None));
}

#[test]
fn memory_pooling_cannot_apply_to_a_one_gpu_node_and_is_no_failure_there() {
    let mut w = workload();
    w.vram_peak_gib = dec!(100);
    let mut s = spec(1);
    // The need does not fit the one GPU: that is the VRAM requirement's failure, and the only
    // one; there is nothing to pool with, whatever the vendor says about pooling.
    for pooling in [None, Some(false), Some(true)] {
        s.memory_pooling = pooling;
        assert_eq!(get(&w, &s, RequirementKind::Vram).status, RequirementStatus::Fail);
        assert!(find(&w, &s, RequirementKind::MemoryPooling).is_none(), "{pooling:?}");
    }
}

#[test]
fn a_20_gib_peak_at_20_percent_fits_a_24_gib_a10_by_the_one_headroom_rule() {
    let mut w = workload();
    w.vram_peak_gib = dec!(20);
    w.headroom_pct = dec!(20);
    let s = NodeSpec::new("A10 24GB", 1, dec!(24), Sharing::Exclusive);
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.required, Some(Figure::Gib(dec!(24))));
    assert_eq!(r.offered, Some(Figure::Gib(dec!(24))));
    assert_eq!(r.status, RequirementStatus::Pass);
}

#[test]
fn a_mig_slice_offers_its_own_memory_never_the_parent_gpus() {
    let mut w = workload();
    w.vram_peak_gib = dec!(20);
    w.headroom_pct = dec!(20);
    let profile = "1g.10gb".to_owned();
    let s = NodeSpec::new(
        "A100 80GB",
        1,
        dec!(80),
        Sharing::Mig {
            profile: profile.clone(),
        },
    );
    assert_eq!(s.effective_vram_gib(), Some(dec!(10)));
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.offered, Some(Figure::Gib(dec!(10))));
    assert_eq!(r.status, RequirementStatus::Fail, "24 GiB needed, 10 GiB slice");
    assert_eq!(r.notes, vec![Note::VramFromMigProfile { profile }]);
    // A stated usable VRAM wins over the profile.
    let mut stated = s.clone();
    stated.usable_vram_gib = Some(dec!(9.5));
    assert_eq!(
        get(&w, &stated, RequirementKind::Vram).offered,
        Some(Figure::Gib(dec!(9.5)))
    );
    // A 3g.40gb slice fits 24 GiB.
    let big = NodeSpec::new(
        "A100 80GB",
        1,
        dec!(80),
        Sharing::Mig {
            profile: "3g.40gb".into(),
        },
    );
    assert_eq!(get(&w, &big, RequirementKind::Vram).status, RequirementStatus::Pass);
}

#[test]
fn fractional_shares_and_vgpus_never_offer_the_whole_gpu() {
    let mut w = workload();
    w.vram_peak_gib = dec!(20);
    let half = NodeSpec::new("A100 80GB", 1, dec!(80), Sharing::Fractional { share: dec!(0.25) });
    let r = get(&w, &half, RequirementKind::Vram);
    assert_eq!(
        (r.status, r.offered),
        (RequirementStatus::Fail, Some(Figure::Gib(dec!(20.00))))
    );
    assert_eq!(r.notes, vec![Note::VramFromShare { share: dec!(0.25) }]);
    let mut vgpu = NodeSpec::new("A100 80GB", 1, dec!(80), Sharing::Vgpu);
    let r = get(&w, &vgpu, RequirementKind::Vram);
    assert_eq!((r.status, r.offered), (RequirementStatus::Unknown, None));
    assert_eq!(
        r.notes,
        vec![Note::AskVendor {
            about: Unstated::SliceVram
        }]
    );
    vgpu.usable_vram_gib = Some(dec!(40));
    assert_eq!(get(&w, &vgpu, RequirementKind::Vram).status, RequirementStatus::Pass);
}

#[test]
fn mig_profiles_name_their_memory() {
    assert_eq!(mig_profile_gib("1g.10gb"), Some(dec!(10)));
    assert_eq!(mig_profile_gib("3g.40gb"), Some(dec!(40)));
    assert_eq!(mig_profile_gib("1g.10gb+me"), Some(dec!(10)));
    assert_eq!(mig_profile_gib("7g.80GB"), Some(dec!(80)));
    assert_eq!(mig_profile_gib("2g.23.5gb"), Some(dec!(23.5)));
    assert_eq!(mig_profile_gib("custom"), None);
    assert_eq!(mig_profile_gib("1g.gb"), None);
    assert_eq!(mig_profile_gib("1g.0gb"), None);
    // An unreadable profile without a stated usable VRAM is a question, not the parent's 80 GiB.
    let s = NodeSpec::new(
        "A100 80GB",
        1,
        dec!(80),
        Sharing::Mig {
            profile: "custom".into(),
        },
    );
    assert_eq!(s.effective_vram_gib(), None);
    assert_eq!(
        get(&workload(), &s, RequirementKind::Vram).status,
        RequirementStatus::Unknown
    );
}

#[test]
fn every_unknown_requirement_asks_the_vendor() {
    let mut w = workload();
    w.gpus_needed = 16;
    let s = NodeSpec::new("A100 80GB", 8, dec!(80), Sharing::Vgpu);
    let all = check(&w, &s);
    for r in all.iter().filter(|r| r.status == RequirementStatus::Unknown) {
        assert!(r.notes.iter().any(|n| matches!(n, Note::AskVendor { .. })), "{r:?}");
    }
    assert_eq!(
        vendor_questions(&all),
        vec![
            Unstated::SliceVram,
            Unstated::NetworkBandwidth,
            Unstated::Rdma,
            Unstated::DiskSizes,
            Unstated::Interconnect,
        ]
    );
}
