//! Tests of the checklist module.

mod accept;
mod ask;
mod gather;
mod prefill;
mod prefill_checks;
mod prefill_desk;
mod prefill_headroom;
mod rules;
mod table;
