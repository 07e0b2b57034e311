//! THE GPU catalogue: every model and variant NodeLedger knows, with its form factor, memory
//! (as sold, and as `nvidia-smi` reports it) and compute on paper. The quote form suggests
//! from it, the run verdict matches names through it and the cost page pools runs by it.
//!
//! How names map to rows is in [`super::lookup`]; the sources of the names and figures are
//! in the comments below and beside the tests (`super::tests`).

use serde::{Deserialize, Serialize};

/// How a GPU is mounted; variants of one chip differ in clocks and power.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuMount {
    /// A PCI Express card.
    Pcie,
    /// An SXM (or OAM) module on an HGX-style baseboard.
    Sxm,
    /// The NVL variant (H100 NVL, H200 NVL): PCIe cards paired by NVLink bridges.
    Nvl,
}

impl GpuMount {
    /// How datasheets write it: `PCIe`, `SXM`, `NVL`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Pcie => "PCIe",
            Self::Sxm => "SXM",
            Self::Nvl => "NVL",
        }
    }

    /// Whether a GPU mounted as `observed` is what a quote of this form factor offers: the same
    /// mount, or an NVL card for a quoted PCIe card (NVL cards are PCIe cards).
    #[must_use]
    pub fn fits(self, observed: Self) -> bool {
        self == observed || (self == Self::Pcie && observed == Self::Nvl)
    }
}

/// One row of [`GPUS`]: one variant of one model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuSpec {
    /// Display name of the variant, with its memory: the label the quote form suggests.
    pub name: &'static str,
    /// The model: the tokens a name must contain (as by [`super::gpu_name_tokens`]), e.g.
    /// `"RTX 4090"`. Two names are the same model when they find rows of the same `model`.
    pub model: &'static str,
    /// Form factor of this variant.
    pub form: GpuMount,
    /// Memory of one GPU, GB as sold (the datasheet figure).
    pub memory_gb: u32,
    /// `memory.total` as `nvidia-smi` reports it, MiB, where a real report was found (with ECC
    /// on, the data-centre default: GDDR cards then report 1/16 less).
    pub smi_memory_mib: Option<u32>,
    /// Dense (no structured sparsity) FP16/BF16 tensor throughput, TFLOPS; `None` where no
    /// vendor figure was confirmed.
    pub dense_fp16_tflops: Option<f64>,
    /// The variant meant when a name states neither form factor nor memory.
    pub default_variant: bool,
    /// Further words that pick this variant among the model's, e.g. `HBM3`: `nvidia-smi` names
    /// the SXM H100 `NVIDIA H100 80GB HBM3`.
    pub aliases: &'static [&'static str],
}

/// A row; `mib` and `tflops` are 0 where unknown.
const fn gpu(
    name: &'static str,
    model: &'static str,
    form: GpuMount,
    memory_gb: u32,
    mib: u32,
    tflops: f64,
) -> GpuSpec {
    GpuSpec {
        name,
        model,
        form,
        memory_gb,
        smi_memory_mib: if mib == 0 { None } else { Some(mib) },
        dense_fp16_tflops: if tflops == 0.0 { None } else { Some(tflops) },
        default_variant: false,
        aliases: &[],
    }
}

/// The row as its model's default variant.
const fn default(spec: GpuSpec) -> GpuSpec {
    GpuSpec {
        default_variant: true,
        ..spec
    }
}

/// The row with aliases.
const fn aka(spec: GpuSpec, aliases: &'static [&'static str]) -> GpuSpec {
    GpuSpec { aliases, ..spec }
}

use GpuMount::{Nvl, Pcie, Sxm};

