//! Building [`PrefillFacts`] from what the app has stored about an order: the workload, the
//! chosen quote revision and what the attached runs observed. Pure: the service loads, this
//! builds, so every fact can be tested without a database.
//!
//! Where each fact comes from:
//!
//! | fact | source |
//! |---|---|
//! | workload, multi_gpu, headroom_pct | the workload (kind, GPUs needed, headroom) |
//! | gpu_model, quoted_vram_mib, usable_vram_mib, quoted_gpu_count | the quote's node |
//! | form_factor, exclusivity, interconnect | the quote's node |
//! | software_image | the quote's operating system image, when stated |
//! | quoted_driver, quoted_cuda | the quote's software, when stated |
//! | stopped_bills_compute, min_duration_hours | the quote's price sheet |
//! | stopped_bills_disk | the price sheet: the cost model bills disks for the whole rental, stopped hours included, so a disk price above zero bills a stopped node's disks |
//! | fees_stated, egress | the price sheet and node (see [`fees_stated`], [`egress`]) |
//! | temp_disk_wiped_on_release, data_disk_survives_release | the quote's node |
//! | run_verdict, run_minutes, throttling_observed, gpu_util_pct, observed_* | the backing run ([`backing_run`]) |
//! | measured_link | the latest attached nccl-tests run of the chosen quote ([`link_run`]) |
//! | vram_peak_mib | the workload's peak, or the backing run's observed peak when higher |
//! | stated_usable_vram_mib, snapshots_offered, object_storage_offered, region | the quote's node, when stated |
//! | auto_renewal, early_release | the quote, when stated |
//! | disks, listed_fees, internal/public bandwidth, docker_allowed, root_ssh | the quote's node and price sheet, when stated |
//! | billing_step_s, lead_time_hours | the price sheet's billing step; the quote's lead time, when stated |
//! | storage_need_gb, data_gb, checkpoint_gb | the workload's data and checkpoints |
//! | vendor_contact, vendor_fault_help | the vendor's record (added by the service) |
//! | compared | the order's cost comparison (added by the service) |

use rust_decimal::{Decimal, prelude::ToPrimitive};
use serde::Deserialize;

use super::facts::{
    Disks, EgressPricing, Exclusivity, FeeKind, Interconnect, ListedFee, MeasuredLink, PrefillFacts, RunVerdict,
};
use super::model::OrderKind;
use crate::{
    quotes::{self, QuoteDraft, Sharing},
    runs::RunStatus,
};

/// The verdict reason code of a thermal or power slowdown (see `domain::runs::Reason`).
pub const SLOWDOWN_CODE: &str = "thermal_or_power_slowdown";

/// The verdict's code for memory a serving engine reserved ([`crate::runs::Reason::VramReserved`]).
pub const RESERVED_CODE: &str = "vram_reserved";

/// The verdict's code for a run on part of the node ([`crate::runs::Reason::PartOfNode`]).
pub const PART_OF_NODE_CODE: &str = "part_of_node";

/// The verdict's code for an nccl-tests run's bus bandwidth ([`crate::runs::Reason::BusBandwidth`]).
pub const BUS_CODE: &str = "bus_bandwidth";

/// What one run observed, read from its canonical JSON (`nodeledger.run/v1`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunObservation {
    pub id: i64,
    /// The quote it ran under.
    pub quote_id: Option<i64>,
    /// Its verdict status as stored.
    pub status: Option<RunStatus>,
    /// GPU name seen.
    pub gpu_name: Option<String>,
    /// GPUs the telemetry saw; `None` when the run did not say.
    pub gpu_count: Option<u32>,
    /// Memory of one GPU seen, MiB.
    pub vram_total_mib: Option<f64>,
    /// Driver version the run saw; `None` when it did not say.
    pub driver: Option<String>,
    /// CUDA version the run saw; `None` when it did not say.
    pub cuda: Option<String>,
    /// MIG mode seen.
    pub mig: Option<bool>,
    /// Length of the run, seconds.
    pub duration_s: Option<f64>,
    /// Warm-up excluded, seconds.
    pub warmup_s: Option<f64>,
    /// Highest VRAM used on one GPU, MiB.
    pub vram_peak_mib: Option<f64>,
    /// Mean GPU utilisation over the run, percent.
    pub gpu_util_mean_pct: Option<f64>,
    /// The run has a telemetry series (so throttling could be seen).
    pub has_telemetry: bool,
    /// Its verdict names a thermal or power slowdown ([`SLOWDOWN_CODE`]).
    pub slowdown: bool,
    /// An nccl-tests run: its bus bandwidth and the least the quoted link should give, GB/s.
    pub bus: Option<(f64, Option<f64>)>,
}

