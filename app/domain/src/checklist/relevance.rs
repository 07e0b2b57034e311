//! Which quote fields an item is about, so its evidence picker offers them first instead of a
//! flat list of every field.
//!
//! An item with a pre-fill source is about the quote fields its rule reads ([`source_facts`],
//! [`super::quote_fields`]), then those [`ITEM_FIELDS`] names for it. The rest
//! of [`QUOTE_FIELDS`] follows in the quote form's order.

use super::accept::quote_fields;
use super::facts::Fact;
use super::model::{Item, PrefillSource};
use crate::quotes::QUOTE_FIELDS;

/// Every fact a pre-fill rule may read (whether or not a given order knows it).
#[must_use]
pub fn source_facts(source: PrefillSource) -> &'static [Fact] {
    use Fact as F;
    use PrefillSource as P;
    match source {
        P::GpuModel => &[F::GpuModel, F::QuotedVramMib],
        P::FormFactor => &[F::FormFactor, F::ObservedGpuName],
        P::Exclusivity => &[F::Exclusivity, F::Workload],
        P::VramHeadroom | P::PeakNearLimit => &[F::VramPeakMib, F::UsableVramMib, F::HeadroomPct],
        P::Interconnect => &[F::MultiGpu, F::Interconnect],
        P::SoftwareImage => &[F::SoftwareImage],
        P::SmokeRun => &[F::RunVerdict],
        P::BenchmarkRun => &[F::RunVerdict, F::RunMinutes],
        P::Throttling => &[F::ThrottlingObserved],
        P::QuoteVsObserved => &[
            F::UsableVramMib,
            F::GpuModel,
            F::QuotedGpuCount,
            F::Exclusivity,
            F::QuotedDriver,
            F::QuotedCuda,
            F::ObservedVramMib,
            F::ObservedGpuName,
            F::ObservedGpuCount,
            F::ObservedMig,
            F::ObservedDriver,
            F::ObservedCuda,
        ],
        P::StoppedBilling => &[F::StoppedBillsCompute, F::StoppedBillsDisk],
        P::MinimumDuration => &[F::MinDurationHours],
        P::OtherFees => &[F::FeesStated],
        P::DiskRelease => &[F::TempDiskWipedOnRelease, F::DataDiskSurvivesRelease],
        P::EgressPricing => &[F::Egress],
        P::UsableVram => &[F::StatedUsableVramMib],
        P::Snapshots => &[F::SnapshotsOffered, F::ObjectStorageOffered],
        P::AutoRenewal => &[F::AutoRenewal],
        P::EarlyRelease => &[F::EarlyRelease],
        P::DataRegion => &[F::Region],
        P::Disks => &[F::Disks, F::StorageNeedGb],
        P::ListedFees => &[F::ListedFees],
        P::PrivateNetwork => &[F::InternalBandwidthGbps],
        P::Bandwidth => &[F::PublicBandwidthMbps, F::InternalBandwidthGbps],
        P::StackVersions => &[F::QuotedDriver, F::QuotedCuda],
        P::Access => &[F::DockerAllowed, F::RootSsh],
        P::StartupTime => &[F::BillingStepS, F::LeadTimeHours],
        P::SupportContact => &[F::VendorContact],
        P::FaultHandling => &[F::VendorFaultHelp],
        P::Cleanup => &[F::TempDiskWipedOnRelease],
        P::DiskMigration => &[F::DataDiskSurvivesRelease],
        P::CostChoice | P::TotalCost => &[F::Compared],
        P::TrialRun | P::RunMetrics => &[F::RunVerdict],
        P::TotalTime | P::TwoSpecs => &[F::RunVerdict, F::Compared],
        P::TempDirectory => &[F::Disks],
        P::CheckpointStorage => &[F::CheckpointGb, F::DataDiskSurvivesRelease, F::SnapshotsOffered],
        P::TransferTime => &[F::DataGb, F::PublicBandwidthMbps],
        P::Bottleneck => &[F::RunVerdict, F::GpuUtilPct],
        P::CleanSystemDisk => &[F::SoftwareImage, F::SnapshotsOffered],
    }
}

