//! Vendor quotes: the list (filters, sort, pages), a quote and its revisions, the quote form,
//! CSV import with a preview, and the side-by-side comparison.

pub mod compare;
pub mod detail;
pub mod form;
pub mod import;
pub mod link_tests;
pub mod list;
