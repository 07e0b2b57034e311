//! Server-side use cases shared by pages, routes and the API: they combine the domain with the
//! store and speak [`AppError`](crate::error::AppError).

pub mod account_security;
/// Re-authentication, other sessions ended and notices for changes to one's own account.
/// Creating a user: the first-run page, the administrators' page and the command line.
pub mod accounts;
pub mod audit;
/// The vendor's bill imported onto an order and reconciled.
pub mod bills;
pub mod dashboard;
pub mod orders;
/// Whether a new password is good enough: not a common one, hard to guess (zxcvbn).
pub mod password_quality;
pub mod quote_import;
/// The rental that follows an approved order.
pub mod rentals;
pub mod rfq;
pub mod runs;
pub mod second_factor;
pub mod site_audit;
pub mod tco;
pub mod tokens;
