use super::*;

fn name_of(reported: &str) -> Option<&'static str> {
    lookup(reported).map(|g| g.name)
}

#[test]
fn vendor_decorated_names() {
    let cases = [
        ("NVIDIA H100 80GB HBM3", "H100 SXM5 80GB"),
        ("NVIDIA H100 PCIe", "H100 PCIe 80GB"),
        ("NVIDIA H100 NVL", "H100 NVL 94GB"),
        ("h100 sxm", "H100 SXM5 80GB"),
        ("H100", "H100 SXM5 80GB"),
        ("NVIDIA A100-SXM4-80GB", "A100 SXM4 80GB"),
        ("NVIDIA A100-SXM4-40GB", "A100 SXM4 40GB"),
        ("NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"),
        ("NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"),
        ("A100 40GB", "A100 SXM4 40GB"),
        ("Tesla T4", "T4 16GB"),
        ("Tesla V100-PCIE-16GB", "V100 PCIe 16GB"),
        ("Tesla V100-SXM2-16GB", "V100 SXM2 16GB"),
        ("NVIDIA GeForce RTX 4090", "RTX 4090 24GB"),
        ("RTX4090", "RTX 4090 24GB"),
        ("NVIDIA GeForce RTX 4090 D", "RTX 4090 D 24GB"),
        ("RTX 4090D", "RTX 4090 D 24GB"),
        ("4090D", "RTX 4090 D 24GB"),
        ("NVIDIA GeForce RTX 3090", "RTX 3090 24GB"),
        ("NVIDIA GeForce RTX 5090", "RTX 5090 32GB"),
        ("NVIDIA RTX A6000", "RTX A6000 48GB"),
        ("NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada 48GB"),
        ("NVIDIA A10", "A10 24GB"),
        ("NVIDIA A10G", "A10G 24GB"),
        ("NVIDIA L4", "L4 24GB"),
        ("NVIDIA L20", "L20 48GB"),
        ("NVIDIA L40", "L40 48GB"),
        ("NVIDIA L40S", "L40S 48GB"),
        ("NVIDIA H800", "H800 SXM5 80GB"),
        ("NVIDIA H800 PCIe", "H800 PCIe 80GB"),
        ("NVIDIA H20", "H20 96GB"),
        ("NVIDIA H200", "H200 SXM 141GB"),
        ("NVIDIA H200 NVL", "H200 NVL 141GB"),
        ("NVIDIA B200", "B200 180GB"),
        ("NVIDIA A800-SXM4-80GB", "A800 SXM4 80GB"),
        ("NVIDIA A800 40GB PCIe", "A800 PCIe 40GB"),
        ("AMD Instinct MI210", "MI210 64GB"),
        ("AMD Instinct MI250X", "MI250X 128GB"),
        ("AMD Instinct MI300X", "MI300X 192GB"),
        ("AMD Instinct MI300X OAM", "MI300X 192GB"),
        ("mi250", "MI250 128GB"),
    ];
    for (reported, expected) in cases {
        assert_eq!(name_of(reported), Some(expected), "{reported}");
    }
}

#[test]
fn unknown_names() {
    for name in [
        "",
        "NVIDIA",
        "Tesla K80",
        "RTX 2080 Ti",
        "A1000",
        "NVIDIA L40G",
        "80GB",
        "Quadro RTX 6000",
        "Ascend 910B",
    ] {
        assert_eq!(lookup(name), None, "{name}");
    }
}

#[test]
fn tflops_figures() {
    assert_eq!(theoretical_tflops("NVIDIA H100 80GB HBM3"), Some(989.5));
    assert_eq!(theoretical_tflops("NVIDIA H100 PCIe"), Some(756.5));
    assert_eq!(theoretical_tflops("NVIDIA A100-SXM4-80GB"), Some(312.0));
    assert_eq!(theoretical_tflops("Tesla T4"), Some(65.0));
    assert_eq!(theoretical_tflops("NVIDIA GeForce RTX 4090"), Some(165.2));
    // Known model, no confirmed figure: none rather than a guess.
    assert_eq!(theoretical_tflops("NVIDIA L20"), None);
    assert_eq!(theoretical_tflops("Quadro P4000"), None);
}

#[test]
fn table_is_sane() {
    for g in GPUS {
        if let Some(tflops) = g.dense_fp16_tflops {
            assert!(tflops > 10.0 && tflops < 5000.0, "{}", g.name);
        }
        assert!(g.memory_gb >= 16, "{}", g.name);
        // nvidia-smi's MiB are a little under the GB sold (ECC, reserved memory): 0.93–1.0 of
        // the same number of GiB.
        if let Some(mib) = g.smi_memory_mib {
            let gib_mib = f64::from(g.memory_gb) * 1024.0;
            let share = f64::from(mib) / gib_mib;
            assert!((0.93..=1.0).contains(&share), "{}: {share}", g.name);
        }
        assert_eq!(
            lookup(g.name).map(|l| l.name),
            Some(g.name),
            "a row's own name finds it"
        );
        assert!(g.name.ends_with(&format!(" {}GB", g.memory_gb)), "{}", g.name);
    }
    for g in GPUS {
        let defaults = GPUS.iter().filter(|o| o.model == g.model && o.default_variant).count();
        assert_eq!(defaults, 1, "exactly one default variant of {}", g.model);
    }
}

