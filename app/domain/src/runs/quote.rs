//! Quoted node vs observed node, and result file vs telemetry: what differs
//! and how much it counts (one table, [`severity_of`]).

use rust_decimal::Decimal;

use crate::gpus::{self, NameMatch, Side};

use super::canonical::NodeInfo;
use super::verdict::{
    Difference, GpuUse, QuoteField, QuotedNode, Reason, Severity, Slicing, Thresholds, VerdictContext, VerdictReason,
};

/// THE severity table of node differences: what makes a run not
/// valid for costs (another GPU model, fewer GPUs, less VRAM, slicing) and
/// what only warns (more GPUs or VRAM than quoted, driver or CUDA).
#[must_use]
pub const fn severity_of(difference: Difference) -> Severity {
    match difference {
        Difference::GpuModel | Difference::FewerGpus | Difference::LessVram | Difference::Slicing => Severity::Invalid,
        Difference::MoreGpus | Difference::MoreVram | Difference::Driver | Difference::Cuda => Severity::Warn,
    }
}

/// A float figure from a file as an exact decimal (its shortest decimal
/// spelling: 81559.0 → 81559, 0.1 → 0.1); `None` when not finite.
pub(crate) fn dec(x: f64) -> Option<Decimal> {
    if !x.is_finite() {
        return None;
    }
    x.to_string().parse::<Decimal>().ok()
}

/// How VRAM per GPU compares beyond `tolerance` (a share of `expected`).
fn vram_difference(expected: Decimal, seen: Decimal, tolerance: f64) -> Option<Difference> {
    let tol = dec(tolerance)?;
    let slack = expected.saturating_mul(tol);
    if seen < expected.saturating_sub(slack) {
        Some(Difference::LessVram)
    } else if seen > expected.saturating_add(slack) {
        Some(Difference::MoreVram)
    } else {
        None
    }
}

/// The reason, if any, for the quoted VRAM per GPU (`quoted`, MiB, > 0)
/// against the observed: unverifiable without an observed figure or on a MIG
/// GPU, else a shortfall or excess beyond the tolerance.
fn vram_reason(
    quoted: Decimal,
    slicing: Option<Slicing>,
    node: &NodeInfo,
    th: &Thresholds,
) -> Option<(Severity, Reason)> {
    let unverifiable = (
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram,
        },
    );
    let Some(observed) = node.vram_total_mib.and_then(dec) else {
        return Some(unverifiable);
    };
    // A MIG instance and a fractional share see the parent card's memory, not the offer's.
    if node.mig == Some(true) || slicing.is_some_and(|s| !s.reports_own_memory()) {
        return Some(unverifiable);
    }
    let quoted_mib = f64::try_from(quoted).unwrap_or(f64::NAN);
    let observed_mib = node.vram_total_mib.unwrap_or(f64::NAN);
    let d = vram_difference(quoted, observed, th.vram_tolerance_share)?;
    let reason = if d == Difference::LessVram {
        Reason::VramShortfall {
            quoted_mib,
            observed_mib,
            shortfall_share: 1.0 - observed_mib / quoted_mib,
        }
    } else {
        Reason::VramExceeds {
            quoted_mib,
            observed_mib,
        }
    };
    Some((severity_of(d), reason))
}

/// How many GPUs the run used and how many it saw idle ([`super::judge`]'s finding).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeenGpus {
    /// GPUs the run used, when known.
    pub(crate) used: Option<u32>,
    /// GPUs seen in the telemetry but idle.
    pub(crate) idle: u32,
}

