//! NodeLedger's server: configuration, command line, HTTP layers and the router.
//! The binary (`src/main.rs`) only parses the command line and calls into here.

pub mod access;
/// Hashed, precompressed, cached static files; compression of pages.
pub mod assets;
pub mod audit_cli;
pub mod backup;
/// The simple bill template download.
pub mod bid_files;
pub mod bills;
/// Server functions refuse a stranger before reading the body.
pub mod caller_first;
pub mod cli;
/// Command-line values read by the domain's own names (formats, roles).
pub mod cli_args;
/// Client address for the password throttle.
pub mod client_addr;
pub mod config;
pub mod documents;
pub mod export;
pub mod lang;
pub mod listed;
pub mod mail;
pub mod orders;
pub mod parse_slots;
/// `nodeledger probe`: measure a rented node with the team's own workload.
pub mod probe;
pub mod quotes_cli;
pub mod router;
pub mod runs;
pub mod security;
pub mod state;
pub mod tco;
/// Time limits on every request.
pub mod timeouts;
pub mod tools_cli;
