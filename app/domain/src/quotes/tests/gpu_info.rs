//! The tolerant `GpuInfo` reader.

use crate::quotes::{GpuInfoError, parse_gpu_info};
use rust_decimal_macros::dec;

#[test]
fn reads_the_python_repr_from_a_catalog() {
    let cell = "{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, \
                'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}";
    let info = parse_gpu_info(cell).expect("parse");
    assert_eq!(info.gpus.len(), 1);
    let gpu = &info.gpus[0];
    assert_eq!(gpu.name.as_deref(), Some("A100"));
    assert_eq!(gpu.manufacturer.as_deref(), Some("NVIDIA"));
    assert_eq!(gpu.count, Some(dec!(8)));
    assert_eq!(gpu.memory_mib, Some(dec!(40960)));
    assert_eq!(info.total_memory_mib, Some(dec!(327680)));
    assert_eq!(info.memory_per_gpu_gib(), Some(dec!(40)));
}

#[test]
fn reads_json_with_floats_and_odd_sizes() {
    let cell = r#"{"Gpus": [{"Name": "A10G", "Count": 1, "MemoryInfo": {"SizeInMiB": 22888.0}}], "TotalGpuMemoryInMiB": 2.2888e4}"#;
    let info = parse_gpu_info(cell).expect("parse");
    assert_eq!(info.total_memory_mib, Some(dec!(22888)));
    assert_eq!(info.memory_per_gpu_gib(), Some(dec!(22.3515625)));
}

#[test]
fn tolerates_true_false_none_tuples_and_escapes() {
    let cell = "{'Gpus': ({'Name': 'Radeon \\'Pro\\'', 'Manufacturer': \"AMD\", 'Count': 2, \
                'MemoryInfo': {'SizeInMiB': 32768, 'Ecc': True}, 'Extra': None, 'Mig': False},), }";
    let info = parse_gpu_info(cell).expect("parse");
    assert_eq!(info.gpus[0].name.as_deref(), Some("Radeon 'Pro'"));
    assert_eq!(info.memory_per_gpu_gib(), Some(dec!(32)));
    assert_eq!(info.total_memory_mib, None);
}

#[test]
fn falls_back_to_total_memory_divided_by_count() {
    let cell = "{'Gpus': [{'Name': 'RTX A6000', 'Count': 2}], 'TotalGpuMemoryInMiB': 98304.0}";
    let info = parse_gpu_info(cell).expect("parse");
    assert_eq!(info.memory_per_gpu_gib(), Some(dec!(48)));
}

#[test]
fn says_nothing_when_memory_is_absent() {
    let info =
        parse_gpu_info("{'Gpus': [{'Name': 'T4', 'Count': 1, 'MemoryInfo': {'SizeInMiB': None}}]}").expect("parse");
    assert_eq!(info.memory_per_gpu_gib(), None);
    assert_eq!(parse_gpu_info("{}").expect("parse").memory_per_gpu_gib(), None);
}

#[test]
fn reports_where_reading_failed() {
    assert_eq!(parse_gpu_info("{'Gpus': [1, 2"), Err(GpuInfoError { offset: 14 }));
    assert_eq!(parse_gpu_info("{'Gpus' 1}"), Err(GpuInfoError { offset: 8 }));
    assert_eq!(parse_gpu_info("{'Count': 8.0.0}"), Err(GpuInfoError { offset: 10 }));
    assert_eq!(parse_gpu_info("{'a': nope}"), Err(GpuInfoError { offset: 6 }));
    assert_eq!(parse_gpu_info("{} trailing"), Err(GpuInfoError { offset: 3 }));
    assert_eq!(parse_gpu_info("[]"), Err(GpuInfoError { offset: 0 }));
    assert!(parse_gpu_info("").is_err());
}

#[test]
fn refuses_absurd_nesting_without_overflowing_the_stack() {
    let deep = "[".repeat(10_000);
    assert!(parse_gpu_info(&deep).is_err());
}
