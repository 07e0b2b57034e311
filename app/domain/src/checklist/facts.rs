//! Facts the app may already know about an order, used to pre-fill answers.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::model::OrderKind;

/// GPU form factor as quoted: the quote's own type, so facts and quotes cannot drift apart.
pub use crate::quotes::FormFactor;

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
    /// No GPU-to-GPU link at all (e.g. GPUs in separate VMs).
    NoLink,
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

/// A kind of fee besides the GPU itself (checklist items `bill.all_items`, `bill.image_management_fees`).
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

/// The bus bandwidth an nccl-tests run measured, and the least the quoted link should give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredLink {
    /// The run.
    pub run_id: i64,
    /// Bus bandwidth at the largest sizes, GB/s, one decimal.
    pub bus_gbps: Decimal,
    /// The least the quoted link should give, GB/s, one decimal; `None` when the catalogue or
    /// the quote cannot say.
    pub least_gbps: Option<Decimal>,
}

/// What the app knows about an order. `None` means "not known", never "no".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefillFacts {
    /// Kind of work.
    pub workload: Option<OrderKind>,
    /// Whether more than one GPU is used.
    pub multi_gpu: Option<bool>,
    /// Quoted GPU model name.
    pub gpu_model: Option<String>,
    /// Quoted VRAM per GPU (per slice for sliced offers), MiB.
    pub quoted_vram_mib: Option<u64>,
    /// VRAM per GPU or slice the quote says the job may use (the stated usable VRAM, else
    /// the quoted VRAM), MiB.
    pub usable_vram_mib: Option<u64>,
    /// VRAM peak per GPU: the workload's, or the backing run's observed peak when higher, MiB.
    pub vram_peak_mib: Option<u64>,
    /// Headroom over the peak the workload asks for, percent (15–25, [`crate::vram`]).
    pub headroom_pct: Option<Decimal>,
    /// Quoted GPUs per node.
    pub quoted_gpu_count: Option<u32>,
    /// Quoted NVIDIA driver version.
    pub quoted_driver: Option<String>,
    /// Quoted CUDA version.
    pub quoted_cuda: Option<String>,
    /// GPU name the backing run observed.
    pub observed_gpu_name: Option<String>,
    /// GPUs per node the backing run observed.
    pub observed_gpu_count: Option<u32>,
    /// Memory of one GPU (or slice) the backing run observed, MiB.
    pub observed_vram_mib: Option<u64>,
    /// Driver version the backing run observed.
    pub observed_driver: Option<String>,
    /// CUDA version the backing run observed.
    pub observed_cuda: Option<String>,
    /// Whether the backing run observed MIG mode.
    pub observed_mig: Option<bool>,
    /// Quoted form factor.
    pub form_factor: Option<FormFactor>,
    /// Quoted exclusivity.
    pub exclusivity: Option<Exclusivity>,
    /// Quoted interconnect.
    pub interconnect: Option<Interconnect>,
    /// What an attached nccl-tests run of the chosen quote measured of the link, when one is
    /// attached: evidence for the interconnect item beyond what the quote says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_link: Option<MeasuredLink>,
    /// Quoted software image reference, e.g. `nvcr.io/nvidia/pytorch:24.05-py3`.
    pub software_image: Option<String>,
    /// Verdict of the backing run (the best attached run of the chosen quote).
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
    /// Usable VRAM per GPU or slice as the quote states it (not the nominal VRAM), MiB.
    #[serde(default)]
    pub stated_usable_vram_mib: Option<u64>,
    /// Whether the provider offers snapshots.
    #[serde(default)]
    pub snapshots_offered: Option<bool>,
    /// Whether the provider offers object storage.
    #[serde(default)]
    pub object_storage_offered: Option<bool>,
    /// Whether a commitment renews automatically.
    #[serde(default)]
    pub auto_renewal: Option<bool>,
    /// The early-release rule, in the vendor's words.
    #[serde(default)]
    pub early_release: Option<String>,
    /// The region where the node (and its data) is.
    #[serde(default)]
    pub region: Option<String>,
    /// The quoted disks, when the quote states a size of either.
    #[serde(default)]
    pub disks: Option<Disks>,
    /// What the workload keeps on disk: its data and checkpoints, GB.
    #[serde(default)]
    pub storage_need_gb: Option<Decimal>,
    /// The data the workload moves in, GB.
    #[serde(default)]
    pub data_gb: Option<Decimal>,
    /// The checkpoints it keeps, GB.
    #[serde(default)]
    pub checkpoint_gb: Option<Decimal>,
    /// The other fees the quote lists, in its words (`None`: it lists none).
    #[serde(default)]
    pub listed_fees: Option<Vec<ListedFee>>,
    /// Quoted internal (same-region) bandwidth, Gbit/s.
    #[serde(default)]
    pub internal_bandwidth_gbps: Option<Decimal>,
    /// Quoted public bandwidth, Mbit/s.
    #[serde(default)]
    pub public_bandwidth_mbps: Option<Decimal>,
    /// Whether the quote allows Docker.
    #[serde(default)]
    pub docker_allowed: Option<bool>,
    /// Whether the quote gives root SSH.
    #[serde(default)]
    pub root_ssh: Option<bool>,
    /// The billing step for running time, seconds.
    #[serde(default)]
    pub billing_step_s: Option<u32>,
    /// The vendor's lead time until the node is ready, hours.
    #[serde(default)]
    pub lead_time_hours: Option<Decimal>,
    /// Whom to call at the vendor, as the vendor's record names it.
    #[serde(default)]
    pub vendor_contact: Option<String>,
    /// Whether the vendor diagnoses and recovers faults (its support scope).
    #[serde(default)]
    pub vendor_fault_help: Option<bool>,
    /// The chosen quote in the order's cost comparison.
    #[serde(default)]
    pub compared: Option<ComparedChoice>,
    /// How busy the GPUs were over the backing run, mean percent, rounded down.
    #[serde(default)]
    pub gpu_util_pct: Option<u32>,
}

