//! Does a node fit a workload? The VRAM floor comes first (“第一步：确认显存下限”: the measured peak
//! plus headroom must fit the usable VRAM), then interconnect, storage and network, and whether a
//! sliced GPU suits the workload (inference at low concurrency may share; training, performance
//! tests and latency-sensitive services are better on exclusive GPUs).
//!
//! Each requirement is Pass, Warning, Fail or Unknown. A fact the vendor has not stated gives
//! Unknown with a question for the vendor ([`Note::AskVendor`], collected by
//! [`vendor_questions`]) — never a guess, never a failure. Requirements that do not apply are
//! left out of the list.
//!
//! | Requirement | Applies | Pass | Warning | Fail | Unknown |
//! |---|---|---|---|---|---|
//! | VRAM | always | [`vram::assess`] fits one GPU/slice, or the node pools memory and the sum fits | | does not fit (and pooling is “no” or would not help) | slice memory not stated; or fits only if pooled and pooling not stated |
//! | GPU count | always | GPUs per node stated (several nodes allowed) | | | count not stated |
//! | Network | > 1 node | bandwidth stated | | 0 Gbit/s | bandwidth not stated |
//! | RDMA | > 1 node | yes | no (`net.cross_node`: ask for it; slower sync, not a failure) | | not stated |
//! | Disk | always | data + checkpoints fit the stated disks | | do not fit both stated disks | no size, or one size that is too small |
//! | Whole GPUs | training, inference service | exclusive; or a slice for inference at ≤ [`LOW_CONCURRENCY_MAX`] concurrent requests | a slice otherwise (“better suited: exclusive”) | | |
//! | Interconnect | > 1 GPU in one node | a link | | no link | link not stated |
//! | Memory pooling | need > one GPU, on a node of several GPUs (a 1-GPU node has nothing to pool: not checked) | pooled and the sum fits | | not pooled, or the sum does not fit | not stated and the sum would fit |
//!
//! VRAM uses the one headroom rule [`crate::vram::assess`] against the *usable* VRAM of
//! one GPU or slice ([`NodeSpec::effective_vram`]): a MIG `1g.10gb` slice of an 80 GiB A100
//! offers 10 GiB, never 80.

use super::spec::{Interconnect, NodeSpec, Sharing, VramSource};
use super::workload::{Workload, WorkloadKind};
use crate::tco::{PriceSheet, UnstatedPrice};
use crate::vram;
use rust_decimal::Decimal;
use serde::Serialize;

/// Most concurrent requests at which an inference service may run on a sliced GPU without a
/// warning. Checklist item `gpu.exclusivity`: low-concurrency inference may use a slice, while
/// latency-sensitive services are better suited to exclusive nodes; its sources give no number,
/// so NodeLedger calls up to 4 concurrent requests “low”.
pub const LOW_CONCURRENCY_MAX: u32 = 4;

/// What is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequirementKind {
    /// Peak VRAM plus headroom fits one GPU (always checked).
    Vram,
    /// GPUs needed vs GPUs per node; several nodes are allowed (always checked).
    GpuCount,
    /// Cross-node network, when more than one node is needed.
    Network,
    /// Data and checkpoints fit the node's disks (always checked).
    Disk,
    /// Whole GPUs, for training and inference services.
    Exclusive,
    /// GPU-to-GPU link, when more than one GPU is used within a node.
    Interconnect,
    /// The VRAM need exceeds one GPU: only pooled memory adds up (checklist item `gpu.no_memory_pooling`).
    MemoryPooling,
    /// RDMA between nodes, when more than one node is needed (checklist item `net.cross_node`).
    Rdma,
}

/// The outcome of one requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequirementStatus {
    /// The node meets it.
    Pass,
    /// The node can do it, but the checklist advises otherwise (e.g. a slice for training).
    Warning,
    /// The node does not meet it.
    Fail,
    /// The vendor has not stated what is needed to decide.
    Unknown,
}

/// A quantity or property on either side of a requirement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "snake_case")]
pub enum Figure {
    /// Gibibytes (VRAM).
    Gib(Decimal),
    /// Gigabytes (disk).
    Gb(Decimal),
    /// A number of GPUs.
    Gpus(u32),
    /// Gigabits per second.
    Gbps(Decimal),
    /// A sharing mode.
    Sharing(Sharing),
    /// A GPU-to-GPU link.
    Interconnect(Interconnect),
    /// Yes or no (e.g. memory pooling).
    Flag(bool),
}

