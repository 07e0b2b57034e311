//! Suggestions from what the quote states beyond the GPU (disks, fees, network, access, the
//! billing step), from the vendor's record (contact, fault help) and from the order's cost
//! comparison and runs (the plan choice, the total cost, the trial run, the metrics).
//!
//! Each rule suggests only what its facts say: a fact the quote or the vendor does not state
//! is missing (the item then becomes a question for the vendor), never read as "no".

use rust_decimal::Decimal;

use super::{Rule, both, known, ok, one, verdict};
use crate::checklist::{
    codes::{AnswerCode as C, Suggested as S},
    facts::{Fact as F, PrefillFacts, RunVerdict},
    model::PrefillSource as P,
};

/// Least mean GPU utilisation over a run, percent, at which the GPUs were the bottleneck (kept
/// fed by CPU preprocessing, disk reads and the network).
pub const GPU_BUSY_MIN_PCT: u32 = 80;

/// The suggestion of one of this module's sources.
pub(super) fn rule(source: P, f: &PrefillFacts) -> Rule {
    match source {
        P::Disks => disks(f),
        P::ListedFees => {
            let fees = one(f.listed_fees.clone(), F::ListedFees)?;
            ok(S::Confirmed, C::FeesListed { fees }, &[F::ListedFees])
        }
        P::PrivateNetwork => {
            let gbps = one(f.internal_bandwidth_gbps, F::InternalBandwidthGbps)?;
            ok(S::Confirmed, C::PrivateNetwork { gbps }, &[F::InternalBandwidthGbps])
        }
        P::Bandwidth => bandwidth(f),
        P::StackVersions => {
            let (driver, cuda) = both(
                (f.quoted_driver.clone(), F::QuotedDriver),
                (f.quoted_cuda.clone(), F::QuotedCuda),
            )?;
            ok(
                S::Confirmed,
                C::StackStated { driver, cuda },
                &[F::QuotedDriver, F::QuotedCuda],
            )
        }
        P::Access => {
            let (docker, root) = both((f.docker_allowed, F::DockerAllowed), (f.root_ssh, F::RootSsh))?;
            let status = if docker && root { S::Confirmed } else { S::Open };
            ok(status, C::Access { docker, root }, &[F::DockerAllowed, F::RootSsh])
        }
        P::CleanSystemDisk => known_state(f),
        P::StartupTime => {
            let step_s = one(f.billing_step_s, F::BillingStepS)?;
            let code = C::StartupTime {
                step_s,
                lead_time_hours: f.lead_time_hours,
            };
            ok(S::Confirmed, code, &[F::BillingStepS, F::LeadTimeHours])
        }
        other => vendor_and_comparison(other, f),
    }
}

/// What the vendor's record and the order's comparison and runs answer.
fn vendor_and_comparison(source: P, f: &PrefillFacts) -> Rule {
    match source {
        P::SupportContact => {
            let contact = one(f.vendor_contact.clone(), F::VendorContact)?;
            ok(S::Confirmed, C::SupportContact { contact }, &[F::VendorContact])
        }
        // Shown only: the support scope says whether the vendor helps, not its process.
        P::FaultHandling => {
            let offered = one(f.vendor_fault_help, F::VendorFaultHelp)?;
            ok(S::Open, C::FaultHelp { offered }, &[F::VendorFaultHelp])
        }
        P::Cleanup => {
            let wiped = one(f.temp_disk_wiped_on_release, F::TempDiskWipedOnRelease)?;
            let status = if wiped { S::Confirmed } else { S::Open };
            ok(status, C::TempDiskWiped { wiped }, &[F::TempDiskWipedOnRelease])
        }
        P::DiskMigration => {
            let survives = one(f.data_disk_survives_release, F::DataDiskSurvivesRelease)?;
            let status = if survives { S::Confirmed } else { S::Open };
            ok(
                status,
                C::DataDiskDetachable { survives },
                &[F::DataDiskSurvivesRelease],
            )
        }
        P::CostChoice => {
            let c = one(f.compared.clone(), F::Compared)?;
            let (rank, of, total, currency) = (c.rank, c.of, c.total, c.currency);
            if c.over_budget {
                let code = C::ComparedOverBudget {
                    rank,
                    of,
                    total,
                    currency,
                };
                ok(S::Problem, code, &[F::Compared])
            } else {
                ok(
                    S::Confirmed,
                    C::Compared {
                        rank,
                        of,
                        total,
                        currency,
                    },
                    &[F::Compared],
                )
            }
        }
        P::TotalCost => {
            let c = one(f.compared.clone(), F::Compared)?;
            let code = C::TotalCost {
                total: c.total,
                currency: c.currency,
            };
            ok(S::Confirmed, code, &[F::Compared])
        }
        other => shown(other, f),
    }
}

