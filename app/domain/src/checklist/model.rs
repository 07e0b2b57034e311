//! Types that describe the static checklist table (sections, items, citations).

use serde::{Deserialize, Serialize};

/// One of the six checklist sections, in the order the checklist shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// §1 GPU model and VRAM.
    Gpu,
    /// §2 Software environment.
    Software,
    /// §3 Measured performance.
    Performance,
    /// §4 Storage, network and data transfer.
    StorageNetwork,
    /// §5 Billing and release rules.
    Billing,
    /// §6 Security, permissions and failure handling.
    Security,
}

impl Section {
    /// All sections in display order.
    pub const ALL: [Section; 6] = [
        Section::Gpu,
        Section::Software,
        Section::Performance,
        Section::StorageNetwork,
        Section::Billing,
        Section::Security,
    ];

    /// The section number, 1 to 6.
    #[must_use]
    pub const fn number(self) -> u8 {
        match self {
            Section::Gpu => 1,
            Section::Software => 2,
            Section::Performance => 3,
            Section::StorageNetwork => 4,
            Section::Billing => 5,
            Section::Security => 6,
        }
    }
}

/// A short text in English and Simplified Chinese.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

/// Where an item comes from: a seed document and a part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cite {
    /// Seed document number: 0, 1 or 2 (files `000_*`, `001_*`, `002_*`).
    pub seed: u8,
    /// Part of that document, e.g. `"§1"`, `"checklist"`, `"step 1"`, `"FAQ"`.
    pub part: &'static str,
}

impl Cite {
    /// A citation of `part` in seed document `seed`.
    #[must_use]
    pub const fn new(seed: u8, part: &'static str) -> Self {
        Self { seed, part }
    }
}

/// The kind of work an order is for, as the checklist groups it (a workload's finer
/// `quotes::WorkloadKind` maps onto it); it picks which items apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderKind {
    /// Model training or fine-tuning.
    Training,
    /// Inference, online or offline.
    Inference,
    /// Batch jobs: video, image processing, scientific computing, simulation.
    Batch,
}

/// Which orders an item applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    /// Every order.
    All,
    /// Training orders.
    Training,
    /// Inference orders.
    Inference,
    /// Batch orders.
    Batch,
    /// Orders that use more than one GPU.
    MultiGpu,
}

impl AppliesTo {
    /// Whether an order of `kind`, multi-GPU or not, is covered.
    #[must_use]
    pub fn covers(self, kind: OrderKind, multi_gpu: bool) -> bool {
        match self {
            AppliesTo::All => true,
            AppliesTo::Training => kind == OrderKind::Training,
            AppliesTo::Inference => kind == OrderKind::Inference,
            AppliesTo::Batch => kind == OrderKind::Batch,
            AppliesTo::MultiGpu => multi_gpu,
        }
    }
}

/// Who is expected to answer an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expert {
    /// The engineer who runs the workload.
    Engineer,
    /// The person who negotiates the quote and contract.
    Procurement,
}