#[derive(Deserialize, Default)]
struct CanonicalNode {
    gpu_name: Option<String>,
    gpu_count: Option<u32>,
    vram_total_mib: Option<f64>,
    driver_version: Option<String>,
    cuda_version: Option<String>,
    mig: Option<bool>,
}

#[derive(Deserialize)]
struct CanonicalReason {
    code: String,
    /// Of `bus_bandwidth`: what the quoted link should give.
    #[serde(default)]
    expected: Option<CanonicalLink>,
    /// Of `vram_reserved`: the need the verdict judged beneath the reservation.
    #[serde(default)]
    need_mib: Option<f64>,
}

#[derive(Deserialize)]
struct CanonicalLink {
    least_gbps: f64,
}

#[derive(Deserialize)]
struct CanonicalBusTest {
    bus_gbps: f64,
}

#[derive(Deserialize, Default)]
struct CanonicalVerdict {
    #[serde(default)]
    reasons: Vec<CanonicalReason>,
}

/// The parts of a canonical run the checklist reads; everything else is ignored, so the
/// record may grow without breaking this.
#[derive(Deserialize)]
struct Canonical {
    #[serde(default)]
    node: CanonicalNode,
    duration_s: Option<f64>,
    warmup_s: Option<f64>,
    vram_peak_mib: Option<f64>,
    #[serde(default)]
    gpu_util_mean_pct: Option<f64>,
    #[serde(default)]
    telemetry: Vec<serde::de::IgnoredAny>,
    #[serde(default)]
    verdict: Option<CanonicalVerdict>,
    #[serde(default)]
    bus_test: Option<CanonicalBusTest>,
}

impl RunObservation {
    /// Reads a run's canonical JSON.
    ///
    /// # Errors
    /// The JSON does not have the canonical shape.
    pub fn from_canonical(
        id: i64,
        quote_id: Option<i64>,
        status: Option<RunStatus>,
        json: &str,
    ) -> Result<Self, serde_json::Error> {
        let c: Canonical = serde_json::from_str(json)?;
        let reasons = c.verdict.unwrap_or_default().reasons;
        let slowdown = reasons.iter().any(|r| r.code == SLOWDOWN_CODE);
        // Beneath a serving engine's reservation the memory seen is not the workload's peak:
        // the checklist takes the need the verdict judged (none: the workload's stated peak).
        let reserved = reasons.iter().find(|r| r.code == RESERVED_CODE);
        let vram_peak_mib = match reserved {
            Some(r) => r.need_mib,
            None => c.vram_peak_mib,
        };
        // A run on part of the node (one task per GPU, or a job on fewer GPUs) says nothing of
        // how many GPUs the node has: the verdict already judged the count.
        let part_of_node = reasons.iter().any(|r| r.code == PART_OF_NODE_CODE);
        let least = reasons
            .iter()
            .find(|r| r.code == BUS_CODE)
            .and_then(|r| r.expected.as_ref())
            .map(|e| e.least_gbps);
        let bus = c.bus_test.map(|b| (b.bus_gbps, least));
        Ok(Self {
            id,
            quote_id,
            status,
            gpu_name: c.node.gpu_name,
            gpu_count: c.node.gpu_count.filter(|_| !part_of_node),
            vram_total_mib: c.node.vram_total_mib,
            driver: c.node.driver_version,
            cuda: c.node.cuda_version,
            mig: c.node.mig,
            duration_s: c.duration_s,
            warmup_s: c.warmup_s,
            vram_peak_mib,
            gpu_util_mean_pct: c.gpu_util_mean_pct,
            has_telemetry: !c.telemetry.is_empty(),
            slowdown,
            bus,
        })
    }

