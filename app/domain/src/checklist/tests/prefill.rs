//! Pre-fill rules: missing facts and their names.

use rust_decimal_macros::dec;

use super::super::{
    AnswerCode as C, ComparedChoice, Disks, EgressPricing, Exclusivity, Fact, FeeKind, FormFactor, ITEMS, Interconnect,
    Item, ListedFee, OrderKind, Prefill, PrefillFacts, RunVerdict, Suggested as S, item, prefill,
};

/// Every fact known, for an inference order on two L40S that passes every rule.
pub(super) fn full() -> PrefillFacts {
    PrefillFacts {
        workload: Some(OrderKind::Inference),
        multi_gpu: Some(true),
        gpu_model: Some("L40S".into()),
        quoted_vram_mib: Some(46_068),
        usable_vram_mib: Some(46_000),
        vram_peak_mib: Some(38_000),
        headroom_pct: Some(dec!(20)),
        quoted_gpu_count: Some(2),
        quoted_driver: Some("535".into()),
        quoted_cuda: Some("12.2".into()),
        observed_gpu_name: Some("NVIDIA L40S".into()),
        observed_gpu_count: Some(2),
        observed_vram_mib: Some(46_068),
        observed_driver: Some("535.129.03".into()),
        observed_cuda: Some("12.2".into()),
        observed_mig: Some(false),
        form_factor: Some(FormFactor::Pcie),
        exclusivity: Some(Exclusivity::Exclusive),
        interconnect: Some(Interconnect::Pcie),
        measured_link: None,
        software_image: Some("nvcr.io/nvidia/pytorch:24.05-py3".into()),
        run_verdict: Some(RunVerdict::Pass),
        run_minutes: Some(20),
        throttling_observed: Some(false),
        stopped_bills_compute: Some(false),
        stopped_bills_disk: Some(true),
        min_duration_hours: Some(0),
        fees_stated: Some(FeeKind::ALL.to_vec()),
        temp_disk_wiped_on_release: Some(true),
        data_disk_survives_release: Some(true),
        egress: Some(EgressPricing::Metered),
        stated_usable_vram_mib: Some(46_000),
        snapshots_offered: Some(true),
        object_storage_offered: Some(false),
        auto_renewal: Some(false),
        early_release: Some("unused days refunded".into()),
        region: Some("cn-east-2".into()),
        disks: Some(Disks {
            system_gb: Some(dec!(100)),
            system_type: "ssd".into(),
            data_gb: Some(dec!(2000)),
            data_type: "nvme".into(),
        }),
        storage_need_gb: Some(dec!(700)),
        data_gb: Some(dec!(500)),
        checkpoint_gb: Some(dec!(200)),
        listed_fees: Some(vec![ListedFee {
            label: "image storage".into(),
            amount: dec!(0),
        }]),
        internal_bandwidth_gbps: Some(dec!(25)),
        public_bandwidth_mbps: Some(dec!(200)),
        docker_allowed: Some(true),
        root_ssh: Some(true),
        billing_step_s: Some(60),
        lead_time_hours: Some(dec!(24)),
        vendor_contact: Some("ops@vendor.example".into()),
        vendor_fault_help: Some(true),
        compared: Some(ComparedChoice {
            rank: 1,
            of: 3,
            total: dec!(1037.50),
            currency: "CNY".into(),
            over_budget: false,
            measured: true,
            time_to_finish: "20.8 h".into(),
            measured_quotes: 2,
        }),
        gpu_util_pct: Some(93),
    }
}

/// The checklist item `id` (panics when there is none).
pub(super) fn get(id: &str) -> &'static Item {
    item(id).unwrap_or_else(|| panic!("{id}"))
}

/// What the pre-fill suggests for item `id` from `f` (panics when it suggests nothing).
pub(super) fn suggestion(id: &str, f: &PrefillFacts) -> (S, C) {
    match prefill(get(id), f) {
        Prefill::Suggest(s) => (s.status, s.code),
        other => panic!("{id}: {other:?}"),
    }
}

#[test]
fn items_without_source_give_no_source() {
    assert_eq!(prefill(get("sec.credentials"), &full()), Prefill::NoSource);
}

