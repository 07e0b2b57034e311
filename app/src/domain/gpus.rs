//! Theoretical compute of well-known GPUs, and the seed-002 check for runs
//! whose measured throughput does not follow the compute on paper
//! ([`bottleneck_pairs`]).
//!
//! Pure data and logic: no I/O, compiled for the server and the browser alike.

mod bottleneck;

pub use bottleneck::{BottleneckPair, MAX_MEASURED_RATIO, MIN_COMPUTE_RATIO, Measured, bottleneck_pairs};

use crate::domain::runs::gpu_name_tokens;

/// How a GPU is mounted; variants of one chip differ in clocks and power.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuMount {
    /// A PCI Express card.
    Pcie,
    /// An SXM (or OAM) module on an HGX-style baseboard.
    Sxm,
    /// The NVL dual-card PCIe variant (H100 NVL, H200 NVL).
    Nvl,
}

/// One row of [`GPUS`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuSpec {
    /// Display name of the variant.
    pub name: &'static str,
    /// The tokens a reported name must contain (as by [`gpu_name_tokens`]), e.g. `"RTX 4090"`.
    pub model: &'static str,
    /// Form factor of this variant.
    pub form: GpuMount,
    /// Memory of one GPU, GB as on the datasheet.
    pub memory_gb: u32,
    /// Dense (no structured sparsity) FP16/BF16 tensor throughput, TFLOPS.
    pub dense_fp16_tflops: f64,
    /// The variant meant when a name states neither form factor nor memory.
    pub default_variant: bool,
}

const fn gpu(
    name: &'static str,
    model: &'static str,
    form: GpuMount,
    memory_gb: u32,
    dense_fp16_tflops: f64,
    default_variant: bool,
) -> GpuSpec {
    GpuSpec {
        name,
        model,
        form,
        memory_gb,
        dense_fp16_tflops,
        default_variant,
    }
}

use GpuMount::{Nvl, Pcie, Sxm};

/// Well-known data-centre and workstation GPUs.
///
/// Figures are the vendors' public datasheet / architecture-whitepaper peaks for
/// FP16/BF16 tensor math, **dense** (the "with sparsity" figures halved where a
/// datasheet only prints those). Data-centre parts accumulate in FP32 at full
/// rate; for GeForce cards the figure *with FP32 accumulate* is used (half the
/// FP16-accumulate figure), as ML frameworks accumulate in FP32. The A10G (an
/// AWS-only part without an NVIDIA datasheet) uses the widely published 70 TFLOPS.
/// Peaks are upper bounds: sustained clocks, and so real throughput, are lower.
pub const GPUS: &[GpuSpec] = &[
    gpu("V100 SXM2 16GB", "V100", Sxm, 16, 125.0, false),
    gpu("V100 SXM2 32GB", "V100", Sxm, 32, 125.0, true),
    gpu("V100 PCIe 16GB", "V100", Pcie, 16, 112.0, false),
    gpu("V100 PCIe 32GB", "V100", Pcie, 32, 112.0, false),
    gpu("T4", "T4", Pcie, 16, 65.0, true),
    gpu("A10", "A10", Pcie, 24, 125.0, true),
    gpu("A10G", "A10G", Pcie, 24, 70.0, true),
    gpu("A30", "A30", Pcie, 24, 165.0, true),
    gpu("A40", "A40", Pcie, 48, 149.7, true),
    gpu("RTX A6000", "RTX A6000", Pcie, 48, 154.8, true),
    gpu("A100 PCIe 40GB", "A100", Pcie, 40, 312.0, false),
    gpu("A100 SXM4 40GB", "A100", Sxm, 40, 312.0, false),
    gpu("A100 PCIe 80GB", "A100", Pcie, 80, 312.0, false),
    gpu("A100 SXM4 80GB", "A100", Sxm, 80, 312.0, true),
    gpu("A800 PCIe 40GB", "A800", Pcie, 40, 312.0, false),
    gpu("A800 PCIe 80GB", "A800", Pcie, 80, 312.0, false),
    gpu("A800 SXM4 80GB", "A800", Sxm, 80, 312.0, true),
    gpu("L4", "L4", Pcie, 24, 121.0, true),
    gpu("L40", "L40", Pcie, 48, 181.05, true),
    gpu("L40S", "L40S", Pcie, 48, 362.05, true),
    gpu("H100 PCIe", "H100", Pcie, 80, 756.5, false),
    gpu("H100 SXM5", "H100", Sxm, 80, 989.5, true),
    gpu("H100 NVL", "H100", Nvl, 94, 835.5, false),
    gpu("H800 PCIe", "H800", Pcie, 80, 756.5, false),
    gpu("H800 SXM5", "H800", Sxm, 80, 989.5, true),
    gpu("H20", "H20", Sxm, 96, 148.0, true),
    gpu("H200 SXM", "H200", Sxm, 141, 989.5, true),
    gpu("H200 NVL", "H200", Nvl, 141, 835.5, false),
    gpu("B200", "B200", Sxm, 180, 2250.0, true),
    gpu("GeForce RTX 3090", "RTX 3090", Pcie, 24, 71.0, true),
    gpu("GeForce RTX 4090", "RTX 4090", Pcie, 24, 165.2, true),
    gpu("GeForce RTX 5090", "RTX 5090", Pcie, 32, 209.5, true),
    gpu("Instinct MI250", "MI250", Sxm, 128, 362.1, true),
    gpu("Instinct MI250X", "MI250X", Sxm, 128, 383.0, true),
    gpu("Instinct MI300X", "MI300X", Sxm, 192, 1307.4, true),
    gpu("Instinct MI325X", "MI325X", Sxm, 256, 1307.4, true),
];

