//! `parse` with the format forced to `NcclTests`, then the verdict that consumes it (against a
//! quote of NVLink H100s with a stated network): any input gives `Ok` or a `ParseError`, and
//! any parsed run a verdict, never a panic.
#![no_main]

use nodeledger_domain::runs::{Format, QuotedNode, VerdictContext, assess, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(run) = parse(data, Some(Format::NcclTests)) {
        let ctx = VerdictContext {
            quote: Some(QuotedNode {
                gpu_name: Some("H100 SXM5 80GB".into()),
                gpu_count: Some(8),
                nvlink: Some(true),
                network_gbps: Some(rust_decimal::Decimal::from(3200)),
                ..QuotedNode::default()
            }),
            ..VerdictContext::default()
        };
        let _ = assess(run, &ctx);
    }
});
