//! Tests of the cost model v1: one per rule, every error, properties and serde.

mod analysis;
mod billing;
mod components;
mod errors;
mod fixtures;
mod props;
mod scenario;
mod schema;
mod worked_example;
