//! GPU models to suggest while typing a free-text model name, with the VRAM a name implies:
//! both read the one GPU catalogue ([`crate::gpus::GPUS`]).

use crate::gpus::{self, GPUS};
use rust_decimal::Decimal;

/// One suggested GPU model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuSuggestion {
    /// The label shown and stored, e.g. `A100 SXM4 80GB`: the catalogue variant's name.
    pub label: &'static str,
    /// The catalogue model, e.g. `A100`.
    pub model: &'static str,
    /// VRAM per GPU in GiB as the model is sold.
    pub vram_gib: u32,
}

/// Models offered as suggestions for `spec.gpu_model` (the field stays free text): every
/// variant of the GPU catalogue, in its order.
pub fn gpu_model_suggestions() -> impl Iterator<Item = GpuSuggestion> {
    GPUS.iter().map(|g| GpuSuggestion {
        label: g.name,
        model: g.model,
        vram_gib: g.memory_gb,
    })
}

/// The VRAM per GPU (GiB) a model name implies: the size written in the name (`A100-80GB`,
/// `A100 80G`), else the one size every catalogue variant of the model (of a form factor the
/// name states) shares (`L4` → 24). `None` when the name is unknown or ambiguous (`A100` alone
/// is 40 or 80 GB) — never a guess. See [`gpus::memory_gb_of`].
pub fn suggested_vram_gib(model: &str) -> Option<Decimal> {
    gpus::memory_gb_of(model).map(Decimal::from)
}