/// Vendor spellings against the names `nvidia-smi` (or rocminfo/amdsmi) reports. The observed
/// names are real: the NVIDIA driver's supported-products table (NVIDIA/open-gpu-kernel-modules
/// `README.md`, "Compatible GPUs") unless another source is named.
#[test]
fn vendor_names_meet_nvidia_smi_names() {
    let same = [
        // nvidia-smi: NVIDIA/CUDALibrarySamples issue #104 ("Product Name : NVIDIA A100-SXM4-80GB").
        ("A100 SXM 80GB", "NVIDIA A100-SXM4-80GB"),
        ("A100 SXM4 80GB", "NVIDIA A100-SXM4-80GB"),
        ("A100 80GB", "NVIDIA A100-SXM4-80GB"),
        ("A100 PCIe 40GB", "NVIDIA A100-PCIE-40GB"),
        ("A100 40GB PCIe", "NVIDIA A100-PCIE-40GB"),
        ("A100 PCIe 80GB", "NVIDIA A100 80GB PCIe"),
        // nvidia-smi: NVIDIA/nccl issue #1264, wilicc/gpu-burn issue #114 (8× H100 SXM boards).
        ("H100 SXM5 80GB", "NVIDIA H100 80GB HBM3"),
        ("H100 SXM", "NVIDIA H100 80GB HBM3"),
        ("H100 SXM5", "NVIDIA H100 80GB HBM3"),
        ("H100 HBM3", "NVIDIA H100 80GB HBM3"),
        ("H100 PCIe", "NVIDIA H100 PCIe"),
        // fastfetch-cli/fastfetch issue #1658 reports "NVIDIA H100 NVL".
        ("H100 NVL", "NVIDIA H100 NVL"),
        // nvidia-smi -q "Product Name : NVIDIA H800": NVIDIA/DCGM issue #120.
        ("H800 SXM", "NVIDIA H800"),
        ("H800 SXM5 80GB", "NVIDIA H800"),
        ("H800 PCIe", "NVIDIA H800 PCIe"),
        // zzc0721/torch-performance-test-data issue #77 ("设备名称：NVIDIA H20").
        ("H20 96GB", "NVIDIA H20"),
        // nvidia-smi -q "Product Name : NVIDIA H200": NVIDIA/mig-parted issue #120.
        ("H200 SXM 141GB", "NVIDIA H200"),
        ("H200 NVL", "NVIDIA H200 NVL"),
        ("L20 48GB", "NVIDIA L20"),
        // nvidia-smi -q "Product Name : NVIDIA L40S": isaac-sim/IsaacSim issue #228.
        ("L40S", "NVIDIA L40S"),
        ("L40", "NVIDIA L40"),
        ("L4", "NVIDIA L4"),
        ("A10", "NVIDIA A10"),
        // Also aNon1mo4-21/3dgs-reproduction README ("NVIDIA GeForce RTX 4090 D，24564 MiB").
        ("RTX 4090D", "NVIDIA GeForce RTX 4090 D"),
        ("RTX 4090 D", "NVIDIA GeForce RTX 4090 D"),
        ("4090D 24GB", "NVIDIA GeForce RTX 4090 D"),
        // RLinf/RLinf issue #255 (nvidia-smi table).
        ("RTX 4090", "NVIDIA GeForce RTX 4090"),
        ("RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation"),
        ("RTX 6000 Ada 48GB", "NVIDIA RTX 6000 Ada Generation"),
        ("RTX A6000", "NVIDIA RTX A6000"),
        // Tesla names: nvidia-docker issues (e.g. NVIDIA/nvidia-docker #809 "Tesla K80" format).
        ("V100 32GB", "Tesla V100-SXM2-32GB"),
        ("T4", "Tesla T4"),
        // rocminfo "Marketing Name: AMD Instinct MI300X": ROCm/legacy-rocm-build issue #4414.
        ("MI300X", "AMD Instinct MI300X"),
        ("MI300X OAM 192GB", "AMD Instinct MI300X"),
        // amdsmi product_name "AMD Instinct MI300X OAM": ROCm/vllm PR #359.
        ("AMD MI300X", "AMD Instinct MI300X OAM"),
        ("MI250", "AMD Instinct MI250"),
        ("MI210", "AMD Instinct MI210"),
        // nvidia-smi: dexmal/dexbotic issue #41 and vllm-project/vllm issue #41519.
        ("A800 SXM4 80GB", "NVIDIA A800-SXM4-80GB"),
        ("A800 80GB PCIe", "NVIDIA A800 80GB PCIe"),
    ];
    for (quoted, observed) in same {
        assert_eq!(compare(quoted, observed), NameMatch::Same, "{quoted} vs {observed}");
    }
    let different = [
        ("RTX 4090", "NVIDIA GeForce RTX 4090 D"),
        ("RTX 4090 D", "NVIDIA GeForce RTX 4090"),
        ("A100 PCIe", "NVIDIA A100-SXM4-80GB"),
        ("A100 40GB", "NVIDIA A100-SXM4-80GB"),
        ("A100 SXM4 80GB", "NVIDIA A100 80GB PCIe"),
        ("H100 PCIe", "NVIDIA H100 80GB HBM3"),
        ("H100 HBM3", "NVIDIA H100 PCIe"),
        ("H100 SXM5", "NVIDIA H100 NVL"),
        ("H100 80GB", "NVIDIA H100 NVL"),
        ("H800 PCIe", "NVIDIA H800"),
        ("H100", "NVIDIA H800"),
        ("H100", "NVIDIA A100-SXM4-80GB"),
        ("A100", "NVIDIA A800-SXM4-80GB"),
        ("L40", "NVIDIA L40S"),
        ("L40S", "NVIDIA L20"),
        ("RTX 6000 Ada", "NVIDIA RTX A6000"),
        ("MI300X", "AMD Instinct MI250X"),
    ];
    for (quoted, observed) in different {
        assert_eq!(
            compare(quoted, observed),
            NameMatch::Different,
            "{quoted} vs {observed}"
        );
    }
}

