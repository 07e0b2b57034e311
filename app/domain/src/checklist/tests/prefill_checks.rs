//! Pre-fill of the other items: exclusivity, benchmark, quote vs observed, image, billing,
//! disk and GPU facts.

use super::super::{
    AnswerCode as C, EgressPricing, Exclusivity, Fact, FeeKind, FormFactor, Interconnect, Mismatch as M, OrderKind,
    Prefill, PrefillFacts, RunVerdict, Suggested as S, image_is_pinned, prefill,
};

use super::prefill::{full, get, suggestion};

#[test]
fn exclusivity_needs_workload_only_when_sliced() {
    let mut f = PrefillFacts {
        exclusivity: Some(Exclusivity::Exclusive),
        ..Default::default()
    };
    let exclusive = C::Exclusivity {
        exclusivity: Exclusivity::Exclusive,
    };
    assert_eq!(suggestion("gpu.exclusivity", &f), (S::Confirmed, exclusive));
    f.exclusivity = Some(Exclusivity::Mig);
    assert_eq!(
        prefill(get("gpu.exclusivity"), &f),
        Prefill::Missing(vec![Fact::Workload])
    );
    f.workload = Some(OrderKind::Training);
    let sliced = C::SlicedForTraining {
        exclusivity: Exclusivity::Mig,
    };
    assert_eq!(suggestion("gpu.exclusivity", &f), (S::Problem, sliced));
    f.workload = Some(OrderKind::Inference);
    assert_eq!(suggestion("gpu.exclusivity", &f).0, S::Confirmed);
}

#[test]
fn benchmark_needs_ten_minutes_and_a_pass() {
    let mut f = full();
    f.run_minutes = Some(10);
    assert_eq!(
        suggestion("perf.benchmark", &f),
        (S::Confirmed, C::BenchmarkPassed { minutes: 10 })
    );
    f.run_minutes = Some(9);
    assert_eq!(
        suggestion("perf.benchmark", &f),
        (S::Problem, C::BenchmarkTooShort { minutes: 9 })
    );
    f.run_verdict = Some(RunVerdict::Fail);
    assert_eq!(suggestion("perf.benchmark", &f), (S::Problem, C::RunFailed));
    assert_eq!(suggestion("env.smoke_test", &f), (S::Problem, C::RunFailed));
    f.run_verdict = Some(RunVerdict::Inconclusive);
    assert_eq!(suggestion("env.smoke_test", &f), (S::Open, C::RunInconclusive));
    f.run_minutes = None;
    assert_eq!(
        prefill(get("perf.benchmark"), &f),
        Prefill::Missing(vec![Fact::RunMinutes])
    );
}

#[test]
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
fn quote_vs_observed_compares_the_quote_with_what_the_run_saw() {
    let f = full();
    assert_eq!(
        suggestion("perf.quote_vs_observed", &f),
        (
            S::Confirmed,
            C::ObservedMatchesQuote {
                quoted_mib: 46_000,
                observed_mib: 46_068
            }
        )
    );
    // The case: 24 GiB quoted, 81 920 MiB (an A100) observed, with another model name.
    let mut a100 = full();
    a100.gpu_model = Some("A10".into());
    a100.usable_vram_mib = Some(24 * 1024);
    a100.observed_gpu_name = Some("NVIDIA A100-SXM4-80GB".into());
    a100.observed_vram_mib = Some(81_920);
    let (status, code) = suggestion("perf.quote_vs_observed", &a100);
    assert_eq!(status, S::Problem);
    assert_eq!(
        code,
        C::ObservedDiffers {
            mismatches: vec![M::GpuModel {
                quoted: "A10".into(),
                observed: "NVIDIA A100-SXM4-80GB".into()
            }]
        }
    );
    // Less VRAM than 93 % of the quoted usable VRAM (the verdict's 7 % tolerance), fewer GPUs,
    // MIG seen on an exclusive quote.
    let mut g = full();
    g.usable_vram_mib = Some(1000);
    g.observed_vram_mib = Some(929);
    g.observed_gpu_count = Some(1);
    g.observed_mig = Some(true);
    let (status, code) = suggestion("perf.quote_vs_observed", &g);
    assert_eq!(status, S::Problem);
    assert_eq!(
        code,
        C::ObservedDiffers {
            mismatches: vec![
                M::GpuCount { quoted: 2, observed: 1 },
                M::Vram {
                    quoted_mib: 1000,
                    observed_mib: 929
                },
                M::Mig {
                    quoted: false,
                    observed: true
                },
            ]
        }
    );
    g.observed_vram_mib = Some(930);
    g.observed_gpu_count = Some(3);
    g.observed_mig = Some(false);
    assert_eq!(
        suggestion("perf.quote_vs_observed", &g).0,
        S::Confirmed,
        "93 % and more GPUs pass"
    );
    // A driver or CUDA difference alone leaves the item open, not a problem.
    let mut d = full();
    d.observed_driver = Some("550.54.15".into());
    let (status, code) = suggestion("perf.quote_vs_observed", &d);
    assert_eq!(status, S::Open);
    assert_eq!(
        code,
        C::ObservedDiffers {
            mismatches: vec![M::Driver {
                quoted: "535".into(),
                observed: "550.54.15".into()
            }]
        }
    );
    // The quote alone says nothing about what was observed.
    let mut none = full();
    none.observed_vram_mib = None;
    assert_eq!(
        prefill(get("perf.quote_vs_observed"), &none),
        Prefill::Missing(vec![Fact::ObservedVramMib])
    );
    none.usable_vram_mib = Some(0);
    none.observed_vram_mib = Some(1);
    let zero = C::InvalidFact {
        fact: Fact::UsableVramMib,
    };
    assert_eq!(suggestion("perf.quote_vs_observed", &none), (S::Open, zero));
}

