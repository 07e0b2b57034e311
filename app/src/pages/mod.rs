//! One module per page, each with the server functions it calls.

pub mod account;
pub mod admin;
pub mod dashboard;
pub mod login;
pub mod not_found;
pub mod orders;
pub mod plan;
pub mod quotes;
pub mod rates;
// Overdue rentals on the dashboard, learned actuals on the cost page.
pub mod rentals_overdue;
pub mod requests;
pub mod runs;
pub mod second_factor;
pub mod setup;
pub mod tco;
pub mod tco_learned;
pub mod team;
pub mod vendors;
pub mod workloads;