    /// Minutes of the run after warm-up, rounded down.
    #[must_use]
    pub fn steady_minutes(&self) -> Option<u32> {
        let d = self.duration_s.filter(|d| d.is_finite() && *d >= 0.0)?;
        let steady = (d - self.warmup_s.filter(|w| w.is_finite() && *w > 0.0).unwrap_or(0.0)).max(0.0);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "non-negative, floored, minutes of a run"
        )]
        Some((steady / 60.0).floor().min(f64::from(u32::MAX)) as u32)
    }

    /// Whether throttling was seen: `None` without telemetry (it could not be seen).
    #[must_use]
    pub fn throttling(&self) -> Option<bool> {
        if self.slowdown {
            Some(true)
        } else {
            self.has_telemetry.then_some(false)
        }
    }
}

/// Everything the builder reads.
#[derive(Debug, Clone, Copy)]
pub struct FactSources<'a> {
    /// The order's workload.
    pub workload: &'a quotes::Workload,
    /// The chosen quote's id.
    pub quote_id: Option<i64>,
    /// The chosen quote revision.
    pub quote: Option<&'a QuoteDraft>,
    /// The runs attached to the order.
    pub runs: &'a [RunObservation],
}

/// The checklist's kind of work for a workload kind.
#[must_use]
pub fn workload_kind(kind: quotes::WorkloadKind) -> OrderKind {
    match kind {
        quotes::WorkloadKind::Training => OrderKind::Training,
        quotes::WorkloadKind::InferenceService => OrderKind::Inference,
        quotes::WorkloadKind::Batch | quotes::WorkloadKind::Other => OrderKind::Batch,
    }
}

/// The run whose observations the checklist uses: among the attached runs of the chosen
/// quote, the one with the best status (valid, then warn, then invalid), the latest (highest
/// id) among equals. Runs of other quotes say nothing about the chosen node.
#[must_use]
pub fn backing_run(runs: &[RunObservation], quote_id: Option<i64>) -> Option<&RunObservation> {
    let rank = |s: Option<RunStatus>| match s {
        Some(RunStatus::Valid) => 0,
        Some(RunStatus::Warn) => 1,
        Some(RunStatus::Invalid) => 2,
        None => 3,
    };
    runs.iter()
        .filter(|r| quote_id.is_some() && r.quote_id == quote_id && r.bus.is_none())
        .min_by(|a, b| rank(a.status).cmp(&rank(b.status)).then(b.id.cmp(&a.id)))
}

/// The nccl-tests run whose link measurement the checklist uses: the latest attached one of the
/// chosen quote that found no wrong values (not invalid). It measures the link, not the work, so
/// it is never the [`backing_run`].
#[must_use]
pub fn link_run(runs: &[RunObservation], quote_id: Option<i64>) -> Option<&RunObservation> {
    runs.iter()
        .filter(|r| quote_id.is_some() && r.quote_id == quote_id && r.bus.is_some())
        .filter(|r| r.status != Some(RunStatus::Invalid))
        .max_by_key(|r| r.id)
}

/// A GB/s figure to one decimal, as the checklist keeps it.
fn gbps(v: f64) -> Option<Decimal> {
    Decimal::from_f64_retain(v)
        .filter(|_| v.is_finite() && v >= 0.0)
        .map(|d| d.round_dp(1))
}