/// The quote fields of items, by item id, besides those of their pre-fill source: what a person
/// looks up in the quote to answer them.
pub const ITEM_FIELDS: &[(&str, &[&str])] = &[
    (
        "gpu.usable_vram",
        &["spec.usable_vram_gib", "spec.vram_gib", "spec.sharing"],
    ),
    ("gpu.no_memory_pooling", &["spec.memory_pooling", "spec.gpus_per_node"]),
    (
        "env.stack_versions",
        &["spec.os", "spec.nvidia_driver", "spec.cuda", "spec.cudnn", "spec.rocm"],
    ),
    ("env.access", &["spec.root_ssh", "spec.docker_allowed"]),
    ("env.special_dependencies", &["spec.docker_allowed", "spec.root_ssh"]),
    ("env.clean_system_disk", &["spec.os", "spec.system_disk_gb"]),
    (
        "store.disks",
        &[
            "spec.system_disk_gb",
            "spec.system_disk_type",
            "spec.data_disk_gb",
            "spec.data_disk_type",
        ],
    ),
    (
        "store.small_files_tmp",
        &["spec.data_disk_type", "spec.temp_disk_wiped"],
    ),
    (
        "store.snapshots",
        &["spec.snapshots", "spec.object_storage", "price.snapshot_price_gb_month"],
    ),
    (
        "net.bandwidth_ports",
        &[
            "spec.public_bandwidth_mbps",
            "spec.internal_bandwidth_gbps",
            "price.public_ip_hourly",
        ],
    ),
    (
        "net.cross_node",
        &["spec.network_gbps", "spec.rdma", "spec.internal_bandwidth_gbps"],
    ),
    (
        "perf.sync_bandwidth",
        &["spec.interconnect", "spec.network_gbps", "spec.rdma"],
    ),
    (
        "bill.image_management_fees",
        &["price.other_fees", "spec.object_storage"],
    ),
    ("bill.auto_renewal", &["auto_renewal", "price.commitment_months"]),
    ("bill.early_release", &["early_release", "price.commitment_months"]),
    ("bill.inference_availability", &["notes"]),
    (
        "bill.plan_choice",
        &[
            "price.basis",
            "price.on_demand_hourly",
            "price.monthly_price",
            "price.monthly_basis",
            "price.commitment_months",
        ],
    ),
    (
        "bill.total_cost",
        &["price.on_demand_hourly", "price.billing_increment"],
    ),
    ("sec.data_region", &["spec.region"]),
    (
        "sec.private_network",
        &["spec.internal_bandwidth_gbps", "spec.network_gbps", "notes"],
    ),
    ("sec.disk_migration", &["spec.data_disk_survives_release"]),
];

/// The quote fields `item` is about, most telling first, each once.
#[must_use]
pub fn relevant_fields(item: &Item) -> Vec<&'static str> {
    let mut fields: Vec<&'static str> = Vec::new();
    let from_source = item
        .prefill
        .into_iter()
        .flat_map(|s| source_facts(s).iter())
        .flat_map(|f| quote_fields(*f).iter());
    let named = ITEM_FIELDS
        .iter()
        .filter(|(id, _)| *id == item.id)
        .flat_map(|(_, f)| f.iter());
    for f in from_source.chain(named) {
        if !fields.contains(f) {
            fields.push(f);
        }
    }
    fields
}

/// Every quote field, those `item` is about first ([`relevant_fields`]) and then the rest in the
/// quote form's order; with how many of them come first.
#[must_use]
pub fn fields_by_relevance(item: &Item) -> (Vec<&'static str>, usize) {
    let mut fields = relevant_fields(item);
    let first = fields.len();
    let rest: Vec<&'static str> = QUOTE_FIELDS.iter().copied().filter(|f| !fields.contains(f)).collect();
    fields.extend(rest);
    (fields, first)
}
