//! The whole upload pipeline: auto-detect and parse, judge with the default
//! context, serialize the assessed run to JSON. Must never panic.
#![no_main]

use nodeledger_domain::runs::{VerdictContext, assess, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(run) = parse(data, None) {
        let run = assess(run, &VerdictContext::default());
        let json = serde_json::to_string(&run);
        assert!(json.is_ok(), "serialize: {json:?}");
    }
});
