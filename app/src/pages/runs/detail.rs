//! One run: what was measured, what the node really was, the verdict with every reason, the
//! telemetry chart, and the files as uploaded.

use crate::texts::runs::{
    bytes, duration, format_label, is_quote_mismatch, metric_label, num, reason_text, severity_msg, status_class,
    status_msg,
};
use crate::{
    components::{
        guard::member_page,
        loaded::Loaded,
        route::{load_or_not_found, route_id},
    },
    domain::runs::{CanonicalRun, Severity},
    error::AppError,
    i18n::{Msg, t, use_locale},
    views::{RunFileInfo, RunSummary},
};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// A run as its page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The list line.
    pub summary: RunSummary,
    /// The judged canonical run.
    pub run: CanonicalRun,
    /// Note.
    pub note: String,
    /// Files as uploaded.
    pub files: Vec<RunFileInfo>,
    /// The node as `nodeledger probe` recorded it, when the run came from the probe.
    pub node_facts: Option<crate::domain::node_facts::NodeFacts>,
}

/// One of the active team's runs.
#[server(endpoint = "runs/get")]
pub async fn get_run(id: i64) -> Result<RunView, AppError> {
    use crate::{auth, domain::roles::Capability, store};
    let (_, team) = auth::require_team(Capability::ReadTeamData)?;
    // Everything from the context before the first `.await`: it is not sure to be there after.
    let db = auth::db()?;
    let (summary, canonical, note, files) = store::runs::get(&db, team.team_id, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let run = serde_json::from_str(&canonical).map_err(|e| {
        tracing::error!(error = %e, run = id, "stored run does not decode");
        AppError::Internal
    })?;
    let node_facts = super::node_facts::load(&db, team.team_id, id).await?;
    Ok(RunView {
        summary,
        run,
        note,
        files,
        node_facts,
    })
}

fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map_or_else(|| t(Msg::RunsUnknown).to_string(), f)
}

