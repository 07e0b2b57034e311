//! Tests of the checklist module.

mod prefill;
mod rules;
mod table;
