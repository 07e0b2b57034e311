//! Building the facts from loaded data: the workload, the quote, what runs observed.

use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::super::{
    AnswerCode as C, EgressPricing, Exclusivity, Fact, FactSources, FeeKind, FormFactor, Interconnect, Prefill,
    PrefillFacts, RunObservation, RunVerdict, Suggested as S, backing_run, gather, item, prefill,
};
use crate::{
    quotes::{self, Date, NodeSpec, QuoteDraft, Sharing, Workload, WorkloadKind},
    runs::RunStatus,
    tco::{BillingIncrement, Currency, Fee, PriceBasis, PriceSheet},
};

fn workload() -> Workload {
    Workload {
        name: "vision fine-tune".into(),
        kind: WorkloadKind::Training,
        model: "ViT-L".into(),
        precision: "bf16".into(),
        vram_peak_gib: dec!(20),
        vram_peak_measured: true,
        concurrency: 1,
        gpus_needed: 2,
        run_hours: Some(dec!(72)),
        total_work: None,
        data_gb: dec!(50),
        checkpoint_gb: dec!(30),
        headroom_pct: dec!(20),
        gpu_use: crate::runs::GpuUse::OneJob,
        deadline: None,
        earliest_start: None,
        response_target: None,
    }
}

fn quote() -> QuoteDraft {
    let mut spec = NodeSpec::new("A10", 2, dec!(24), Sharing::Exclusive);
    spec.form_factor = Some(quotes::FormFactor::Pcie);
    spec.interconnect = Some(quotes::Interconnect::Pcie);
    spec.os = "nvcr.io/nvidia/pytorch:24.05-py3".into();
    spec.nvidia_driver = "535".into();
    spec.cuda = "12.2".into();
    spec.vcpus = Some(32);
    spec.ram_gib = Some(dec!(128));
    spec.object_storage = Some(false);
    spec.temp_disk_wiped = Some(true);
    spec.data_disk_survives_release = Some(false);
    spec.usable_vram_gib = Some(dec!(24));
    spec.snapshots = Some(true);
    spec.region = " cn-east-2 ".into();
    spec.data_disk_gb = Some(dec!(500));
    spec.data_disk_type = "nvme".into();
    spec.public_bandwidth_mbps = Some(dec!(100));
    spec.internal_bandwidth_gbps = Some(dec!(10));
    spec.docker_allowed = Some(true);
    spec.root_ssh = Some(false);
    QuoteDraft {
        vendor: "Acme".into(),
        reference: "A10-2".into(),
        received_on: Date::parse("2026-11-01").expect("date"),
        valid_until: Date::parse("2099-12-31").expect("date"),
        spec,
        price: PriceSheet {
            currency: Currency::CNY,
            basis: PriceBasis::PerNode,
            on_demand_hourly: Some(dec!(9.50)),
            billing_increment: BillingIncrement::MINUTE,
            minimum_billable_hours: dec!(1.5),
            monthly_price: None,
            monthly_basis: None,
            commitment_months: None,
            package_period: None,
            early_release_refund: None,
            stopped_bills_compute: false,
            stopped_compute_share: None,
            stopped_hourly: None,
            stopped_bills_disk: true,
            stopped_bills_ip: true,
            disk_price_gb_month: dec!(0.35),
            snapshot_price_gb_month: dec!(0.12),
            egress_price_gb: dec!(0.80),
            free_egress_gb: Decimal::ZERO,
            egress_tiers: Vec::new(),
            ingress_tiers: Vec::new(),
            traffic_period: None,
            ingress_price_gb: Decimal::ZERO,
            public_ip_hourly: Decimal::ZERO,
            other_fees: vec![Fee {
                label: "镜像存储".into(),
                amount: dec!(20),
            }],
            not_stated: Vec::new(),
        },
        auto_renewal: Some(false),
        early_release: "Unused days refunded at 50 %".into(),
        nodes_available: None,
        lead_time_hours: None,
        notes: String::new(),
    }
}

