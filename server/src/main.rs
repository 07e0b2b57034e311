//! `nodeledger`: the NodeLedger server and command-line tool.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    server::cli::run().await
}