/// The sources whose suggestion is only shown ([`P::only_shown`]): where and how long, for a
/// person who still checks the rest.
fn shown(source: P, f: &PrefillFacts) -> Rule {
    match source {
        P::TempDirectory => {
            let d = one(f.disks.clone(), F::Disks)?;
            let code = C::TempDirectory {
                data_gb: d.data_gb,
                data_type: d.data_type,
            };
            ok(S::Open, code, &[F::Disks])
        }
        P::CheckpointStorage => {
            let (checkpoint_gb, data_disk_survives) = both(
                (f.checkpoint_gb, F::CheckpointGb),
                (f.data_disk_survives_release, F::DataDiskSurvivesRelease),
            )?;
            let code = C::CheckpointStorage {
                checkpoint_gb,
                data_disk_survives,
                snapshots: f.snapshots_offered,
            };
            ok(S::Open, code, &[F::CheckpointGb, F::DataDiskSurvivesRelease])
        }
        P::TransferTime => {
            let (data_gb, mbps) = both(
                (f.data_gb, F::DataGb),
                (f.public_bandwidth_mbps, F::PublicBandwidthMbps),
            )?;
            if mbps <= Decimal::ZERO {
                return super::invalid(F::PublicBandwidthMbps);
            }
            let code = C::TransferTime {
                data_gb,
                mbps,
                hours: transfer_hours(data_gb, mbps),
            };
            ok(S::Open, code, &[F::DataGb, F::PublicBandwidthMbps])
        }
        other => runs(other, f),
    }
}

/// Hours to move `data_gb` gigabytes (10⁹ bytes) at `mbps` megabits per second, one decimal,
/// rounded up: GB × 8,000 / Mbit/s / 3,600.
#[must_use]
pub fn transfer_hours(data_gb: Decimal, mbps: Decimal) -> Decimal {
    let seconds = data_gb.saturating_mul(Decimal::from(8_000)) / mbps;
    (seconds / Decimal::from(3_600)).round_dp_with_strategy(1, rust_decimal::RoundingStrategy::AwayFromZero)
}

/// What the valid run of the chosen quote answers, with the comparison built on it.
fn runs(source: P, f: &PrefillFacts) -> Rule {
    let v = one(f.run_verdict, F::RunVerdict)?;
    if v != RunVerdict::Pass {
        return verdict(v, &[F::RunVerdict]);
    }
    match source {
        P::TrialRun => verdict(v, &[F::RunVerdict]),
        P::RunMetrics => ok(S::Confirmed, C::MetricsRecorded, &[F::RunVerdict]),
        P::TotalTime => {
            let c = one(f.compared.clone(), F::Compared)?;
            if !c.measured {
                return Err(vec![F::RunVerdict]);
            }
            let code = C::TimeToFinish { time: c.time_to_finish };
            ok(S::Confirmed, code, &[F::RunVerdict, F::Compared])
        }
        P::Bottleneck => {
            let pct = one(f.gpu_util_pct, F::GpuUtilPct)?;
            let used = [F::RunVerdict, F::GpuUtilPct];
            if pct >= GPU_BUSY_MIN_PCT {
                ok(S::Confirmed, C::GpuBusy { pct }, &used)
            } else {
                ok(S::Open, C::GpuUnderused { pct }, &used)
            }
        }
        P::TwoSpecs => {
            let quotes = one(f.compared.as_ref().map(|c| c.measured_quotes), F::Compared)?;
            if quotes >= 2 {
                ok(S::Confirmed, C::SpecsMeasured { quotes }, &[F::RunVerdict, F::Compared])
            } else {
                ok(S::Open, C::OneSpecMeasured { quotes }, &[F::Compared])
            }
        }
        // Every other source has its own rule (`super::rule`).
        other => super::rule(other, f),
    }
}

/// The disks against the workload's data and checkpoints: too small is a problem.
fn disks(f: &PrefillFacts) -> Rule {
    let d = one(f.disks.clone(), F::Disks)?;
    let need = f.storage_need_gb.unwrap_or_default();
    if need > Decimal::ZERO && d.total_gb() < need {
        let code = C::DisksTooSmall {
            total_gb: d.total_gb(),
            need_gb: need,
        };
        return ok(S::Problem, code, &[F::Disks, F::StorageNeedGb]);
    }
    let code = C::DisksStated {
        system_gb: d.system_gb,
        data_gb: d.data_gb,
        data_type: d.data_type,
    };
    ok(S::Confirmed, code, &[F::Disks, F::StorageNeedGb])
}

fn bandwidth(f: &PrefillFacts) -> Rule {
    let (public_mbps, internal_gbps) = (f.public_bandwidth_mbps, f.internal_bandwidth_gbps);
    if public_mbps.is_none() && internal_gbps.is_none() {
        return Err(vec![F::PublicBandwidthMbps, F::InternalBandwidthGbps]);
    }
    let used = known(&[
        (public_mbps.is_some(), F::PublicBandwidthMbps),
        (internal_gbps.is_some(), F::InternalBandwidthGbps),
    ]);
    ok(
        S::Confirmed,
        C::Bandwidth {
            public_mbps,
            internal_gbps,
        },
        &used,
    )
}

/// A rebuilt node starts from a known state when the quote names a pinned image or offers
/// snapshots; a vague image and no snapshots leave the item open.
fn known_state(f: &PrefillFacts) -> Rule {
    let (image, snapshots) = (f.software_image.clone(), f.snapshots_offered);
    if image.is_none() && snapshots.is_none() {
        return Err(vec![F::SoftwareImage, F::SnapshotsOffered]);
    }
    let used = known(&[
        (image.is_some(), F::SoftwareImage),
        (snapshots.is_some(), F::SnapshotsOffered),
    ]);
    let pinned = image.filter(|i| super::image_is_pinned(i));
    let status = if pinned.is_some() || snapshots == Some(true) {
        S::Confirmed
    } else {
        S::Open
    };
    ok(
        status,
        C::KnownStateImage {
            image: pinned,
            snapshots,
        },
        &used,
    )
}
