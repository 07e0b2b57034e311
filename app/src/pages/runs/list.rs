//! The team's benchmark runs, newest first, filtered by quote or workload, and the
//! steady-state throughput comparison across quotes.

use crate::texts::runs::{format_label, num, status_class, status_msg};
use crate::{
    components::{
        guard::member_page,
        loaded::{Loaded, list_or_empty},
        local_time::Moment,
        route::urlencode,
    },
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::{CompareGroup, RunSummary},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

/// The run list with what the filters offer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunList {
    /// Runs, newest first.
    pub runs: Vec<RunSummary>,
    /// Quotes to filter by: id and label.
    pub quotes: Vec<(i64, String)>,
    /// Workloads to filter by: id and name.
    pub workloads: Vec<(i64, String)>,
    /// The throughput comparison.
    pub compare: Vec<CompareGroup>,
    /// Whether the caller may upload runs.
    pub can_upload: bool,
}

/// The active team's runs (at most 500), optionally of one quote or workload.
#[server(endpoint = "runs")]
pub async fn list_runs(quote: Option<i64>, workload: Option<i64>) -> Result<RunList, AppError> {
    use crate::{auth, domain::roles::Capability, services, store};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let db = auth::db()?;
    let filter = store::runs::RunFilter {
        quote_id: quote,
        workload_id: workload,
    };
    let runs = store::runs::list(&db, team.team_id, filter, 500).await?;
    let (quotes, workloads) = super::filter_choices(&db, team.team_id, quote).await?;
    Ok(RunList {
        runs,
        quotes,
        workloads,
        compare: services::runs::comparison(&db, team.team_id).await?,
        can_upload: caller.may(Capability::UploadRuns),
    })
}

fn node_cell(r: &RunSummary) -> AnyView {
    match (r.quote_id, &r.quote_label) {
        (Some(id), Some(label)) => {
            let rev = r.revision.map(|n| format!(" (r{n})")).unwrap_or_default();
            view! { <a href=format!("/quotes/{id}")>{label.clone()}</a> {rev} }.into_any()
        }
        _ => r.node_label.clone().into_any(),
    }
}