/// Well-known data-centre and workstation GPUs.
///
/// **Names** as `nvidia-smi` reports them (`name`, `Product Name`) follow the NVIDIA driver's
/// table of supported products (NVIDIA/open-gpu-kernel-modules `README.md`, "Compatible GPUs"):
/// `NVIDIA A100-SXM4-80GB`, `NVIDIA A100 80GB PCIe`, `NVIDIA A100-PCIE-40GB`, `NVIDIA H100 80GB
/// HBM3` (the SXM5 module), `NVIDIA H100 PCIe`, `NVIDIA H100 NVL`, `NVIDIA H800` (SXM), `NVIDIA
/// H800 PCIe`, `NVIDIA H20`, `NVIDIA H200`, `NVIDIA L20`, `NVIDIA L40S`, `NVIDIA GeForce RTX 4090
/// D`, `NVIDIA RTX 6000 Ada Generation`. AMD parts report `AMD Instinct MI300X` (rocminfo
/// "Marketing Name", ROCm/legacy-rocm-build issue #4414; amdsmi `market_name`, ROCm/vllm PR #359).
///
/// **`memory.total`** (MiB) from pasted `nvidia-smi` output: H100 SXM 81559, A100 80GB 81920,
/// A100 40GB 40960, A10 23028, L40S 46068, L4 23034, T4 15360 (modal-labs/modal-client PR #2797);
/// H100 SXM 81559 (NVIDIA/nccl issue #1264); A800 80GB 81920 (vllm-project/vllm issue #41519,
/// dexmal/dexbotic issue #41); RTX 4090 24564 (RLinf/RLinf issue #255); RTX 4090 D 24564
/// (aNon1mo4-21/3dgs-reproduction `README.md`); RTX 5090 32607 (noonghunna/club-3090 issue
/// #1261). The H100 NVL (95830), H800 (81559), H20 (97871), H200 (143771), L20, L40 and RTX 6000
/// Ada (46068 with ECC on, 49140 off) and V100-SXM2-32GB (32768) figures are from `nvidia-smi`
/// tables found in public repositories (research notes, exact-string index; no repository named).
///
/// **TFLOPS** are the vendors' public datasheet / architecture-whitepaper peaks for FP16/BF16
/// tensor math, **dense** (the "with sparsity" figures halved where a datasheet only prints
/// those). Data-centre parts accumulate in FP32 at full rate; for GeForce cards the figure *with
/// FP32 accumulate* is used (half the FP16-accumulate figure), as ML frameworks accumulate in
/// FP32. The A10G (an AWS-only part without an NVIDIA datasheet) uses the widely published 70
/// TFLOPS; the RTX 4090 D (no NVIDIA whitepaper figure) the 147.1 of its 114 SMs at 2520 MHz, as
/// spec databases list it (hmc-tech.com). L20, RTX 6000 Ada and MI210 are left without a figure:
/// none was confirmed. Peaks are upper bounds: sustained clocks, and so real throughput, are lower.
pub const GPUS: &[GpuSpec] = &[
    gpu("V100 SXM2 16GB", "V100", Sxm, 16, 0, 125.0),
    default(gpu("V100 SXM2 32GB", "V100", Sxm, 32, 32768, 125.0)),
    gpu("V100 PCIe 16GB", "V100", Pcie, 16, 0, 112.0),
    gpu("V100 PCIe 32GB", "V100", Pcie, 32, 0, 112.0),
    default(gpu("T4 16GB", "T4", Pcie, 16, 15360, 65.0)),
    default(gpu("A10 24GB", "A10", Pcie, 24, 23028, 125.0)),
    default(gpu("A10G 24GB", "A10G", Pcie, 24, 0, 70.0)),
    default(gpu("A30 24GB", "A30", Pcie, 24, 0, 165.0)),
    default(gpu("A40 48GB", "A40", Pcie, 48, 0, 149.7)),
    default(gpu("RTX A6000 48GB", "RTX A6000", Pcie, 48, 0, 154.8)),
    gpu("A100 PCIe 40GB", "A100", Pcie, 40, 40960, 312.0),
    gpu("A100 SXM4 40GB", "A100", Sxm, 40, 40960, 312.0),
    gpu("A100 PCIe 80GB", "A100", Pcie, 80, 81920, 312.0),
    default(gpu("A100 SXM4 80GB", "A100", Sxm, 80, 81920, 312.0)),
    gpu("A800 PCIe 40GB", "A800", Pcie, 40, 0, 312.0),
    gpu("A800 PCIe 80GB", "A800", Pcie, 80, 81920, 312.0),
    default(gpu("A800 SXM4 80GB", "A800", Sxm, 80, 81920, 312.0)),
    default(gpu("L4 24GB", "L4", Pcie, 24, 23034, 121.0)),
    default(gpu("L20 48GB", "L20", Pcie, 48, 46068, 0.0)),
    default(gpu("L40 48GB", "L40", Pcie, 48, 46068, 181.05)),
    default(gpu("L40S 48GB", "L40S", Pcie, 48, 46068, 362.05)),
    gpu("H100 PCIe 80GB", "H100", Pcie, 80, 81559, 756.5),
    default(aka(gpu("H100 SXM5 80GB", "H100", Sxm, 80, 81559, 989.5), &["hbm3"])),
    gpu("H100 NVL 94GB", "H100", Nvl, 94, 95830, 835.5),
    gpu("H800 PCIe 80GB", "H800", Pcie, 80, 0, 756.5),
    default(gpu("H800 SXM5 80GB", "H800", Sxm, 80, 81559, 989.5)),
    default(gpu("H20 96GB", "H20", Sxm, 96, 97871, 148.0)),
    default(gpu("H200 SXM 141GB", "H200", Sxm, 141, 143771, 989.5)),
    gpu("H200 NVL 141GB", "H200", Nvl, 141, 0, 835.5),
    default(gpu("B200 180GB", "B200", Sxm, 180, 0, 2250.0)),
    default(gpu("RTX 3090 24GB", "RTX 3090", Pcie, 24, 0, 71.0)),
    default(gpu("RTX 4090 24GB", "RTX 4090", Pcie, 24, 24564, 165.2)),
    default(gpu("RTX 4090 D 24GB", "RTX 4090 D", Pcie, 24, 24564, 147.1)),
    default(gpu("RTX 5090 32GB", "RTX 5090", Pcie, 32, 32607, 209.5)),
    default(gpu("RTX 6000 Ada 48GB", "RTX 6000 Ada", Pcie, 48, 46068, 0.0)),
    default(gpu("MI210 64GB", "MI210", Pcie, 64, 0, 0.0)),
    default(gpu("MI250 128GB", "MI250", Sxm, 128, 0, 362.1)),
    default(gpu("MI250X 128GB", "MI250X", Sxm, 128, 0, 383.0)),
    default(gpu("MI300X 192GB", "MI300X", Sxm, 192, 0, 1307.4)),
    default(gpu("MI325X 256GB", "MI325X", Sxm, 256, 0, 1307.4)),
];
