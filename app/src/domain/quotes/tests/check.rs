//! `check`: every requirement kind, with Pass, Fail and Unknown.

use super::fixtures::{spec, workload};
use crate::domain::quotes::{
    Figure, Interconnect, NodeSpec, Note, Requirement, RequirementKind, Sharing, Status, Workload,
    WorkloadKind, check,
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
    assert_eq!(r.status, Status::Pass);
    w.vram_peak_gib = dec!(64.01);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, Status::Fail);
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
        assert_eq!(r.status, Status::Pass, "exactly {needed} GiB at {headroom} % headroom");
        s.vram_gib = needed - dec!(0.01);
        assert_eq!(get(&w, &s, RequirementKind::Vram).status, Status::Fail, "just under at {headroom} %");
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
        (Status::Pass, vec![Note::UsableVramNotStated])
    );
    s.usable_vram_gib = Some(dec!(79));
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.status, Status::Fail);
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
    assert_eq!(r.status, Status::Pass);
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
    assert_eq!((r.status, r.offered), (Status::Unknown, None));
    s.network_gbps = Some(dec!(400));
    let r = get(&w, &s, RequirementKind::Network);
    assert_eq!((r.status, r.notes), (Status::Pass, vec![Note::NoRdma]));
    s.rdma = true;
    assert!(get(&w, &s, RequirementKind::Network).notes.is_empty());
}

#[test]
fn disk_compares_data_plus_checkpoints_with_both_disks() {
    let w = workload();
    let mut s = spec(1);
    assert_eq!(get(&w, &s, RequirementKind::Disk).status, Status::Unknown);
    s.system_disk_gb = Some(dec!(30));
    let r = get(&w, &s, RequirementKind::Disk);
    assert_eq!(
        (r.status, r.notes),
        (Status::Unknown, vec![Note::PartialDiskInfo])
    );
    s.data_disk_gb = Some(dec!(50));
    let r = get(&w, &s, RequirementKind::Disk);
    assert_eq!(r.required, Some(Figure::Gb(dec!(80))));
    assert_eq!(r.status, Status::Pass);
    s.data_disk_gb = Some(dec!(49.9));
    assert_eq!(get(&w, &s, RequirementKind::Disk).status, Status::Fail);
    s.data_disk_gb = None;
    s.system_disk_gb = Some(dec!(100));
    assert_eq!(get(&w, &s, RequirementKind::Disk).status, Status::Pass);
}

#[test]
fn training_and_inference_need_exclusive_gpus() {
    let mut w = workload();
    let mut s = spec(1);
    assert_eq!(get(&w, &s, RequirementKind::Exclusive).status, Status::Pass);
    s.sharing = Sharing::Mig {
        profile: "3g.40gb".into(),
    };
    let r = get(&w, &s, RequirementKind::Exclusive);
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.offered, Some(Figure::Sharing(s.sharing.clone())));
    w.kind = WorkloadKind::InferenceService;
    s.sharing = Sharing::Vgpu;
    assert_eq!(get(&w, &s, RequirementKind::Exclusive).status, Status::Fail);
    w.kind = WorkloadKind::Batch;
    assert!(find(&w, &s, RequirementKind::Exclusive).is_none());
}

#[test]
fn multi_gpu_in_one_node_needs_a_link() {
    let mut w = workload();
    w.gpus_needed = 4;
    let mut s = spec(8);
    assert_eq!(
        get(&w, &s, RequirementKind::Interconnect).status,
        Status::Unknown
    );
    s.interconnect = Some(Interconnect::None);
    assert_eq!(
        get(&w, &s, RequirementKind::Interconnect).status,
        Status::Fail
    );
    s.interconnect = Some(Interconnect::Pcie);
    let r = get(&w, &s, RequirementKind::Interconnect);
    assert_eq!((r.status, r.notes), (Status::Pass, vec![Note::PcieOnly]));
    for link in [Interconnect::Nvlink, Interconnect::Nvswitch] {
        s.interconnect = Some(link);
        let r = get(&w, &s, RequirementKind::Interconnect);
        assert_eq!((r.status, r.notes), (Status::Pass, vec![]));
    }
    w.gpus_needed = 1;
    assert!(find(&w, &s, RequirementKind::Interconnect).is_none());
}

#[test]
fn memory_is_never_assumed_to_pool() {
    let mut w = workload();
    w.vram_peak_gib = dec!(100);
    let mut s = spec(8);
    assert_eq!(get(&w, &s, RequirementKind::Vram).status, Status::Fail);
    let r = get(&w, &s, RequirementKind::MemoryPooling);
    assert_eq!(
        (r.status, r.offered),
        (Status::Fail, Some(Figure::Flag(false)))
    );
    s.memory_pooling = true;
    assert_eq!(
        get(&w, &s, RequirementKind::MemoryPooling).status,
        Status::Pass
    );
    let r = get(&w, &s, RequirementKind::Vram);
    assert_eq!(r.status, Status::Pass);
    assert!(r.notes.contains(&Note::PooledAcrossGpus));
    w.vram_peak_gib = dec!(40);
    assert!(find(&w, &s, RequirementKind::MemoryPooling).is_none());
}

#[test]
fn a_spec_without_gpus_gives_unknown_count() {
    let w = workload();
    let r = get(&w, &spec(0), RequirementKind::GpuCount);
    assert_eq!(r.status, Status::Unknown);
}
