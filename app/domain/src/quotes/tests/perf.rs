//! Import speed: 10,000 rows. Run with `cargo test --release -- --ignored --nocapture`.

use super::fixtures::{defaults, draft};
use crate::quotes::{export, import};
use rust_decimal::Decimal;
use std::time::{Duration, Instant};

const ROWS: usize = 10_000;

/// Generous even for a debug build on a slow machine; release takes a few tens of ms.
const LIMIT: Duration = Duration::from_secs(1);

#[test]
#[ignore = "timing; run in release with --ignored"]
fn ten_thousand_nodeledger_rows_import_quickly() {
    let drafts: Vec<_> = (0..ROWS)
        .map(|i| {
            let mut d = draft();
            d.reference = format!("DX-{i:05}");
            d.price.on_demand_hourly = Some(Decimal::new(22_000 + i64::try_from(i).unwrap_or(0), 2));
            d.notes = format!("批次 {i}, 含运维");
            d
        })
        .collect();
    let csv = export(&drafts);
    let start = Instant::now();
    let preview = import(csv.as_bytes(), None, &defaults("x")).expect("import");
    let took = start.elapsed();
    println!("nodeledger: {ROWS} rows, {} bytes, imported in {took:?}", csv.len());
    assert!(preview.is_clean());
    assert_eq!(preview.rows.len(), ROWS);
    assert!(took < LIMIT, "{took:?}");
}

#[test]
#[ignore = "timing; run in release with --ignored"]
fn ten_thousand_skypilot_rows_import_quickly() {
    let mut csv = String::from(
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n",
    );
    for i in 0..ROWS {
        csv.push_str(&format!(
            "p4d.{i}xlarge,A100,8.0,96.0,1152.0,\"{{'Gpus': [{{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8, \
             'MemoryInfo': {{'SizeInMiB': 40960}}}}], 'TotalGpuMemoryInMiB': 327680}}\",32.7726,11.57,us-east-1,us-east-1a\n"
        ));
    }
    let start = Instant::now();
    let preview = import(csv.as_bytes(), None, &defaults("AWS")).expect("import");
    let took = start.elapsed();
    println!("skypilot: {ROWS} rows, {} bytes, imported in {took:?}", csv.len());
    assert!(preview.is_clean());
    assert_eq!(preview.rows.len(), ROWS);
    assert!(took < LIMIT, "{took:?}");
}
