//! Tests of the rental planner: the seed's worked example, one test per rule and reason,
//! properties, and the schemas.

mod fixtures;
mod props;
mod rules;
mod same_rental;
mod schema;
mod worked_example;
