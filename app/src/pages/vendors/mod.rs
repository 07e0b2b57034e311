//! The team's vendors: who the team rents from, how to reach them, and which operations tasks
//! their support covers (seed 001 §5). Every member reads; procurement adds and edits.

pub mod edit;
mod form;

pub use form::{SCOPE_ITEMS, VendorForm};

use crate::{
    components::{
        external_link::ExternalLink,
        form_fields::{field_issues, reset_on_success},
        forms::{ActionError, ErrorBox},
        guard::member_page,
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
        let can_edit = caller.may(Capability::EditProcurement);
        let create = ServerAction::<CreateVendor>::new();
        let vendors = Resource::new(move || create.version().get(), |_| list_vendors());
        let form_ref = NodeRef::new();
        reset_on_success(create, form_ref);
        let issues = field_issues(create);
        view! {
            <Title text=t(Msg::NavVendors) />
            <h1>{t(Msg::NavVendors)}</h1>
            <p class="lead">{t(Msg::VendorsLead)}</p>
            {can_edit.then(|| view! {
                <section class="card">
                    <h2>{t(Msg::VendorsAddTitle)}</h2>
                    <ActionForm action=create node_ref=form_ref attr:class="form" attr:data-testid="vendor-form">
                        {vendor_fields(VendorForm::default(), issues)}
                        <ActionError action=create />
                        <button type="submit" disabled=move || create.pending().get()>{t(Msg::VendorsAddSubmit)}</button>
                    </ActionForm>
                </section>
            })}
            <Transition fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match vendors.await {
                        Ok(list) if list.is_empty() => {
                            view! { <p class="empty-state">{t(Msg::VendorsNone)}</p> }.into_any()
                        }
                        Ok(list) => vendor_table(list, can_edit).into_any(),
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                    }
                })}
            </Transition>
        }
        .into_any()
    })
}
