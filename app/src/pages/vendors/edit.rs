//! Editing one vendor (procurement only).

use super::{PAGES, VendorForm};
use crate::{components::record_form::record_edit_page, domain::quotes::Vendor, error::AppError, views::Stored};
use leptos::prelude::*;

/// One vendor of the active team; 404 for another team's.
#[server(endpoint = "vendors/get")]
pub async fn get_vendor(id: i64) -> Result<Stored<Vendor>, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    let row = store::vendors::by_id(&auth::db()?, membership.team_id, id)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(Stored {
        id: row.id,
        record: row.vendor(),
    })
}

/// Changes a vendor of the active team (procurement only).
#[server(endpoint = "vendors/update")]
pub async fn update_vendor(id: String, #[server(flatten)] form: VendorForm) -> Result<(), AppError> {
    use crate::{
        auth,
        components::record_form::{posted_id, updated},
        domain::roles::Capability,
        i18n::Msg,
        store,
    };
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let id = posted_id(&id)?;
    let vendor = form.to_vendor().map_err(AppError::fields)?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    updated(
        store::vendors::update(&mut tx, membership.team_id, id, &vendor).await?,
        Msg::VendorsNameTaken,
    )?;
    tx.commit().await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The vendor edit page.
#[component]
pub fn VendorEditPage() -> impl IntoView {
    record_edit_page(PAGES, ServerAction::<UpdateVendor>::new(), get_vendor)
}
