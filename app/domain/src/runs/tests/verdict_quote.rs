//! Quoted node against observed node: names, counts, VRAM, driver and MIG, and the one
//! severity table.

use rust_decimal_macros::dec;

use super::super::{NodeInfo, QuotedNode, Reason, RunStatus, Severity, VerdictContext, judge, names_match};
use super::verdict_edges::{base, codes};

fn quoted(q: QuotedNode) -> VerdictContext {
    VerdictContext {
        quote: Some(q),
        ..VerdictContext::default()
    }
}

#[test]
fn gpu_names_normalise_case_spaces_vendor_and_memory_suffix() {
    assert!(names_match("A100 80GB", "NVIDIA A100-SXM4-80GB"));
    assert!(names_match("nvidia  a100-sxm4", " NVIDIA A100-SXM4-80GB "));
    assert!(names_match("H100 80GB HBM3", "NVIDIA H100 80GB HBM3"));
    assert!(names_match("RTX 4090", "NVIDIA GeForce RTX 4090"));
    assert!(!names_match("H100", "NVIDIA A100-SXM4-80GB"));
    assert!(!names_match("A100 PCIe", "NVIDIA A100-SXM4-80GB"));
    let v = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_name: Some("H100 SXM".into()),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(v.status, RunStatus::Invalid, "another GPU model is not valid for costs");
    assert!(matches!(&v.reasons[0].reason, Reason::GpuNameMismatch { quoted, .. } if quoted == "H100 SXM"));
}

#[test]
fn gpu_count_shortfall_is_invalid_surplus_warns() {
    let fewer = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_count: Some(16),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(fewer.status, RunStatus::Invalid);
    assert_eq!(
        fewer.reasons[0].reason,
        Reason::GpuCountMismatch {
            quoted: 16,
            observed: 8
        }
    );
    let more = judge(
        &base(),
        &quoted(QuotedNode {
            gpu_count: Some(4),
            ..QuotedNode::default()
        }),
    );
    assert_eq!(more.status, RunStatus::Warn);
    assert_eq!(
        judge(
            &base(),
            &quoted(QuotedNode {
                gpu_count: Some(8),
                ..QuotedNode::default()
            })
        )
        .status,
        RunStatus::Valid
    );
}

#[test]
fn vram_differs_beyond_seven_percent_either_way() {
    let ctx = quoted(QuotedNode {
        vram_per_gpu_mib: Some(dec!(81920)),
        ..QuotedNode::default()
    });
    let mut run = base();
    run.node.vram_total_mib = Some(76_185.6); // exactly 7 % short
    run.vram_peak_mib = Some(50_000.0);
    assert_eq!(judge(&run, &ctx).status, RunStatus::Valid);
    run.node.vram_total_mib = Some(76_185.0);
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(
        matches!(v.reasons[0].reason, Reason::VramShortfall { quoted_mib, observed_mib, .. }
        if quoted_mib == 81_920.0 && observed_mib == 76_185.0)
    );
    // A quote of 24 GiB against 81920 MiB observed is flagged.
    let small = quoted(QuotedNode {
        vram_per_gpu_mib: Some(dec!(24576)),
        ..QuotedNode::default()
    });
    let mut big = base();
    big.vram_peak_mib = Some(20_000.0);
    assert_eq!(
        codes(&big, &small),
        [(
            Severity::Warn,
            Reason::VramExceeds {
                quoted_mib: 24_576.0,
                observed_mib: 81_920.0
            }
        )]
    );
}

/// One table: model, fewer GPUs, less VRAM and slicing are invalid for
/// costs; more GPUs or VRAM, driver and CUDA only warn.
#[test]
fn the_severity_table() {
    use super::super::{Difference as D, severity_of};
    let table = [
        (D::GpuModel, Severity::Invalid),
        (D::FewerGpus, Severity::Invalid),
        (D::LessVram, Severity::Invalid),
        (D::Slicing, Severity::Invalid),
        (D::MoreGpus, Severity::Warn),
        (D::MoreVram, Severity::Warn),
        (D::Driver, Severity::Warn),
        (D::Cuda, Severity::Warn),
    ];
    for (d, s) in table {
        assert_eq!(severity_of(d), s, "{d:?}");
    }
}

#[test]
fn driver_warns_and_mig_mismatch_is_invalid() {
    let ok = quoted(QuotedNode {
        driver: Some("550".into()),
        slicing: Some(crate::runs::Slicing::Whole),
        ..QuotedNode::default()
    });
    assert_eq!(judge(&base(), &ok).status, RunStatus::Valid);
    let bad = quoted(QuotedNode {
        driver: Some("535.104".into()),
        slicing: Some(crate::runs::Slicing::Mig),
        ..QuotedNode::default()
    });
    let found = codes(&base(), &bad);
    assert_eq!(
        found,
        [
            (
                Severity::Warn,
                Reason::DriverMismatch {
                    quoted: "535.104".into(),
                    observed: "550.54.15".into()
                }
            ),
            (
                Severity::Invalid,
                Reason::MigMismatch {
                    quoted: true,
                    observed: false
                }
            ),
        ]
    );
    let driver_only = quoted(QuotedNode {
        driver: Some("535.104".into()),
        ..QuotedNode::default()
    });
    assert_eq!(judge(&base(), &driver_only).status, RunStatus::Warn);
}

#[test]
fn unobserved_quote_fields_are_informational() {
    let mut run = base();
    run.node = NodeInfo::default();
    let ctx = quoted(QuotedNode {
        gpu_name: Some("A100".into()),
        gpu_count: Some(1),
        vram_per_gpu_mib: Some(dec!(81920)),
        driver: Some("550".into()),
        slicing: Some(crate::runs::Slicing::Whole),
        form_factor: None,
        nvlink: None,
        network_gbps: None,
    });
    let v = judge(&run, &ctx);
    assert_eq!(v.status, RunStatus::Valid);
    assert_eq!(v.reasons.len(), 5);
    assert!(v.reasons.iter().all(|r| r.severity == Severity::Info));
}
