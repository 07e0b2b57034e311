//! Pure logic: no I/O, no clock, compiled for the server and the browser alike.

pub mod accounts;
pub mod roles;
pub mod throttle;
