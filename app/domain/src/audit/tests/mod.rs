//! Tests of the audit module.

mod canonical;
mod chain;
mod chain_props;
