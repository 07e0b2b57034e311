//! Quoted node vs observed node, and result file vs telemetry: what differs
//! and how much it counts (one table, [`severity_of`]).

use rust_decimal::Decimal;

use super::canonical::NodeInfo;
use super::verdict::{Difference, QuoteField, QuotedNode, Reason, Severity, Thresholds, VerdictReason};

/// THE severity table of node differences (issue 10): what makes a run not
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
fn vram_reason(quoted: Decimal, node: &NodeInfo, th: &Thresholds) -> Option<(Severity, Reason)> {
    let unverifiable = (
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram,
        },
    );
    let Some(observed) = node.vram_total_mib.and_then(dec) else {
        return Some(unverifiable);
    };
    // A MIG GPU reports the parent's memory, not the slice's.
    if node.mig == Some(true) {
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

/// Compares the quote with what the run observed.
pub(crate) fn check(quote: &QuotedNode, node: &NodeInfo, th: &Thresholds, out: &mut Vec<VerdictReason>) {
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });
    let unverifiable = |field| Reason::QuoteUnverifiable { field };
    if let Some(quoted) = &quote.gpu_name {
        match &node.gpu_name {
            None => push(Severity::Info, unverifiable(QuoteField::GpuName)),
            Some(observed) if !names_match(quoted, observed) => push(
                severity_of(Difference::GpuModel),
                Reason::GpuNameMismatch {
                    quoted: quoted.clone(),
                    observed: observed.clone(),
                },
            ),
            Some(_) => {}
        }
    }
    if let Some(quoted) = quote.gpu_count {
        match node.gpu_count {
            None => push(Severity::Info, unverifiable(QuoteField::GpuCount)),
            Some(observed) if observed != quoted => {
                let d = if observed < quoted {
                    Difference::FewerGpus
                } else {
                    Difference::MoreGpus
                };
                push(severity_of(d), Reason::GpuCountMismatch { quoted, observed });
            }
            Some(_) => {}
        }
    }
    if let Some(quoted) = quote.vram_per_gpu_mib.filter(|q| *q > Decimal::ZERO)
        && let Some((severity, reason)) = vram_reason(quoted, node, th)
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
    if let Some(quoted) = quote.mig {
        match node.mig {
            None => push(Severity::Info, unverifiable(QuoteField::Mig)),
            Some(observed) if observed != quoted => push(
                severity_of(Difference::Slicing),
                Reason::MigMismatch { quoted, observed },
            ),
            Some(_) => {}
        }
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

/// Normalised name tokens: lower case, `-`/`_` as spaces, without the
/// `NVIDIA` vendor word and without memory-size tokens such as `80GB`.
pub fn gpu_name_tokens(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, '-' | '_' | '/' | '(' | ')' | ','))
        .filter(|t| !t.is_empty() && *t != "nvidia" && !is_memory_size(t))
        .map(str::to_owned)
        .collect()
}

/// True when every token of the quoted name occurs in the observed name, so
/// a less specific quote (`"A100"`) matches `"NVIDIA A100-SXM4-80GB"`.
#[must_use]
pub fn names_match(quoted: &str, observed: &str) -> bool {
    let observed = gpu_name_tokens(observed);
    gpu_name_tokens(quoted).iter().all(|t| observed.contains(t))
}

fn is_memory_size(token: &str) -> bool {
    let digits = token.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &token[digits.len()..];
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && matches!(unit, "gb" | "g" | "gib")
}

/// A quoted driver matches when its dot-separated parts prefix the observed
/// ones (`"550"` matches `"550.54.15"`).
fn driver_matches(quoted: &str, observed: &str) -> bool {
    let mut obs = observed.trim().split('.');
    quoted.trim().split('.').all(|q| obs.next() == Some(q))
}
