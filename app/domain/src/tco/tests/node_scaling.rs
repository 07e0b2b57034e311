//! The node-scaling rule shared by the cost page, the plan and the order: how the workload's GPU
//! use turns a stated run length or a measured throughput into hours on a given node and count.
//! (That the plan prices a rental as the cost page does is tested beside the plan.)

use super::fixtures::{assumptions, hours, shape, sheet, work};
use crate::runs::GpuUse;
use crate::tco::{Assumptions, Demand, estimate};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn on(workload: Demand, gpu_use: Option<GpuUse>) -> Demand {
    Demand { gpu_use, ..workload }
}

fn with_nodes(nodes: Option<u32>, efficiency: Decimal) -> Assumptions {
    Assumptions {
        nodes,
        efficiency,
        ..assumptions()
    }
}

/// One task per GPU: a stated 111 h on the one GPU the workload needs is 111 × 1 ÷ 8 h on an
/// eight-GPU node (each card runs its own task), and halves again on two such nodes; the old
/// reading (no GPU use stated) keeps 111 h on any node.
#[test]
fn a_stated_run_length_of_one_task_per_gpu_spreads_over_the_nodes_gpus() {
    let s = sheet(dec!(80.00));
    let per_gpu = on(hours(dec!(111), 1), Some(GpuUse::TaskPerGpu));
    let one = estimate(&s, &shape(8), &per_gpu, &with_nodes(None, dec!(0.9))).expect("costed");
    assert_eq!(one.compute_h, dec!(13.875));
    let two = estimate(&s, &shape(8), &per_gpu, &with_nodes(Some(2), dec!(0.9))).expect("costed");
    assert_eq!(
        two.compute_h,
        dec!(6.9375),
        "linear: one task per GPU needs no efficiency"
    );
    let old = estimate(&s, &shape(8), &hours(dec!(111), 1), &with_nodes(Some(2), dec!(0.9))).expect("costed");
    assert_eq!(old.compute_h, dec!(111), "a scenario without GPU use reads as before");
}

/// One job across GPUs: exactly the stated hours on the nodes it needs (two four-GPU nodes for
/// eight GPUs), and on four nodes 24 × (2 × 0.9) ÷ (4 × 0.9) = 12 h; on one node 24 × 1.8 = 43.2 h.
#[test]
fn a_stated_run_length_of_one_job_scales_by_the_efficiency_from_the_nodes_it_needs() {
    let s = sheet(dec!(40.00));
    let job = on(hours(dec!(24), 8), Some(GpuUse::OneJob));
    let h = |n| {
        estimate(&s, &shape(4), &job, &with_nodes(Some(n), dec!(0.9)))
            .expect("costed")
            .compute_h
    };
    assert_eq!((h(2), h(4), h(1)), (dec!(24), dec!(12), dec!(43.2)));
}

/// Measured throughput of one task per GPU scales linearly whatever efficiency is assumed:
/// 4 nodes of a 1000/s node do 4000/s, where one job at 90 % does 3600/s.
#[test]
fn measured_throughput_of_one_task_per_gpu_scales_linearly() {
    let s = sheet(dec!(10.00));
    let a = Assumptions {
        measured_throughput_per_s: Some(dec!(1000)),
        ..with_nodes(Some(4), dec!(0.9))
    };
    let tokens = work(dec!(14_400_000), 1);
    let linear = estimate(&s, &shape(1), &on(tokens.clone(), Some(GpuUse::TaskPerGpu)), &a).expect("costed");
    assert_eq!(linear.compute_h, dec!(1));
    let job = estimate(&s, &shape(1), &on(tokens, Some(GpuUse::OneJob)), &a).expect("costed");
    assert_eq!(job.compute_h.round_dp(6), dec!(1.111111));
}

