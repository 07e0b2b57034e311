//! Pre-filling answers from facts the app already knows. Pure; never guesses.

mod desk;

#[cfg(test)]
pub(super) use desk::transfer_hours;

use rust_decimal::Decimal;

use super::codes::{AnswerCode as C, Mismatch, Prefill, Suggested as S, Suggestion};
use super::facts::{EgressPricing, Exclusivity, Fact as F, FeeKind, Interconnect, PrefillFacts, RunVerdict};
use super::model::{Item, OrderKind, PrefillSource as P};
use crate::{runs::names_match, vram};

/// Least VRAM headroom over the measured peak, percent (checklist item `gpu.vram_headroom`); a workload asks
/// for its own headroom within 15–25 % and [`vram::assess`] judges against that.
pub const HEADROOM_MIN_PCT: u64 = 15;
/// Headroom above which the GPU may be oversized, percent (checklist item `gpu.vram_headroom`).
pub const HEADROOM_MAX_PCT: u64 = 25;
/// Shortest benchmark that counts, minutes (checklist item `perf.benchmark`).
pub const BENCHMARK_MIN_MINUTES: u32 = 10;
/// Least VRAM a run must observe per GPU as a share of the quoted usable VRAM, percent: the
/// run verdict's tolerance ([`crate::vram::VRAM_TOLERANCE_PCT`]), so the two agree.
pub const USABLE_VRAM_MIN_PCT: u64 = 100 - crate::vram::VRAM_TOLERANCE_PCT;

/// Suggest an answer for `item` from `facts`.
///
/// Returns [`Prefill::NoSource`] if the item has no pre-fill source, and
/// [`Prefill::Missing`] naming every needed fact that is `None`.
#[must_use]
pub fn prefill(item: &Item, facts: &PrefillFacts) -> Prefill {
    let Some(source) = item.prefill else {
        return Prefill::NoSource;
    };
    match rule(source, facts) {
        Ok(s) => Prefill::Suggest(s),
        Err(missing) => Prefill::Missing(missing),
    }
}

/// A suggestion, or the facts that are missing for one.
type Rule = Result<Suggestion, Vec<F>>;

fn rule(source: P, f: &PrefillFacts) -> Rule {
    match source {
        P::GpuModel => gpu_model(f),
        P::FormFactor => form_factor(f),
        P::Exclusivity => exclusivity(f),
        P::VramHeadroom => headroom(f),
        P::Interconnect => interconnect(f),
        P::SoftwareImage => {
            let image = one(f.software_image.as_deref(), F::SoftwareImage)?;
            if image_is_pinned(image) {
                let image = image.trim().to_owned();
                ok(S::Confirmed, C::ImagePinned { image }, &[F::SoftwareImage])
            } else {
                let image = image.to_owned();
                ok(S::Problem, C::ImageVague { image }, &[F::SoftwareImage])
            }
        }
        P::SmokeRun => verdict(one(f.run_verdict, F::RunVerdict)?, &[F::RunVerdict]),
        P::BenchmarkRun => benchmark(f),
        P::Throttling => {
            if one(f.throttling_observed, F::ThrottlingObserved)? {
                ok(S::Problem, C::ThrottlingObserved, &[F::ThrottlingObserved])
            } else {
                ok(S::Confirmed, C::NoThrottling, &[F::ThrottlingObserved])
            }
        }
        P::QuoteVsObserved => quote_vs_observed(f),
        P::PeakNearLimit => peak_near_limit(f),
        P::StoppedBilling => {
            let (compute, disk) = both(
                (f.stopped_bills_compute, F::StoppedBillsCompute),
                (f.stopped_bills_disk, F::StoppedBillsDisk),
            )?;
            let used = [F::StoppedBillsCompute, F::StoppedBillsDisk];
            ok(S::Confirmed, C::StoppedBilling { compute, disk }, &used)
        }
        P::MinimumDuration => match one(f.min_duration_hours, F::MinDurationHours)? {
            0 => ok(S::Confirmed, C::NoMinimumDuration, &[F::MinDurationHours]),
            hours => ok(S::Confirmed, C::MinimumDurationHours { hours }, &[F::MinDurationHours]),
        },
        P::OtherFees => {
            let stated = one(f.fees_stated.as_deref(), F::FeesStated)?;
            let missing: Vec<FeeKind> = FeeKind::ALL.into_iter().filter(|k| !stated.contains(k)).collect();
            if missing.is_empty() {
                ok(S::Confirmed, C::AllFeesStated, &[F::FeesStated])
            } else {
                ok(S::Open, C::FeesNotStated { missing }, &[F::FeesStated])
            }
        }
        P::DiskRelease => {
            let (temp_wiped, data_survives) = both(
                (f.temp_disk_wiped_on_release, F::TempDiskWipedOnRelease),
                (f.data_disk_survives_release, F::DataDiskSurvivesRelease),
            )?;
            let used = [F::TempDiskWipedOnRelease, F::DataDiskSurvivesRelease];
            ok(
                S::Confirmed,
                C::DiskRelease {
                    temp_wiped,
                    data_survives,
                },
                &used,
            )
        }
        P::UsableVram | P::Snapshots | P::AutoRenewal | P::EarlyRelease | P::DataRegion => stated(source, f),
        P::EgressPricing => match one(f.egress, F::Egress)? {
            EgressPricing::NotStated => ok(S::Open, C::EgressNotStated, &[F::Egress]),
            pricing => ok(S::Confirmed, C::Egress { pricing }, &[F::Egress]),
        },
        other => desk::rule(other, f),
    }
}

