//! An nccl-tests run judged on its link: the bus bandwidth at the largest sizes against what the
//! quoted interconnect should give (`domain::gpus::links`), never the rules of a benchmark.

use super::{NCCL_NVSWITCH, NCCL_PCIE, has_reason};
use crate::runs::{Reason, RunStatus, Severity, VerdictContext, assess, parse};

/// A quote of eight `gpu` cards, linked by NVLink/NVSwitch or not.
fn quoted(gpu: &str, nvlink: bool) -> VerdictContext {
    VerdictContext {
        quote: Some(crate::runs::QuotedNode {
            gpu_name: Some(gpu.into()),
            gpu_count: Some(8),
            nvlink: Some(nvlink),
            ..Default::default()
        }),
        ..VerdictContext::default()
    }
}

fn judged(bytes: &[u8], ctx: &VerdictContext) -> crate::runs::Verdict {
    assess(parse(bytes, None).expect("reads"), ctx).verdict.expect("judged")
}

#[test]
fn an_nvswitch_node_that_moves_480_gb_s_is_valid_evidence_of_its_link() {
    let v = judged(NCCL_NVSWITCH, &quoted("H100 SXM5 80GB", true));
    assert_eq!(v.status, RunStatus::Valid, "{v:?}");
    assert_eq!(v.reasons.len(), 1, "a link test is not judged as a benchmark: {v:?}");
    assert_eq!(v.reasons[0].severity, Severity::Info);
    assert!(has_reason(
        &v,
        |r| matches!(r, Reason::BusBandwidth { expected: Some(e), .. } if (e.least_gbps - 270.0).abs() < 1e-9)
    ));
}

#[test]
fn a_pcie_node_sold_as_nvswitch_is_flagged_and_is_sound_as_pcie() {
    // The L40S capture placed on a quote of H100s on NVSwitch: 21 GB/s against 270.
    let v = judged(NCCL_PCIE, &quoted("H100 SXM5 80GB", true));
    assert_eq!(v.status, RunStatus::Warn, "{v:?}");
    // The same capture on the L40S quote it was made on: PCIe Gen4 needs 19.2 GB/s.
    let v = judged(NCCL_PCIE, &quoted("L40S 48GB", false));
    assert_eq!(v.status, RunStatus::Valid, "{v:?}");
}

#[test]
fn wrong_values_small_sizes_and_unchecked_results_are_said() {
    let text = std::str::from_utf8(NCCL_NVSWITCH).unwrap();
    let wrong = text.replace("# Out of bounds values : 0 OK", "# Out of bounds values : 3 FAILED");
    let v = judged(wrong.as_bytes(), &quoted("H100 SXM5 80GB", true));
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(has_reason(&v, |r| matches!(r, Reason::BusTestWrong { wrong: 3 })));
    // Stopped at 1 MiB: the rows above it are gone.
    let small: String = text
        .lines()
        .filter(|l| {
            l.starts_with('#')
                || l.split_whitespace()
                    .next()
                    .and_then(|s| s.parse::<u64>().ok())
                    .is_some_and(|s| s <= 1 << 20)
        })
        .collect::<Vec<_>>()
        .join("\n");
    let v = judged(small.as_bytes(), &VerdictContext::default());
    assert_eq!(v.status, RunStatus::Warn);
    assert!(has_reason(&v, |r| matches!(
        r,
        Reason::BusTestSmall {
            largest_bytes: 1_048_576,
            ..
        }
    )));
    // Without a quote there is nothing to compare with: the figure alone, for information.
    let v = judged(NCCL_NVSWITCH, &VerdictContext::default());
    assert!(has_reason(&v, |r| matches!(
        r,
        Reason::BusBandwidth { expected: None, .. }
    )));
    assert_eq!(v.status, RunStatus::Valid);
}
