//! Every router, store and command-line test of the server in one test binary (CI builds and
//! links one executable instead of thirty: less disk and link time). Each module is one area;
//! `common` is the in-process NodeLedger they share. `hash_queue` stays a binary of its own:
//! the password-hashing queue is one per process.

mod common;

mod access_matrix;
mod admin_audit;
mod api_errors;
mod assets;
mod audit_anchor;
mod auth;
mod backup;
mod bench_parse;
mod bills;
mod bounds;
mod checklist_accept;
mod cli;
mod csv_injection;
mod dashboard;
mod first_load;
mod interconnect;
mod masters;
mod orders;
mod page_weight;
mod parse_slots;
mod plan;
mod plan_chart;
mod probe;
mod quotes;
mod raw_access;
mod readme_layout;
mod real_uploads;
mod reauth;
mod rentals;
mod response_target;
mod rfq;
mod rfq_mail;
mod run_limits;
mod runs;
mod second_factor;
mod security;
mod sessions;
mod tco;
mod tco_load;
mod teams;
mod throttle;
mod tokens;