/// Items the quote answers by stating something: usable VRAM, snapshots and object storage,
/// auto-renewal, the early-release rule, the region.
fn stated(source: P, f: &PrefillFacts) -> Rule {
    match source {
        P::UsableVram => {
            let mib = one(f.stated_usable_vram_mib, F::StatedUsableVramMib)?;
            if mib == 0 {
                return invalid(F::StatedUsableVramMib);
            }
            ok(S::Confirmed, C::UsableVramStated { mib }, &[F::StatedUsableVramMib])
        }
        P::Snapshots => match (f.snapshots_offered, f.object_storage_offered) {
            (None, None) => Err(vec![F::SnapshotsOffered, F::ObjectStorageOffered]),
            (snapshots, object_storage) => {
                let used = known(&[
                    (snapshots.is_some(), F::SnapshotsOffered),
                    (object_storage.is_some(), F::ObjectStorageOffered),
                ]);
                let code = C::StorageOffered {
                    snapshots,
                    object_storage,
                };
                ok(S::Confirmed, code, &used)
            }
        },
        P::AutoRenewal => {
            let renews = one(f.auto_renewal, F::AutoRenewal)?;
            ok(S::Confirmed, C::AutoRenewal { renews }, &[F::AutoRenewal])
        }
        P::EarlyRelease => {
            let rule = one(f.early_release.as_deref(), F::EarlyRelease)?.trim().to_owned();
            ok(S::Confirmed, C::EarlyRelease { rule }, &[F::EarlyRelease])
        }
        P::DataRegion => {
            let region = one(f.region.as_deref(), F::Region)?.trim().to_owned();
            ok(S::Confirmed, C::Region { region }, &[F::Region])
        }
        // Every other source has its own rule ([`rule`] sends only the five above here).
        other => rule(other, f),
    }
}

fn gpu_model(f: &PrefillFacts) -> Rule {
    let (model, vram_mib) = both(
        (f.gpu_model.as_deref(), F::GpuModel),
        (f.quoted_vram_mib, F::QuotedVramMib),
    )?;
    if model.trim().is_empty() {
        return invalid(F::GpuModel);
    }
    if vram_mib == 0 {
        return invalid(F::QuotedVramMib);
    }
    let code = C::GpuQuoted {
        model: model.to_owned(),
        vram_mib,
    };
    ok(S::Confirmed, code, &[F::GpuModel, F::QuotedVramMib])
}

