//! Result types of [`super::prefill()`]: codes, not prose; the UI translates them.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::facts::{EgressPricing, Exclusivity, Fact, FeeKind, FormFactor, Interconnect, ListedFee};

/// Status a pre-fill suggests; the user still decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Suggested {
    /// Known facts leave something to ask.
    Open,
    /// Known facts support confirming.
    Confirmed,
    /// Known facts show the item does not apply; the code is the reason.
    NotApplicable,
    /// Known facts show a problem.
    Problem,
}

/// What the known facts say, as a code with its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum AnswerCode {
    /// Quoted model and VRAM per GPU.
    GpuQuoted {
        /// The GPU model as quoted.
        model: String,
        /// VRAM per GPU, MiB.
        vram_mib: u64,
    },
    /// Quoted form factor.
    FormFactor {
        /// The form factor.
        form_factor: FormFactor,
    },
    /// The backing run's GPU is mounted otherwise than quoted (the catalogue's mount of its
    /// name).
    FormFactorNotSeen {
        /// The form factor quoted.
        form_factor: FormFactor,
        /// The mount of the GPU seen: `PCIe`, `SXM`, `NVL`.
        observed: String,
        /// The GPU's name as the run saw it.
        gpu: String,
    },
    /// Quoted exclusivity, fine for this workload.
    Exclusivity { exclusivity: Exclusivity },
    /// A sliced GPU for training (checklist item `gpu.exclusivity`: training wants exclusive GPUs).
    SlicedForTraining {
        /// The kind of slicing.
        exclusivity: Exclusivity,
    },
    /// Usable VRAM covers the peak plus the workload's headroom, and the headroom is at most
    /// 25 %.
    HeadroomWithinRange {
        /// Headroom over the peak, whole percent rounded down.
        pct: i64,
    },
    /// Usable VRAM is short of the peak plus the workload's headroom (negative `pct` when the
    /// peak exceeds usable VRAM).
    HeadroomBelowRange {
        /// Headroom over the peak, whole percent rounded down.
        pct: i64,
        /// The workload's headroom, percent.
        wanted_pct: Decimal,
        /// Peak × (1 + headroom), MiB.
        required_mib: Decimal,
    },
    /// Headroom above 25 %: fits, possibly oversized.
    HeadroomAboveRange {
        /// Headroom over the peak, whole percent rounded down.
        pct: i64,
    },
    /// The peak is near the limit (the headroom rule fails): look for leaks and copies.
    PeakNearLimit {
        /// Headroom over the peak, whole percent rounded down.
        pct: i64,
    },
    /// The peak leaves the workload's headroom: no need to hunt for leaks.
    PeakNotNearLimit {
        /// Headroom over the peak, whole percent rounded down.
        pct: i64,
    },
    /// Quoted interconnect.
    Interconnect { interconnect: Interconnect },
    /// Quoted interconnect, and an nccl-tests run measured at least what it should give (or
    /// what it measured, when nothing says what it should give).
    InterconnectMeasured {
        interconnect: Interconnect,
        /// The nccl-tests run.
        run_id: i64,
        /// Its bus bandwidth, GB/s.
        bus_gbps: Decimal,
        /// The least the quoted link should give, GB/s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        least_gbps: Option<Decimal>,
    },
    /// An nccl-tests run measured less than the quoted link should give.
    InterconnectBelowQuote {
        interconnect: Interconnect,
        /// The nccl-tests run.
        run_id: i64,
        /// Its bus bandwidth, GB/s.
        bus_gbps: Decimal,
        /// The least the quoted link should give, GB/s.
        least_gbps: Decimal,
    },
    /// The order uses a single GPU.
    SingleGpu,
    /// Several GPUs with no link between them.
    NoGpuLink,
    /// The image reference is pinned (tag other than `latest`, or digest).
    ImagePinned {
        /// The image reference.
        image: String,
    },
    /// The image reference is vague (no tag, `latest`, or prose).
    ImageVague {
        /// The image reference as given.
        image: String,
    },
    /// The run passed.
    RunPassed,
    /// The run failed.
    RunFailed,
    /// The run was inconclusive.
    RunInconclusive,
    /// A passing benchmark of at least 10 minutes.
    BenchmarkPassed {
        /// Its length in minutes.
        minutes: u32,
    },
    /// A passing benchmark shorter than 10 minutes.
    BenchmarkTooShort {
        /// Its length in minutes.
        minutes: u32,
    },
    /// No throttling observed.
    NoThrottling,
    /// Throttling observed.
    ThrottlingObserved,
    /// What the run observed matches the quote (model, count, VRAM, slicing; driver and CUDA
    /// where both are known).
    ObservedMatchesQuote {
        /// Usable VRAM per GPU as quoted, MiB.
        quoted_mib: u64,
        /// VRAM per GPU the run observed, MiB.
        observed_mib: u64,
    },
    /// What the run observed differs from the quote.
    ObservedDiffers {
        /// The differences, in a fixed order (model, count, VRAM, MIG, driver, CUDA).
        mismatches: Vec<Mismatch>,
    },
    /// What a stopped node keeps billing.
    StoppedBilling {
        /// Compute still billed.
        compute: bool,
        /// Disks still billed.
        disk: bool,
    },
    /// No minimum duration.
    NoMinimumDuration,
    /// A minimum duration applies.
    MinimumDurationHours {
        /// The minimum, whole hours.
        hours: u32,
    },
    /// The quote states every fee kind.
    AllFeesStated,
    /// The quote leaves these fee kinds unstated.
    FeesNotStated {
        /// Unstated kinds, in [`FeeKind::ALL`] order.
        missing: Vec<FeeKind>,
    },
    /// What release does to disks.
    DiskRelease {
        /// Temporary disk wiped.
        temp_wiped: bool,
        /// Data disk outlives the instance.
        data_survives: bool,
    },
    /// How traffic is priced.
    Egress {
        /// Included or metered.
        pricing: EgressPricing,
    },
    /// The quote does not say how traffic is priced.
    EgressNotStated,
    /// The quote states the usable VRAM per GPU.
    UsableVramStated {
        /// Usable VRAM per GPU or slice, MiB.
        mib: u64,
    },
    /// What the quote says of snapshots and object storage (`None`: not said).
    StorageOffered {
        snapshots: Option<bool>,
        object_storage: Option<bool>,
    },
    /// Whether a commitment renews automatically.
    AutoRenewal { renews: bool },
    /// The early-release rule, as the vendor wrote it.
    EarlyRelease { rule: String },
    /// The region the node and its data are in.
    Region { region: String },
    /// The quoted disks hold the workload's data and checkpoints (or it states no need).
    DisksStated {
        /// System disk, GB.
        system_gb: Option<Decimal>,
        /// Data disk, GB.
        data_gb: Option<Decimal>,
        /// Data disk type, as quoted.
        data_type: String,
    },
    /// The quoted disks are smaller than the workload's data and checkpoints.
    DisksTooSmall {
        /// Both disks, GB.
        total_gb: Decimal,
        /// Data and checkpoints, GB.
        need_gb: Decimal,
    },
    /// The other fees the quote lists.
    FeesListed { fees: Vec<ListedFee> },
    /// An internal network, with its bandwidth.
    PrivateNetwork { gbps: Decimal },
    /// The bandwidth the quote states (ports are still to ask when the job needs any).
    Bandwidth {
        public_mbps: Option<Decimal>,
        internal_gbps: Option<Decimal>,
    },
    /// The driver and CUDA versions the quote states.
    StackStated { driver: String, cuda: String },
    /// Docker and root SSH as quoted (either refused leaves the item open).
    Access { docker: bool, root: bool },
    /// The billing step, and how long until the node is ready when the quote says.
    StartupTime {
        step_s: u32,
        lead_time_hours: Option<Decimal>,
    },
    /// Whom to call at the vendor.
    SupportContact { contact: String },
    /// Whether the vendor diagnoses and recovers faults.
    FaultHelp { offered: bool },
    /// Whether the vendor wipes the temporary disk at release.
    TempDiskWiped { wiped: bool },
    /// Whether the data disk outlives its node.
    DataDiskDetachable { survives: bool },
    /// The chosen quote's place in the comparison, by total cost.
    Compared {
        rank: u32,
        of: u32,
        total: Decimal,
        currency: String,
    },
    /// As [`AnswerCode::Compared`], above the workload's budget.
    ComparedOverBudget {
        rank: u32,
        of: u32,
        total: Decimal,
        currency: String,
    },
    /// The total cost the comparison estimated (unit price × hours + storage + transfer +
    /// idle, hours including setup, data preparation, reruns and export).
    TotalCost { total: Decimal, currency: String },
    /// A valid run recorded the throughput and the VRAM peak.
    MetricsRecorded,
    /// The time to finish the comparison computed from the measured throughput.
    TimeToFinish { time: String },
    /// Quotes of the comparison measured by valid runs.
    SpecsMeasured { quotes: u32 },
    /// Fewer than two quotes of the comparison are measured.
    OneSpecMeasured { quotes: u32 },
    /// The quoted data disk, where a temporary directory can be.
    TempDirectory {
        data_gb: Option<Decimal>,
        data_type: String,
    },
    /// Where the workload's checkpoints can be kept.
    CheckpointStorage {
        checkpoint_gb: Decimal,
        data_disk_survives: bool,
        snapshots: Option<bool>,
    },
    /// What a rebuilt node starts from: the pinned image (`None`: none pinned) and whether
    /// snapshots are offered.
    KnownStateImage {
        image: Option<String>,
        snapshots: Option<bool>,
    },
    /// The GPUs were busy over the run: CPU, disk and network kept them fed.
    GpuBusy { pct: u32 },
    /// The GPUs were often idle over the run: something else held them back.
    GpuUnderused { pct: u32 },
    /// How long moving the workload's data takes at the quoted public bandwidth.
    TransferTime {
        data_gb: Decimal,
        mbps: Decimal,
        /// Hours, one decimal, rounded up.
        hours: Decimal,
    },
    /// A known fact has an unusable value (e.g. a zero VRAM figure, an empty model).
    InvalidFact { fact: Fact },
}

