//! GPUs by name: the one catalogue ([`GPUS`]), how a vendor's or `nvidia-smi`'s name finds its
//! row ([`lookup`]), whether a quoted and an observed name are the same GPU ([`compare`]), the
//! memory a name implies ([`memory_gb_of`]), theoretical compute, and the seed-002 check for
//! runs whose measured throughput does not follow the compute on paper ([`bottleneck_pairs`]).
//!
//! | quoted (vendor)   | observed (`nvidia-smi`)          | [`compare`]                          |
//! |-------------------|----------------------------------|--------------------------------------|
//! | `A100 SXM 80GB`   | `NVIDIA A100-SXM4-80GB`          | same                                 |
//! | `H100 SXM5 80GB`  | `NVIDIA H100 80GB HBM3`          | same                                 |
//! | `RTX 4090D`       | `NVIDIA GeForce RTX 4090 D`      | same                                 |
//! | `A100`            | any A100                         | same (a less specific quote)         |
//! | `A100 PCIe`       | `NVIDIA A100-SXM4-80GB`          | different (form factor)              |
//! | `RTX 4090`        | `NVIDIA GeForce RTX 4090 D`      | different (model)                    |
//! | `Ascend 910B`     | `Ascend 910B`                    | unknown model, compared word by word |
//!
//! Pure data and logic: no I/O, compiled for the server and the browser alike.

mod bottleneck;
mod catalog;
pub mod links;
#[cfg(test)]
mod tests;

pub use bottleneck::{BottleneckPair, MAX_MEASURED_RATIO, MIN_COMPUTE_RATIO, Measured, bottleneck_pairs};
pub use catalog::{GPUS, GpuMount, GpuSpec};

/// Dense FP16/BF16 tensor TFLOPS of one GPU named `gpu_name` (see [`lookup`]), where known.
#[must_use]
pub fn theoretical_tflops(gpu_name: &str) -> Option<f64> {
    lookup(gpu_name).and_then(|g| g.dense_fp16_tflops)
}

/// A name taken apart: its model tokens, and the form factor and memory it states.
struct Parsed {
    tokens: Vec<String>,
    form: Option<GpuMount>,
    memory_gb: Option<u32>,
}

impl Parsed {
    fn new(name: &str) -> Self {
        let tokens = model_tokens(name);
        Self {
            form: stated_form(&tokens),
            memory_gb: stated_memory_gb(name),
            tokens,
        }
    }

    fn has_all(&self, words: &str) -> bool {
        model_tokens(words).iter().all(|t| self.tokens.contains(t))
    }

    /// The row this name picks, if its model is in the catalogue.
    fn spec(&self) -> Option<&'static GpuSpec> {
        let mut best: Option<(Rank, &GpuSpec)> = None;
        for spec in GPUS {
            let model = model_tokens(spec.model);
            if !model.iter().all(|t| self.tokens.contains(t)) {
                continue;
            }
            let default_form = GPUS
                .iter()
                .find(|g| g.model == spec.model && g.default_variant)
                .map(|g| g.form);
            let rank = (
                model.len(),
                self.form == Some(spec.form),
                spec.aliases.iter().any(|a| self.has_all(a)),
                self.memory_gb == Some(spec.memory_gb),
                default_form == Some(spec.form),
                spec.default_variant,
            );
            if best.is_none_or(|(r, _)| rank > r) {
                best = Some((rank, spec));
            }
        }
        best.map(|(_, spec)| spec)
    }

    /// The form factor the name pins: stated (`PCIe`, `SXM…`, `NVL`), or implied by an alias
    /// of the row it picks (`HBM3` → the SXM H100).
    fn pinned_form(&self, spec: &GpuSpec) -> Option<GpuMount> {
        self.form
            .or_else(|| spec.aliases.iter().any(|a| self.has_all(a)).then_some(spec.form))
    }
}

/// How well a row fits a name, compared lexicographically: model tokens, stated form factor,
/// an alias, stated memory, the model's default form factor, default variant.
type Rank = (usize, bool, bool, bool, bool, bool);

/// The [`GPUS`] row for a reported or quoted name such as `"NVIDIA H100 80GB HBM3"`,
/// `"NVIDIA A100-SXM4-80GB"`, `"h100 sxm"`, `"Tesla T4"`, `"RTX 4090D"` or
/// `"NVIDIA GeForce RTX 4090"`.
///
/// A row applies when every token of its `model` occurs in the name (case and vendor words
/// ignored, `RTX 4090D` read as `4090 D`, so `"L40"` does not match `"L40S"`); the row with the most
/// model tokens wins (`RTX 4090 D` over `RTX 4090`). Among variants of one model, the name decides:
/// 1. a stated form factor (`PCIe`, `SXM…`/`HGX`/`OAM`, `NVL`) picks that variant;
/// 2. then an alias (`HBM3` for the SXM H100);
/// 3. then a stated memory size (`40GB`) picks the variant of that size;
/// 4. otherwise the form factor of the model's `default_variant`, then that variant itself: the
///    SXM module where one exists, as `nvidia-smi` names SXM boards without a form factor
///    (`"NVIDIA H800"`) while PCIe and NVL cards say so (`"NVIDIA H800 PCIe"`, `"NVIDIA H100 NVL"`).
#[must_use]
pub fn lookup(gpu_name: &str) -> Option<&'static GpuSpec> {
    Parsed::new(gpu_name).spec()
}