/// Dense FP16/BF16 tensor TFLOPS of one GPU named `gpu_name` (see [`lookup`]).
#[must_use]
pub fn theoretical_tflops(gpu_name: &str) -> Option<f64> {
    lookup(gpu_name).map(|g| g.dense_fp16_tflops)
}

/// The [`GPUS`] row for a reported or quoted name such as `"NVIDIA H100 80GB HBM3"`,
/// `"NVIDIA A100-SXM4-80GB"`, `"h100 sxm"`, `"Tesla T4"` or `"NVIDIA GeForce RTX 4090"`.
///
/// A row applies when every token of its `model` occurs in the name (case and
/// vendor words ignored, so `"L40"` does not match `"L40S"`); the row with the
/// most model tokens wins. Among variants of one model, the name decides:
/// 1. a stated form factor (`PCIe`, `SXM…`/`HGX`, `NVL`) picks that variant;
/// 2. then a stated memory size (`40GB`) picks the variant of that size;
/// 3. otherwise the form factor of the model's `default_variant`, then that
///    variant itself: the SXM module where one exists, as
///    `nvidia-smi` names SXM boards without a form factor (`"NVIDIA H100 80GB HBM3"`)
///    while PCIe and NVL cards say so (`"NVIDIA H100 PCIe"`, `"NVIDIA H100 NVL"`).
#[must_use]
pub fn lookup(gpu_name: &str) -> Option<&'static GpuSpec> {
    let tokens = name_tokens(gpu_name);
    let form = stated_form(&tokens);
    let memory = stated_memory_gb(gpu_name);
    let mut best: Option<(Rank, &GpuSpec)> = None;
    for spec in GPUS {
        let model = name_tokens(spec.model);
        if !model.iter().all(|t| tokens.contains(t)) {
            continue;
        }
        let default_form = GPUS
            .iter()
            .find(|g| g.model == spec.model && g.default_variant)
            .map(|g| g.form);
        let rank = (
            model.len(),
            form == Some(spec.form),
            memory == Some(spec.memory_gb),
            default_form == Some(spec.form),
            spec.default_variant,
        );
        if best.is_none_or(|(r, _)| rank > r) {
            best = Some((rank, spec));
        }
    }
    best.map(|(_, spec)| spec)
}

/// How well a row fits a name, compared lexicographically: model tokens, stated
/// form factor, stated memory, the model's default form factor, default variant.
type Rank = (usize, bool, bool, bool, bool);

/// [`gpu_name_tokens`], with `rtx4090` split into `rtx` and `4090`.
fn name_tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in gpu_name_tokens(name) {
        match token.strip_prefix("rtx") {
            Some(rest) if !rest.is_empty() => {
                out.push("rtx".to_owned());
                out.push(rest.to_owned());
            }
            _ => out.push(token),
        }
    }
    out
}