/// The quoted form factor, checked against the GPU the backing run saw where the catalogue
/// knows its mount (an `A100-PCIE-40GB` on a quote of SXM modules is another node).
fn form_factor(f: &PrefillFacts) -> Rule {
    let form_factor = one(f.form_factor, F::FormFactor)?;
    let seen = f
        .observed_gpu_name
        .as_deref()
        .and_then(|name| Some((name, crate::gpus::lookup(name)?)));
    match (form_factor.mount(), seen) {
        (Some(quoted), Some((gpu, spec))) => {
            let used = [F::FormFactor, F::ObservedGpuName];
            if quoted.fits(spec.form) {
                ok(S::Confirmed, C::FormFactor { form_factor }, &used)
            } else {
                let code = C::FormFactorNotSeen {
                    form_factor,
                    observed: spec.form.label().to_owned(),
                    gpu: gpu.to_owned(),
                };
                ok(S::Problem, code, &used)
            }
        }
        _ => ok(S::Confirmed, C::FormFactor { form_factor }, &[F::FormFactor]),
    }
}

fn exclusivity(f: &PrefillFacts) -> Rule {
    let exclusivity = one(f.exclusivity, F::Exclusivity)?;
    if !exclusivity.is_sliced() {
        return ok(S::Confirmed, C::Exclusivity { exclusivity }, &[F::Exclusivity]);
    }
    let used = [F::Exclusivity, F::Workload];
    match one(f.workload, F::Workload)? {
        OrderKind::Training => ok(S::Problem, C::SlicedForTraining { exclusivity }, &used),
        _ => ok(S::Confirmed, C::Exclusivity { exclusivity }, &used),
    }
}

fn interconnect(f: &PrefillFacts) -> Rule {
    if !one(f.multi_gpu, F::MultiGpu)? {
        return ok(S::NotApplicable, C::SingleGpu, &[F::MultiGpu]);
    }
    let interconnect = one(f.interconnect, F::Interconnect)?;
    let used = [F::MultiGpu, F::Interconnect];
    if interconnect == Interconnect::NoLink {
        return ok(S::Problem, C::NoGpuLink, &used);
    }
    // An attached nccl-tests run is the evidence: the link as measured, not as quoted.
    match f.measured_link {
        Some(m) if m.least_gbps.is_some_and(|least| m.bus_gbps < least) => ok(
            S::Problem,
            C::InterconnectBelowQuote {
                interconnect,
                run_id: m.run_id,
                bus_gbps: m.bus_gbps,
                least_gbps: m.least_gbps.unwrap_or_default(),
            },
            &used,
        ),
        Some(m) => ok(
            S::Confirmed,
            C::InterconnectMeasured {
                interconnect,
                run_id: m.run_id,
                bus_gbps: m.bus_gbps,
                least_gbps: m.least_gbps,
            },
            &used,
        ),
        None => ok(S::Confirmed, C::Interconnect { interconnect }, &used),
    }
}

/// The one VRAM rule ([`vram::assess`]): the peak plus the workload's headroom against the
/// usable VRAM of one GPU or slice, in exact decimals.
fn assessed(f: &PrefillFacts) -> Result<(vram::Headroom, [F; 3]), Vec<F>> {
    let missing: Vec<F> = [
        (f.vram_peak_mib.is_none(), F::VramPeakMib),
        (f.usable_vram_mib.is_none(), F::UsableVramMib),
        (f.headroom_pct.is_none(), F::HeadroomPct),
    ]
    .into_iter()
    .filter_map(|(absent, fact)| absent.then_some(fact))
    .collect();
    match (f.vram_peak_mib, f.usable_vram_mib, f.headroom_pct) {
        (Some(peak), Some(usable), Some(pct)) => Ok((
            vram::assess(Decimal::from(peak), pct, Decimal::from(usable)),
            [F::VramPeakMib, F::UsableVramMib, F::HeadroomPct],
        )),
        _ => Err(missing),
    }
}