fn run_table(runs: Vec<RunSummary>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <table class="table" data-testid="run-table">
            <thead>
                <tr>
                    <th>{t(Msg::RunsColRun)}</th>
                    <th>{t(Msg::RunsColNode)}</th>
                    <th>{t(Msg::RunsColWorkload)}</th>
                    <th>{t(Msg::RunsColGpu)}</th>
                    <th class="num">{t(Msg::RunsColThroughput)}</th>
                    <th>{t(Msg::RunsColVerdict)}</th>
                    <th>{t(Msg::RunsColUploaded)}</th>
                </tr>
            </thead>
            <tbody>
                {runs
                    .into_iter()
                    .map(|r| {
                        let throughput = r.throughput_value.map(|v| format!("{} {}", num(v, 1), r.throughput_unit.clone().unwrap_or_default()));
                        let nodes = (r.nodes > 1).then(|| locale.fmt(Msg::RunsNodesN, &[("n", &r.nodes.to_string())]));
                        let gpu = match (r.gpu_count, &r.gpu_name) {
                            (Some(n), Some(name)) => format!("{n} × {name}"),
                            (None, Some(name)) => name.clone(),
                            _ => String::new(),
                        };
                        view! {
                            <tr>
                                <td><a href=format!("/runs/{}", r.id)>{format!("#{}", r.id)}</a> <small class="hint" data-testid="run-format">{format_label(locale, &r.source_format)}</small></td>
                                <td>{node_cell(&r)} {nodes.map(|n| view! { <br /><small class="hint">{n}</small> })}</td>
                                <td>{r.workload_name.clone().unwrap_or_default()}</td>
                                <td>{gpu}</td>
                                <td class="num">{throughput}</td>
                                <td><span class=status_class(r.status)>{t(status_msg(r.status))}</span></td>
                                <td><Moment at=r.created_at.clone() /> <br /><small class="hint">{r.created_by.clone()}</small></td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

fn compare_view(groups: Vec<CompareGroup>) -> impl IntoView {
    let locale = use_locale();
    view! {
        <section class="card" data-testid="run-compare">
            <h2>{t(Msg::RunsCompareTitle)}</h2>
            <p class="lead">{t(Msg::RunsCompareLead)}</p>
            {if groups.is_empty() {
                view! { <p class="empty-state">{t(Msg::RunsCompareNone)}</p> }.into_any()
            } else {
                groups
                    .into_iter()
                    .map(|g| {
                        let title = match &g.workload_name {
                            Some(name) => format!("{name} · {}", g.unit),
                            None => g.unit.clone(),
                        };
                        let src = format!(
                            "/runs/compare.svg?workload={}&unit={}",
                            g.workload_id.map(|w| w.to_string()).unwrap_or_default(),
                            urlencode(&g.unit)
                        );
                        let alt = locale.fmt(Msg::RunsCompareChart, &[("unit", &g.unit)]);
                        view! {
                            <h3>{title}</h3>
                            <img class="chart" src=src alt=alt />
                            {g.bottlenecks.into_iter().map(|b| view! {
                                <p class="callout callout-warn" data-testid="bottleneck">
                                    {locale.fmt(Msg::RunsBottleneck, &[
                                        ("a", &b.stronger),
                                        ("b", &b.weaker),
                                        ("compute", &num(b.compute_ratio, 1)),
                                        ("measured", &num(b.measured_ratio, 2)),
                                    ])}
                                </p>
                            }).collect_view()}
                        }
                    })
                    .collect_view()
                    .into_any()
            }}
        </section>
    }
}

/// One choice of the filter: “all”, then `options` as `(id, label)`, `chosen` selected.
fn filter_select(
    label: Msg,
    name: &'static str,
    options: &[(i64, String)],
    chosen: Option<i64>,
) -> impl IntoView + use<> {
    let options = options
        .iter()
        .map(|(id, text)| view! { <option value=id.to_string() selected=Some(*id) == chosen>{text.clone()}</option> })
        .collect_view();
    view! {
        <label>{t(label)}
            <select name=name>
                <option value="">{t(Msg::RunsFilterAll)}</option>
                {options}
            </select>
        </label>
    }
}

/// The filter (with the chosen `quote` and `workload`), the run table and the comparison.
fn run_list_view(list: RunList, (quote, workload): (Option<i64>, Option<i64>)) -> impl IntoView {
    view! {
        <div class="toolbar">
            <form method="get" action="/runs" class="form-inline" data-testid="run-filter">
                {filter_select(Msg::RunsFilterQuote, "quote", &list.quotes, quote)}
                {filter_select(Msg::RunsFilterWorkload, "workload", &list.workloads, workload)}
                <button type="submit" class="small secondary">{t(Msg::RunsFilterApply)}</button>
            </form>
            {list.can_upload.then(|| view! { <a class="button-link" href="/runs/new" data-testid="upload-run">{t(Msg::RunsUpload)}</a> })}
        </div>
        {list_or_empty(list.runs, Msg::RunsEmpty, run_table)}
        {compare_view(list.compare)}
    }
}

/// The runs page.
#[component]
pub fn RunListPage() -> impl IntoView {
    member_page(|_caller| {
        let query = use_query_map();
        let filter = move || {
            let q = query.read();
            (
                q.get("quote").and_then(|v| v.parse().ok()),
                q.get("workload").and_then(|v| v.parse().ok()),
            )
        };
        let data = Resource::new(filter, |(quote, workload)| list_runs(quote, workload));
        view! {
            <Title text=t(Msg::RunsTitle) />
            <h1>{t(Msg::RunsTitle)}</h1>
            <p class="lead">{t(Msg::RunsLead)}</p>
            <Loaded resource=data let:list>
                {run_list_view(list, filter())}
            </Loaded>
        }
        .into_any()
    })
}