/// Fee kinds the quote states. CPU and memory come with the node price when the node's vCPUs
/// and memory are stated; disk, IP, traffic and snapshots when the sheet prices them (a price
/// above zero; traffic also by a free allowance); storage when the vendor says object storage
/// is not offered or lists a fee named for storage or images. A zero price cannot tell
/// "included" from "not said", so it is not counted as stated.
#[must_use]
pub fn fees_stated(q: &QuoteDraft) -> Vec<FeeKind> {
    let p = &q.price;
    let positive = |d: Decimal| d > Decimal::ZERO;
    let storage_fee = p.other_fees.iter().any(|f| {
        let l = f.label.to_lowercase();
        ["storage", "image", "存储", "镜像", "oss", "s3"]
            .iter()
            .any(|w| l.contains(w))
    });
    [
        (FeeKind::Cpu, q.spec.vcpus.is_some()),
        (FeeKind::Memory, q.spec.ram_gib.is_some()),
        (FeeKind::Disk, positive(p.disk_price_gb_month)),
        (FeeKind::Ip, positive(p.public_ip_hourly)),
        (
            FeeKind::Traffic,
            positive(p.egress_price_gb) || positive(p.free_egress_gb) || positive(p.ingress_price_gb),
        ),
        (FeeKind::Snapshot, positive(p.snapshot_price_gb_month)),
        (FeeKind::Storage, q.spec.object_storage == Some(false) || storage_fee),
    ]
    .into_iter()
    .filter_map(|(k, stated)| stated.then_some(k))
    .collect()
}

/// How outbound traffic is priced: a price per GB is metered; no price but a free allowance
/// is included; neither is not stated.
#[must_use]
pub fn egress(q: &QuoteDraft) -> EgressPricing {
    if q.price.egress_price_gb > Decimal::ZERO {
        EgressPricing::Metered
    } else if q.price.free_egress_gb > Decimal::ZERO {
        EgressPricing::Included
    } else {
        EgressPricing::NotStated
    }
}

fn mib(gib: Decimal) -> Option<u64> {
    crate::vram::gib_to_mib(gib).floor().to_u64()
}

fn text(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_owned())
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "MiB figures of one GPU, checked finite and non-negative"
)]
fn whole_mib(v: Option<f64>) -> Option<u64> {
    v.filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| v.floor().min(u64::MAX as f64) as u64)
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a percentage, checked finite and clamped to 0–100"
)]
fn whole_pct(v: Option<f64>) -> Option<u32> {
    v.filter(|v| v.is_finite()).map(|v| v.clamp(0.0, 100.0).floor() as u32)
}

