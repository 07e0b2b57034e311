//! The rental plan of a comparison: the workload's schedule and budget, and each costed quote's
//! supply and valid runs, handed to the planner ([`crate::domain::plan`]) with the scenario
//! that reproduces the comparison. What the planner is given is exported beside its result, so
//! `nodeledger plan` reruns it to the same plans.

use super::{Computed, scenario_of};
use crate::{
    domain::{
        plan::{PlanRequest, PlanResult, PlanScenario, QuoteSupply, RunFigure, plan},
        quotes::Deadline,
        rentals::Instant,
        tco::{Scenario, ScenarioResult},
    },
    error::AppError,
    store::{self, Db},
};

/// A comparison's scenario file with its result, and its workload's rental plan.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The scenario that reproduces the comparison (`nodeledger tco` reads it).
    pub scenario: Scenario,
    /// What it gives.
    pub result: ScenarioResult,
    /// What the planner is given (`nodeledger plan` reads it); `None` without a workload.
    pub file: Option<PlanScenario>,
    /// What the planner made of it, or why it made nothing (the engine's reason).
    pub plan: Option<Result<PlanResult, String>>,
}

/// The scenario and the rental plan of comparison `c` of team `team_id`, planned from `now`
/// (Unix seconds) at the earliest: loads the team's exchange rates (every one, as the scenario
/// file carries them), then builds the scenario ([`scenario_of`]), the plan file
/// ([`plan_file`]) and runs the planner. `None` when there is nothing to reproduce (no
/// workload, or no quote costed). Planned once per comparison: a clone of the same cached
/// comparison (the plan page, its chart, the export) gets the same plan, from the first `now`.
///
/// # Errors
/// [`AppError::Internal`] when the rates cannot be read (logged); [`AppError::PlannersBusy`]
/// when every planner is at work (nothing is kept, so the next request plans).
pub async fn planned(db: &Db, team_id: i64, c: &Computed, now: i64) -> Result<Option<Planned>, AppError> {
    c.plan.get_or_try_init(|| plan_now(db, team_id, c, now)).await.cloned()
}

/// [`planned`], computed.
async fn plan_now(db: &Db, team_id: i64, c: &Computed, now: i64) -> Result<Option<Planned>, AppError> {
    let rates = store::exchange_rates::list(db, team_id)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "cannot read rates");
            AppError::Internal
        })?
        .into_iter()
        .map(|r| r.record)
        .collect();
    let Some((scenario, result)) = scenario_of(c, rates) else {
        return Ok(None);
    };
    let file = plan_file(c, &scenario, now);
    let (file, mut plan) = plan_off_the_workers(file).await?;
    if let (Some(Ok(result)), Some(file)) = (plan.as_mut(), file.as_ref()) {
        result.weighed = weighed_of_all(result.weighed, file.plan.quotes.len(), c.let_go_eligible);
    }
    Ok(Some(Planned {
        scenario,
        result,
        file,
        plan,
    }))
}

/// What the plan says it weighed, counted over every quote it could have weighed: the
/// `offered` ones the comparison kept and the `let_go` ones it costed but let go (those are
/// dearer than every one kept, so the planner would have left them out too).
fn weighed_of_all(
    weighed: Option<crate::domain::plan::Weighed>,
    offered: usize,
    let_go: usize,
) -> Option<crate::domain::plan::Weighed> {
    if let_go == 0 {
        return weighed;
    }
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let weighed = weighed.map_or(count(offered), |w| w.weighed);
    Some(crate::domain::plan::Weighed {
        weighed,
        of: count(offered + let_go),
    })
}

/// Plans at once at most, process-wide: planning is CPU work, and more at once than the
/// machine has cores only makes each slower.
pub const PLANNERS: usize = 2;

/// How long a plan waits for a free planner before it is refused: a plan takes tens of
/// milliseconds, so a short wait serves a burst of people planning at once; a planner held
/// longer than this (a very large plan) refuses the ones behind it.
pub const PLANNER_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Seconds a caller is told to wait when every planner is at work (`Retry-After`).
pub const PLANNERS_BUSY_RETRY_S: u32 = 5;

static PLANNER_SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(PLANNERS);

/// Runs the planner on `file` on a blocking thread, at most [`PLANNERS`] at once: a large plan
/// never holds an async worker, so `/healthz` and pages keep answering while it runs. With
/// every planner at work for [`PLANNER_WAIT`] the request is refused ([`AppError::PlannersBusy`]:
/// 503 with `Retry-After`, in the caller's language) rather than queued behind plans it cannot
/// see.
async fn plan_off_the_workers(
    file: Option<PlanScenario>,
) -> Result<(Option<PlanScenario>, Option<Result<PlanResult, String>>), AppError> {
    plan_in(&PLANNER_SLOTS, file).await
}