/// Compares the quote with what the run observed.
pub(crate) fn check(
    quote: &QuotedNode,
    node: &NodeInfo,
    seen: SeenGpus,
    ctx: &VerdictContext,
    out: &mut Vec<VerdictReason>,
) {
    let th = &ctx.thresholds;
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });
    let unverifiable = |field| Reason::QuoteUnverifiable { field };
    check_gpu(quote, node, &mut push);
    if let Some(quoted) = quote.gpu_count {
        match node.gpu_count {
            None => push(Severity::Info, unverifiable(QuoteField::GpuCount)),
            Some(observed) => {
                if let Some((severity, reason)) = gpu_count_reason(quoted, observed, seen, ctx) {
                    push(severity, reason);
                }
            }
        }
    }
    if let Some(quoted) = quote.vram_per_gpu_mib.filter(|q| *q > Decimal::ZERO)
        && let Some((severity, reason)) = vram_reason(quoted, quote.slicing, node, th)
    {
        push(severity, reason);
    }
    if let Some(quoted) = &quote.driver {
        match &node.driver_version {
            None => push(Severity::Info, unverifiable(QuoteField::Driver)),
            Some(observed) if !driver_matches(quoted, observed) => push(
                severity_of(Difference::Driver),
                Reason::DriverMismatch {
                    quoted: quoted.clone(),
                    observed: observed.clone(),
                },
            ),
            Some(_) => {}
        }
    }
    if let Some((severity, reason)) = quote.slicing.and_then(|s| mig_reason(s, node.mig)) {
        push(severity, reason);
    }
}

/// The quoted GPU count against the run's.
///
/// nvidia-smi lists the GPUs it is asked about (`-i 0` lists one). Seen GPUs beyond the quote
/// are another node (warn). Fewer seen than quoted while some of those seen were idle means
/// the telemetry saw the whole node and it is short (invalid); so does a count without
/// per-GPU telemetry (a result file names the node's GPUs). Otherwise the run used part of
/// the node: for one task per GPU that is a measurement of one GPU's share (info; costs take
/// the run's throughput per GPU × the node's GPUs); for one job, a run on fewer GPUs than the
/// job spreads over (the workload's, at most the node's) does not measure it (warn).
fn gpu_count_reason(quoted: u32, observed: u32, seen: SeenGpus, ctx: &VerdictContext) -> Option<(Severity, Reason)> {
    if observed > quoted {
        let reason = Reason::GpuCountMismatch { quoted, observed };
        return Some((severity_of(Difference::MoreGpus), reason));
    }
    // Without per-GPU telemetry nothing shows a subset was chosen: the count is the node's.
    if observed < quoted && (seen.idle > 0 || seen.used.is_none()) {
        let reason = Reason::GpuCountMismatch { quoted, observed };
        return Some((severity_of(Difference::FewerGpus), reason));
    }
    let used = seen.used.unwrap_or(observed).min(observed);
    if used >= quoted || used == 0 {
        return None;
    }
    let (severity, job_gpus) = match ctx.gpu_use {
        GpuUse::TaskPerGpu => (Severity::Info, None),
        GpuUse::OneJob => {
            let job = ctx.job_gpus.unwrap_or(quoted).clamp(1, quoted);
            let severity = if used < job { Severity::Warn } else { Severity::Info };
            (severity, Some(job))
        }
    };
    let reason = Reason::PartOfNode {
        used,
        node_gpus: quoted,
        job_gpus,
        gpu_use: ctx.gpu_use,
    };
    Some((severity, reason))
}

/// MIG mode against the offer's kind: only a MIG slice expects it on, and a whole GPU expects
/// it off; a vGPU or a fractional share is not judged by it (a vGPU guest reports MIG off or
/// "not supported" whatever backs it).
fn mig_reason(slicing: Slicing, observed: Option<bool>) -> Option<(Severity, Reason)> {
    let expected = match slicing {
        Slicing::Whole => false,
        Slicing::Mig => true,
        Slicing::Vgpu | Slicing::Fractional => return None,
    };
    match observed {
        None => Some((Severity::Info, Reason::QuoteUnverifiable { field: QuoteField::Mig })),
        Some(o) if o != expected => Some((
            severity_of(Difference::Slicing),
            Reason::MigMismatch {
                quoted: expected,
                observed: o,
            },
        )),
        Some(_) => None,
    }
}