/// The figures, the observed node and the workload as run, as definition lists.
pub fn figures(run: &CanonicalRun) -> impl IntoView + use<> {
    let locale = use_locale();
    let throughput = opt(run.throughput.as_ref(), |tp| {
        format!("{} {}", num(tp.value, 2), tp.unit.as_str())
    });
    let others = run
        .throughputs
        .iter()
        .map(|n| {
            format!(
                "{}: {} {}",
                metric_label(locale, &n.name),
                num(n.value, 2),
                n.unit.as_str()
            )
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let latency = run.latency_ms.as_ref().map(|l| {
        let f = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |x| num(x, 1));
        format!("{} / {} / {} ms", f(l.p50), f(l.p90), f(l.p99))
    });
    let node = &run.node;
    let yes_no = |b: bool| t(if b { Msg::RunsYes } else { Msg::RunsNo }).to_string();
    let wl = run.workload.clone().unwrap_or_default();
    view! {
        <div class="detail-grid">
            <section class="card">
                <h2>{t(Msg::RunsFigures)}</h2>
                <dl class="facts" data-testid="run-figures">
                    <dt>{t(Msg::RunsThroughput)}</dt><dd data-testid="run-throughput">{throughput}</dd>
                    {(!others.is_empty()).then(|| view! { <dt>{t(Msg::RunsOtherThroughputs)}</dt><dd>{others}</dd> })}
                    {latency.map(|l| view! { <dt>{t(Msg::RunsLatency)}</dt><dd>{l}</dd> })}
                    <dt>{t(Msg::RunsVramPeak)}</dt><dd>{opt(run.vram_peak_mib, |v| format!("{} MiB", num(v, 0)))}</dd>
                    <dt>{t(Msg::RunsUtilSteady)}</dt><dd>{opt(run.gpu_util_mean_pct, |v| format!("{} %", num(v, 1)))}</dd>
                    <dt>{t(Msg::RunsDuration)}</dt><dd>{opt(run.duration_s, duration)}</dd>
                    <dt>{t(Msg::RunsWarmup)}</dt><dd>{opt(run.warmup_s, duration)}</dd>
                    <dt>{t(Msg::RunsThrottled)}</dt><dd>{opt(run.throttle.as_ref(), |th| duration(th.active_s))}</dd>
                </dl>
            </section>
            <section class="card">
                <h2>{t(Msg::RunsNodeSeen)}</h2>
                <dl class="facts" data-testid="run-node">
                    <dt>{t(Msg::RunsColGpu)}</dt><dd>{opt(node.gpu_name.clone(), |s| s)}</dd>
                    <dt>{t(Msg::RunsGpus)}</dt><dd>{opt(node.gpu_count, |n| n.to_string())}</dd>
                    <dt>{t(Msg::RunsVramTotal)}</dt><dd>{opt(node.vram_total_mib, |v| format!("{} MiB", num(v, 0)))}</dd>
                    <dt>{t(Msg::RunsDriver)}</dt><dd>{opt(node.driver_version.clone(), |s| s)}</dd>
                    <dt>{t(Msg::RunsCuda)}</dt><dd>{opt(node.cuda_version.clone(), |s| s)}</dd>
                    <dt>{t(Msg::RunsMig)}</dt><dd>{opt(node.mig, yes_no)}</dd>
                </dl>
                <h3>{t(Msg::RunsWorkloadSeen)}</h3>
                <dl class="facts">
                    <dt>{t(Msg::RunsModel)}</dt><dd>{opt(wl.model, |s| s)}</dd>
                    <dt>{t(Msg::RunsPrecision)}</dt><dd>{opt(wl.precision, |s| s)}</dd>
                    <dt>{t(Msg::RunsBatch)}</dt><dd>{opt(wl.batch_size, |n| n.to_string())}</dd>
                    <dt>{t(Msg::RunsConcurrency)}</dt><dd>{opt(wl.concurrency, |n| n.to_string())}</dd>
                </dl>
            </section>
        </div>
    }
}

/// The verdict: status, the quote-vs-observed mismatches first and prominently, then the rest.
pub fn verdict_view(run: &CanonicalRun) -> impl IntoView + use<> {
    let locale = use_locale();
    let verdict = run.verdict.clone();
    let status = verdict
        .as_ref()
        .map_or(crate::domain::runs::RunStatus::Valid, |v| v.status);
    let reasons = verdict.map(|v| v.reasons).unwrap_or_default();
    let (mismatches, others): (Vec<_>, Vec<_>) = reasons.into_iter().partition(|r| is_quote_mismatch(&r.reason));
    let item = move |r: crate::domain::runs::VerdictReason| {
        let class = match r.severity {
            Severity::Info => "reason reason-info",
            Severity::Warn => "reason reason-warn",
            Severity::Invalid => "reason reason-invalid",
        };
        view! {
            <li class=class data-code=r.reason.code()>
                <strong>{t(severity_msg(r.severity))}</strong> " " {reason_text(locale, &r.reason)}
            </li>
        }
    };
    view! {
        <section class="card" data-testid="run-verdict">
            <h2>{t(Msg::RunsVerdict)} " " <span class=status_class(status) data-testid="verdict-status">{t(status_msg(status))}</span></h2>
            {(!mismatches.is_empty()).then(|| view! {
                <div class="callout callout-danger" role="alert" data-testid="quote-mismatch">
                    <strong>{t(Msg::RunsQuoteMismatch)}</strong>
                    <ul>{mismatches.into_iter().map(item).collect_view()}</ul>
                </div>
            })}
            {if others.is_empty() && status == crate::domain::runs::RunStatus::Valid {
                view! { <p>{t(Msg::RunsVerdictClean)}</p> }.into_any()
            } else {
                view! { <ul class="reasons">{others.into_iter().map(item).collect_view()}</ul> }.into_any()
            }}
        </section>
    }
}

fn files_view(run_id: i64, files: Vec<RunFileInfo>, run: &CanonicalRun) -> impl IntoView + use<> {
    let locale = use_locale();
    let json = serde_json::to_string_pretty(run).unwrap_or_default();
    view! {
        <section class="card">
            <h2>{t(Msg::RunsRawFiles)}</h2>
            <ul class="links" data-testid="run-files">
                {files.into_iter().map(|f| view! {
                    <li>
                        <a href=format!("/runs/{run_id}/files/{}", f.id) rel="external" download=f.file_name.clone()>{f.file_name.clone()}</a>
                        {format!(" · {} · {} · SHA-256 ", format_label(locale, &f.format), bytes(f.size))}
                        <code class="hash">{f.sha256.clone()}</code>
                    </li>
                }).collect_view()}
            </ul>
            <details class="no-print">
                <summary>{t(Msg::RunsCanonicalJson)}</summary>
                <pre class="json">{json}</pre>
            </details>
        </section>
    }
}

/// The whole run: heading, verdict, figures, telemetry chart, files.
fn run_view(v: RunView) -> impl IntoView {
    let locale = use_locale();
    let title = locale.fmt(Msg::RunsDetailTitle, &[("id", &v.summary.id.to_string())]);
    let s = &v.summary;
    let node = match (&s.quote_label, s.quote_id) {
        (Some(label), Some(q)) => {
            view! { <a href=format!("/quotes/{q}")>{label.clone()}</a> " " {s.revision.map(|r| format!("(r{r})"))} }
                .into_any()
        }
        _ => s.node_label.clone().into_any(),
    };
    let has_telemetry = !v.run.telemetry.is_empty();
    let run_id = s.id;
    view! {
        <Title text=title.clone() />
        <p class="breadcrumb no-print"><a href="/runs">{t(Msg::RunsTitle)}</a></p>
        <h1>{title}</h1>
        <p class="lead">
            {node}
            {s.workload_name.clone().map(|w| view! { " · " {w} })}
            {format!(" · {} · {}", format_label(locale, &s.source_format), s.created_by)}
        </p>
        {(!v.note.is_empty()).then(|| view! { <p class="note">{v.note.clone()}</p> })}
        {verdict_view(&v.run)}
        {figures(&v.run)}
        {v.node_facts.clone().map(super::node_facts::node_facts_view)}
        <section class="card">
            <h2>{t(Msg::RunsTelemetry)}</h2>
            {if has_telemetry {
                view! { <img class="chart" data-testid="telemetry-chart" src=format!("/runs/{run_id}/telemetry.svg") alt=t(Msg::RunsChartAlt) /> }.into_any()
            } else {
                view! { <p class="empty-state">{t(Msg::RunsNoTelemetry)}</p> }.into_any()
            }}
        </section>
        {files_view(run_id, v.files.clone(), &v.run)}
    }
}

/// The run page.
#[component]
pub fn RunDetailPage() -> impl IntoView {
    member_page(|_caller| {
        let id = route_id();
        let data = Resource::new(id, |id| load_or_not_found(id, get_run));
        view! {
            <Loaded resource=data let:run>
                {run_view(run)}
            </Loaded>
        }
        .into_any()
    })
}
