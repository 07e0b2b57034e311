//! Pieces shared by pages.

pub mod account_fields;
pub mod external_link;
pub mod form_fields;
pub mod forms;
pub mod guard;
pub mod header;
pub mod loaded;
pub mod local_time;
pub mod notifications;
pub mod page_scripts;
pub mod record_form;
pub mod route;
pub mod session;
pub mod site_address;
pub mod text_file;
