//! Texts built from domain values in the reader's language, beside [`crate::i18n`]: pages, the
//! API, the CLI and services word the same values the same way, and none of them has to reach
//! into `pages` for it (nothing below `pages` imports from `pages`).

pub mod dashboard;
#[cfg(feature = "ssr")]
pub mod quotes;
pub mod runs;
