//! A FOCUS cost-and-usage header before arbitrary bytes, read to the end and reconciled
//! (`bill_common`): every line yields a bill line or its errors (line and column), never a
//! panic, and the lines that read reconcile without one.
#![no_main]

#[path = "bill_common.rs"]
mod bill_common;

use nodeledger_domain::bills::open;
use libfuzzer_sys::fuzz_target;

const HEADER: &[u8] = b"ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ResourceId,ServiceName,SkuId\n";

fuzz_target!(|data: &[u8]| {
    let _ = open(data).map(|reader| reader.count());
    let file = [HEADER, data].concat();
    if let Ok(reader) = open(file.as_slice()) {
        bill_common::read_and_reconcile(reader);
    }
});
