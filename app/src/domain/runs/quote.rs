//! Quoted node vs observed node.

use super::canonical::NodeInfo;
use super::verdict::{QuoteField, QuotedNode, Reason, Severity, Thresholds, VerdictReason};

/// Compares the quote with what the run observed.
pub(crate) fn check(
    quote: &QuotedNode,
    node: &NodeInfo,
    th: &Thresholds,
    out: &mut Vec<VerdictReason>,
) {
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });
    if let Some(quoted) = &quote.gpu_name {
        match &node.gpu_name {
            None => push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::GpuName,
                },
            ),
            Some(observed) if !names_match(quoted, observed) => push(
                Severity::Warn,
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
            None => push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::GpuCount,
                },
            ),
            Some(observed) if observed != quoted => {
                let severity = if observed < quoted {
                    Severity::Invalid
                } else {
                    Severity::Warn
                };
                push(severity, Reason::GpuCountMismatch { quoted, observed });
            }
            Some(_) => {}
        }
    }
    if let Some(quoted_mib) = quote.vram_per_gpu_mib.filter(|q| *q > 0.0) {
        match node.vram_total_mib {
            None => push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::Vram,
                },
            ),
            Some(observed_mib) => {
                let shortfall_share = 1.0 - observed_mib / quoted_mib;
                if shortfall_share > th.vram_tolerance_share + 1e-9 {
                    push(
                        Severity::Invalid,
                        Reason::VramShortfall {
                            quoted_mib,
                            observed_mib,
                            shortfall_share,
                        },
                    );
                }
            }
        }
    }
    if let Some(quoted) = &quote.driver {
        match &node.driver_version {
            None => push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::Driver,
                },
            ),
            Some(observed) if !driver_matches(quoted, observed) => push(
                Severity::Warn,
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
            None => push(
                Severity::Info,
                Reason::QuoteUnverifiable {
                    field: QuoteField::Mig,
                },
            ),
            Some(observed) if observed != quoted => {
                push(Severity::Warn, Reason::MigMismatch { quoted, observed })
            }
            Some(_) => {}
        }
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
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(unit, "gb" | "g" | "gib")
}

/// A quoted driver matches when its dot-separated parts prefix the observed
/// ones (`"550"` matches `"550.54.15"`).
fn driver_matches(quoted: &str, observed: &str) -> bool {
    let mut obs = observed.trim().split('.');
    quoted.trim().split('.').all(|q| obs.next() == Some(q))
}
