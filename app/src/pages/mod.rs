//! One module per page, each with the server functions it calls.

pub mod account;
pub mod admin;
pub mod areas;
pub mod dashboard;
pub mod login;
pub mod not_found;
pub mod orders;
pub mod quotes;
pub mod rates;
pub mod runs;
pub mod second_factor;
pub mod setup;
pub mod tco;
pub mod team;
pub mod vendors;
pub mod workloads;