/// The system and data disks a quote states.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disks {
    /// System disk, GB (`None`: not stated).
    pub system_gb: Option<Decimal>,
    /// Its type, as quoted (may be empty).
    pub system_type: String,
    /// Data disk, GB (`None`: not stated).
    pub data_gb: Option<Decimal>,
    /// Its type, as quoted (may be empty).
    pub data_type: String,
}

impl Disks {
    /// Both disks together, GB.
    #[must_use]
    pub fn total_gb(&self) -> Decimal {
        self.system_gb.unwrap_or_default() + self.data_gb.unwrap_or_default()
    }
}

/// One fee the quote lists besides the node price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedFee {
    /// What it is for, in the vendor's words.
    pub label: String,
    /// Its amount as quoted.
    pub amount: Decimal,
}

/// Where the chosen quote stands in the order's cost comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparedChoice {
    /// Its place, 1 for the cheapest.
    pub rank: u32,
    /// Quotes ranked.
    pub of: u32,
    /// Its total cost, exact, in the compare currency.
    pub total: Decimal,
    /// The compare currency's code.
    pub currency: String,
    /// Above the workload's budget.
    pub over_budget: bool,
    /// Costed from a measured throughput (not estimated or typed by hand).
    pub measured: bool,
    /// Its time to finish, as the comparison shows it.
    pub time_to_finish: String,
    /// Quotes of the comparison costed from measured throughput.
    pub measured_quotes: u32,
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
    /// [`PrefillFacts::headroom_pct`].
    HeadroomPct,
    /// [`PrefillFacts::quoted_gpu_count`].
    QuotedGpuCount,
    /// [`PrefillFacts::quoted_driver`].
    QuotedDriver,
    /// [`PrefillFacts::quoted_cuda`].
    QuotedCuda,
    /// [`PrefillFacts::observed_gpu_name`].
    ObservedGpuName,
    /// [`PrefillFacts::observed_gpu_count`].
    ObservedGpuCount,
    /// [`PrefillFacts::observed_vram_mib`].
    ObservedVramMib,
    /// [`PrefillFacts::observed_driver`].
    ObservedDriver,
    /// [`PrefillFacts::observed_cuda`].
    ObservedCuda,
    /// [`PrefillFacts::observed_mig`].
    ObservedMig,
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
    /// [`PrefillFacts::stated_usable_vram_mib`].
    StatedUsableVramMib,
    /// [`PrefillFacts::snapshots_offered`].
    SnapshotsOffered,
    /// [`PrefillFacts::object_storage_offered`].
    ObjectStorageOffered,
    /// [`PrefillFacts::auto_renewal`].
    AutoRenewal,
    /// [`PrefillFacts::early_release`].
    EarlyRelease,
    /// [`PrefillFacts::region`].
    Region,
    /// [`PrefillFacts::disks`].
    Disks,
    /// [`PrefillFacts::storage_need_gb`].
    StorageNeedGb,
    /// [`PrefillFacts::data_gb`].
    DataGb,
    /// [`PrefillFacts::checkpoint_gb`].
    CheckpointGb,
    /// [`PrefillFacts::listed_fees`].
    ListedFees,
    /// [`PrefillFacts::internal_bandwidth_gbps`].
    InternalBandwidthGbps,
    /// [`PrefillFacts::public_bandwidth_mbps`].
    PublicBandwidthMbps,
    /// [`PrefillFacts::docker_allowed`].
    DockerAllowed,
    /// [`PrefillFacts::root_ssh`].
    RootSsh,
    /// [`PrefillFacts::billing_step_s`].
    BillingStepS,
    /// [`PrefillFacts::lead_time_hours`].
    LeadTimeHours,
    /// [`PrefillFacts::vendor_contact`].
    VendorContact,
    /// [`PrefillFacts::vendor_fault_help`].
    VendorFaultHelp,
    /// [`PrefillFacts::compared`].
    Compared,
    /// [`PrefillFacts::gpu_util_pct`].
    GpuUtilPct,
}
