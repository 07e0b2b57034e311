//! The store tests (real SQLite through sqlx) and the quote-import test, one module per table
//! or format, in one test binary: one executable to build and link instead of six.

mod audit_store;
mod masters_store;
mod quote_import;
mod quotes_store;
mod runs_store;
mod store;