#[test]
fn no_facts_means_missing_for_every_prefillable_item() {
    for i in ITEMS.iter().filter(|i| i.prefill.is_some()) {
        match prefill(i, &PrefillFacts::default()) {
            Prefill::Missing(m) => assert!(!m.is_empty(), "{}", i.id),
            other => panic!("{} guessed {other:?}", i.id),
        }
    }
}

#[test]
fn full_facts_never_missing_and_facts_used_are_known() {
    let f = full();
    let known = serde_json::to_value(&f).expect("facts serialize");
    for i in ITEMS.iter().filter(|i| i.prefill.is_some()) {
        match prefill(i, &f) {
            Prefill::Suggest(s) => {
                assert!(!s.facts_used.is_empty(), "{}", i.id);
                for fact in s.facts_used {
                    let name = serde_json::to_value(fact).expect("fact serializes");
                    let name = name.as_str().expect("fact is a string");
                    assert!(!known[name].is_null(), "{}: {name} is not a known fact", i.id);
                }
            }
            other => panic!("{}: {other:?}", i.id),
        }
    }
}

#[test]
fn fact_names_are_prefill_facts_field_names() {
    let facts = serde_json::to_value(full()).expect("serialize");
    let fields = facts.as_object().expect("object");
    let names: Vec<String> = [
        Fact::Workload,
        Fact::MultiGpu,
        Fact::GpuModel,
        Fact::QuotedVramMib,
        Fact::UsableVramMib,
        Fact::VramPeakMib,
        Fact::HeadroomPct,
        Fact::QuotedGpuCount,
        Fact::QuotedDriver,
        Fact::QuotedCuda,
        Fact::ObservedGpuName,
        Fact::ObservedGpuCount,
        Fact::ObservedVramMib,
        Fact::ObservedDriver,
        Fact::ObservedCuda,
        Fact::ObservedMig,
        Fact::FormFactor,
        Fact::Exclusivity,
        Fact::Interconnect,
        Fact::SoftwareImage,
        Fact::RunVerdict,
        Fact::RunMinutes,
        Fact::ThrottlingObserved,
        Fact::StoppedBillsCompute,
        Fact::StoppedBillsDisk,
        Fact::MinDurationHours,
        Fact::FeesStated,
        Fact::TempDiskWipedOnRelease,
        Fact::DataDiskSurvivesRelease,
        Fact::Egress,
        Fact::StatedUsableVramMib,
        Fact::SnapshotsOffered,
        Fact::ObjectStorageOffered,
        Fact::AutoRenewal,
        Fact::EarlyRelease,
        Fact::Region,
        Fact::Disks,
        Fact::StorageNeedGb,
        Fact::DataGb,
        Fact::CheckpointGb,
        Fact::ListedFees,
        Fact::InternalBandwidthGbps,
        Fact::PublicBandwidthMbps,
        Fact::DockerAllowed,
        Fact::RootSsh,
        Fact::BillingStepS,
        Fact::LeadTimeHours,
        Fact::VendorContact,
        Fact::VendorFaultHelp,
        Fact::Compared,
        Fact::GpuUtilPct,
    ]
    .iter()
    .map(|f| serde_json::to_value(f).expect("s").as_str().expect("str").to_owned())
    .collect();
    assert_eq!(names.len(), fields.len());
    for n in names {
        assert!(fields.contains_key(&n), "{n}");
    }
}

#[test]
fn missing_names_each_absent_fact() {
    let mut f = full();
    f.vram_peak_mib = None;
    assert_eq!(
        prefill(get("gpu.vram_headroom"), &f),
        Prefill::Missing(vec![Fact::VramPeakMib])
    );
    f.usable_vram_mib = None;
    assert_eq!(
        prefill(get("gpu.vram_headroom"), &f),
        Prefill::Missing(vec![Fact::VramPeakMib, Fact::UsableVramMib])
    );
    // Quoted VRAM is never used in place of usable VRAM.
    assert!(f.quoted_vram_mib.is_some());
    let json = serde_json::to_string(&prefill(get("gpu.vram_headroom"), &f)).expect("json");
    assert_eq!(
        json,
        r#"{"kind":"missing","value":["vram_peak_mib","usable_vram_mib"]}"#
    );
}