#[test]
fn a_less_specific_quote_matches_every_variant() {
    for observed in [
        "NVIDIA A100-SXM4-80GB",
        "NVIDIA A100-SXM4-40GB",
        "NVIDIA A100-PCIE-40GB",
        "NVIDIA A100 80GB PCIe",
    ] {
        assert_eq!(compare("A100", observed), NameMatch::Same, "{observed}");
        assert_eq!(compare("NVIDIA A100", observed), NameMatch::Same, "{observed}");
    }
    for observed in [
        "NVIDIA H100 80GB HBM3",
        "NVIDIA H100 PCIe",
        "NVIDIA H100 NVL",
        "NVIDIA H100",
    ] {
        assert_eq!(compare("H100", observed), NameMatch::Same, "{observed}");
    }
}

#[test]
fn unknown_names_are_compared_word_by_word_and_flagged() {
    let unknown = |side, words_match| NameMatch::UnknownModel {
        name_unknown: side,
        words_match,
    };
    assert_eq!(compare("Ascend 910B", "Ascend 910B"), unknown(Side::Quoted, true));
    assert_eq!(compare("Ascend 910B", "Ascend 910C"), unknown(Side::Quoted, false));
    assert_eq!(compare("A100", "NVIDIA A100X"), unknown(Side::Observed, false));
    assert_eq!(compare("Tesla K80", "Tesla K80"), unknown(Side::Quoted, true));
    // The old rule: every quoted word in the observed name.
    assert_eq!(compare("K80", "Tesla K80"), unknown(Side::Quoted, true));
    assert!(compare("K80", "Tesla K80").matches());
    assert!(!compare("Ascend 910B", "Ascend 910C").matches());
}

#[test]
fn memory_a_name_implies() {
    let cases = [
        ("L4", Some(24)),
        ("A100", None),
        ("A100 40G", Some(40)),
        ("A100-SXM4-80GB", Some(80)),
        ("H100", None),
        ("H100 SXM", Some(80)),
        ("H100 NVL", Some(94)),
        ("NVIDIA H100 80GB HBM3", Some(80)),
        ("H200", Some(141)),
        ("RTX 4090D", Some(24)),
        ("MI300X", Some(192)),
        ("Ascend 910B", None),
        ("Ascend 910B 64GB", Some(64)),
        ("A100 0GB", None),
    ];
    for (name, gb) in cases {
        assert_eq!(memory_gb_of(name), gb, "{name}");
    }
}

#[test]
fn model_keys_and_stated_mounts() {
    assert_eq!(model_key("NVIDIA A100-SXM4-80GB"), "A100");
    assert_eq!(model_key("a100 sxm 80gb"), "A100");
    assert_eq!(model_key("RTX 4090D"), "RTX 4090 D");
    assert_eq!(model_key("NVIDIA Ascend-910B"), "ascend 910b");
    assert_eq!(stated_mount("A100 PCIe 80GB"), Some(GpuMount::Pcie));
    assert_eq!(stated_mount("NVIDIA H100 80GB HBM3"), Some(GpuMount::Sxm));
    assert_eq!(stated_mount("H100 NVL"), Some(GpuMount::Nvl));
    assert_eq!(stated_mount("MI300X OAM"), Some(GpuMount::Sxm));
    assert_eq!(stated_mount("A100 80GB"), None);
    assert!(GpuMount::Pcie.fits(GpuMount::Nvl));
    assert!(!GpuMount::Sxm.fits(GpuMount::Pcie));
    assert!(!GpuMount::Nvl.fits(GpuMount::Pcie));
}
