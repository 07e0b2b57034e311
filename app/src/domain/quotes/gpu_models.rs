//! Common GPU models with their VRAM, to suggest while typing a free-text model name.

use rust_decimal::Decimal;

/// One suggested GPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSuggestion {
    /// The label shown and stored, e.g. `A100 80GB`.
    pub label: &'static str,
    /// The model without memory size, normalised (upper case, no spaces), e.g. `A100`.
    pub base: &'static str,
    /// VRAM per GPU in GiB as the model is sold.
    pub vram_gib: u16,
}

const fn s(label: &'static str, base: &'static str, vram_gib: u16) -> GpuSuggestion {
    GpuSuggestion { label, base, vram_gib }
}

/// Models offered as suggestions for `spec.gpu_model` (the field stays free text).
pub const GPU_MODEL_SUGGESTIONS: &[GpuSuggestion] = &[
    s("A10 24GB", "A10", 24),
    s("A10G 24GB", "A10G", 24),
    s("L4 24GB", "L4", 24),
    s("L40S 48GB", "L40S", 48),
    s("A40 48GB", "A40", 48),
    s("RTX A6000 48GB", "RTXA6000", 48),
    s("A100 40GB", "A100", 40),
    s("A100 80GB", "A100", 80),
    s("A800 80GB", "A800", 80),
    s("H100 80GB", "H100", 80),
    s("H800 80GB", "H800", 80),
    s("H20 96GB", "H20", 96),
    s("H200 141GB", "H200", 141),
    s("RTX 4090 24GB", "RTX4090", 24),
    s("RTX 4090D 24GB", "RTX4090D", 24),
    s("RTX 3090 24GB", "RTX3090", 24),
    s("V100 16GB", "V100", 16),
    s("V100 32GB", "V100", 32),
    s("T4 16GB", "T4", 16),
    s("MI300X 192GB", "MI300X", 192),
];

/// Tokens that name the vendor, family or form factor rather than the model.
const NOISE: &[&str] = &[
    "NVIDIA", "TESLA", "GEFORCE", "AMD", "INSTINCT", "PCIE", "SXM", "SXM2", "SXM4", "SXM5",
];

/// The VRAM per GPU (GiB) a model name implies: the size written in the name (`A100-80GB`,
/// `A100 80G`), else the one size all matching suggestions share (`L4` → 24). `None` when the
/// name is unknown or ambiguous (`A100` alone is 40 or 80 GB) — never a guess.
pub fn suggested_vram_gib(model: &str) -> Option<Decimal> {
    let mut base = String::new();
    let mut size = None;
    for token in model
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
    {
        let upper = token.to_ascii_uppercase();
        if let Some(gib) = size_token(&upper) {
            size = Some(gib);
        } else if !NOISE.contains(&upper.as_str()) {
            base.push_str(&upper);
        }
    }
    if let Some(gib) = size {
        return Some(Decimal::from(gib));
    }
    let mut sizes = GPU_MODEL_SUGGESTIONS
        .iter()
        .filter(|g| g.base == base)
        .map(|g| g.vram_gib);
    let first = sizes.next()?;
    sizes.all(|v| v == first).then(|| Decimal::from(first))
}

/// `80GB`, `80G` or `80GIB` → 80.
fn size_token(upper: &str) -> Option<u32> {
    let digits = upper
        .strip_suffix("GIB")
        .or_else(|| upper.strip_suffix("GB"))
        .or_else(|| upper.strip_suffix('G'))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|g| *g > 0)
}