/// A canonical run as `nodeledger bench parse` writes it: an A100 node, 20 min with 60 s
/// warm-up, telemetry, a slowdown in the verdict.
const A100_RUN: &str = r#"{
  "schema": "nodeledger.run/v1", "source_format": "canonical",
  "node": { "gpu_name": "NVIDIA A100-SXM4-80GB", "gpu_count": 2, "vram_total_mib": 81920.0,
            "driver_version": "550.54.15", "cuda_version": "12.4", "mig": false },
  "duration_s": 1200.0, "warmup_s": 60.0, "vram_peak_mib": 22528.0, "gpu_util_mean_pct": 91.6,
  "telemetry": [ { "t": 0.0, "gpu": 0, "util_pct": 95.0 } ],
  "verdict": { "status": "invalid", "reasons": [
    { "severity": "invalid", "code": "thermal_or_power_slowdown", "active_s": 175.0, "share": 0.146, "max_share": 0.1, "reasons": ["hw_slowdown"] } ] },
  "some_future_field": { "kept": true }
}"#;

fn run(id: i64, status: RunStatus, json: &str) -> RunObservation {
    RunObservation::from_canonical(id, Some(7), Some(status), json).expect("canonical run reads")
}

#[test]
fn a_canonical_run_reads_into_an_observation() {
    let r = run(3, RunStatus::Invalid, A100_RUN);
    assert_eq!(r.gpu_name.as_deref(), Some("NVIDIA A100-SXM4-80GB"));
    assert_eq!(
        (r.gpu_count, r.vram_total_mib, r.mig),
        (Some(2), Some(81920.0), Some(false))
    );
    assert_eq!(
        (r.driver.as_deref(), r.cuda.as_deref()),
        (Some("550.54.15"), Some("12.4"))
    );
    // 1200 s − 60 s warm-up = 19 whole minutes.
    assert_eq!(r.steady_minutes(), Some(19));
    assert_eq!(r.throttling(), Some(true));
    let quiet = run(
        4,
        RunStatus::Valid,
        r#"{"schema":"nodeledger.run/v1","source_format":"canonical","telemetry":[{"t":0,"gpu":0}],"duration_s":600}"#,
    );
    assert_eq!((quiet.throttling(), quiet.steady_minutes()), (Some(false), Some(10)));
    let blind = run(
        5,
        RunStatus::Valid,
        r#"{"schema":"nodeledger.run/v1","source_format":"canonical","duration_s":599.9}"#,
    );
    assert_eq!(
        blind.throttling(),
        None,
        "without telemetry throttling could not be seen"
    );
    assert_eq!(blind.steady_minutes(), Some(9));
    assert!(RunObservation::from_canonical(1, None, None, "[]").is_err());
}

