//! nvidia-smi CSV: through `parse` (text checks first) and straight through
//! the streaming `parse_nvidia_smi` (raw bytes, no UTF-8 check). Neither may
//! panic, and they must agree whenever the text check passes.
#![no_main]

use nodeledger_domain::runs::{Format, parse, parse_nvidia_smi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = parse(data, Some(Format::NvidiaSmi));
    let streamed = parse_nvidia_smi(data);
    // `parse` strips a BOM before handing the text over; otherwise the bytes
    // are identical, so the results must be too (compared through `Debug`
    // so that a NaN aggregate equals itself).
    if whole.is_ok() && !data.starts_with(b"\xEF\xBB\xBF") {
        assert_eq!(format!("{whole:?}"), format!("{streamed:?}"));
    }
});
