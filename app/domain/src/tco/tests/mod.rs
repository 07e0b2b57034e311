//! Tests of the cost model v2: one per rule, every error, properties and serde.

mod analysis;
mod billing;
mod components;
mod errors;
mod fixtures;
mod forced_pricing;
mod node_scaling;
mod props;
mod scenario;
mod schema;
mod schema_scenarios;
mod schema_serde;
mod v2_rules;
mod worked_example;