/// Efficiency that depends on the node count: exact at the counts stated, on a straight line
/// between them (one node counts as 1), the largest count's figure beyond it.
#[test]
fn an_efficiency_by_node_count_is_interpolated_between_the_counts_stated() {
    use crate::tco::throughput::{Efficiency, EfficiencyPoint, Scaling};
    let points = [
        EfficiencyPoint {
            nodes: 4,
            efficiency: dec!(0.8),
        },
        EfficiencyPoint {
            nodes: 2,
            efficiency: dec!(0.9),
        },
    ];
    let e = Scaling {
        flat: dec!(0.5),
        points: &points,
    };
    let at: Vec<Decimal> = (1..=6).map(|n| e.on(n)).collect();
    assert_eq!(at, [dec!(1), dec!(0.9), dec!(0.85), dec!(0.8), dec!(0.8), dec!(0.8)]);
    let only_four = [EfficiencyPoint {
        nodes: 4,
        efficiency: dec!(0.7),
    }];
    let e = Scaling {
        flat: dec!(0.5),
        points: &only_four,
    };
    assert_eq!(
        (e.on(2), e.on(3)),
        (dec!(0.9), dec!(0.8)),
        "from 1 node at 1 to 4 nodes at 0.7"
    );
    assert_eq!(
        Scaling {
            flat: dec!(0.5),
            points: &[]
        }
        .on(3),
        dec!(0.5),
        "no points: one figure"
    );
}

/// One job of 24 h stated on the two four-GPU nodes it needs, with 0.9 at 2 nodes and 0.8 at 4
/// stated: on 3 nodes 24 × (2 × 0.9) ÷ (3 × 0.85) h, on 4 nodes 24 × 1.8 ÷ 3.2 = 13.5 h — not
/// the 12 h one figure of 0.9 would give.
#[test]
fn the_cost_engine_reads_the_efficiency_at_each_node_count() {
    use crate::tco::throughput::EfficiencyPoint;
    let s = sheet(dec!(40.00));
    let job = on(hours(dec!(24), 8), Some(GpuUse::OneJob));
    let a = |n| Assumptions {
        efficiency_by_nodes: vec![
            EfficiencyPoint {
                nodes: 2,
                efficiency: dec!(0.9),
            },
            EfficiencyPoint {
                nodes: 4,
                efficiency: dec!(0.8),
            },
        ],
        ..with_nodes(Some(n), dec!(0.9))
    };
    let h = |n| estimate(&s, &shape(4), &job, &a(n)).expect("costed").compute_h;
    assert_eq!(h(4), dec!(13.5));
    assert_eq!(h(2), dec!(24));
    assert_eq!(h(3).round_dp(9), (dec!(43.2) / dec!(2.55)).round_dp(9));
    let bad = Assumptions {
        efficiency_by_nodes: vec![EfficiencyPoint {
            nodes: 1,
            efficiency: dec!(0.9),
        }],
        ..with_nodes(Some(2), dec!(0.9))
    };
    let refused = estimate(&s, &shape(4), &job, &bad).expect_err("one node is always 1");
    assert_eq!(refused.field, "assumptions.efficiency_by_nodes.nodes");
}

/// Measured points: runs at 10/s on one node, 19/s on two (0.95) and 32/s on four (0.8) give
/// the efficiency at each count, and a quote's own efficiency replaces the whole curve.
#[test]
fn runs_give_the_efficiency_at_each_count_they_ran_on() {
    use crate::tco::throughput::{EfficiencyPoint, RunThroughput, measured_points};
    let run = |per_s, nodes| RunThroughput { per_s, nodes };
    let runs = [run(dec!(10), 1), run(dec!(19), 2), run(dec!(32), 4)];
    assert_eq!(
        measured_points(&runs).expect("measured"),
        [
            EfficiencyPoint {
                nodes: 2,
                efficiency: dec!(0.95)
            },
            EfficiencyPoint {
                nodes: 4,
                efficiency: dec!(0.8)
            },
        ]
    );
    assert_eq!(
        measured_points(&runs[1..]).expect("measured"),
        [],
        "no one-node run: nothing to compare"
    );
    let own = crate::tco::AssumptionOverrides {
        efficiency: Some(dec!(0.7)),
        ..Default::default()
    };
    let base = Assumptions {
        efficiency_by_nodes: vec![EfficiencyPoint {
            nodes: 2,
            efficiency: dec!(0.9),
        }],
        ..assumptions()
    };
    assert!(own.apply(&base).efficiency_by_nodes.is_empty());
}