/// How a quoted GPU name compares with an observed one ([`compare`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameMatch {
    /// The same catalogue model, and any form factor or memory the quote states is the observed
    /// variant's.
    Same,
    /// Another model, or another variant than the quote states.
    Different,
    /// A name is not in the catalogue: compared word by word instead (every word of the quoted
    /// name in the observed one), with the result in `words_match`.
    UnknownModel {
        /// The name the catalogue does not know (the quoted one when neither is known).
        name_unknown: Side,
        /// Every quoted word occurs in the observed name.
        words_match: bool,
    },
}

/// Which of the two compared names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The quoted name.
    Quoted,
    /// The observed name.
    Observed,
}

impl NameMatch {
    /// Whether the observed GPU is the quoted one, as far as the names tell.
    #[must_use]
    pub const fn matches(self) -> bool {
        match self {
            Self::Same => true,
            Self::Different => false,
            Self::UnknownModel { words_match, .. } => words_match,
        }
    }
}

/// Compares a quoted GPU name with an observed one through the catalogue (see the table in the
/// module doc): same model, and a form factor or memory size the quoted name states must be
/// the observed variant's, so a less specific quote (`"A100"`) matches every A100. When a name
/// is not in the catalogue, the names are compared word by word as before the catalogue.
#[must_use]
pub fn compare(quoted: &str, observed: &str) -> NameMatch {
    let (q, o) = (Parsed::new(quoted), Parsed::new(observed));
    let (quoted_spec, observed_spec) = match (q.spec(), o.spec()) {
        (Some(qs), Some(os)) => (qs, os),
        (qs, _) => {
            let name_unknown = if qs.is_none() { Side::Quoted } else { Side::Observed };
            let observed_words = gpu_name_tokens(observed);
            let words_match = gpu_name_tokens(quoted).iter().all(|t| observed_words.contains(t));
            return NameMatch::UnknownModel {
                name_unknown,
                words_match,
            };
        }
    };
    let same = quoted_spec.model == observed_spec.model
        && q.pinned_form(quoted_spec).is_none_or(|f| f == observed_spec.form)
        && q.memory_gb.is_none_or(|m| m == observed_spec.memory_gb);
    if same { NameMatch::Same } else { NameMatch::Different }
}

/// The memory of one GPU (GB as sold) a model name implies: the size written in the name
/// (`A100-80GB`, `A100 80G`), else the one size every catalogue variant of the named model (of
/// the form factor it states) shares (`L4` → 24, `H100 SXM` → 80). `None` when the name is
/// unknown or ambiguous (`A100` alone is 40 or 80 GB) — never a guess.
#[must_use]
pub fn memory_gb_of(name: &str) -> Option<u32> {
    let parsed = Parsed::new(name);
    if let Some(gb) = parsed.memory_gb.filter(|gb| *gb > 0) {
        return Some(gb);
    }
    let spec = parsed.spec()?;
    let form = parsed.pinned_form(spec);
    let mut sizes = GPUS
        .iter()
        .filter(|g| g.model == spec.model && form.is_none_or(|f| f == g.form))
        .map(|g| g.memory_gb);
    let first = sizes.next()?;
    sizes.all(|gb| gb == first).then_some(first)
}

/// What runs of two quoted nodes must share to be pooled, as far as the GPU name goes: the
/// catalogue model (`"A100"` for `"NVIDIA A100-SXM4-80GB"` and `"A100 SXM 80GB"` alike), or for
/// a name the catalogue does not know, its normalised words.
#[must_use]
pub fn model_key(name: &str) -> String {
    lookup(name).map_or_else(|| gpu_name_tokens(name).join(" "), |g| g.model.to_string())
}

/// The form factor a name states (`PCIe`, `SXM4`, `NVL`, `OAM`, or an alias such as `HBM3` of
/// a catalogue variant), if any.
#[must_use]
pub fn stated_mount(name: &str) -> Option<GpuMount> {
    let parsed = Parsed::new(name);
    parsed
        .form
        .or_else(|| parsed.spec().and_then(|s| parsed.pinned_form(s)))
}

/// Normalised name words: lower case, `-`/`_` as spaces, without the `NVIDIA` vendor word and
/// without memory-size tokens such as `80GB`.
#[must_use]
pub fn gpu_name_tokens(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, '-' | '_' | '/' | '(' | ')' | ','))
        .filter(|t| !t.is_empty() && *t != "nvidia" && !is_memory_size(t))
        .map(str::to_owned)
        .collect()
}

fn is_memory_size(token: &str) -> bool {
    let digits = token.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &token[digits.len()..];
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && matches!(unit, "gb" | "g" | "gib")
}

/// [`gpu_name_tokens`] without the `RTX` brand word (`rtx4090` → `4090`), and a number run
/// into a suffix split from it (`4090d` → `4090`, `d`), so vendors' spellings (`RTX 4090D`,
/// `4090 D`) meet `nvidia-smi`'s (`NVIDIA GeForce RTX 4090 D`).
fn model_tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in gpu_name_tokens(name) {
        let rest = token.strip_prefix("rtx").unwrap_or(&token);
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let suffix = &rest[digits..];
        if digits > 0 && !suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_alphabetic()) {
            out.push(rest[..digits].to_owned());
            out.push(suffix.to_owned());
        } else if !rest.is_empty() {
            out.push(rest.to_owned());
        }
    }
    out
}

fn stated_form(tokens: &[String]) -> Option<GpuMount> {
    tokens.iter().find_map(|t| match t.as_str() {
        "pcie" => Some(GpuMount::Pcie),
        "nvl" => Some(GpuMount::Nvl),
        "hgx" | "oam" => Some(GpuMount::Sxm),
        t if t.starts_with("sxm") => Some(GpuMount::Sxm),
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
