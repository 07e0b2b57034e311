//! `orders::record::decode` on any text: `Ok` or a `DecodeError`, never a panic; a record that
//! decodes as the newest version writes back to exactly its own canonical text's reading.
#![no_main]

use nodeledger_domain::orders::record::{SignedRows, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = decode(text) else {
        return;
    };
    if matches!(record.tco, Some(SignedRows::V1(_))) {
        return;
    }
    let written = record.canonical().expect("a decoded record writes");
    assert_eq!(decode(&written).expect("what is written reads"), record);
});