fn headroom(f: &PrefillFacts) -> Rule {
    if f.vram_peak_mib == Some(0) {
        return invalid(F::VramPeakMib);
    }
    let (h, used) = assessed(f)?;
    let pct = h.actual_pct.unwrap_or(i64::MAX);
    if !h.fits {
        let code = C::HeadroomBelowRange {
            pct,
            wanted_pct: h.headroom_pct,
            required_mib: h.required,
        };
        ok(S::Problem, code, &used)
    } else if (h.usable - h.peak).saturating_mul(Decimal::ONE_HUNDRED)
        > Decimal::from(HEADROOM_MAX_PCT).saturating_mul(h.peak)
    {
        ok(S::Confirmed, C::HeadroomAboveRange { pct }, &used)
    } else {
        ok(S::Confirmed, C::HeadroomWithinRange { pct }, &used)
    }
}

/// Checklist item `gpu.memory_leak_check`: when the peak is near the limit, look for leaks, copies and caches before
/// lowering the batch. "Near" is the headroom rule failing.
fn peak_near_limit(f: &PrefillFacts) -> Rule {
    if f.vram_peak_mib == Some(0) {
        return invalid(F::VramPeakMib);
    }
    let (h, used) = assessed(f)?;
    let pct = h.actual_pct.unwrap_or(i64::MAX);
    if h.fits {
        ok(S::NotApplicable, C::PeakNotNearLimit { pct }, &used)
    } else {
        ok(S::Open, C::PeakNearLimit { pct }, &used)
    }
}

fn benchmark(f: &PrefillFacts) -> Rule {
    let (v, minutes) = both((f.run_verdict, F::RunVerdict), (f.run_minutes, F::RunMinutes))?;
    let used = [F::RunVerdict, F::RunMinutes];
    match v {
        RunVerdict::Pass if minutes >= BENCHMARK_MIN_MINUTES => ok(S::Confirmed, C::BenchmarkPassed { minutes }, &used),
        RunVerdict::Pass => ok(S::Problem, C::BenchmarkTooShort { minutes }, &used),
        other => verdict(other, &used),
    }
}

/// The quote against what the backing run observed: GPU model, GPU count, VRAM per GPU and
/// MIG slicing (a difference is a problem, as in the run verdict), driver and CUDA (a
/// difference leaves the item open). Needs both VRAM figures; the rest is compared where
/// both sides are known.
fn quote_vs_observed(f: &PrefillFacts) -> Rule {
    let (quoted_mib, observed_mib) = both(
        (f.usable_vram_mib, F::UsableVramMib),
        (f.observed_vram_mib, F::ObservedVramMib),
    )?;
    if quoted_mib == 0 {
        return invalid(F::UsableVramMib);
    }
    let mut used = vec![F::UsableVramMib, F::ObservedVramMib];
    let mut mismatches = Vec::new();
    if let (Some(quoted), Some(observed)) = (&f.gpu_model, &f.observed_gpu_name) {
        used.extend([F::GpuModel, F::ObservedGpuName]);
        if !names_match(quoted, observed) {
            mismatches.push(Mismatch::GpuModel {
                quoted: quoted.clone(),
                observed: observed.clone(),
            });
        }
    }
    if let (Some(quoted), Some(observed)) = (f.quoted_gpu_count, f.observed_gpu_count) {
        used.extend([F::QuotedGpuCount, F::ObservedGpuCount]);
        if observed < quoted {
            mismatches.push(Mismatch::GpuCount { quoted, observed });
        }
    }
    if u128::from(observed_mib) * 100 < u128::from(quoted_mib) * u128::from(USABLE_VRAM_MIN_PCT) {
        mismatches.push(Mismatch::Vram {
            quoted_mib,
            observed_mib,
        });
    }
    if let (Some(exclusivity), Some(observed)) = (f.exclusivity, f.observed_mig) {
        used.extend([F::Exclusivity, F::ObservedMig]);
        let quoted = exclusivity == Exclusivity::Mig;
        if quoted != observed {
            mismatches.push(Mismatch::Mig { quoted, observed });
        }
    }
    if let (Some(quoted), Some(observed)) = (&f.quoted_driver, &f.observed_driver) {
        used.extend([F::QuotedDriver, F::ObservedDriver]);
        if !version_matches(quoted, observed) {
            mismatches.push(Mismatch::Driver {
                quoted: quoted.clone(),
                observed: observed.clone(),
            });
        }
    }
    if let (Some(quoted), Some(observed)) = (&f.quoted_cuda, &f.observed_cuda) {
        used.extend([F::QuotedCuda, F::ObservedCuda]);
        if !version_matches(quoted, observed) {
            mismatches.push(Mismatch::Cuda {
                quoted: quoted.clone(),
                observed: observed.clone(),
            });
        }
    }
    if mismatches.is_empty() {
        let code = C::ObservedMatchesQuote {
            quoted_mib,
            observed_mib,
        };
        return ok(S::Confirmed, code, &used);
    }
    let status = if mismatches.iter().any(Mismatch::is_hardware) {
        S::Problem
    } else {
        S::Open
    };
    ok(status, C::ObservedDiffers { mismatches }, &used)
}