/// The quoted GPU against the observed one: the model through the GPU catalogue (another model,
/// or another variant than the quoted name states, is invalid), the quote's form factor
/// against the observed variant's (invalid when it differs), and a note when a name is not in
/// the catalogue (then compared word by word).
fn check_gpu(quote: &QuotedNode, node: &NodeInfo, push: &mut impl FnMut(Severity, Reason)) {
    let Some(observed) = &node.gpu_name else {
        if quote.gpu_name.is_some() {
            push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::GpuName,
                },
            );
        }
        return;
    };
    if let Some(quoted) = &quote.gpu_name {
        let found = gpus::compare(quoted, observed);
        if let NameMatch::UnknownModel { name_unknown, .. } = found {
            let name = if name_unknown == Side::Quoted { quoted } else { observed };
            push(Severity::Info, Reason::UnknownGpuModel { name: name.clone() });
        }
        if !found.matches() {
            let reason = Reason::GpuNameMismatch {
                quoted: quoted.clone(),
                observed: observed.clone(),
            };
            push(severity_of(Difference::GpuModel), reason);
            return;
        }
    }
    if let Some(form) = quote.form_factor
        && let Some(seen) = gpus::lookup(observed)
        && !form.fits(seen.form)
    {
        let reason = Reason::GpuFormMismatch {
            quoted: form,
            observed: seen.form,
            gpu: observed.clone(),
        };
        push(severity_of(Difference::GpuModel), reason);
    }
}

/// Compares the node the result file names with the one its telemetry
/// observed. More GPUs in the telemetry is normal (it sees the whole node
/// while the benchmark may use some), so only fewer counts.
pub(crate) fn check_files(result: &NodeInfo, telemetry: &NodeInfo, th: &Thresholds, out: &mut Vec<VerdictReason>) {
    let mut push = |difference, result: String, telemetry: String| {
        out.push(VerdictReason {
            severity: severity_of(difference),
            reason: Reason::FilesDisagree {
                difference,
                result,
                telemetry,
            },
        });
    };
    if let (Some(r), Some(t)) = (&result.gpu_name, &telemetry.gpu_name)
        && !names_match(r, t)
        && !names_match(t, r)
    {
        push(Difference::GpuModel, r.clone(), t.clone());
    }
    if let (Some(r), Some(t)) = (result.gpu_count, telemetry.gpu_count)
        && t < r
    {
        push(Difference::FewerGpus, r.to_string(), t.to_string());
    }
    if let (Some(r), Some(t)) = (result.vram_total_mib, telemetry.vram_total_mib)
        && let (Some(rd), Some(td)) = (dec(r), dec(t))
        && let Some(d) = vram_difference(rd, td, th.vram_tolerance_share)
    {
        push(d, format!("{r} MiB"), format!("{t} MiB"));
    }
    if let (Some(r), Some(t)) = (result.mig, telemetry.mig)
        && r != t
    {
        push(Difference::Slicing, r.to_string(), t.to_string());
    }
    if let (Some(r), Some(t)) = (&result.driver_version, &telemetry.driver_version)
        && !driver_matches(r, t)
        && !driver_matches(t, r)
    {
        push(Difference::Driver, r.clone(), t.clone());
    }
    if let (Some(r), Some(t)) = (&result.cuda_version, &telemetry.cuda_version)
        && !driver_matches(r, t)
        && !driver_matches(t, r)
    {
        push(Difference::Cuda, r.clone(), t.clone());
    }
}

pub use crate::gpus::gpu_name_tokens;

/// Whether the observed GPU is the quoted one: compared through the GPU catalogue
/// ([`gpus::compare`]), so vendors' spellings meet `nvidia-smi`'s (`"H100 SXM5 80GB"` is
/// `"NVIDIA H100 80GB HBM3"`) and a less specific quote (`"A100"`) matches
/// `"NVIDIA A100-SXM4-80GB"`; names the catalogue does not know are compared word by word.
#[must_use]
pub fn names_match(quoted: &str, observed: &str) -> bool {
    gpus::compare(quoted, observed).matches()
}

/// A quoted driver matches when its dot-separated parts prefix the observed
/// ones (`"550"` matches `"550.54.15"`).
fn driver_matches(quoted: &str, observed: &str) -> bool {
    let mut obs = observed.trim().split('.');
    quoted.trim().split('.').all(|q| obs.next() == Some(q))
}
