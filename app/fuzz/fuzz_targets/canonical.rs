//! `parse` with the format forced to `Canonical`: any input gives `Ok` or a
//! `ParseError`, never a panic.
#![no_main]

use nodeledger_domain::runs::{Format, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse(data, Some(Format::Canonical));
});
