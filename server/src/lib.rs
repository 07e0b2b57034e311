//! NodeLedger's server: configuration, command line, HTTP layers and the router.
//! The binary (`src/main.rs`) only parses the command line and calls into here.

pub mod access;
pub mod audit_cli;
pub mod backup;
pub mod cli;
pub mod config;
pub mod documents;
pub mod export;
pub mod lang;
pub mod mail;
pub mod orders;
pub mod quotes_cli;
pub mod router;
pub mod runs;
pub mod security;
pub mod state;
pub mod tco;
pub mod tools_cli;
