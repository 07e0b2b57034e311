//! Minimal inputs: everything zero except what a test sets.

use crate::tco::{
    Assumptions, ComponentKind, Demand, Estimate, NodeShape, PriceSheet, RunThroughput, TotalWork, WhatIf,
    WhatIfProfiles, what_if,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

pub(super) use crate::tco::test_fixtures::sheet;

/// A node with `gpus` GPUs and no disks.
pub(super) fn shape(gpus: u32) -> NodeShape {
    NodeShape {
        gpus_per_node: gpus,
        system_disk_gb: Decimal::ZERO,
        data_disk_gb: Decimal::ZERO,
    }
}

/// A node with `gpus` GPUs, a `system_gb` system disk and a `data_gb` data disk (GB).
pub(super) fn with_disks(gpus: u32, system_gb: Decimal, data_gb: Decimal) -> NodeShape {
    NodeShape {
        system_disk_gb: system_gb,
        data_disk_gb: data_gb,
        ..shape(gpus)
    }
}

/// A workload needing `gpus` GPUs for a stated `run_hours`.
pub(super) fn hours(run_hours: Decimal, gpus: u32) -> Demand {
    Demand {
        gpu_use: None,
        gpus_needed: gpus,
        total_work: None,
        run_hours: Some(run_hours),
    }
}

/// A workload of `amount` tokens needing `gpus` GPUs, without a stated run length.
pub(super) fn work(amount: Decimal, gpus: u32) -> Demand {
    let total_work = Some(TotalWork {
        amount,
        unit: "tokens".to_owned(),
    });
    Demand {
        gpu_use: None,
        gpus_needed: gpus,
        total_work,
        run_hours: None,
    }
}

/// No overheads, no traffic, efficiency 1, no measured throughput.
pub(super) fn assumptions() -> Assumptions {
    Assumptions::NONE
}

/// The estimate of a stated run length with default assumptions.
pub(super) fn run(sheet: &PriceSheet, gpus_per_node: u32, gpus: u32, run_hours: Decimal) -> Estimate {
    crate::tco::estimate(sheet, &shape(gpus_per_node), &hours(run_hours, gpus), &assumptions()).expect("valid inputs")
}

/// The cost of the component of `kind` (panics if absent).
pub(super) fn cost(e: &Estimate, kind: &ComponentKind) -> Decimal {
    e.component(kind).map(|c| c.cost).expect("component present")
}

/// The what-if of 36,000 tokens on one one-GPU node at 10 per node-hour, no overheads,
/// measured at `throughput_per_s` tokens per second, with the default profiles and the
/// `slowest` valid run, if any.
pub(super) fn what_if_36k_tokens(throughput_per_s: Decimal, slowest: Option<RunThroughput>) -> WhatIf {
    let a = Assumptions {
        measured_throughput_per_s: Some(throughput_per_s),
        ..assumptions()
    };
    what_if(
        &sheet(dec!(10)),
        &shape(1),
        &work(dec!(36000), 1),
        &a,
        &WhatIfProfiles::default(),
        slowest,
    )
    .expect("valid inputs")
}
