//! Checklist item `perf.bottleneck`: when two nodes differ a lot in theoretical compute but their
//! measured throughput differs only by some 10–20 %, the workload is probably
//! limited by disk, CPU, network or memory bandwidth, so nodes should be compared
//! by measured throughput rather than by GPU tier.

use super::theoretical_tflops;

/// Theoretical compute (TFLOPS × GPUs) must differ at least by this factor for
/// a pair to count as "a lot apart on paper".
pub const MIN_COMPUTE_RATIO: f64 = 1.5;

/// The measured throughput of the stronger node over the weaker one must be at
/// most this (i.e. at most ~20 % ahead, or behind) for the pair to be reported.
pub const MAX_MEASURED_RATIO: f64 = 1.2;

/// Slack on both thresholds, so that ratios on the limit (`936 / 624 = 1.5`)
/// count despite floating-point rounding.
const RATIO_EPSILON: f64 = 1e-9;

/// One measured node: a steady-state throughput on a given GPU configuration.
///
/// All throughputs compared in one call must be of the same workload and unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Caller's identifier (e.g. a quote or run id).
    pub key: i64,
    /// GPU model name as quoted or reported (see [`super::lookup`]).
    pub gpu_name: String,
    /// GPUs used by the run.
    pub gpus: u32,
    /// Steady-state throughput (warm-up excluded).
    pub throughput: f64,
}

/// Two nodes far apart on paper but close in measured throughput.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BottleneckPair {
    /// Key of the node with the higher theoretical compute.
    pub faster_on_paper: i64,
    /// Key of the node with the lower theoretical compute.
    pub slower_on_paper: i64,
    /// Theoretical compute of the first over the second (≥ [`MIN_COMPUTE_RATIO`]).
    pub compute_ratio: f64,
    /// Measured throughput of the first over the second (≤ [`MAX_MEASURED_RATIO`]).
    pub measured_ratio: f64,
}

