//! The run page's section on the node as `nodeledger probe` recorded it: GPUs, driver
//! and CUDA, CPU, memory, disks, OS, container and the command with its exit code. A run
//! uploaded as failed (`--keep-failed`) says so first.

use crate::{
    domain::node_facts::NodeFacts,
    i18n::{Msg, t, use_locale},
};
use leptos::prelude::*;

/// The stored facts of the team's run (server only; `None` for a run not from the probe).
/// Takes the pool rather than reading it from the Leptos context: a server function's context
/// is only sure to be there before its first `.await`.
#[cfg(feature = "ssr")]
pub(crate) async fn load(
    db: &crate::store::Db,
    team_id: i64,
    run_id: i64,
) -> Result<Option<NodeFacts>, crate::error::AppError> {
    let Some(json) = crate::store::run_node_facts::get(db, team_id, run_id).await? else {
        return Ok(None);
    };
    serde_json::from_str(&json).map(Some).map_err(|e| {
        tracing::error!(error = %e, run = run_id, "stored node facts do not decode");
        crate::error::AppError::Internal
    })
}

fn or_none(v: Option<String>) -> String {
    v.filter(|s| !s.is_empty())
        .unwrap_or_else(|| t(Msg::ProbeNone).to_string())
}

/// The section.
pub fn node_facts_view(f: NodeFacts) -> impl IntoView {
    let locale = use_locale();
    let failed = f.exit_code.filter(|c| *c != 0);
    let gpus = (!f.gpus.is_empty()).then(|| f.gpu_summary());
    let mut migs: Vec<String> = f.gpus.iter().filter_map(|g| g.mig_mode.clone()).collect();
    migs.dedup();
    let driver = format!(
        "{} / {}",
        or_none(f.driver_version.clone()),
        or_none(f.cuda_version.clone())
    );
    let cpu = match (f.cpu_model.clone(), f.cpu_count) {
        (Some(model), Some(n)) => Some(locale.fmt(Msg::ProbeCpuLine, &[("model", &model), ("count", &n.to_string())])),
        (model, n) => model.or_else(|| n.map(|n| n.to_string())),
    };
    let ram = f.ram_mib.map(|m| format!("{} GiB", m / 1024));
    let disks = (!f.disks.is_empty()).then(|| f.disk_summary());
    let os = format!("{} / {}", or_none(f.os.clone()), or_none(f.kernel.clone()));
    let exit = match f.exit_code {
        Some(code) => code.to_string(),
        None => t(Msg::ProbeStoppedAfterDuration).to_string(),
    };
    view! {
        <section class="card" data-testid="run-node-facts">
            <h2>{t(Msg::ProbeNodeFacts)}</h2>
            {failed.map(|code| view! {
                <div class="callout callout-danger" role="alert" data-testid="run-failed">
                    {locale.fmt(Msg::ProbeFailedRun, &[("code", &code.to_string())])}
                </div>
            })}
            <dl class="facts">
                <dt>{t(Msg::ProbeGpus)}</dt><dd data-testid="facts-gpus">{or_none(gpus)}</dd>
                <dt>{t(Msg::ProbeDriverCuda)}</dt><dd>{driver}</dd>
                <dt>{t(Msg::ProbeMig)}</dt><dd>{or_none((!migs.is_empty()).then(|| migs.join(", ")))}</dd>
                <dt>{t(Msg::ProbeCpu)}</dt><dd data-testid="facts-cpu">{or_none(cpu)}</dd>
                <dt>{t(Msg::ProbeRam)}</dt><dd>{or_none(ram)}</dd>
                <dt>{t(Msg::ProbeDisks)}</dt><dd>{or_none(disks)}</dd>
                <dt>{t(Msg::ProbeOs)}</dt><dd>{os}</dd>
                <dt>{t(Msg::ProbeHost)}</dt><dd>{or_none(f.hostname.clone())}</dd>
                <dt>{t(Msg::ProbeContainer)}</dt><dd>{or_none(f.container.clone())}</dd>
                <dt>{t(Msg::ProbeCommand)}</dt><dd><code>{or_none(f.command.clone())}</code></dd>
                <dt>{t(Msg::ProbeExitCode)}</dt><dd data-testid="facts-exit">{exit}</dd>
            </dl>
        </section>
    }
}
