//! Facts the app may already know about an order, used to pre-fill answers.

use serde::{Deserialize, Serialize};

use super::model::WorkloadKind;

/// GPU form factor as quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormFactor {
    /// PCIe card.
    Pcie,
    /// SXM module.
    Sxm,
    /// Something else, named in the quote.
    Other,
}

/// Whether the GPU is exclusive or shared, as quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exclusivity {
    /// Whole GPU, not shared.
    Exclusive,
    /// NVIDIA Multi-Instance GPU slice.
    Mig,
    /// Virtual GPU.
    Vgpu,
    /// Another kind of sharing (time slicing, …).
    OtherSliced,
}

impl Exclusivity {
    /// Whether the GPU is shared in any way.
    #[must_use]
    pub fn is_sliced(self) -> bool {
        self != Exclusivity::Exclusive
    }
}

/// GPU interconnect inside a node, as quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interconnect {
    /// NVLink / NVSwitch.
    NvLink,
    /// PCIe only.
    Pcie,
    /// Something else, named in the quote.
    Other,
}

/// Outcome of a recorded run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunVerdict {
    /// The run did what it should.
    Pass,
    /// The run failed.
    Fail,
    /// The run neither clearly passed nor failed.
    Inconclusive,
}

/// A kind of fee besides the GPU itself (seed 000 §5, seed 001 §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeeKind {
    /// CPU.
    Cpu,
    /// Memory.
    Memory,
    /// Disks.
    Disk,
    /// Public IP address.
    Ip,
    /// Network traffic.
    Traffic,
    /// Snapshots.
    Snapshot,
    /// Other storage (object storage, images).
    Storage,
}

impl FeeKind {
    /// Every fee kind a quote should state.
    pub const ALL: [FeeKind; 7] = [
        FeeKind::Cpu,
        FeeKind::Memory,
        FeeKind::Disk,
        FeeKind::Ip,
        FeeKind::Traffic,
        FeeKind::Snapshot,
        FeeKind::Storage,
    ];
}

/// How traffic is priced in the quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EgressPricing {
    /// Included in the price.
    Included,
    /// Billed per unit of traffic.
    Metered,
    /// The quote was checked and does not say.
    NotStated,
}

/// What the app knows about an order. `None` means "not known", never "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefillFacts {
    /// Kind of work.
    pub workload: Option<WorkloadKind>,
    /// Whether more than one GPU is used.
    pub multi_gpu: Option<bool>,
    /// Quoted GPU model name.
    pub gpu_model: Option<String>,
    /// Quoted VRAM per GPU, MiB.
    pub quoted_vram_mib: Option<u64>,
    /// VRAM per GPU observed as usable in a run, MiB.
    pub usable_vram_mib: Option<u64>,
    /// Measured VRAM peak of the workload per GPU, MiB.
    pub vram_peak_mib: Option<u64>,
    /// Quoted form factor.
    pub form_factor: Option<FormFactor>,
    /// Quoted exclusivity.
    pub exclusivity: Option<Exclusivity>,
    /// Quoted interconnect.
    pub interconnect: Option<Interconnect>,
    /// Quoted software image reference, e.g. `nvcr.io/nvidia/pytorch:24.05-py3`.
    pub software_image: Option<String>,
    /// Verdict of the latest relevant run.
    pub run_verdict: Option<RunVerdict>,
    /// Length of that run in whole minutes, warm-up excluded.
    pub run_minutes: Option<u32>,
    /// Whether that run saw clock throttling.
    pub throttling_observed: Option<bool>,
    /// Whether a stopped (shut down, not released) node still bills compute.
    pub stopped_bills_compute: Option<bool>,
    /// Whether a stopped node still bills its disks.
    pub stopped_bills_disk: Option<bool>,
    /// Minimum billed duration in hours; `Some(0)` means none.
    pub min_duration_hours: Option<u32>,
    /// Fee kinds the quote states (priced or explicitly included).
    pub fees_stated: Option<Vec<FeeKind>>,
    /// Whether the temporary disk is wiped at release.
    pub temp_disk_wiped_on_release: Option<bool>,
    /// Whether the data disk outlives the instance.
    pub data_disk_survives_release: Option<bool>,
    /// How traffic is priced.
    pub egress: Option<EgressPricing>,
}

/// The name of one field of [`PrefillFacts`]; serialized as that field's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fact {
    /// [`PrefillFacts::workload`].
    Workload,
    /// [`PrefillFacts::multi_gpu`].
    MultiGpu,
    /// [`PrefillFacts::gpu_model`].
    GpuModel,
    /// [`PrefillFacts::quoted_vram_mib`].
    QuotedVramMib,
    /// [`PrefillFacts::usable_vram_mib`].
    UsableVramMib,
    /// [`PrefillFacts::vram_peak_mib`].
    VramPeakMib,
    /// [`PrefillFacts::form_factor`].
    FormFactor,
    /// [`PrefillFacts::exclusivity`].
    Exclusivity,
    /// [`PrefillFacts::interconnect`].
    Interconnect,
    /// [`PrefillFacts::software_image`].
    SoftwareImage,
    /// [`PrefillFacts::run_verdict`].
    RunVerdict,
    /// [`PrefillFacts::run_minutes`].
    RunMinutes,
    /// [`PrefillFacts::throttling_observed`].
    ThrottlingObserved,
    /// [`PrefillFacts::stopped_bills_compute`].
    StoppedBillsCompute,
    /// [`PrefillFacts::stopped_bills_disk`].
    StoppedBillsDisk,
    /// [`PrefillFacts::min_duration_hours`].
    MinDurationHours,
    /// [`PrefillFacts::fees_stated`].
    FeesStated,
    /// [`PrefillFacts::temp_disk_wiped_on_release`].
    TempDiskWipedOnRelease,
    /// [`PrefillFacts::data_disk_survives_release`].
    DataDiskSurvivesRelease,
    /// [`PrefillFacts::egress`].
    Egress,
}