#[test]
fn every_data_judged_fact_is_set_from_the_quote_and_the_run() {
    let (w, q) = (workload(), quote());
    let runs = [run(3, RunStatus::Invalid, A100_RUN)];
    let f = gather(&FactSources {
        workload: &w,
        quote_id: Some(7),
        quote: Some(&q),
        runs: &runs,
    });
    // The eight facts that were never set before.
    assert_eq!(f.form_factor, Some(FormFactor::Pcie));
    assert_eq!(f.interconnect, Some(Interconnect::Pcie));
    assert_eq!(f.software_image.as_deref(), Some("nvcr.io/nvidia/pytorch:24.05-py3"));
    assert_eq!(f.run_minutes, Some(19));
    assert_eq!(f.throttling_observed, Some(true));
    assert_eq!(
        f.stopped_bills_disk,
        Some(true),
        "0.35 per GB-month bills the disks of a stopped node"
    );
    assert_eq!(
        f.fees_stated,
        Some(vec![
            FeeKind::Cpu,
            FeeKind::Memory,
            FeeKind::Disk,
            FeeKind::Traffic,
            FeeKind::Snapshot,
            FeeKind::Storage
        ])
    );
    assert_eq!(f.egress, Some(EgressPricing::Metered));
    assert_eq!(f.stated_usable_vram_mib, Some(24_576));
    assert_eq!(
        (f.snapshots_offered, f.object_storage_offered),
        (Some(true), Some(false))
    );
    assert_eq!(f.auto_renewal, Some(false));
    assert_eq!(f.early_release.as_deref(), Some("Unused days refunded at 50 %"));
    assert_eq!(f.region.as_deref(), Some("cn-east-2"), "trimmed");
    // The rest.
    assert_eq!(f.workload, Some(super::super::OrderKind::Training));
    assert_eq!((f.multi_gpu, f.headroom_pct), (Some(true), Some(dec!(20))));
    assert_eq!((f.quoted_vram_mib, f.usable_vram_mib), (Some(24_576), Some(24_576)));
    assert_eq!(
        f.vram_peak_mib,
        Some(22_528),
        "the run's 22 GiB peak is above the workload's 20 GiB"
    );
    assert_eq!(f.exclusivity, Some(Exclusivity::Exclusive));
    assert_eq!(f.min_duration_hours, Some(2));
    assert_eq!(f.run_verdict, Some(RunVerdict::Fail));
    assert_eq!(f.gpu_util_pct, Some(91), "the mean utilisation, rounded down");
    assert_eq!(
        (f.observed_gpu_name.as_deref(), f.observed_vram_mib),
        (Some("NVIDIA A100-SXM4-80GB"), Some(81_920))
    );
    assert_eq!(
        (f.quoted_driver.as_deref(), f.observed_driver.as_deref()),
        (Some("535"), Some("550.54.15"))
    );
    every_rule_has_its_facts(&f);
    // And the run is compared with the quote, not the quote with itself.
    let Prefill::Suggest(s) = prefill(item("perf.quote_vs_observed").expect("item"), &f) else {
        panic!()
    };
    assert_eq!(s.status, S::Problem);
    assert!(matches!(s.code, C::ObservedDiffers { .. }));
    let Prefill::Suggest(h) = prefill(item("gpu.vram_headroom").expect("item"), &f) else {
        panic!()
    };
    assert_eq!(
        h.status,
        S::Problem,
        "22 GiB × 1.2 = 26.4 GiB does not fit 24 GiB: {h:?}"
    );
}

/// Every item judged from the quote, the workload and the run has all its facts in `f`.
fn every_rule_has_its_facts(f: &PrefillFacts) {
    // The vendor's record and the comparison are the service's to add.
    let from_service = [Fact::VendorContact, Fact::VendorFaultHelp, Fact::Compared];
    for i in super::super::ITEMS.iter().filter(|i| {
        i.prefill
            .is_some_and(|p| !super::super::source_facts(p).iter().any(|f| from_service.contains(f)))
    }) {
        assert!(
            matches!(prefill(i, f), Prefill::Suggest(_)),
            "{}: {:?}",
            i.id,
            prefill(i, f)
        );
    }
}

#[test]
fn without_a_run_of_the_chosen_quote_nothing_observed_is_claimed() {
    let (w, q) = (workload(), quote());
    let other = [RunObservation {
        quote_id: Some(99),
        ..run(3, RunStatus::Valid, A100_RUN)
    }];
    let f = gather(&FactSources {
        workload: &w,
        quote_id: Some(7),
        quote: Some(&q),
        runs: &other,
    });
    assert_eq!(
        (f.run_verdict, f.run_minutes, f.throttling_observed, f.observed_vram_mib),
        (None, None, None, None)
    );
    assert_eq!(f.vram_peak_mib, Some(20 * 1024), "the workload's peak");
    assert_eq!(
        prefill(item("perf.quote_vs_observed").expect("item"), &f),
        Prefill::Missing(vec![Fact::ObservedVramMib])
    );
    let none = gather(&FactSources {
        workload: &w,
        quote_id: None,
        quote: None,
        runs: &[],
    });
    assert_eq!(
        none,
        PrefillFacts {
            workload: none.workload,
            multi_gpu: Some(true),
            vram_peak_mib: Some(20_480),
            headroom_pct: Some(dec!(20)),
            storage_need_gb: Some(dec!(80)),
            data_gb: Some(dec!(50)),
            checkpoint_gb: Some(dec!(30)),
            ..PrefillFacts::default()
        }
    );
}

