//! Editing one vendor (procurement only).

use super::{VendorForm, form::vendor_fields};
use crate::{
    components::{
        form_fields::{SaveFooter, field_issues},
        forms::ErrorBox,
        guard::member_page,
    },
    domain::{quotes::Vendor, roles::Capability},
    error::AppError,
    i18n::{Msg, t},
    views::Stored,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

/// One vendor of the active team; 404 for another team's.
#[server(endpoint = "vendors/get")]
pub async fn get_vendor(id: i64) -> Result<Stored<Vendor>, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    let row = store::vendors::by_id(&auth::db()?, membership.team_id, id)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(Stored {
        id: row.id,
        record: row.vendor(),
    })
}

/// Changes a vendor of the active team (procurement only). `id` is text because the form's
/// other fields are read flattened.
#[server(endpoint = "vendors/update")]
pub async fn update_vendor(id: String, #[server(flatten)] form: VendorForm) -> Result<(), AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let id: i64 = id.trim().parse().map_err(|_| AppError::NotFound)?;
    let vendor = form.to_vendor().map_err(AppError::fields)?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    match store::vendors::update(&mut tx, membership.team_id, id, &vendor).await? {
        store::Updated::Done => {}
        store::Updated::NotFound => return Err(AppError::NotFound),
        store::Updated::NameTaken => return Err(AppError::Conflict(Msg::VendorsNameTaken)),
    }
    tx.commit().await?;
    Ok(())
}

/// The vendor edit page.
#[component]
pub fn VendorEditPage() -> impl IntoView {
    member_page(|caller| {
        if !caller.may(Capability::EditProcurement) {
            return view! { <ErrorBox error=AppError::Forbidden /> }.into_any();
        }
        let params = use_params_map();
        let id = move || {
            params
                .read()
                .get("id")
                .and_then(|id| id.parse::<i64>().ok())
                .unwrap_or(0)
        };
        let update = ServerAction::<UpdateVendor>::new();
        let vendor = Resource::new(id, get_vendor);
        let issues = field_issues(update);
        view! {
            <p class="breadcrumb"><a href="/vendors">{t(Msg::NavVendors)}</a></p>
            <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match vendor.await {
                        Ok(Stored { id, record }) => view! {
                            <Title text=record.name.clone() />
                            <h1>{record.name.clone()}</h1>
                            <ActionForm action=update attr:class="form card" attr:data-testid="vendor-form">
                                <input type="hidden" name="id" value=id.to_string() />
                                {vendor_fields(VendorForm::from_vendor(&record), issues)}
                                <SaveFooter action=update />
                            </ActionForm>
                        }
                        .into_any(),
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                    }
                })}
            </Suspense>
        }
        .into_any()
    })
}
