//! Tests of the quotes module: one file per topic; CSV fixtures live in `../fixtures/`.

mod check;
mod date;
mod fixtures;
mod gpu_info;
mod gpu_models;
mod native_csv;
mod perf;
mod price;
mod roundtrip;
mod skypilot;
mod validate;
mod workload;
