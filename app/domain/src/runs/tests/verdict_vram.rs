//! The VRAM headroom rule of the validity gate ([`crate::vram`]), at its edges.

use rust_decimal_macros::dec;

use super::super::{CanonicalRun, NodeInfo, QuoteField, QuotedNode, Reason, Severity, VerdictContext};
use super::verdict_edges::{base, codes};

/// The one headroom rule (`vram::assess`): peak × 1.2 against 81920 MiB.
#[test]
fn vram_headroom_exactly_at_limit_passes_above_warns() {
    let ctx = VerdictContext::default();
    let mut run = base();
    run.vram_peak_mib = Some(68_266.0); // × 1.2 = 81 919.2 MiB
    assert!(codes(&run, &ctx).is_empty());
    run.vram_peak_mib = Some(68_267.0); // × 1.2 = 81 920.4 MiB
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                peak_mib: 68_267.0,
                basis: None,
                usable_mib: 81_920.0,
                headroom_pct: dec!(20),
                required_mib: dec!(81920.4),
                actual_pct: Some(19)
            }
        )]
    );
    let mut odd = base();
    odd.node.vram_total_mib = Some(81_559.0);
    odd.vram_peak_mib = Some(67_965.8); // × 1.2 = 81 558.96 exactly, in decimals
    assert!(codes(&odd, &ctx).is_empty(), "float peaks enter as decimals");
    odd.vram_peak_mib = Some(67_966.0);
    assert!(matches!(
        codes(&odd, &ctx)[..],
        [(Severity::Warn, Reason::VramHeadroomLow { .. })]
    ));
}

fn a10(peak_mib: f64) -> (CanonicalRun, VerdictContext) {
    let mut run = base();
    run.node = NodeInfo {
        gpu_name: Some("NVIDIA A10".into()),
        gpu_count: Some(1),
        vram_total_mib: Some(23_028.0), // what nvidia-smi reports for a 24 GiB A10 with ECC
        ..NodeInfo::default()
    };
    run.vram_peak_mib = Some(peak_mib);
    let ctx = VerdictContext {
        headroom_pct: dec!(20),
        quote: Some(QuotedNode {
            gpu_name: Some("A10".into()),
            gpu_count: Some(1),
            vram_per_gpu_mib: Some(dec!(24576)),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    (run, ctx)
}

/// The one usable-memory input: the smaller of the quoted usable VRAM and the card's observed
/// `memory.total`. An A10 sold as 24 GiB reports 23,028 MiB with ECC on (nvidia-smi tables of
/// `NVIDIA A10` in public issues: 23028MiB with ECC, 24564MiB without), so a 20 GiB peak has
/// 12.4 % real headroom, not 20 %: it warns. The ECC-reduced report is still no shortfall.
#[test]
fn a_20_gib_peak_on_an_a10_with_ecc_has_12_percent_headroom_not_20() {
    let (run, ctx) = a10(20_480.0);
    assert_eq!(
        codes(&run, &ctx),
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                peak_mib: 20_480.0,
                basis: None,
                usable_mib: 23_028.0,
                headroom_pct: dec!(20),
                required_mib: dec!(24576.0),
                actual_pct: Some(12)
            }
        )]
    );
    // 19,190 MiB × 1.2 = 23,028 exactly: fits; one MiB more does not.
    let (run, ctx) = a10(19_190.0);
    assert!(codes(&run, &ctx).is_empty(), "{:?}", codes(&run, &ctx));
    let (run, ctx) = a10(19_191.0);
    assert!(matches!(
        codes(&run, &ctx)[..],
        [(
            Severity::Warn,
            Reason::VramHeadroomLow {
                actual_pct: Some(19),
                ..
            }
        )]
    ));
    let (run, mut ctx) = a10(20_000.0);
    ctx.headroom_pct = dec!(15);
    assert!(codes(&run, &ctx).is_empty(), "15 % needs 23,000 MiB");
}

#[test]
fn headroom_uses_quoted_vram_when_none_observed() {
    let mut run = base();
    run.node.vram_total_mib = None;
    run.vram_peak_mib = Some(21_000.0);
    let ctx = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(dec!(24576)),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &ctx);
    assert!(
        found
            .iter()
            .any(|(_, r)| matches!(r, Reason::VramHeadroomLow { required_mib, .. } if *required_mib == dec!(25200)))
    );
    assert!(found.contains(&(
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram
        }
    )));
}

/// A MIG GPU reports the parent's memory: the slice of the quote is the base,
/// and without a quote the headroom cannot be checked.
#[test]
fn mig_headroom_uses_the_slice_never_the_parent_gpu() {
    let mut run = base();
    run.node.mig = Some(true);
    run.vram_peak_mib = Some(9_000.0);
    let sliced = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(dec!(10240)),
            slicing: Some(crate::runs::Slicing::Mig),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &sliced);
    assert!(
        found.iter().any(|(s, r)| *s == Severity::Warn
            && matches!(r, Reason::VramHeadroomLow { usable_mib, required_mib, .. }
                if *usable_mib == 10_240.0 && *required_mib == dec!(10800))),
        "{found:?}"
    );
    assert!(found.contains(&(
        Severity::Info,
        Reason::QuoteUnverifiable {
            field: QuoteField::Vram
        }
    )));
    assert_eq!(
        codes(&run, &VerdictContext::default()),
        [(Severity::Info, Reason::VramUsableUnknown)]
    );
}

/// A serving engine's reservation on a 3g.40gb MIG slice of an 80 GB card: 37,683 MiB held is
/// 92 % of the slice's 40,960 MiB, not the 46 % of the parent card nvidia-smi's total suggests.
#[test]
fn a_reservation_on_a_mig_slice_is_a_share_of_the_slice() {
    let mut run = base();
    run.node.mig = Some(true);
    run.vram_peak_mib = Some(37_683.2);
    run.vram_reserved = Some(true);
    let sliced = VerdictContext {
        quote: Some(QuotedNode {
            vram_per_gpu_mib: Some(dec!(40960)),
            slicing: Some(crate::runs::Slicing::Mig),
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    };
    let found = codes(&run, &sliced);
    assert!(
        found.iter().any(
            |(_, r)| matches!(r, Reason::VramReserved { share: Some(s), slice: true, .. }
            if (*s - 0.92).abs() < 1e-9)
        ),
        "{found:?}"
    );
}
