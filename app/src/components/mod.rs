//! Pieces shared by pages.

pub mod forms;
pub mod guard;
pub mod header;
