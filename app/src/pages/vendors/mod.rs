//! The team's vendors: who the team rents from, how to reach them, and which operations tasks
//! their support covers (image, network, faults, set-up, provisioning, release). Every member
//! reads; procurement adds and edits.

pub mod edit;
mod form;

pub use form::{SCOPE_ITEMS, VendorForm};

use crate::{
    components::{
        external_link::ExternalLink,
        guard::member_page,
        loaded::{Loaded, list_or_empty},
        record_form::{RecordPages, add_record_card},
    },
    domain::{quotes::Vendor, roles::Capability},
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    views::Stored,
};
use form::vendor_fields;
use leptos::prelude::*;
use leptos_meta::Title;

/// The active team's vendors, by name.
#[server(endpoint = "vendors")]
pub async fn list_vendors() -> Result<Vec<Stored<Vendor>>, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    let rows = store::vendors::list(&auth::db()?, membership.team_id).await?;
    Ok(rows
        .iter()
        .map(|r| Stored {
            id: r.id,
            record: r.vendor(),
        })
        .collect())
}

/// Adds a vendor to the active team (procurement only); returns its id.
#[server(endpoint = "vendors/create")]
pub async fn create_vendor(#[server(flatten)] form: VendorForm) -> Result<i64, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditProcurement)?;
    let vendor = form.to_vendor().map_err(AppError::fields)?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    let id = store::vendors::insert(&mut tx, membership.team_id, &vendor)
        .await?
        .ok_or(AppError::Conflict(Msg::VendorsNameTaken))?;
    tx.commit().await?;
    Ok(id)
}

/// The vendor pages: back to `/vendors`, procurement edits.
const PAGES: RecordPages<Vendor> = RecordPages {
    list_href: "/vendors",
    list_title: Msg::NavVendors,
    form_test_id: "vendor-form",
    edit: Capability::EditProcurement,
    name: |v| v.name.clone(),
    fields: |v, issues| vendor_fields(VendorForm::from_vendor(v), issues).into_any(),
};

/// What the vendor's support covers, in one line: “Helps with: …. Does not help with: ….”
pub fn scope_summary(locale: Locale, vendor: &Vendor) -> String {
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for item in &SCOPE_ITEMS {
        match (item.get)(&vendor.support_scope) {
            Some(true) => yes.push(locale.t(item.label)),
            Some(false) => no.push(locale.t(item.label)),
            None => {}
        }
    }
    let separator = locale.t(Msg::VendorsListSeparator);
    let mut parts = Vec::new();
    if !yes.is_empty() {
        parts.push(locale.fmt(Msg::VendorsScopeHelps, &[("items", &yes.join(separator))]));
    }
    if !no.is_empty() {
        parts.push(locale.fmt(Msg::VendorsScopeDoesNot, &[("items", &no.join(separator))]));
    }
    if parts.is_empty() && vendor.support_scope.notes.is_empty() {
        parts.push(locale.t(Msg::VendorsScopeNotStated).to_string());
    }
    parts.join(" ")
}

fn vendor_table(vendors: Vec<Stored<Vendor>>, can_edit: bool) -> impl IntoView {
    let locale = use_locale();
    view! {
        <table class="table" data-testid="vendor-table">
            <thead>
                <tr>
                    <th>{t(Msg::VendorsName)}</th>
                    <th>{t(Msg::VendorsWebsite)}</th>
                    <th>{t(Msg::VendorsContact)}</th>
                    <th>{t(Msg::VendorsScopeTitle)}</th>
                    <th>{t(Msg::VendorsNotes)}</th>
                </tr>
            </thead>
            <tbody>
                {vendors
                    .into_iter()
                    .map(|Stored { id, record: v }| {
                        let summary = scope_summary(locale, &v);
                        let name = if can_edit {
                            view! { <a href=format!("/vendors/{id}")>{v.name}</a> }.into_any()
                        } else {
                            v.name.into_any()
                        };
                        view! {
                            <tr>
                                <td>{name}</td>
                                <td><ExternalLink text=v.website /></td>
                                <td>{v.contact}</td>
                                <td>
                                    {summary}
                                    {(!v.support_scope.notes.is_empty())
                                        .then(|| view! { <br /><small class="hint">{v.support_scope.notes}</small> })}
                                </td>
                                <td class="pre-line">{v.notes}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The vendors page.
#[component]
pub fn VendorsPage() -> impl IntoView {
    member_page(|caller| {
        let can_edit = caller.may(PAGES.edit);
        let items = Resource::new(|| (), |()| list_vendors());
        let create = ServerAction::<CreateVendor>::new();
        view! {
            <Title text=t(Msg::NavVendors) />
            <h1>{t(Msg::NavVendors)}</h1>
            // Requests for quotation go to these vendors.
            <p><a href="/requests" data-testid="vendors-requests">{t(Msg::RfqListTitle)}</a></p>
            <p class="lead">{t(Msg::VendorsLead)}</p>
            <Loaded resource=items let:list>
                {can_edit.then(|| {
                    let texts = (Msg::VendorsAddTitle, Msg::VendorsAddSubmit);
                    add_record_card(&PAGES, create, texts, |issues| vendor_fields(VendorForm::default(), issues).into_any())
                })}
                {list_or_empty(list, Msg::VendorsNone, move |list| vendor_table(list, can_edit))}
            </Loaded>
        }
        .into_any()
    })
}
