//! Editing one workload (procurement only: `Capability::EditWorkloads`).

use super::{WorkloadForm, form::workload_fields};
use crate::{
    components::{
        form_fields::{SaveFooter, field_issues},
        forms::ErrorBox,
        guard::member_page,
    },
    domain::{quotes::Workload, roles::Capability},
    error::AppError,
    i18n::{Msg, t},
    views::Stored,
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

/// One workload of the active team; 404 for another team's.
#[server(endpoint = "workloads/get")]
pub async fn get_workload(id: i64) -> Result<Stored<Workload>, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    store::workloads::by_id(&auth::db()?, membership.team_id, id)
        .await?
        .ok_or(AppError::NotFound)
}

/// Changes a workload of the active team (procurement only: `Capability::EditWorkloads`). `id` is text because
/// the form's other fields are read flattened.
#[server(endpoint = "workloads/update")]
pub async fn update_workload(id: String, #[server(flatten)] form: WorkloadForm) -> Result<(), AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::EditWorkloads)?;
    let id: i64 = id.trim().parse().map_err(|_| AppError::NotFound)?;
    let workload = form.to_workload().map_err(AppError::fields)?;
    let mut tx = store::begin_write(&auth::db()?).await?;
    match store::workloads::update(&mut tx, membership.team_id, id, &workload).await? {
        store::Updated::Done => {}
        store::Updated::NotFound => return Err(AppError::NotFound),
        store::Updated::NameTaken => return Err(AppError::Conflict(Msg::WorkloadsNameTaken)),
    }
    tx.commit().await?;
    Ok(())
}

/// The workload edit page.
#[component]
pub fn WorkloadEditPage() -> impl IntoView {
    member_page(|caller| {
        if !caller.may(Capability::EditWorkloads) {
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
        let update = ServerAction::<UpdateWorkload>::new();
        let workload = Resource::new(id, get_workload);
        let issues = field_issues(update);
        view! {
            <p class="breadcrumb"><a href="/workloads">{t(Msg::NavWorkloads)}</a></p>
            <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match workload.await {
                        Ok(Stored { id, record }) => view! {
                            <Title text=record.name.clone() />
                            <h1>{record.name.clone()}</h1>
                            <ActionForm action=update attr:class="form card" attr:data-testid="workload-form">
                                <input type="hidden" name="id" value=id.to_string() />
                                {workload_fields(WorkloadForm::from_workload(&record), issues)}
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