/// Extra facts about an outcome, for the UI to explain it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum Note {
    /// More than one node is needed.
    NeedsNodes {
        /// How many nodes.
        nodes: u32,
    },
    /// Usable VRAM is not stated; the nominal VRAM of the whole GPU was compared.
    UsableVramNotStated,
    /// The usable VRAM is the memory the MIG profile names.
    VramFromMigProfile {
        /// The profile, e.g. `1g.10gb`.
        profile: String,
    },
    /// The usable VRAM is the fractional share of the parent GPU's memory.
    VramFromShare {
        /// The share, e.g. `0.5`.
        #[serde(with = "rust_decimal::serde::str")]
        share: Decimal,
    },
    /// The need fits only if the node pools GPU memory, which the vendor has not stated.
    FitsOnlyIfPooled,
    /// The VRAM peak was estimated, not measured (checklist item `gpu.inference_peak`: measure it in a real run).
    PeakNotMeasured,
    /// The need fits only because the node pools GPU memory.
    PooledAcrossGpus,
    /// GPUs talk over PCIe only: slower for gradient exchange.
    PcieOnly,
    /// No RDMA between nodes.
    NoRdma,
    /// Only one of the two disk sizes is stated.
    PartialDiskInfo,
    /// A slice is fine here: inference at no more than `max` concurrent requests (checklist item `gpu.exclusivity`).
    SliceForLowConcurrency {
        /// [`LOW_CONCURRENCY_MAX`].
        max: u32,
    },
    /// Training, performance tests and latency-sensitive services are better suited to
    /// exclusive GPUs (checklist item `gpu.exclusivity`).
    BetterSuitedExclusive,
    /// A fact the vendor has not stated: ask before ordering.
    AskVendor {
        /// What to ask about.
        about: Unstated,
    },
}

/// A fact a requirement needs that the vendor has not stated: a question for the vendor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unstated {
    /// Does the node support RDMA between nodes?
    Rdma,
    /// Is GPU memory pooled across the node's GPUs?
    MemoryPooling,
    /// How much VRAM does one slice (vGPU / MIG instance) offer?
    SliceVram,
    /// What is the cross-node network bandwidth?
    NetworkBandwidth,
    /// How are the GPUs inside the node linked?
    Interconnect,
    /// How large are the system and data disks?
    DiskSizes,
    /// How many GPUs does one node have?
    GpusPerNode,
    /// What does disk cost per GB and month?
    DiskPrice,
    /// What do snapshots cost per GB and month?
    SnapshotPrice,
    /// What does outbound traffic cost per GB?
    EgressPrice,
    /// What does inbound traffic cost per GB?
    IngressPrice,
    /// Does a stopped (not released) node still bill compute?
    StoppedCompute,
    /// How many such nodes can the vendor provide at once?
    NodesAvailable,
    /// How long from the order until the nodes are ready?
    LeadTime,
}

/// The questions for the vendor about what the quote does not say of supply: how many nodes it
/// can provide and how soon. A plan needs both; neither is assumed.
#[must_use]
pub fn supply_questions(draft: &super::QuoteDraft) -> Vec<Unstated> {
    let mut out = Vec::new();
    if draft.nodes_available.is_none() {
        out.push(Unstated::NodesAvailable);
    }
    if draft.lead_time_hours.is_none() {
        out.push(Unstated::LeadTime);
    }
    out
}

/// The questions for the vendor about the usage prices `sheet` does not state (a blank disk,
/// snapshot or traffic price is unknown, never free; a blank "stopped node bills compute" is
/// neither yes nor no), in sheet order.
#[must_use]
pub fn price_questions(sheet: &PriceSheet) -> Vec<Unstated> {
    sheet
        .not_stated
        .iter()
        .map(|p| match p {
            UnstatedPrice::Disk => Unstated::DiskPrice,
            UnstatedPrice::Snapshot => Unstated::SnapshotPrice,
            UnstatedPrice::Egress => Unstated::EgressPrice,
            UnstatedPrice::Ingress => Unstated::IngressPrice,
            UnstatedPrice::StoppedCompute => Unstated::StoppedCompute,
        })
        .collect()
}

/// The questions for the vendor in `checked`, in order, each once.
pub fn vendor_questions(checked: &[Requirement]) -> Vec<Unstated> {
    let mut out: Vec<Unstated> = Vec::new();
    for r in checked {
        for n in &r.notes {
            if let Note::AskVendor { about } = n
                && !out.contains(about)
            {
                out.push(*about);
            }
        }
    }
    out
}

/// One checked requirement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// What is checked.
    pub kind: RequirementKind,
    pub status: RequirementStatus,
    /// What the workload needs.
    pub required: Option<Figure>,
    /// What the node offers; `None` when the vendor has not stated it.
    pub offered: Option<Figure>,
    /// Why the status is what it is, in the order the checks ran.
    pub notes: Vec<Note>,
}

