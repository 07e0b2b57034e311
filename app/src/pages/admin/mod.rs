//! Site administration: teams, users and their roles. Administrators only.

pub mod team;
pub mod teams;
pub mod users;