/// [`plan_off_the_workers`] with the slots given.
async fn plan_in(
    slots: &tokio::sync::Semaphore,
    file: Option<PlanScenario>,
) -> Result<(Option<PlanScenario>, Option<Result<PlanResult, String>>), AppError> {
    let Some(file) = file else {
        return Ok((None, None));
    };
    let _permit = tokio::time::timeout(PLANNER_WAIT, slots.acquire())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or(AppError::PlannersBusy(PLANNERS_BUSY_RETRY_S))?;
    tokio::task::spawn_blocking(move || {
        let planned = plan(&file).map_err(|e| e.to_string());
        (Some(file), Some(planned))
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "the planner failed");
        AppError::Internal
    })
}

/// The plan file for comparison `c` and its `scenario` ([`super::scenario_of`]): only the quotes
/// that pass the workload's requirement check and are still valid, with the workload's
/// deadline and budget. Plans start at the workload's earliest start, or at `now` (Unix
/// seconds) when that is earlier or not stated. `None` without a workload.
#[must_use]
pub fn plan_file(c: &Computed, scenario: &Scenario, now: i64) -> Option<PlanScenario> {
    let w = c.workload.as_ref()?;
    let eligible: Vec<&super::Costed> = c.costed.iter().filter(|q| q.failing.is_empty() && !q.expired).collect();
    let ids: std::collections::HashSet<String> = eligible.iter().map(|e| e.quote_id.to_string()).collect();
    let mut scenario = scenario.clone();
    scenario.quotes.retain(|q| ids.contains(&q.id));
    let (deadline_h, deadline_at) = match w.deadline {
        Some(Deadline::HoursFromStart(hours)) => (Some(hours), None),
        Some(Deadline::At(at)) => (None, Some(Instant::from_unix(at))),
        None => (None, None),
    };
    let start = w.earliest_start.map_or(now, |s| s.max(now));
    let request = PlanRequest {
        earliest_start: Some(Instant::from_unix(start)),
        deadline_h,
        deadline_at,
        budget: c.budget_base,
        gpu_use: w.gpu_use,
        max_nodes: None,
        quotes: eligible.iter().map(|q| supply(q)).collect(),
    };
    Some(PlanScenario {
        scenario,
        plan: request,
    })
}

/// What a quote's vendor can deliver, and its valid runs.
fn supply(q: &super::Costed) -> QuoteSupply {
    QuoteSupply {
        id: q.quote_id.to_string(),
        capacity_nodes: q.draft.nodes_available,
        lead_time_h: q.draft.lead_time_hours,
        lead_time_days: None,
        runs: q
            .valid_runs
            .iter()
            .map(|r| RunFigure {
                per_s: r.per_s,
                nodes: r.nodes,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::plan::Weighed;

    #[test]
    fn the_plan_counts_what_it_weighed_over_every_quote_it_could_have_weighed() {
        let capped = Some(Weighed {
            weighed: 200,
            of: 1_000,
        });
        assert_eq!(
            weighed_of_all(capped, 1_000, 19_000),
            Some(Weighed {
                weighed: 200,
                of: 20_000
            })
        );
        assert_eq!(weighed_of_all(capped, 1_000, 0), capped, "nothing let go");
        assert_eq!(
            weighed_of_all(None, 150, 30),
            Some(Weighed { weighed: 150, of: 180 }),
            "all offered weighed, some let go"
        );
        assert_eq!(weighed_of_all(None, 150, 0), None);
    }

    /// With every planner at work a plan waits [`PLANNER_WAIT`], then is refused with 503 and a
    /// `Retry-After`, in the reader's language; a planner freed while it waits plans it. (The
    /// clock is the test's own, paused: the waits take no time and never depend on the machine.)
    #[tokio::test(start_paused = true)]
    async fn with_every_planner_at_work_a_plan_waits_a_moment_then_is_refused_with_retry_after() {
        use crate::{auth::throttle::retry_after_secs, i18n::Locale};
        use std::{sync::Arc, time::Duration};
        use tokio::{sync::Semaphore, time::Instant};
        let file: PlanScenario = serde_json::from_str(include_str!("../../../domain/src/plan/example-plan.json"))
            .expect("the example plan file");
        let slots = Arc::new(Semaphore::new(PLANNERS));
        let held = Arc::clone(&slots).try_acquire_many_owned(2).expect("both slots");
        let asked = Instant::now();
        let Err(busy) = plan_in(&slots, Some(file.clone())).await else {
            panic!("planned with no slot free")
        };
        assert_eq!(asked.elapsed(), PLANNER_WAIT, "refused after the wait, not at once");
        assert_eq!(busy, AppError::PlannersBusy(PLANNERS_BUSY_RETRY_S));
        assert_eq!(busy.status_code(), 503);
        assert_eq!(retry_after_secs(&busy), Some(5));
        assert!(busy.localized(Locale::ZhCn).contains("规划器"));
        assert!(busy.localized(Locale::En).starts_with("Every planner is at work"));
        let freed = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(held);
        });
        let (_, planned) = plan_in(&slots, Some(file))
            .await
            .expect("a planner freed within the wait");
        assert!(planned.is_some_and(|p| p.is_ok()));
        freed.await.expect("the holder ended");
    }
}
