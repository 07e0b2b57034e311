//! The node offered: GPUs, sharing, interconnect, CPU, disks, network and software image — what a
//! buyer must know before renting. `None` / empty text means “the vendor has not said”:
//! every yes/no fact is an `Option<bool>`, so “not stated” is never read as “no”.

use crate::tco::NodeShape;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The GPU's physical form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormFactor {
    /// A PCIe card.
    Pcie,
    /// An SXM module on an HGX/DGX board.
    Sxm,
    /// Anything else (OAM, consumer card in a custom chassis …).
    Other,
}

impl FormFactor {
    /// The catalogue's mount of this form factor; "other" (OAM, a custom chassis …) names none
    /// and is not compared.
    #[must_use]
    pub const fn mount(self) -> Option<crate::gpus::GpuMount> {
        use crate::gpus::GpuMount;
        match self {
            FormFactor::Pcie => Some(GpuMount::Pcie),
            FormFactor::Sxm => Some(GpuMount::Sxm),
            FormFactor::Other => None,
        }
    }
}

/// Whether the GPU is the buyer's alone or cut into slices (checklist item `gpu.exclusivity`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Sharing {
    /// Whole GPUs, not shared with other tenants.
    Exclusive,
    /// A Multi-Instance GPU slice with the given profile, e.g. `1g.10gb`.
    Mig {
        /// The MIG profile.
        profile: String,
    },
    /// A virtual GPU (time-sliced by a hypervisor).
    Vgpu,
    /// A fraction of one GPU, in `(0, 1)`.
    Fractional {
        /// The share of the GPU, e.g. `0.5`.
        #[serde(with = "rust_decimal::serde::str")]
        share: Decimal,
    },
}

impl Sharing {
    /// True for anything but [`Sharing::Exclusive`].
    pub const fn is_sliced(&self) -> bool {
        !matches!(self, Sharing::Exclusive)
    }
}

/// Where [`NodeSpec::effective_vram`] took its figure from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VramSource {
    /// The vendor's stated usable VRAM.
    Stated,
    /// The nominal VRAM of a whole GPU (usable VRAM not stated).
    Nominal,
    /// The memory named by the MIG profile (e.g. `1g.10gb` → 10 GiB).
    MigProfile,
    /// The fractional share of the parent GPU's memory.
    Share,
}

/// The memory a MIG profile names, GiB: `1g.10gb` → 10, `3g.40gb` → 40, `1g.10gb+me` → 10;
/// `None` when the profile names none. (NVIDIA's profile names round to whole GB; the GiB
/// reading is the one the vendor means.)
pub fn mig_profile_gib(profile: &str) -> Option<Decimal> {
    let (_, memory) = profile.trim().split_once('.')?;
    let lower = memory.to_ascii_lowercase();
    let digits = lower.split_once("gb")?.0;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    Decimal::from_str_exact(digits).ok().filter(|gib| *gib > Decimal::ZERO)
}

/// How the GPUs inside one node talk to each other (checklist item `gpu.multi_gpu_interconnect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interconnect {
    /// No GPU-to-GPU link (e.g. a single GPU, or GPUs in separate VMs).
    None,
    /// Through the host's PCIe bus only.
    Pcie,
    /// NVLink bridges between GPUs.
    Nvlink,
    /// An NVSwitch fabric (all-to-all NVLink).
    Nvswitch,
}

