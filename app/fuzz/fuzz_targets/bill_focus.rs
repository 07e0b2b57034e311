//! A FOCUS cost-and-usage header before arbitrary bytes, read to the end: every line yields a
//! bill line or its errors (line and column), never a panic; a line that reads is never a
//! negative charge, and its period never ends before it starts.
#![no_main]

use app::domain::bills::{ChargeKind, open};
use libfuzzer_sys::fuzz_target;

const HEADER: &[u8] = b"ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ResourceId,ServiceName,SkuId\n";

fuzz_target!(|data: &[u8]| {
    let _ = open(data).map(|reader| reader.count());
    let file = [HEADER, data].concat();
    if let Ok(reader) = open(file.as_slice()) {
        for line in reader.flatten() {
            assert!(line.period_end >= line.period_start);
            if line.kind == ChargeKind::Usage {
                assert!(!line.cost.is_sign_negative() || line.cost.is_zero());
            }
        }
    }
});