/// One difference between the quote and what a run observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "field", rename_all = "snake_case")]
pub enum Mismatch {
    /// Another GPU model.
    GpuModel {
        /// As quoted.
        quoted: String,
        /// As the run observed it.
        observed: String,
    },
    /// Fewer GPUs than quoted.
    GpuCount {
        /// As quoted.
        quoted: u32,
        /// As the run observed it.
        observed: u32,
    },
    /// Less VRAM per GPU than quoted usable VRAM allows (below 90 % of it).
    Vram {
        /// Quoted usable MiB.
        quoted_mib: u64,
        /// Memory of one GPU as the run observed it, MiB.
        observed_mib: u64,
    },
    /// MIG slicing differs from the quote.
    Mig {
        /// Quoted as a MIG slice.
        quoted: bool,
        /// Whether the run saw MIG enabled.
        observed: bool,
    },
    /// Another driver version (a warning: the item stays open).
    Driver {
        /// As quoted.
        quoted: String,
        /// As the run observed it.
        observed: String,
    },
    /// Another CUDA version (a warning: the item stays open).
    Cuda {
        /// As quoted.
        quoted: String,
        /// As the run observed it.
        observed: String,
    },
}

impl Mismatch {
    /// Whether this difference makes the run's node another node than the quoted one (a
    /// problem), rather than a software difference to look at (driver, CUDA).
    #[must_use]
    pub const fn is_hardware(&self) -> bool {
        !matches!(self, Mismatch::Driver { .. } | Mismatch::Cuda { .. })
    }
}

/// A suggested answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    /// Suggested status.
    pub status: Suggested,
    /// What the facts say.
    pub code: AnswerCode,
    /// Facts the suggestion rests on.
    pub facts_used: Vec<Fact>,
}

/// Result of [`super::prefill()`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Prefill {
    /// The item has no pre-fill source.
    NoSource,
    /// Facts the rule needs but the app does not know (never empty).
    Missing(Vec<Fact>),
    /// A suggestion from known facts.
    Suggest(Suggestion),
}