fn req(kind: RequirementKind, status: RequirementStatus, required: Figure, offered: Option<Figure>) -> Requirement {
    Requirement {
        kind,
        status,
        required: Some(required),
        offered,
        notes: Vec::new(),
    }
}

fn pass_if(ok: bool) -> RequirementStatus {
    if ok {
        RequirementStatus::Pass
    } else {
        RequirementStatus::Fail
    }
}

fn unknown(kind: RequirementKind, required: Figure, about: Unstated) -> Requirement {
    let mut r = req(kind, RequirementStatus::Unknown, required, None);
    r.notes.push(Note::AskVendor { about });
    r
}

/// Checks `spec` against `workload`; see the table in the module documentation.
pub fn check(workload: &Workload, spec: &NodeSpec) -> Vec<Requirement> {
    let (vram_req, pooling_req) = vram(workload, spec);
    let mut out = vec![vram_req];
    let (count, nodes) = gpu_count(workload, spec);
    out.push(count);
    if nodes.is_some_and(|n| n > 1) {
        out.push(network(spec));
        out.push(rdma(spec));
    }
    out.push(disk(workload, spec));
    if workload.kind.prefers_exclusive() {
        out.push(exclusive(workload, spec));
    }
    let in_node = workload.gpus_needed.min(spec.gpus_per_node);
    if in_node > 1 {
        out.push(interconnect(in_node, spec));
    }
    out.extend(pooling_req);
    out
}

/// The VRAM requirement and, when the need exceeds one GPU or slice, the memory-pooling one.
fn vram(w: &Workload, spec: &NodeSpec) -> (Requirement, Option<Requirement>) {
    let need = vram::required(w.vram_peak_gib, w.headroom_pct);
    let Some((usable, source)) = spec.effective_vram() else {
        let mut r = unknown(RequirementKind::Vram, Figure::Gib(need), Unstated::SliceVram);
        if !w.vram_peak_measured {
            r.notes.push(Note::PeakNotMeasured);
        }
        return (r, None);
    };
    let one = vram::assess(w.vram_peak_gib, w.headroom_pct, usable);
    let mut r = req(
        RequirementKind::Vram,
        RequirementStatus::Pass,
        Figure::Gib(need),
        Some(Figure::Gib(usable)),
    );
    let mut pooling = None;
    if !one.fits {
        let total = usable.saturating_mul(Decimal::from(spec.gpus_per_node));
        let sum_fits = spec.gpus_per_node > 1 && vram::assess(w.vram_peak_gib, w.headroom_pct, total).fits;
        r.status = match (spec.memory_pooling, sum_fits) {
            (Some(true), true) => {
                r.notes.push(Note::PooledAcrossGpus);
                RequirementStatus::Pass
            }
            (None, true) => {
                r.notes.push(Note::FitsOnlyIfPooled);
                RequirementStatus::Unknown
            }
            _ => RequirementStatus::Fail,
        };
        // Pooling cannot apply to a node of one GPU: there is nothing to pool with, so it is
        // no requirement there (the VRAM requirement above already says the need does not fit).
        pooling = (spec.gpus_per_node > 1).then(|| memory_pooling(spec.memory_pooling, sum_fits));
    }
    match source {
        VramSource::Stated => {}
        VramSource::Nominal => r.notes.push(Note::UsableVramNotStated),
        VramSource::MigProfile => {
            if let Sharing::Mig { profile } = &spec.sharing {
                r.notes.push(Note::VramFromMigProfile {
                    profile: profile.clone(),
                });
            }
        }
        VramSource::Share => {
            if let Sharing::Fractional { share } = &spec.sharing {
                r.notes.push(Note::VramFromShare { share: *share });
            }
        }
    }
    if !w.vram_peak_measured {
        r.notes.push(Note::PeakNotMeasured);
    }
    (r, pooling)
}

fn memory_pooling(pooled: Option<bool>, sum_fits: bool) -> Requirement {
    let required = Figure::Flag(true);
    match pooled {
        None if sum_fits => unknown(RequirementKind::MemoryPooling, required, Unstated::MemoryPooling),
        None => req(RequirementKind::MemoryPooling, RequirementStatus::Fail, required, None),
        Some(p) => req(
            RequirementKind::MemoryPooling,
            pass_if(p && sum_fits),
            required,
            Some(Figure::Flag(p)),
        ),
    }
}

