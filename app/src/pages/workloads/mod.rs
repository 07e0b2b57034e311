//! The team's workloads: what has to run, written down before comparing nodes (the first step of
//! an ordering sequence that can be followed, “一套可执行的下单顺序”; a workload needs its
//! measured VRAM peak plus 15–25 % headroom).
//! Procurement adds and edits them (`Capability::EditWorkloads`); every member reads.

pub mod edit;
mod form;

pub use form::WorkloadForm;

use crate::{
    components::{
        guard::member_page,
        loaded::{Loaded, list_or_empty},
        record_form::{RecordPages, add_record_card},
    },
    domain::{quotes::Workload, roles::Capability},
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    views::Stored,
};
use form::{kind_label, unit_label, workload_fields};
use leptos::prelude::*;
use leptos_meta::Title;
use rust_decimal::Decimal;

/// The active team's workloads, by name.
#[server(endpoint = "workloads")]
pub async fn list_workloads() -> Result<Vec<Stored<Workload>>, AppError> {
    use crate::{auth, store};
    let (_, membership) = auth::require_team(Capability::ReadTeamData)?;
    Ok(store::workloads::list(&auth::db()?, membership.team_id).await?)
}

/// Adds a workload to the active team (procurement only: `Capability::EditWorkloads`); returns its id.
#[server(endpoint = "workloads/create")]
pub async fn create_workload(#[server(flatten)] form: WorkloadForm) -> Result<i64, AppError> {
    use crate::{auth, store};
    let (caller, membership) = auth::require_team(Capability::EditWorkloads)?;
    // A deadline in hours is saved as the moment it names, so it does not move with each visit.
    let workload = form
        .to_workload()
        .map_err(AppError::fields)?
        .with_fixed_deadline(crate::clock::now_unix());
    let mut tx = store::begin_write(&auth::db()?).await?;
    let id = store::workloads::insert(&mut tx, membership.team_id, &workload, Some(caller.user_id))
        .await?
        .ok_or(AppError::Conflict(Msg::WorkloadsNameTaken))?;
    tx.commit().await?;
    Ok(id)
}

/// The workload pages: back to `/workloads`, procurement edits.
const PAGES: RecordPages<Workload> = RecordPages {
    list_href: "/workloads",
    list_title: Msg::NavWorkloads,
    form_test_id: "workload-form",
    edit: Capability::EditWorkloads,
    name: |w| w.name.clone(),
    fields: |w, issues| workload_fields(WorkloadForm::from_workload(w), issues).into_any(),
};

fn number(d: Decimal) -> String {
    crate::domain::money::grouped(d)
}

/// How much work, in one line: “72 h”, “1,000,000 tokens”, or both.
fn work_size(locale: Locale, w: &Workload) -> String {
    let hours = w
        .run_hours
        .map(|h| locale.fmt(Msg::WorkloadsHours, &[("hours", &number(h))]));
    let total = w.total_work.as_ref().map(|tw| {
        let unit = unit_label(&tw.unit).map_or(tw.unit.as_str(), |m| locale.t(m));
        format!("{} {unit}", number(tw.amount))
    });
    hours.into_iter().chain(total).collect::<Vec<_>>().join(" · ")
}

/// The workload's schedule under its size: "Due 2026-12-15 10:00 UTC" (in the reader's zone once
/// hydrated) or "Due within 48 h of the start", and the earliest start; nothing when none.
fn schedule(locale: Locale, w: &Workload) -> impl IntoView + use<> {
    use crate::components::local_time::Moment;
    use crate::domain::{bills::timestamp, quotes::Deadline};
    let deadline = w.deadline.map(|d| match d {
        Deadline::At(at) => view! {
            <br /><small class="hint" data-testid="workload-deadline">
                {locale.t(Msg::WorkloadsDueAt)} " " <Moment at=timestamp::format(at) />
            </small>
        }
        .into_any(),
        Deadline::HoursFromStart(hours) => view! {
            <br /><small class="hint" data-testid="workload-deadline">
                {locale.fmt(Msg::WorkloadsDueWithin, &[("hours", &number(hours))])}
            </small>
        }
        .into_any(),
    });
    let start = w.earliest_start.map(|at| {
        view! {
            <br /><small class="hint">{locale.t(Msg::WorkloadsStartsFrom)} " " <Moment at=timestamp::format(at) /></small>
        }
    });
    (deadline, start)
}

