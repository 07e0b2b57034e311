//! Does a node fit a workload? (seed 002 “第一步：确认显存下限”, seed 001 §1–§2, seed 000 §4.)
//!
//! Each requirement is Pass, Fail or Unknown; a fact the vendor has not stated gives Unknown,
//! never a guess. Requirements that do not apply are left out of the list.

use super::spec::{Interconnect, NodeSpec, Sharing};
use super::workload::Workload;
use rust_decimal::Decimal;
use serde::Serialize;

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
    /// The VRAM need exceeds one GPU: only pooled memory adds up (seed 001 §1).
    MemoryPooling,
}

/// The outcome of one requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The node meets it.
    Pass,
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
    /// Usable VRAM is not stated; the nominal VRAM was compared.
    UsableVramNotStated,
    /// The VRAM peak was estimated, not measured (seed 002: measure it in a real run).
    PeakNotMeasured,
    /// The need fits only because the node pools GPU memory.
    PooledAcrossGpus,
    /// GPUs talk over PCIe only: slower for gradient exchange.
    PcieOnly,
    /// No RDMA between nodes.
    NoRdma,
    /// Only one of the two disk sizes is stated.
    PartialDiskInfo,
}

/// One checked requirement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// What is checked.
    pub kind: RequirementKind,
    /// The outcome.
    pub status: Status,
    /// What the workload needs.
    pub required: Option<Figure>,
    /// What the node offers; `None` when the vendor has not stated it.
    pub offered: Option<Figure>,
    /// Explanations.
    pub notes: Vec<Note>,
}

fn req(
    kind: RequirementKind,
    status: Status,
    required: Figure,
    offered: Option<Figure>,
) -> Requirement {
    Requirement {
        kind,
        status,
        required: Some(required),
        offered,
        notes: Vec::new(),
    }
}

fn pass_if(ok: bool) -> Status {
    if ok { Status::Pass } else { Status::Fail }
}

/// Checks `spec` against `workload`; see [`RequirementKind`] for which checks apply when.
pub fn check(workload: &Workload, spec: &NodeSpec) -> Vec<Requirement> {
    let mut out = vec![vram(workload, spec)];
    let (count, nodes) = gpu_count(workload, spec);
    out.push(count);
    if nodes.is_some_and(|n| n > 1) {
        out.push(network(spec));
    }
    out.push(disk(workload, spec));
    if workload.kind.needs_exclusive() {
        let ok = !spec.sharing.is_sliced();
        let required = Figure::Sharing(Sharing::Exclusive);
        let offered = Some(Figure::Sharing(spec.sharing.clone()));
        out.push(req(
            RequirementKind::Exclusive,
            pass_if(ok),
            required,
            offered,
        ));
    }
    let in_node = workload.gpus_needed.min(spec.gpus_per_node);
    if in_node > 1 {
        out.push(interconnect(in_node, spec));
    }
    if workload.required_vram_gib() > spec.effective_vram_gib() {
        out.push(pooling(workload, spec));
    }
    out
}

fn vram(w: &Workload, spec: &NodeSpec) -> Requirement {
    let need = w.required_vram_gib();
    let per_gpu = spec.effective_vram_gib();
    let pooled =
        spec.memory_pooling && need <= per_gpu.saturating_mul(Decimal::from(spec.gpus_per_node));
    let mut r = req(
        RequirementKind::Vram,
        pass_if(need <= per_gpu || pooled),
        Figure::Gib(need),
        Some(Figure::Gib(per_gpu)),
    );
    if need > per_gpu && pooled {
        r.notes.push(Note::PooledAcrossGpus);
    }
    if spec.usable_vram_gib.is_none() {
        r.notes.push(Note::UsableVramNotStated);
    }
    if !w.vram_peak_measured {
        r.notes.push(Note::PeakNotMeasured);
    }
    r
}

/// The GPU-count requirement and the number of nodes needed (if known).
fn gpu_count(w: &Workload, spec: &NodeSpec) -> (Requirement, Option<u32>) {
    let required = Figure::Gpus(w.gpus_needed);
    if spec.gpus_per_node == 0 {
        return (
            req(RequirementKind::GpuCount, Status::Unknown, required, None),
            None,
        );
    }
    let nodes = w.gpus_needed.div_ceil(spec.gpus_per_node).max(1);
    let offered = Some(Figure::Gpus(spec.gpus_per_node));
    let mut r = req(RequirementKind::GpuCount, Status::Pass, required, offered);
    if nodes > 1 {
        r.notes.push(Note::NeedsNodes { nodes });
    }
    (r, Some(nodes))
}

fn network(spec: &NodeSpec) -> Requirement {
    let Some(gbps) = spec.network_gbps else {
        return req(
            RequirementKind::Network,
            Status::Unknown,
            Figure::Flag(true),
            None,
        );
    };
    let offered = Some(Figure::Gbps(gbps));
    let mut r = req(
        RequirementKind::Network,
        pass_if(gbps > Decimal::ZERO),
        Figure::Flag(true),
        offered,
    );
    if !spec.rdma {
        r.notes.push(Note::NoRdma);
    }
    r
}

fn disk(w: &Workload, spec: &NodeSpec) -> Requirement {
    let need = w.data_gb.saturating_add(w.checkpoint_gb);
    let known = [spec.system_disk_gb, spec.data_disk_gb];
    let stated: Vec<Decimal> = known.iter().flatten().copied().collect();
    if stated.is_empty() {
        return req(
            RequirementKind::Disk,
            Status::Unknown,
            Figure::Gb(need),
            None,
        );
    }
    let total = stated
        .iter()
        .fold(Decimal::ZERO, |a, b| a.saturating_add(*b));
    let complete = stated.len() == known.len();
    let status = match (need <= total, complete) {
        (true, _) => Status::Pass,
        (false, true) => Status::Fail,
        (false, false) => Status::Unknown,
    };
    let mut r = req(
        RequirementKind::Disk,
        status,
        Figure::Gb(need),
        Some(Figure::Gb(total)),
    );
    if !complete {
        r.notes.push(Note::PartialDiskInfo);
    }
    r
}

fn interconnect(in_node: u32, spec: &NodeSpec) -> Requirement {
    let required = Figure::Gpus(in_node);
    let Some(link) = spec.interconnect else {
        return req(
            RequirementKind::Interconnect,
            Status::Unknown,
            required,
            None,
        );
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

fn pooling(w: &Workload, spec: &NodeSpec) -> Requirement {
    let total = spec
        .effective_vram_gib()
        .saturating_mul(Decimal::from(spec.gpus_per_node));
    let ok = spec.memory_pooling && w.required_vram_gib() <= total;
    let offered = Some(Figure::Flag(spec.memory_pooling));
    req(
        RequirementKind::MemoryPooling,
        pass_if(ok),
        Figure::Flag(true),
        offered,
    )
}