/// The GPU-count requirement and the number of nodes needed (if known).
fn gpu_count(w: &Workload, spec: &NodeSpec) -> (Requirement, Option<u32>) {
    let required = Figure::Gpus(w.gpus_needed);
    if spec.gpus_per_node == 0 {
        return (
            unknown(RequirementKind::GpuCount, required, Unstated::GpusPerNode),
            None,
        );
    }
    let nodes = w.gpus_needed.div_ceil(spec.gpus_per_node).max(1);
    let offered = Some(Figure::Gpus(spec.gpus_per_node));
    let mut r = req(RequirementKind::GpuCount, RequirementStatus::Pass, required, offered);
    if nodes > 1 {
        r.notes.push(Note::NeedsNodes { nodes });
    }
    (r, Some(nodes))
}

fn network(spec: &NodeSpec) -> Requirement {
    let Some(gbps) = spec.network_gbps else {
        return unknown(RequirementKind::Network, Figure::Flag(true), Unstated::NetworkBandwidth);
    };
    req(
        RequirementKind::Network,
        pass_if(gbps > Decimal::ZERO),
        Figure::Flag(true),
        Some(Figure::Gbps(gbps)),
    )
}

/// Checklist item `net.cross_node`: ask whether RDMA is offered before multi-node work. Without it cross-node
/// synchronisation is slower — a warning, not a failure; not stated is a question.
fn rdma(spec: &NodeSpec) -> Requirement {
    let required = Figure::Flag(true);
    match spec.rdma {
        None => unknown(RequirementKind::Rdma, required, Unstated::Rdma),
        Some(true) => req(
            RequirementKind::Rdma,
            RequirementStatus::Pass,
            required,
            Some(Figure::Flag(true)),
        ),
        Some(false) => {
            let mut r = req(
                RequirementKind::Rdma,
                RequirementStatus::Warning,
                required,
                Some(Figure::Flag(false)),
            );
            r.notes.push(Note::NoRdma);
            r
        }
    }
}

/// Checklist item `gpu.exclusivity`: a slice may serve low-concurrency inference; training and latency-sensitive
/// services are better suited to exclusive GPUs — a warning, never a failure (VRAM that does
/// not fit fails the VRAM requirement instead).
fn exclusive(w: &Workload, spec: &NodeSpec) -> Requirement {
    let required = Figure::Sharing(Sharing::Exclusive);
    let offered = Some(Figure::Sharing(spec.sharing.clone()));
    if !spec.sharing.is_sliced() {
        return req(RequirementKind::Exclusive, RequirementStatus::Pass, required, offered);
    }
    let low_concurrency_inference = w.kind == WorkloadKind::InferenceService && w.concurrency <= LOW_CONCURRENCY_MAX;
    let mut r = req(
        RequirementKind::Exclusive,
        RequirementStatus::Warning,
        required,
        offered,
    );
    if low_concurrency_inference {
        r.status = RequirementStatus::Pass;
        r.notes.push(Note::SliceForLowConcurrency {
            max: LOW_CONCURRENCY_MAX,
        });
    } else {
        r.notes.push(Note::BetterSuitedExclusive);
    }
    r
}

fn disk(w: &Workload, spec: &NodeSpec) -> Requirement {
    let need = w.data_gb.saturating_add(w.checkpoint_gb);
    let known = [spec.system_disk_gb, spec.data_disk_gb];
    let stated: Vec<Decimal> = known.iter().flatten().copied().collect();
    if stated.is_empty() {
        return unknown(RequirementKind::Disk, Figure::Gb(need), Unstated::DiskSizes);
    }
    let total = stated.iter().fold(Decimal::ZERO, |a, b| a.saturating_add(*b));
    let complete = stated.len() == known.len();
    let status = match (need <= total, complete) {
        (true, _) => RequirementStatus::Pass,
        (false, true) => RequirementStatus::Fail,
        (false, false) => RequirementStatus::Unknown,
    };
    let mut r = req(RequirementKind::Disk, status, Figure::Gb(need), Some(Figure::Gb(total)));
    if !complete {
        r.notes.push(Note::PartialDiskInfo);
    }
    if status == RequirementStatus::Unknown {
        r.notes.push(Note::AskVendor {
            about: Unstated::DiskSizes,
        });
    }
    r
}

fn interconnect(in_node: u32, spec: &NodeSpec) -> Requirement {
    let required = Figure::Gpus(in_node);
    let Some(link) = spec.interconnect else {
        return unknown(RequirementKind::Interconnect, required, Unstated::Interconnect);
    };
    let offered = Some(Figure::Interconnect(link));
    let mut r = req(
        RequirementKind::Interconnect,
        pass_if(link != Interconnect::None),
        required,
        offered,
    );
    if link == Interconnect::Pcie {
        r.notes.push(Note::PcieOnly);
    }
    r
}
