//! The seed's worked example: 72 h × 10.00 = 720.00 beats 24 h × 35.00 = 840.00.

use super::fixtures::{assumptions, run, shape, sheet, work};
use crate::tco::{ComputeBasis, TcoWarning, estimate};
use rust_decimal_macros::dec;

#[test]
fn seventy_two_hours_on_one_gpu_cost_720() {
    let e = run(&sheet(dec!(10.00)), 1, 1, dec!(72));
    assert_eq!(e.total, dec!(720.00));
    assert_eq!(serde_json::to_value(e.total).unwrap(), "720.00");
    assert_eq!(e.nodes, 1);
    assert_eq!(e.effective_gpu_hour_price, Some(dec!(10)));
    assert_eq!(e.warnings, vec![TcoWarning::ThroughputAssumed]);
}

#[test]
fn twenty_four_hours_on_four_gpus_cost_840_which_is_more() {
    let slow = run(&sheet(dec!(10.00)), 1, 1, dec!(72));
    let fast = run(&sheet(dec!(35.00)), 4, 4, dec!(24));
    assert_eq!(fast.total, dec!(840.00));
    assert!(fast.total > slow.total, "35 > 3 × 10, so the faster node costs more");
    assert_eq!(fast.time_to_finish_h, dec!(24));
    assert_eq!(fast.effective_gpu_hour_price, Some(dec!(8.75)));
}

#[test]
fn same_example_from_measured_throughput() {
    // 2,592,000 tokens: 10 tokens/s → 72 h on the small node; 30 tokens/s → 24 h on the big one.
    let mut a = assumptions();
    a.measured_throughput_per_s = Some(dec!(10));
    let small = estimate(&sheet(dec!(10.00)), &shape(1), &work(dec!(2592000), 1), &a).unwrap();
    a.measured_throughput_per_s = Some(dec!(30));
    let big = estimate(&sheet(dec!(35.00)), &shape(4), &work(dec!(2592000), 4), &a).unwrap();
    assert_eq!((small.compute_h, small.total), (dec!(72), dec!(720.00)));
    assert_eq!((big.compute_h, big.total), (dec!(24), dec!(840.00)));
    assert_eq!(big.compute_basis, ComputeBasis::MeasuredThroughput);
    assert!(big.warnings.is_empty());
}
