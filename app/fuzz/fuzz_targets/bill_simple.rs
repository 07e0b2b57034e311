//! NodeLedger's simple bill header before arbitrary bytes, read to the end and reconciled
//! (`bill_common`): a bill line or its errors for every line, never a panic, and the lines that
//! read reconcile without one.
#![no_main]

#[path = "bill_common.rs"]
mod bill_common;

use nodeledger_domain::bills::{Layout, open};
use libfuzzer_sys::fuzz_target;

const HEADER: &[u8] = b"resource_id,period_start,period_end,description,component,quantity,unit,unit_price,amount,currency,kind\n";

fuzz_target!(|data: &[u8]| {
    let file = [HEADER, data].concat();
    let reader = open(file.as_slice()).expect("the simple header");
    assert_eq!(reader.layout(), Layout::NodeLedger);
    bill_common::read_and_reconcile(reader);
});