/// One node type as the vendor describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// The GPU model, free text (see [`super::gpu_model_suggestions`]).
    pub gpu_model: String,
    /// GPUs in one node, at least 1.
    pub gpus_per_node: u32,
    /// VRAM of one GPU as the vendor names it, GiB; for a sliced offer, the parent GPU's memory
    /// (the slice's own memory is [`NodeSpec::effective_vram`]).
    #[serde(with = "rust_decimal::serde::str")]
    pub vram_gib: Decimal,
    /// VRAM of one GPU (of one slice, for a sliced offer) actually usable, GiB, if the vendor
    /// states it (≤ `vram_gib`).
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub usable_vram_gib: Option<Decimal>,
    /// PCIe, SXM or other, if stated.
    #[serde(default)]
    pub form_factor: Option<FormFactor>,
    /// Exclusive or sliced.
    pub sharing: Sharing,
    /// The GPU-to-GPU link inside the node, if stated.
    #[serde(default)]
    pub interconnect: Option<Interconnect>,
    /// Cross-node network bandwidth, Gbit/s, if stated.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub network_gbps: Option<Decimal>,
    /// Whether cross-node RDMA (InfiniBand / RoCE) is offered; `None` if not stated.
    #[serde(default)]
    pub rdma: Option<bool>,
    /// Whether the GPUs' memory is pooled; `None` if not stated (never assumed either way).
    #[serde(default)]
    pub memory_pooling: Option<bool>,
    /// CPU model.
    #[serde(default)]
    pub cpu_model: String,
    /// vCPUs per node.
    #[serde(default)]
    pub vcpus: Option<u32>,
    /// Host memory per node, GiB.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub ram_gib: Option<Decimal>,
    /// System disk size, GB.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub system_disk_gb: Option<Decimal>,
    /// System disk type (e.g. `ESSD PL1`, `NVMe`).
    #[serde(default)]
    pub system_disk_type: String,
    /// Data disk size, GB.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub data_disk_gb: Option<Decimal>,
    /// Data disk type.
    #[serde(default)]
    pub data_disk_type: String,
    /// Whether the data disk survives releasing the instance.
    #[serde(default)]
    pub data_disk_survives_release: Option<bool>,
    /// Whether the temporary disk is wiped when the node is released.
    #[serde(default)]
    pub temp_disk_wiped: Option<bool>,
    /// Public bandwidth, Mbit/s.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub public_bandwidth_mbps: Option<Decimal>,
    /// Internal (same-region) bandwidth, Gbit/s.
    #[serde(default, with = "rust_decimal::serde::str_option")]
    pub internal_bandwidth_gbps: Option<Decimal>,
    /// Region or data centre.
    #[serde(default)]
    pub region: String,
    /// Operating system image.
    #[serde(default)]
    pub os: String,
    /// NVIDIA driver version.
    #[serde(default)]
    pub nvidia_driver: String,
    /// CUDA version.
    #[serde(default)]
    pub cuda: String,
    /// cuDNN version.
    #[serde(default)]
    pub cudnn: String,
    /// Whether Docker may be used.
    #[serde(default)]
    pub docker_allowed: Option<bool>,
    /// Whether root SSH access is given.
    #[serde(default)]
    pub root_ssh: Option<bool>,
    /// ROCm version, for AMD GPUs.
    #[serde(default)]
    pub rocm: Option<String>,
    /// Whether disk snapshots are offered.
    #[serde(default)]
    pub snapshots: Option<bool>,
    /// Whether object storage is offered.
    #[serde(default)]
    pub object_storage: Option<bool>,
}

impl NodeSpec {
    /// The shape the cost model needs. A disk size that is not stated counts as 0 GB (no disk
    /// cost); [`super::check`] reports the disk requirement as unknown instead.
    pub fn shape(&self) -> NodeShape {
        NodeShape {
            gpus_per_node: self.gpus_per_node,
            system_disk_gb: self.system_disk_gb.unwrap_or(Decimal::ZERO),
            data_disk_gb: self.data_disk_gb.unwrap_or(Decimal::ZERO),
        }
    }

    /// VRAM one worker may use on one GPU or slice, GiB, and where the figure comes from;
    /// `None` when the offer does not say (a vGPU, or a MIG profile that names no memory,
    /// without a stated usable VRAM). Never the parent GPU's memory for a slice:
    ///
    /// | Offer | Usable VRAM |
    /// |---|---|
    /// | usable VRAM stated | that figure |
    /// | exclusive | `vram_gib` (nominal) |
    /// | MIG `<n>g.<m>gb` | min(m, `vram_gib`): `1g.10gb` on an 80 GiB A100 → 10 |
    /// | fractional share `s` | `vram_gib` × s: 0.5 of 80 GiB → 40 |
    /// | vGPU | not stated |
    pub fn effective_vram(&self) -> Option<(Decimal, VramSource)> {
        if let Some(usable) = self.usable_vram_gib {
            return Some((usable, VramSource::Stated));
        }
        match &self.sharing {
            Sharing::Exclusive => Some((self.vram_gib, VramSource::Nominal)),
            Sharing::Mig { profile } => {
                mig_profile_gib(profile).map(|gib| (gib.min(self.vram_gib), VramSource::MigProfile))
            }
            Sharing::Fractional { share } => self.vram_gib.checked_mul(*share).map(|gib| (gib, VramSource::Share)),
            Sharing::Vgpu => None,
        }
    }

    /// The figure of [`NodeSpec::effective_vram`]: usable VRAM of one GPU or slice, GiB.
    pub fn effective_vram_gib(&self) -> Option<Decimal> {
        self.effective_vram().map(|(gib, _)| gib)
    }

    /// A spec with the required facts and everything else unstated.
    pub fn new(gpu_model: &str, gpus_per_node: u32, vram_gib: Decimal, sharing: Sharing) -> Self {
        NodeSpec {
            gpu_model: gpu_model.to_owned(),
            gpus_per_node,
            vram_gib,
            usable_vram_gib: None,
            form_factor: None,
            sharing,
            interconnect: None,
            network_gbps: None,
            rdma: None,
            memory_pooling: None,
            cpu_model: String::new(),
            vcpus: None,
            ram_gib: None,
            system_disk_gb: None,
            system_disk_type: String::new(),
            data_disk_gb: None,
            data_disk_type: String::new(),
            data_disk_survives_release: None,
            temp_disk_wiped: None,
            public_bandwidth_mbps: None,
            internal_bandwidth_gbps: None,
            region: String::new(),
            os: String::new(),
            nvidia_driver: String::new(),
            cuda: String::new(),
            cudnn: String::new(),
            docker_allowed: None,
            root_ssh: None,
            rocm: None,
            snapshots: None,
            object_storage: None,
        }
    }
}
