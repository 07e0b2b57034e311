//! Tests of the checklist module.

mod gather;
mod prefill;
mod rules;
mod table;
