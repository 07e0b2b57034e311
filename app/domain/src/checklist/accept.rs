//! Accepting a pre-fill suggestion as one's own answer, in one action.
//!
//! A suggestion ([`super::prefill()`]) may be accepted when it settles the item: a confirmed
//! suggestion with the evidence the item asks for, a "not applicable" one (its reason is what the
//! facts say), or a problem (its explanation is what the facts say). An open suggestion leaves
//! something to ask and is only shown.
//!
//! The evidence attached is where the facts come from: the fields of the chosen quote revision
//! the suggestion read ([`quote_fields`]), and the valid run backing the chosen quote when it read
//! what a run observed ([`from_run`]).
//!
//! The page sends back the [`suggestion_key`] of what the person read; the server recomputes it
//! from the data as it is then and refuses when they differ, so what is recorded is exactly what
//! was read.

use serde::Serialize;

use super::answer::{Evidence, ItemAnswer, ItemStatus};
use super::codes::{AnswerCode, Prefill, Suggested, Suggestion};
use super::facts::{Fact, PrefillFacts};
use super::model::Item;
use super::prefill::prefill;
use super::rules::has_evidence;

/// Where a suggestion's evidence comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvidenceSources {
    /// The chosen quote revision (`None`: no quote chosen, no field to cite).
    pub quote_revision_id: Option<i64>,
    /// The run backing the chosen quote ([`super::backing_run`]) when it is valid and may be
    /// cited (a run that warns or failed is never cited).
    pub valid_run: Option<i64>,
    /// The order whose cost comparison a suggestion may cite (`None`: it has none).
    pub comparison: Option<i64>,
}

/// A suggestion that may be accepted, with the evidence accepting it records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Acceptable {
    pub suggestion: Suggestion,
    /// Quote fields first (in the order the suggestion used them), then the run.
    pub evidence: Vec<Evidence>,
}

/// The quote fields (column names, [`crate::quotes::QUOTE_FIELDS`]) a fact is read from;
/// empty for facts of the workload or of a run.
#[must_use]
pub fn quote_fields(fact: Fact) -> &'static [&'static str] {
    use Fact as F;
    match fact {
        F::GpuModel => &["spec.gpu_model"],
        F::QuotedVramMib => &["spec.vram_gib"],
        F::UsableVramMib => &["spec.usable_vram_gib", "spec.vram_gib"],
        F::QuotedGpuCount => &["spec.gpus_per_node"],
        F::QuotedDriver => &["spec.nvidia_driver"],
        F::QuotedCuda => &["spec.cuda"],
        F::FormFactor => &["spec.form_factor"],
        F::Exclusivity => &["spec.sharing"],
        F::Interconnect => &["spec.interconnect"],
        F::SoftwareImage => &["spec.os"],
        F::StoppedBillsCompute => &["price.stopped_bills_compute"],
        F::StoppedBillsDisk => &["price.disk_price_gb_month"],
        F::MinDurationHours => &["price.minimum_billable_hours"],
        F::FeesStated => &[
            "price.other_fees",
            "spec.vcpus",
            "spec.ram_gib",
            "price.disk_price_gb_month",
            "price.public_ip_hourly",
            "price.egress_price_gb",
            "price.snapshot_price_gb_month",
            "spec.object_storage",
        ],
        F::TempDiskWipedOnRelease => &["spec.temp_disk_wiped"],
        F::DataDiskSurvivesRelease => &["spec.data_disk_survives_release"],
        F::Egress => &["price.egress_price_gb", "price.free_egress_gb"],
        F::StatedUsableVramMib => &["spec.usable_vram_gib"],
        F::SnapshotsOffered => &["spec.snapshots"],
        F::ObjectStorageOffered => &["spec.object_storage"],
        F::AutoRenewal => &["auto_renewal"],
        F::EarlyRelease => &["early_release"],
        F::Region => &["spec.region"],
        F::Disks => &[
            "spec.system_disk_gb",
            "spec.system_disk_type",
            "spec.data_disk_gb",
            "spec.data_disk_type",
        ],
        F::ListedFees => &["price.other_fees"],
        F::InternalBandwidthGbps => &["spec.internal_bandwidth_gbps"],
        F::PublicBandwidthMbps => &["spec.public_bandwidth_mbps"],
        F::DockerAllowed => &["spec.docker_allowed"],
        F::RootSsh => &["spec.root_ssh"],
        F::BillingStepS => &["price.billing_increment"],
        F::LeadTimeHours => &["lead_time_hours"],
        F::Workload
        | F::StorageNeedGb
        | F::DataGb
        | F::CheckpointGb
        | F::VendorContact
        | F::VendorFaultHelp
        | F::Compared
        | F::MultiGpu
        | F::VramPeakMib
        | F::HeadroomPct
        | F::ObservedGpuName
        | F::ObservedGpuCount
        | F::ObservedVramMib
        | F::ObservedDriver
        | F::ObservedCuda
        | F::ObservedMig
        | F::RunVerdict
        | F::RunMinutes
        | F::GpuUtilPct
        | F::ThrottlingObserved => &[],
    }
}

