//! Persistence: every SQL statement of the app, one module per table. Server only.
//!
//! Functions take the pool or a connection/transaction explicitly; queries of team data take the
//! team id as a parameter that callers pass from the session (never from the request).

pub mod api_tokens;
pub mod audit;
/// Imported bills, their lines, the team's variance threshold.
pub mod bills;
pub mod budgets;
/// The per-team data version the cost comparison cache is keyed by.
pub mod data_versions;
pub mod db;
pub mod documents;
pub mod exchange_rates;
pub mod login_attempts;
pub mod memberships;
pub mod notification_mail;
pub mod orders;
pub mod quotes;
/// The rental that follows an approved order.
pub mod rentals;
pub mod rfq;
/// Mail to invited vendors, waiting for the mail pass (the invitation's text holds the link
/// until it is sent).
pub mod rfq_mail;
pub mod runs;
// The node facts `nodeledger probe` sends with a run.
pub mod run_node_facts;
pub mod second_factors;
/// The key file that seals second-factor secrets at rest.
pub mod secret_key;
/// Notices to a user about their own account, waiting for the mail pass.
pub mod security_mail;
pub mod sessions;
pub mod site;
pub mod teams;
pub mod users;
pub mod vendors;
pub mod workloads;

pub use db::{Db, Tx, Updated, begin_write, connect, now_unix, today};