#[test]
fn the_backing_run_is_the_best_then_the_latest_of_the_chosen_quote() {
    let runs = [
        run(1, RunStatus::Valid, A100_RUN),
        run(2, RunStatus::Warn, A100_RUN),
        run(3, RunStatus::Valid, A100_RUN),
        RunObservation {
            quote_id: Some(8),
            ..run(4, RunStatus::Valid, A100_RUN)
        },
    ];
    assert_eq!(backing_run(&runs, Some(7)).map(|r| r.id), Some(3));
    assert_eq!(backing_run(&runs[1..2], Some(7)).map(|r| r.id), Some(2));
    assert_eq!(backing_run(&runs, None).map(|r| r.id), None);
}

#[test]
fn zero_prices_are_not_stated_and_a_free_allowance_is_included() {
    let mut q = quote();
    q.price.disk_price_gb_month = Decimal::ZERO;
    q.price.egress_price_gb = Decimal::ZERO;
    q.price.free_egress_gb = dec!(100);
    q.price.snapshot_price_gb_month = Decimal::ZERO;
    q.price.other_fees.clear();
    q.spec.object_storage = None;
    q.spec.vcpus = None;
    assert_eq!(super::super::fees_stated(&q), [FeeKind::Memory, FeeKind::Traffic]);
    assert_eq!(super::super::egress(&q), EgressPricing::Included);
    q.price.free_egress_gb = Decimal::ZERO;
    assert_eq!(super::super::egress(&q), EgressPricing::NotStated);
}

/// An nccl-tests fixture (NVIDIA/nccl-tests `src/util.cu`; SOURCES.md §8) as stored: parsed and
/// judged against an 8-GPU quote of `gpu`, linked by NVSwitch.
fn nccl_run(id: i64, fixture: &str, gpu: &str) -> RunObservation {
    use crate::runs::{QuotedNode, VerdictContext, assess, parse};
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            gpu_name: Some(gpu.into()),
            gpu_count: Some(8),
            nvlink: Some(true),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let judged = assess(parse(fixture.as_bytes(), None).expect("reads"), &ctx);
    let status = judged.verdict.as_ref().map(|v| v.status);
    let json = serde_json::to_string(&judged).expect("encodes");
    RunObservation::from_canonical(id, Some(7), status, &json).expect("reads back")
}

/// The interconnect item takes an attached nccl-tests run as its evidence: confirmed when the
/// bus bandwidth reaches what the quoted link should give, a problem when it does not; the
/// link test is never the run the benchmark items read.
#[test]
fn an_attached_nccl_tests_run_is_the_interconnect_items_evidence() {
    let nvswitch = include_str!("../../runs/fixtures/nccl_all_reduce_perf.txt");
    let pcie = include_str!("../../runs/fixtures/nccl_all_reduce_perf_pcie.txt");
    let mut q = quote();
    q.spec.interconnect = Some(quotes::Interconnect::Nvswitch);
    let w = workload();
    let benchmark = run(3, RunStatus::Invalid, A100_RUN);
    let facts = |runs: &[RunObservation]| {
        gather(&FactSources {
            workload: &w,
            quote_id: Some(7),
            quote: Some(&q),
            runs,
        })
    };
    let item = item("gpu.multi_gpu_interconnect").expect("item");
    let runs = [benchmark.clone(), nccl_run(9, nvswitch, "H100 SXM5 80GB")];
    let f = facts(&runs);
    assert_eq!(
        backing_run(&runs, Some(7)).map(|r| r.id),
        Some(3),
        "the benchmark backs the run items"
    );
    let Prefill::Suggest(s) = prefill(item, &f) else {
        panic!("{f:?}")
    };
    assert_eq!(s.status, S::Confirmed);
    assert_eq!(
        s.code,
        C::InterconnectMeasured {
            interconnect: Interconnect::NvLink,
            run_id: 9,
            bus_gbps: dec!(480.9),
            least_gbps: Some(dec!(270)),
        }
    );
    // The PCIe capture placed on the NVSwitch quote: 21.2 GB/s against 270.
    let runs = [benchmark, nccl_run(10, pcie, "H100 SXM5 80GB")];
    let Prefill::Suggest(s) = prefill(item, &facts(&runs)) else {
        panic!()
    };
    assert_eq!(s.status, S::Problem);
    assert!(
        matches!(s.code, C::InterconnectBelowQuote { run_id: 10, .. }),
        "{:?}",
        s.code
    );
}
