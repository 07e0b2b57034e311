//! NodeLedger's pure core: the rules of quotes, runs, costs, plans, orders, bills and rentals,
//! with no I/O and no clock, compiled for the server and the browser alike.
//!
//! Nothing here knows the web: the crate depends on no web framework, database, runtime or
//! clock (`cargo tree -p nodeledger-domain -e normal` lists them), has no feature gates, and
//! names user-facing text through the message keys of [`nodeledger_messages`]. The app
//! re-exports it as `app::domain`.

pub mod accounts;
pub mod audit;
/// The vendor's bill — reading, classifying, matching and reconciling it.
pub mod bills;
// Day counts to calendar dates, for every reader of dates.
pub mod calendar;
pub mod checklist;
// The probe's recorded command: secrets masked, long lines cut.
pub mod command_line;
pub mod csv_cell;
pub mod dashboard;
pub mod documents;
pub mod gpus;
pub mod line_endings;
pub mod money;
// What `nodeledger probe` recorded about the node of a run.
pub mod node_facts;
pub mod numbers;
// The four states of an order revision, for the lifecycle and the audit trail alike.
pub mod order_state;
pub mod orders;
pub mod plan;
pub mod quotes;
pub mod rentals;
pub mod rfq;
pub mod roles;
pub mod run_checks;
pub mod runs;
pub mod second_factor;
pub mod tco;
pub mod throttle;
pub mod tokens;
pub mod vram;