fn workload_table(workloads: Vec<Stored<Workload>>, can_edit: bool) -> impl IntoView {
    let locale = use_locale();
    view! {
        <table class="table" data-testid="workload-table">
            <thead>
                <tr>
                    <th>{t(Msg::WorkloadsName)}</th>
                    <th>{t(Msg::WorkloadsKind)}</th>
                    <th>{t(Msg::WorkloadsModel)}</th>
                    <th class="num">{t(Msg::WorkloadsVramPeakShort)}</th>
                    <th class="num">{t(Msg::WorkloadsVramToFind)}</th>
                    <th class="num">{t(Msg::WorkloadsGpusShort)}</th>
                    <th>{t(Msg::WorkloadsSizeShort)}</th>
                    <th class="num">{t(Msg::WorkloadsStorageShort)}</th>
                </tr>
            </thead>
            <tbody>
                {workloads
                    .into_iter()
                    .map(|Stored { id, record: w }| {
                        let source = if w.vram_peak_measured { Msg::WorkloadsPeakMeasured } else { Msg::WorkloadsPeakEstimated };
                        let peak = format!("{} GiB", number(w.vram_peak_gib));
                        let to_find = locale.fmt(Msg::WorkloadsVramWithHeadroom, &[
                            ("gib", &number(w.required_vram_gib().round_dp(1))),
                            ("pct", &number(w.headroom_pct)),
                        ]);
                        let mut gpus = locale.fmt(Msg::WorkloadsGpusAtConcurrency, &[
                            ("gpus", &w.gpus_needed.to_string()),
                            ("concurrency", &w.concurrency.to_string()),
                        ]);
                        if w.gpu_use == crate::domain::runs::GpuUse::TaskPerGpu {
                            gpus = format!("{gpus} · {}", locale.t(Msg::WorkloadsGpuUseTaskPerGpu));
                        }
                        if let Some(target) = &w.response_target {
                            gpus = format!("{gpus} · {}", crate::texts::response::target_text(target));
                        }
                        let storage = locale.fmt(Msg::WorkloadsStorage, &[
                            ("data", &number(w.data_gb)),
                            ("checkpoints", &number(w.checkpoint_gb)),
                        ]);
                        let model = [w.model.as_str(), w.precision.as_str()]
                            .into_iter()
                            .filter(|s| !s.is_empty())
                            .collect::<Vec<_>>()
                            .join(" · ");
                        let size = work_size(locale, &w);
                        let when = schedule(locale, &w);
                        let name = if can_edit {
                            view! { <a href=format!("/workloads/{id}")>{w.name}</a> }.into_any()
                        } else {
                            w.name.into_any()
                        };
                        view! {
                            <tr>
                                <td>{name} <br /><small class="hint" data-testid="workload-id">{locale.fmt(Msg::WorkloadsId, &[("id", &id.to_string())])}</small></td>
                                <td>{t(kind_label(w.kind))}</td>
                                <td>{model}</td>
                                <td class="num">{peak} <br /><small class="hint">{t(source)}</small></td>
                                <td class="num">{to_find}</td>
                                <td class="num">{gpus}</td>
                                <td>{size}{when} <br /><a class="no-print" href=format!("/plan?workload={id}") data-testid="workload-plan">{t(Msg::PlanOpen)}</a></td>
                                <td class="num">{storage}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// The workloads page.
#[component]
pub fn WorkloadsPage() -> impl IntoView {
    member_page(|caller| {
        let can_edit = caller.may(PAGES.edit);
        let items = Resource::new(|| (), |()| list_workloads());
        let create = ServerAction::<CreateWorkload>::new();
        view! {
            <Title text=t(Msg::NavWorkloads) />
            <h1>{t(Msg::NavWorkloads)}</h1>
            <p class="lead">{t(Msg::WorkloadsLead)}</p>
            <Loaded resource=items let:list>
                {can_edit.then(|| {
                    let texts = (Msg::WorkloadsAddTitle, Msg::WorkloadsAddSubmit);
                    add_record_card(&PAGES, create, texts, |issues| workload_fields(WorkloadForm::starting_values(), issues).into_any())
                })}
                {list_or_empty(list, Msg::WorkloadsNone, move |list| workload_table(list, can_edit))}
            </Loaded>
        }
        .into_any()
    })
}
