//! An nccl-tests run is judged on its link alone: it measures how fast the GPUs exchange data,
//! not work done, so the rules of a benchmark (a throughput, 10–30 minutes, telemetry, warm-up)
//! do not apply to it.
//!
//! | finding | severity |
//! |---|---|
//! | wrong values (`#wrong` or `Out of bounds values` above 0) | invalid: the GPUs or the link returned wrong data |
//! | the largest size below 128 MiB | warn: bus bandwidth is only reached with large messages (`-e 8G`) |
//! | results not checked (`-c 0`, `#wrong` printed `N/A`) | warn |
//! | bus bandwidth at the largest sizes below 60 % of the quoted link's one-way figure | warn |
//! | otherwise | info: the bus bandwidth, and what the quoted link should give when known |

use super::super::canonical::BusTest;
use super::super::verdict::{Reason, Severity, VerdictContext, VerdictReason};
use crate::gpus::links;
use rust_decimal::prelude::ToPrimitive;

/// The least largest message size that reaches the bus bandwidth, bytes (128 MiB).
pub const LEAST_LARGEST_BYTES: u64 = 128 * 1024 * 1024;

/// Every finding of an nccl-tests run, in the order of the module table.
pub(super) fn findings(bus: &BusTest, gpu_name: Option<&str>, ctx: &VerdictContext) -> Vec<VerdictReason> {
    let mut out = Vec::new();
    let mut push = |severity, reason| out.push(VerdictReason { severity, reason });
    let wrong = bus.wrong.unwrap_or(0).saturating_add(bus.out_of_bounds.unwrap_or(0));
    if wrong > 0 {
        push(Severity::Invalid, Reason::BusTestWrong { wrong });
    }
    if bus.largest_bytes < LEAST_LARGEST_BYTES {
        push(
            Severity::Warn,
            Reason::BusTestSmall {
                largest_bytes: bus.largest_bytes,
                least_bytes: LEAST_LARGEST_BYTES,
            },
        );
    }
    if bus.wrong.is_none() {
        push(Severity::Warn, Reason::BusTestUnchecked);
    }
    let expected = expected(bus, gpu_name, ctx);
    let below = expected.is_some_and(|e| bus.bus_gbps < e.least_gbps);
    push(
        if below { Severity::Warn } else { Severity::Info },
        Reason::BusBandwidth {
            bus_gbps: bus.bus_gbps,
            largest_bytes: bus.largest_bytes,
            ranks: bus.ranks,
            expected,
        },
    );
    out
}

/// What the quoted link should give: the quote's GPU (or, without one, the GPU the ranks
/// name), its NVLink when quoted, its network across hosts.
fn expected(bus: &BusTest, gpu_name: Option<&str>, ctx: &VerdictContext) -> Option<links::LinkFigure> {
    let quote = ctx.quote.as_ref()?;
    let gpu = quote.gpu_name.as_deref().or(gpu_name)?;
    let network = quote.network_gbps.and_then(|g| g.to_f64());
    links::expected(gpu, quote.nvlink.unwrap_or(false), bus.hosts, network)
}