/// Every pair of `items` whose theoretical compute differs by at least
/// [`MIN_COMPUTE_RATIO`] while the higher-compute one measures at most
/// [`MAX_MEASURED_RATIO`] times the other's throughput (or less).
///
/// Items with an unknown GPU, zero GPUs, or a throughput that is not finite and
/// positive are skipped. Pairs come in input order (`i < j`).
#[must_use]
pub fn bottleneck_pairs(items: &[Measured]) -> Vec<BottleneckPair> {
    let known: Vec<(i64, f64, f64)> = items
        .iter()
        .filter(|m| m.gpus > 0 && m.throughput.is_finite() && m.throughput > 0.0)
        .filter_map(|m| {
            let compute = theoretical_tflops(&m.gpu_name)? * f64::from(m.gpus);
            Some((m.key, compute, m.throughput))
        })
        .collect();
    let mut out = Vec::new();
    for (i, a) in known.iter().enumerate() {
        for b in &known[i + 1..] {
            let (hi, lo) = if a.1 >= b.1 { (a, b) } else { (b, a) };
            let compute_ratio = hi.1 / lo.1;
            let measured_ratio = hi.2 / lo.2;
            if compute_ratio >= MIN_COMPUTE_RATIO - RATIO_EPSILON
                && measured_ratio <= MAX_MEASURED_RATIO + RATIO_EPSILON
            {
                out.push(BottleneckPair {
                    faster_on_paper: hi.0,
                    slower_on_paper: lo.0,
                    compute_ratio,
                    measured_ratio,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn m(key: i64, gpu_name: &str, gpus: u32, throughput: f64) -> Measured {
        Measured {
            key,
            gpu_name: gpu_name.into(),
            gpus,
            throughput,
        }
    }

    fn keys(pairs: &[BottleneckPair]) -> Vec<(i64, i64)> {
        pairs.iter().map(|p| (p.faster_on_paper, p.slower_on_paper)).collect()
    }

    #[test]
    fn compute_ratio_edge_is_inclusive() {
        // A100: 312 TFLOPS; 3 GPUs vs 2 GPUs is exactly 1.5.
        let pairs = bottleneck_pairs(&[m(1, "A100", 2, 100.0), m(2, "A100", 3, 110.0)]);
        assert_eq!(keys(&pairs), [(2, 1)]);
        assert!((pairs[0].compute_ratio - 1.5).abs() < 1e-12);
        assert!((pairs[0].measured_ratio - 1.1).abs() < 1e-12);
        // Just under 1.5: L40S × 3 = 1086.15 vs L40 × 4 = 724.2 → 1.4998.
        let below = bottleneck_pairs(&[m(1, "NVIDIA L40", 4, 100.0), m(2, "NVIDIA L40S", 3, 100.0)]);
        assert!(below.is_empty(), "{below:?}");
    }

    #[test]
    fn measured_ratio_edge_is_inclusive() {
        // H100 SXM vs A100: 989.5 / 312 ≈ 3.17.
        let at = bottleneck_pairs(&[m(1, "NVIDIA H100 80GB HBM3", 1, 120.0), m(2, "A100", 1, 100.0)]);
        assert_eq!(keys(&at), [(1, 2)]);
        assert!((at[0].measured_ratio - 1.2).abs() < 1e-12);
        let over = bottleneck_pairs(&[m(1, "H100", 1, 120.001), m(2, "A100", 1, 100.0)]);
        assert!(over.is_empty());
    }

    #[test]
    fn stronger_node_measuring_slower_is_reported() {
        let pairs = bottleneck_pairs(&[m(1, "A100", 1, 100.0), m(2, "H100", 1, 90.0)]);
        assert_eq!(keys(&pairs), [(2, 1)]);
        assert!(pairs[0].measured_ratio < 1.0);
    }

    #[test]
    fn close_on_paper_is_not_reported() {
        // L40S 362.05 vs A100 312: 1.16 apart on paper.
        assert!(bottleneck_pairs(&[m(1, "L40S", 1, 100.0), m(2, "A100", 1, 100.0)]).is_empty());
        // Same GPU, same count.
        assert!(bottleneck_pairs(&[m(1, "T4", 1, 1.0), m(2, "T4", 1, 1.0)]).is_empty());
    }

    #[test]
    fn unknown_and_degenerate_items_are_skipped() {
        let items = [
            m(1, "Tesla K80", 8, 100.0),
            m(2, "T4", 1, 100.0),
            m(3, "H100", 0, 100.0),
            m(4, "H100", 1, 0.0),
            m(5, "H100", 1, f64::NAN),
            m(6, "H100", 1, f64::INFINITY),
            m(7, "", 1, 100.0),
        ];
        assert!(bottleneck_pairs(&items).is_empty());
        assert!(bottleneck_pairs(&[]).is_empty());
    }

    const NAMES: [&str; 8] = [
        "T4",
        "L4",
        "A100",
        "H100",
        "H100 PCIe",
        "RTX 4090",
        "MI300X",
        "Unknown X",
    ];

    fn item() -> impl Strategy<Value = Measured> {
        (0..NAMES.len(), 1_u32..=8, 0.1_f64..1e4).prop_map(|(n, gpus, throughput)| Measured {
            key: 0,
            gpu_name: NAMES[n].to_owned(),
            gpus,
            throughput,
        })
    }

    proptest! {
        #[test]
        fn reported_pairs_meet_both_thresholds(mut items in prop::collection::vec(item(), 0..12)) {
            for (i, it) in items.iter_mut().enumerate() {
                it.key = i64::try_from(i).unwrap();
            }
            let pairs = bottleneck_pairs(&items);
            for p in &pairs {
                let get = |k: i64| &items[usize::try_from(k).unwrap()];
                let (hi, lo) = (get(p.faster_on_paper), get(p.slower_on_paper));
                let compute = |m: &Measured| theoretical_tflops(&m.gpu_name).unwrap() * f64::from(m.gpus);
                prop_assert!(compute(hi) >= compute(lo));
                prop_assert!(p.compute_ratio >= MIN_COMPUTE_RATIO - 1e-9);
                prop_assert!(p.measured_ratio <= MAX_MEASURED_RATIO + 1e-9);
                prop_assert!((p.measured_ratio - hi.throughput / lo.throughput).abs() < 1e-9);
            }
            // The same set of pairs whatever the input order.
            let mut reversed = items.clone();
            reversed.reverse();
            let mut a = keys(&pairs);
            let mut b = keys(&bottleneck_pairs(&reversed));
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
        }
    }
}