/// A quoted version matches an observed one when each of its dot-separated parts equals the
/// observed part in the same place (`535` matches `535.129.03`, `12.2` matches `12.2`).
fn version_matches(quoted: &str, observed: &str) -> bool {
    let mut obs = observed.trim().split('.');
    quoted.trim().split('.').all(|q| obs.next() == Some(q))
}

fn verdict(v: RunVerdict, used: &[F]) -> Rule {
    match v {
        RunVerdict::Pass => ok(S::Confirmed, C::RunPassed, used),
        RunVerdict::Fail => ok(S::Problem, C::RunFailed, used),
        RunVerdict::Inconclusive => ok(S::Open, C::RunInconclusive, used),
    }
}

/// A pinned image: no whitespace, and either `name@sha256:<64 hex>` or a last path
/// segment `repo:tag` with a non-empty tag other than `latest`.
#[must_use]
pub fn image_is_pinned(image: &str) -> bool {
    let s = image.trim();
    if s.is_empty() || s.chars().any(char::is_whitespace) {
        return false;
    }
    if let Some((name, digest)) = s.split_once('@') {
        let hex = digest.strip_prefix("sha256:").unwrap_or("");
        return !name.is_empty() && hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let last = s.rsplit('/').next().unwrap_or(s);
    match last.split_once(':') {
        Some((repo, tag)) => !repo.is_empty() && !tag.is_empty() && tag != "latest",
        None => false,
    }
}

/// The facts of `pairs` that are known (a rule that reads whichever of several facts is stated).
fn known(pairs: &[(bool, F)]) -> Vec<F> {
    pairs
        .iter()
        .filter_map(|(known, fact)| known.then_some(*fact))
        .collect()
}

fn one<T>(value: Option<T>, fact: F) -> Result<T, Vec<F>> {
    value.ok_or_else(|| vec![fact])
}

/// Both values, or every fact among the two that is missing.
fn both<A, B>(a: (Option<A>, F), b: (Option<B>, F)) -> Result<(A, B), Vec<F>> {
    match (a.0, b.0) {
        (Some(x), Some(y)) => Ok((x, y)),
        (x, y) => Err([(x.is_none(), a.1), (y.is_none(), b.1)]
            .into_iter()
            .filter_map(|(absent, fact)| absent.then_some(fact))
            .collect()),
    }
}

fn invalid(fact: F) -> Rule {
    ok(S::Open, C::InvalidFact { fact }, &[fact])
}

fn ok(status: S, code: C, facts_used: &[F]) -> Rule {
    Ok(Suggestion {
        status,
        code,
        facts_used: facts_used.to_vec(),
    })
}
