//! Site administration: teams, users and their roles, and the audit log of these actions.
//! Administrators only.

pub mod audit;
pub mod team;
pub mod teams;
pub mod users;