/// Whether a fact is (or may be) what the backing run observed. The VRAM peak is the
/// workload's or the run's, whichever is higher, so the run backs it too.
#[must_use]
pub fn from_run(fact: Fact) -> bool {
    use Fact as F;
    matches!(
        fact,
        F::ObservedGpuName
            | F::ObservedGpuCount
            | F::ObservedVramMib
            | F::ObservedDriver
            | F::ObservedCuda
            | F::ObservedMig
            | F::RunVerdict
            | F::RunMinutes
            | F::ThrottlingObserved
            | F::GpuUtilPct
            | F::VramPeakMib
    )
}

/// The evidence a suggestion rests on: the first stated field of each quote fact (a fact read
/// from one of several fields cites the first, e.g. usable VRAM), each once, then the run.
fn evidence_of(s: &Suggestion, sources: &EvidenceSources, stated: &dyn Fn(&str) -> bool) -> Vec<Evidence> {
    let mut fields: Vec<&'static str> = Vec::new();
    if sources.quote_revision_id.is_some() {
        for fact in &s.facts_used {
            let all = quote_fields(*fact);
            // A fact read from several fields together (the fees, the disks) cites every
            // stated one.
            let cited: Vec<&'static str> = if matches!(fact, Fact::FeesStated | Fact::Disks) {
                all.iter().copied().filter(|f| stated(f)).collect()
            } else {
                all.iter().copied().find(|f| stated(f)).into_iter().collect()
            };
            for f in cited {
                if !fields.contains(&f) {
                    fields.push(f);
                }
            }
        }
    }
    let mut evidence: Vec<Evidence> = fields
        .into_iter()
        .filter_map(|field| {
            Some(Evidence::QuoteField {
                quote_revision_id: sources.quote_revision_id?,
                field: field.to_string(),
            })
        })
        .collect();
    if let Some(run_id) = sources.valid_run
        && s.facts_used.iter().any(|f| from_run(*f))
    {
        evidence.push(Evidence::Run { run_id });
    }
    if let Some(id) = sources.comparison
        && s.facts_used.contains(&Fact::Compared)
    {
        evidence.push(Evidence::TcoComparison { id });
    }
    // The vendor's contact, from its record, is cited as the note of what the vendor said.
    if let AnswerCode::SupportContact { contact } = &s.code {
        evidence.push(Evidence::Note { text: contact.clone() });
    }
    evidence
}

/// The suggestion for `item` that accepting would record, or `None` when there is none to
/// accept: no suggestion, an open one, or a confirmed one without the evidence the item asks
/// for. `stated` says whether the chosen quote states a field (a blank field is not cited).
#[must_use]
pub fn acceptable(
    item: &Item,
    facts: &PrefillFacts,
    sources: &EvidenceSources,
    stated: &dyn Fn(&str) -> bool,
) -> Option<Acceptable> {
    let Prefill::Suggest(suggestion) = prefill(item, facts) else {
        return None;
    };
    let evidence = evidence_of(&suggestion, sources, stated);
    let settles = match suggestion.status {
        Suggested::Open => false,
        Suggested::Confirmed => has_evidence(item, &evidence),
        Suggested::NotApplicable | Suggested::Problem => true,
    };
    settles.then_some(Acceptable { suggestion, evidence })
}

/// The status accepting records, with `text` (what the suggestion says, in the acceptor's
/// language) as the reason or explanation; `None` for an open suggestion.
#[must_use]
pub fn accepted_status(suggested: Suggested, text: &str) -> Option<ItemStatus> {
    let text = text.trim().to_string();
    match suggested {
        Suggested::Open => None,
        Suggested::Confirmed => Some(ItemStatus::Confirmed),
        Suggested::NotApplicable => Some(ItemStatus::NotApplicable { reason: text }),
        Suggested::Problem => Some(ItemStatus::Problem { note: text }),
    }
}

/// Whether an item's current answer leaves room for a suggestion: none yet, or still open.
/// Anything else is someone's answer, which accepting never overwrites.
#[must_use]
pub fn takes_suggestion(current: Option<&ItemAnswer>) -> bool {
    current.is_none_or(|a| a.status == ItemStatus::Open)
}

/// What a person read: the item, the suggestion with its evidence, and the answer it would
/// replace (its time; empty when unanswered), as SHA-256 hex of their JSON. Any change to
/// one of them changes the key.
#[must_use]
pub fn suggestion_key(item_id: &str, a: &Acceptable, current: Option<&ItemAnswer>) -> String {
    let read = serde_json::json!({
        "item_id": item_id,
        "status": a.suggestion.status,
        "code": a.suggestion.code,
        "evidence": a.evidence,
        "replaces": current.map(|c| c.answered_at.as_str()).unwrap_or_default(),
    });
    crate::audit::sha256_hex(&read.to_string())
}