/// Which app data can pre-fill an item (see [`super::prefill()`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefillSource {
    /// Quoted GPU model and VRAM per GPU.
    GpuModel,
    /// Quoted form factor (PCIe, SXM).
    FormFactor,
    /// Quoted exclusivity (exclusive, MIG, vGPU).
    Exclusivity,
    /// Headroom of usable VRAM over the measured peak.
    VramHeadroom,
    /// Quoted GPU interconnect.
    Interconnect,
    /// Quoted software image tag.
    SoftwareImage,
    /// Verdict of a test run, used as a smoke test.
    SmokeRun,
    /// Verdict and length of a benchmark run.
    BenchmarkRun,
    /// Whether throttling was observed in a run.
    Throttling,
    /// Quoted VRAM against VRAM observed in a run.
    QuoteVsObserved,
    /// What keeps billing while a node is stopped.
    StoppedBilling,
    /// Minimum billed duration.
    MinimumDuration,
    /// Which fee kinds the quote states.
    OtherFees,
    /// What happens to disks at release.
    DiskRelease,
    /// How traffic is priced.
    EgressPricing,
    /// Whether the VRAM peak is near the limit (then look for leaks and needless copies).
    PeakNearLimit,
    /// The usable VRAM per GPU the quote states.
    UsableVram,
    /// Whether snapshots or object storage are offered.
    Snapshots,
    /// Whether a commitment renews automatically.
    AutoRenewal,
    /// The early-release rule.
    EarlyRelease,
    /// The region of the node.
    DataRegion,
    /// The quoted system and data disks, against the workload's data and checkpoints.
    Disks,
    /// The other fees the quote lists (images, management, …).
    ListedFees,
    /// The quoted internal network.
    PrivateNetwork,
    /// The quoted public and internal bandwidth.
    Bandwidth,
    /// The quoted driver and CUDA versions.
    StackVersions,
    /// Whether the quote allows Docker and root SSH.
    Access,
    /// The billing step and the vendor's lead time.
    StartupTime,
    /// The vendor's support contact.
    SupportContact,
    /// Whether the vendor diagnoses and recovers faults.
    FaultHandling,
    /// Whether the vendor wipes the temporary disk at release.
    Cleanup,
    /// Whether the data disk outlives its node (and so can be attached to another).
    DiskMigration,
    /// The chosen quote's place in the order's cost comparison.
    CostChoice,
    /// The chosen quote's total cost in the comparison.
    TotalCost,
    /// A valid run of the chosen quote, as the trial rental.
    TrialRun,
    /// A valid run of the chosen quote recorded its throughput and VRAM peak.
    RunMetrics,
    /// The measured time to finish in the comparison.
    TotalTime,
    /// Several quotes of the comparison measured by valid runs.
    TwoSpecs,
    /// Where the temporary directory can be: the quoted data disk (shown only).
    TempDirectory,
    /// Where checkpoints can be kept: the data disk, snapshots (shown only).
    CheckpointStorage,
    /// How long moving the workload's data takes at the quoted public bandwidth (shown only).
    TransferTime,
    /// How busy the GPUs were over the valid run: busy GPUs were not held back by CPU, disk or
    /// network.
    Bottleneck,
    /// A pinned image or snapshots, to rebuild a node from a known state.
    CleanSystemDisk,
}

impl PrefillSource {
    /// Whether this source's suggestion is only shown, never accepted: the data tells part of
    /// the answer (where, how long) and the item still asks what only a person can check
    /// (a restore tested, small files packed, a transfer run, the vendor's fault process).
    #[must_use]
    pub const fn only_shown(self) -> bool {
        matches!(
            self,
            Self::TempDirectory | Self::CheckpointStorage | Self::TransferTime | Self::FaultHandling
        )
    }
}

/// A kind of evidence an item can ask for before it may be confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A recorded run.
    Run,
    /// A field of the chosen quote revision.
    QuoteField,
    /// A document of the chosen quote revision.
    Document,
    /// The order's cost comparison.
    CostComparison,
    /// A note with text (a blank note is no evidence).
    Note,
}

/// One checklist item. The full table is [`super::ITEMS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Item {
    /// Stable id, `"<area>.<name>"`; stored with answers, never reused.
    pub id: &'static str,
    /// Section the item belongs to.
    pub section: Section,
    /// Whether an applicable item must be settled before submission.
    pub required: bool,
    /// Which orders the item applies to.
    pub applies_to: AppliesTo,
    /// Who is expected to answer.
    pub expert: Expert,
    /// App data that can pre-fill the answer, if any.
    pub prefill: Option<PrefillSource>,
    /// Evidence a "confirmed" answer must carry, any one of these kinds; empty when the item
    /// asks for none. A confirmed answer without it blocks submission.
    pub evidence: &'static [EvidenceKind],
    /// What to check.
    pub text: Text,
    /// Why it matters.
    pub why: Text,
    /// Where in the seeds it comes from (at least one).
    pub cites: &'static [Cite],
}

impl Item {
    /// Whether this item applies to an order of `kind`, multi-GPU or not.
    #[must_use]
    pub fn applies(&self, kind: OrderKind, multi_gpu: bool) -> bool {
        self.applies_to.covers(kind, multi_gpu)
    }
}

/// Title of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SectionInfo {
    pub section: Section,
    pub title: Text,
}