#[test]
fn image_tags_must_be_pinned() {
    for good in [
        "pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime",
        "localhost:5000/img:v1",
        " img:1 ",
    ] {
        assert!(image_is_pinned(good), "{good}");
    }
    let digest = format!("repo/img@sha256:{}", "ab".repeat(32));
    assert!(image_is_pinned(&digest));
    for bad in [
        "",
        "supports CUDA",
        "pytorch",
        "pytorch:latest",
        "localhost:5000/img",
        "img:",
        "img@sha256:zz",
    ] {
        assert!(!image_is_pinned(bad), "{bad}");
    }
    let f = PrefillFacts {
        software_image: Some("支持CUDA".into()),
        ..Default::default()
    };
    assert_eq!(
        suggestion("env.image_tag", &f),
        (
            S::Problem,
            C::ImageVague {
                image: "支持CUDA".into()
            }
        )
    );
}

#[test]
fn billing_and_disk_codes() {
    let mut f = full();
    assert_eq!(suggestion("bill.all_items", &f), (S::Confirmed, C::AllFeesStated));
    f.fees_stated = Some(vec![FeeKind::Snapshot, FeeKind::Cpu, FeeKind::Disk]);
    let missing = vec![FeeKind::Memory, FeeKind::Ip, FeeKind::Traffic, FeeKind::Storage];
    assert_eq!(
        suggestion("bill.all_items", &f),
        (S::Open, C::FeesNotStated { missing })
    );
    assert_eq!(
        suggestion("bill.minimum_duration", &f),
        (S::Confirmed, C::NoMinimumDuration)
    );
    f.min_duration_hours = Some(720);
    assert_eq!(
        suggestion("bill.minimum_duration", &f).1,
        C::MinimumDurationHours { hours: 720 }
    );
    let stop = C::StoppedBilling {
        compute: false,
        disk: true,
    };
    assert_eq!(suggestion("bill.stop_vs_release", &f), (S::Confirmed, stop));
    f.stopped_bills_disk = None;
    let m = prefill(get("bill.stop_vs_release"), &f);
    assert_eq!(m, Prefill::Missing(vec![Fact::StoppedBillsDisk]));
    let disks = C::DiskRelease {
        temp_wiped: true,
        data_survives: true,
    };
    assert_eq!(suggestion("store.release_behaviour", &f), (S::Confirmed, disks));
    f.egress = Some(EgressPricing::NotStated);
    assert_eq!(suggestion("net.traffic_billing", &f), (S::Open, C::EgressNotStated));
}

#[test]
fn gpu_facts() {
    let mut f = full();
    let quoted = C::GpuQuoted {
        model: "L40S".into(),
        vram_mib: 46_068,
    };
    assert_eq!(suggestion("gpu.model_vram", &f), (S::Confirmed, quoted));
    assert_eq!(
        suggestion("gpu.form_factor", &f).1,
        C::FormFactor {
            form_factor: FormFactor::Pcie
        }
    );
    f.gpu_model = Some("  ".into());
    assert_eq!(
        suggestion("gpu.model_vram", &f).1,
        C::InvalidFact { fact: Fact::GpuModel }
    );
    let link = C::Interconnect {
        interconnect: Interconnect::Pcie,
    };
    assert_eq!(suggestion("gpu.multi_gpu_interconnect", &f), (S::Confirmed, link));
    f.multi_gpu = Some(false);
    assert_eq!(
        suggestion("gpu.multi_gpu_interconnect", &f),
        (S::NotApplicable, C::SingleGpu)
    );
    f.multi_gpu = None;
    let m = prefill(get("gpu.multi_gpu_interconnect"), &f);
    assert_eq!(m, Prefill::Missing(vec![Fact::MultiGpu]));
    f.throttling_observed = Some(true);
    assert_eq!(suggestion("perf.throttling", &f), (S::Problem, C::ThrottlingObserved));
}

/// The quoted form factor against the mount the catalogue gives the run's GPU name (names as
/// `nvidia-smi --query-gpu=name` prints them: `NVIDIA A100-PCIE-40GB`, `NVIDIA A100-SXM4-80GB`,
/// `NVIDIA H100 NVL`).
#[test]
fn the_form_factor_is_checked_against_the_gpu_the_run_saw() {
    let mut f = PrefillFacts {
        form_factor: Some(FormFactor::Sxm),
        ..Default::default()
    };
    let quoted = C::FormFactor {
        form_factor: FormFactor::Sxm,
    };
    assert_eq!(
        suggestion("gpu.form_factor", &f),
        (S::Confirmed, quoted.clone()),
        "no run yet"
    );
    f.observed_gpu_name = Some("NVIDIA A100-SXM4-80GB".into());
    assert_eq!(suggestion("gpu.form_factor", &f), (S::Confirmed, quoted.clone()));
    f.observed_gpu_name = Some("NVIDIA A100-PCIE-40GB".into());
    assert_eq!(
        suggestion("gpu.form_factor", &f),
        (
            S::Problem,
            C::FormFactorNotSeen {
                form_factor: FormFactor::Sxm,
                observed: "PCIe".into(),
                gpu: "NVIDIA A100-PCIE-40GB".into(),
            }
        )
    );
    f.observed_gpu_name = Some("Acme Tensor 9000".into());
    assert_eq!(
        suggestion("gpu.form_factor", &f),
        (S::Confirmed, quoted),
        "unknown to the catalogue"
    );
    // An NVL card is a PCIe card.
    f.form_factor = Some(FormFactor::Pcie);
    f.observed_gpu_name = Some("NVIDIA H100 NVL".into());
    assert_eq!(suggestion("gpu.form_factor", &f).0, S::Confirmed);
}