/// Builds the facts of one order. `None` wherever the data does not say.
#[must_use]
pub fn gather(src: &FactSources<'_>) -> PrefillFacts {
    let w = src.workload;
    let spec = src.quote.map(|q| &q.spec);
    let sheet = src.quote.map(|q| &q.price);
    let run = backing_run(src.runs, src.quote_id);
    let workload_peak = mib(w.vram_peak_gib).filter(|p| *p > 0);
    let run_peak = run.and_then(|r| whole_mib(r.vram_peak_mib));
    PrefillFacts {
        workload: Some(workload_kind(w.kind)),
        multi_gpu: Some(w.gpus_needed > 1),
        gpu_model: spec.and_then(|s| text(&s.gpu_model)),
        quoted_vram_mib: spec.and_then(|s| mib(s.vram_gib)),
        usable_vram_mib: spec.and_then(|s| s.effective_vram_gib().and_then(mib)),
        vram_peak_mib: workload_peak.max(run_peak),
        headroom_pct: Some(w.headroom_pct),
        quoted_gpu_count: spec.map(|s| s.gpus_per_node),
        quoted_driver: spec.and_then(|s| text(&s.nvidia_driver)),
        quoted_cuda: spec.and_then(|s| text(&s.cuda)),
        observed_gpu_name: run.and_then(|r| r.gpu_name.as_deref().and_then(text)),
        observed_gpu_count: run.and_then(|r| r.gpu_count),
        observed_vram_mib: run.and_then(|r| whole_mib(r.vram_total_mib)),
        observed_driver: run.and_then(|r| r.driver.as_deref().and_then(text)),
        observed_cuda: run.and_then(|r| r.cuda.as_deref().and_then(text)),
        observed_mig: run.and_then(|r| r.mig),
        form_factor: spec.and_then(|s| s.form_factor),
        exclusivity: spec.map(|s| match s.sharing {
            Sharing::Exclusive => Exclusivity::Exclusive,
            Sharing::Mig { .. } => Exclusivity::Mig,
            Sharing::Vgpu => Exclusivity::Vgpu,
            Sharing::Fractional { .. } => Exclusivity::OtherSliced,
        }),
        interconnect: spec.and_then(|s| s.interconnect).map(|i| match i {
            quotes::Interconnect::Nvlink | quotes::Interconnect::Nvswitch => Interconnect::NvLink,
            quotes::Interconnect::Pcie => Interconnect::Pcie,
            quotes::Interconnect::None => Interconnect::NoLink,
        }),
        measured_link: link_run(src.runs, src.quote_id).and_then(|r| {
            let (bus, least) = r.bus?;
            Some(MeasuredLink {
                run_id: r.id,
                bus_gbps: gbps(bus)?,
                least_gbps: least.and_then(gbps),
            })
        }),
        software_image: spec.and_then(|s| text(&s.os)),
        run_verdict: run.and_then(|r| r.status).map(|s| match s {
            RunStatus::Valid => RunVerdict::Pass,
            RunStatus::Warn => RunVerdict::Inconclusive,
            RunStatus::Invalid => RunVerdict::Fail,
        }),
        run_minutes: run.and_then(RunObservation::steady_minutes),
        throttling_observed: run.and_then(RunObservation::throttling),
        stopped_bills_compute: sheet
            .filter(|s| !s.not_stated.contains(&crate::tco::UnstatedPrice::StoppedCompute))
            .map(|s| s.stopped_bills_compute),
        stopped_bills_disk: sheet.map(|s| s.disk_price_gb_month > Decimal::ZERO),
        min_duration_hours: sheet.and_then(|s| s.minimum_billable_hours.ceil().to_u32()),
        fees_stated: src.quote.map(fees_stated),
        temp_disk_wiped_on_release: spec.and_then(|s| s.temp_disk_wiped),
        data_disk_survives_release: spec.and_then(|s| s.data_disk_survives_release),
        egress: src.quote.map(egress),
        stated_usable_vram_mib: spec.and_then(|s| s.usable_vram_gib).and_then(mib),
        snapshots_offered: spec.and_then(|s| s.snapshots),
        object_storage_offered: spec.and_then(|s| s.object_storage),
        auto_renewal: src.quote.and_then(|q| q.auto_renewal),
        early_release: src.quote.and_then(|q| text(&q.early_release)),
        region: spec.and_then(|s| text(&s.region)),
        gpu_util_pct: run.and_then(|r| whole_pct(r.gpu_util_mean_pct)),
        ..stated_beyond_gpu(src)
    }
}

/// The facts the quote states beyond the GPU, and the workload's storage need. The vendor's
/// record and the comparison are the service's to add ([`PrefillFacts::vendor_contact`],
/// [`PrefillFacts::compared`]).
fn stated_beyond_gpu(src: &FactSources<'_>) -> PrefillFacts {
    let w = src.workload;
    let spec = src.quote.map(|q| &q.spec);
    let sheet = src.quote.map(|q| &q.price);
    let need = w.data_gb + w.checkpoint_gb;
    PrefillFacts {
        disks: spec
            .filter(|s| s.system_disk_gb.is_some() || s.data_disk_gb.is_some())
            .map(|s| Disks {
                system_gb: s.system_disk_gb,
                system_type: s.system_disk_type.trim().to_owned(),
                data_gb: s.data_disk_gb,
                data_type: s.data_disk_type.trim().to_owned(),
            }),
        storage_need_gb: Some(need),
        data_gb: Some(w.data_gb),
        checkpoint_gb: Some(w.checkpoint_gb),
        listed_fees: sheet.filter(|p| !p.other_fees.is_empty()).map(|p| {
            p.other_fees
                .iter()
                .map(|f| ListedFee {
                    label: f.label.trim().to_owned(),
                    amount: f.amount,
                })
                .collect()
        }),
        internal_bandwidth_gbps: spec.and_then(|s| s.internal_bandwidth_gbps),
        public_bandwidth_mbps: spec.and_then(|s| s.public_bandwidth_mbps),
        docker_allowed: spec.and_then(|s| s.docker_allowed),
        root_ssh: spec.and_then(|s| s.root_ssh),
        billing_step_s: sheet.map(|p| p.billing_increment.seconds()),
        lead_time_hours: src.quote.and_then(|q| q.lead_time_hours),
        ..PrefillFacts::default()
    }
}