fn stated_form(tokens: &[String]) -> Option<GpuMount> {
    tokens.iter().find_map(|t| match t.as_str() {
        "pcie" => Some(Pcie),
        "nvl" => Some(Nvl),
        "hgx" => Some(Sxm),
        t if t.starts_with("sxm") => Some(Sxm),
        _ => None,
    })
}

/// The first `<digits>GB` / `<digits>G` / `<digits>GiB` token of the name.
fn stated_memory_gb(name: &str) -> Option<u32> {
    name.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|t| {
            let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            matches!(&t[digits.len()..], "gb" | "g" | "gib")
                .then(|| digits.parse().ok())
                .flatten()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_of(reported: &str) -> Option<&'static str> {
        lookup(reported).map(|g| g.name)
    }

    #[test]
    fn vendor_decorated_names() {
        let cases = [
            ("NVIDIA H100 80GB HBM3", "H100 SXM5"),
            ("NVIDIA H100 PCIe", "H100 PCIe"),
            ("NVIDIA H100 NVL", "H100 NVL"),
            ("h100 sxm", "H100 SXM5"),
            ("H100", "H100 SXM5"),
            ("NVIDIA A100-SXM4-80GB", "A100 SXM4 80GB"),
            ("NVIDIA A100-SXM4-40GB", "A100 SXM4 40GB"),
            ("NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"),
            ("NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"),
            ("A100 40GB", "A100 SXM4 40GB"),
            ("Tesla T4", "T4"),
            ("Tesla V100-PCIE-16GB", "V100 PCIe 16GB"),
            ("Tesla V100-SXM2-16GB", "V100 SXM2 16GB"),
            ("NVIDIA GeForce RTX 4090", "GeForce RTX 4090"),
            ("RTX4090", "GeForce RTX 4090"),
            ("NVIDIA GeForce RTX 3090", "GeForce RTX 3090"),
            ("NVIDIA GeForce RTX 5090", "GeForce RTX 5090"),
            ("NVIDIA RTX A6000", "RTX A6000"),
            ("NVIDIA A10", "A10"),
            ("NVIDIA A10G", "A10G"),
            ("NVIDIA L4", "L4"),
            ("NVIDIA L40", "L40"),
            ("NVIDIA L40S", "L40S"),
            ("NVIDIA H800", "H800 SXM5"),
            ("NVIDIA H800 PCIe", "H800 PCIe"),
            ("NVIDIA H20", "H20"),
            ("NVIDIA H200", "H200 SXM"),
            ("NVIDIA H200 NVL", "H200 NVL"),
            ("NVIDIA B200", "B200"),
            ("NVIDIA A800-SXM4-80GB", "A800 SXM4 80GB"),
            ("NVIDIA A800 40GB PCIe", "A800 PCIe 40GB"),
            ("AMD Instinct MI250X", "Instinct MI250X"),
            ("AMD Instinct MI300X OAM", "Instinct MI300X"),
            ("mi250", "Instinct MI250"),
        ];
        for (reported, expected) in cases {
            assert_eq!(name_of(reported), Some(expected), "{reported}");
        }
    }

    #[test]
    fn unknown_names() {
        for name in ["", "NVIDIA", "Tesla K80", "RTX 2080 Ti", "A1000", "NVIDIA L40G", "80GB"] {
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
        assert_eq!(theoretical_tflops("Quadro P4000"), None);
    }

    #[test]
    fn table_is_sane() {
        for g in GPUS {
            assert!(g.dense_fp16_tflops > 10.0 && g.dense_fp16_tflops < 5000.0, "{}", g.name);
            assert!(g.memory_gb >= 16, "{}", g.name);
            assert_eq!(
                lookup(g.name).map(|l| l.name),
                Some(g.name),
                "a row's own name finds it"
            );
        }
        for g in GPUS {
            let defaults = GPUS.iter().filter(|o| o.model == g.model && o.default_variant).count();
            assert_eq!(defaults, 1, "exactly one default variant of {}", g.model);
        }
    }
}
