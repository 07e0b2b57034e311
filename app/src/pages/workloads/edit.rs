//! Editing one workload (procurement only: `Capability::EditWorkloads`).

use super::{PAGES, WorkloadForm};
use crate::{components::record_form::record_edit_page, domain::quotes::Workload, error::AppError, views::Stored};
use leptos::prelude::*;

/// One workload of the active team; 404 for another team's.
#[server(endpoint = "workloads/get")]
pub async fn get_workload(id: i64) -> Result<Stored<Workload>, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    store::workloads::by_id(&auth::db()?, membership.team_id, id)
        .await?
        .ok_or(AppError::NotFound)
}

/// Changes a workload of the active team (procurement only: `Capability::EditWorkloads`).
#[server(endpoint = "workloads/update")]
pub async fn update_workload(id: String, #[server(flatten)] form: WorkloadForm) -> Result<(), AppError> {
    use crate::{
        auth,
        components::record_form::{posted_id, updated},
        domain::roles::Capability,
        i18n::Msg,
        store,
    };
    let (_, membership) = auth::require_team(Capability::EditWorkloads)?;
    let id = posted_id(&id)?;
    // A deadline in hours is saved as the moment it names, so it does not move with each visit.
    let workload = form
        .to_workload()
        .map_err(AppError::fields)?
        .with_fixed_deadline(crate::clock::now_unix());
    let mut tx = store::begin_write(&auth::db()?).await?;
    updated(
        store::workloads::update(&mut tx, membership.team_id, id, &workload).await?,
        Msg::WorkloadsNameTaken,
    )?;
    // Its runs are judged against it (target, headroom, model): judge them again.
    crate::services::runs::rejudge_workload(&mut tx, membership.team_id, id).await?;
    tx.commit().await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// The workload edit page.
#[component]
pub fn WorkloadEditPage() -> impl IntoView {
    record_edit_page(PAGES, ServerAction::<UpdateWorkload>::new(), get_workload)
}
