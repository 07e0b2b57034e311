//! Dashboards and notifications: load what waits for someone through the store, then build it
//! with the pure [`crate::domain::dashboard`]. [`todo`] is the one source of the dashboard's
//! to-do, the header's badge and the optional mail.

use crate::domain::orders::record::OrderRecord;
use crate::{
    domain::{
        checklist,
        dashboard::{self, Count, Counted, Dashboard, Decision, OrderFact, TeamFacts, Todo, Weighed},
        orders::OrderState,
        quotes::{Date, Workload},
        roles::TeamRole,
    },
    error::AppError,
    store::{self, Db, orders::OrderRow},
    views::{Caller, Membership, Stored},
};

/// Quotes asked to be benchmarked listed at most (the dashboard is a to-do, not the quote list).
const WITHOUT_RUN_LIMIT: usize = 50;

/// Decisions a manager's dashboard lists.
const RECENT_DECISIONS: i64 = 5;

/// What waits for `user_id` in `team` (`None`: no active team) and, for a site administrator,
/// site-wide: the team's entries first.
pub async fn todo(
    db: &Db,
    user_id: i64,
    is_admin: bool,
    team: Option<&Membership>,
    today: Date,
) -> Result<Vec<Todo>, AppError> {
    let mut entries = match team {
        Some(m) => team_todo(db, user_id, m, today).await?,
        None => Vec::new(),
    };
    if is_admin {
        entries.extend(admin_todo(db).await?);
    }
    Ok(entries)
}

/// What waits for `user_id` in `team`.
pub async fn team_todo(db: &Db, user_id: i64, team: &Membership, today: Date) -> Result<Vec<Todo>, AppError> {
    let facts = team_facts(db, team.team_id, team.role, today).await?;
    Ok(dashboard::todo(team.role, user_id, &facts, today))
}

/// What waits for a site administrator: users without a team.
pub async fn admin_todo(db: &Db) -> Result<Vec<Todo>, AppError> {
    Ok(dashboard::admin_todo(&store::users::without_team(db).await?))
}

/// The caller's dashboard in the active team.
pub async fn load(db: &Db, caller: &Caller, today: Date) -> Result<Dashboard, AppError> {
    let team = caller.active_membership();
    let mut board = Dashboard {
        admin: if caller.is_admin {
            admin_todo(db).await?
        } else {
            Vec::new()
        },
        ..Dashboard::default()
    };
    let Some(team) = team else { return Ok(board) };
    board.todo = team_todo(db, caller.user_id, team, today).await?;
    board.counts = counts(db, team, today).await?;
    if team.role == TeamRole::Manager {
        board.decisions = store::orders::recent_decisions(db, team.team_id, RECENT_DECISIONS)
            .await?
            .into_iter()
            .map(|d| Decision {
                order_id: d.order_id,
                title: d.title,
                revision: d.revision,
                approved: d.state == OrderState::Approved,
                by: d.decided_by,
                days: dashboard::day_of(&d.decided_at).map_or(0, |on| on.days_until(today).max(0)),
            })
            .collect();
    }
    Ok(board)
}

/// The counts of the role's dashboard.
async fn counts(db: &Db, team: &Membership, today: Date) -> Result<Vec<Count>, AppError> {
    let count = |what, n| Count { what, n };
    Ok(match team.role {
        TeamRole::Procurement | TeamRole::Manager => {
            let quotes = store::quotes::count_current(db, team.team_id, today).await?;
            let orders = store::orders::state_counts(db, team.team_id).await?;
            let mut counts = vec![count(Counted::CurrentQuotes, quotes)];
            counts.extend(dashboard::order_counts(&orders));
            counts
        }
        TeamRole::Engineer => {
            let (runs, valid) = store::runs::counts(db, team.team_id).await?;
            vec![count(Counted::Runs, runs), count(Counted::ValidRuns, valid)]
        }
    })
}

/// Loads what `role`'s to-do reads, and only that: procurement its drafts, rejections and
/// expiring quotes; engineers the open orders (drafts and submitted) and the quotes they weigh;
/// managers the submitted orders and the flagged bills.
async fn team_facts(db: &Db, team_id: i64, role: TeamRole, today: Date) -> Result<TeamFacts, AppError> {
    let states: &[OrderState] = match role {
        TeamRole::Procurement => &[OrderState::Draft, OrderState::Rejected],
        TeamRole::Engineer => &[OrderState::Draft, OrderState::Submitted],
        TeamRole::Manager => &[OrderState::Submitted],
    };
    let rows = store::orders::latest_in_states(db, team_id, states).await?;
    let workloads = if role == TeamRole::Manager {
        Vec::new()
    } else {
        store::workloads::list(db, team_id).await?
    };
    let contents = rows
        .iter()
        .map(|(row, _)| decode(row))
        .collect::<Result<Vec<OrderRecord>, AppError>>()?;
    let valid_runs = if role == TeamRole::Procurement {
        let attached: Vec<i64> = contents.iter().flat_map(|c| c.runs.iter().copied()).collect();
        store::runs::valid_of_quotes(db, team_id, &attached).await?
    } else {
        Vec::new()
    };
    let open_orders = rows
        .iter()
        .zip(&contents)
        .map(|((row, until), content)| order_fact(row, until.as_deref(), content, &workloads, &valid_runs))
        .collect();
    let mut facts = TeamFacts {
        open_orders,
        ..TeamFacts::default()
    };
    match role {
        TeamRole::Procurement => {
            if let Some((first, last)) = dashboard::expiry_window(today) {
                facts.expiring = store::quotes::expiring(db, team_id, first, last).await?;
            }
        }
        TeamRole::Engineer => {
            facts.without_run = to_measure(db, team_id, &rows, &contents, &workloads, today).await?;
        }
        TeamRole::Manager => {
            facts.flagged_bills = store::bills::flagged_orders(db, team_id).await?;
        }
    }
    Ok(facts)
}

/// The quotes the open orders `rows` (with their `contents`) weigh that an engineer is asked to
/// benchmark ([`dashboard::quotes_to_measure`]), at most [`WITHOUT_RUN_LIMIT`].
async fn to_measure(
    db: &Db,
    team_id: i64,
    rows: &[(OrderRow, Option<String>)],
    contents: &[OrderRecord],
    workloads: &[Stored<Workload>],
    today: Date,
) -> Result<Vec<dashboard::QuoteFact>, AppError> {
    let weighed: Vec<Weighed> = rows
        .iter()
        .zip(contents)
        .map(|((row, _), c)| Weighed {
            workload: workloads
                .iter()
                .find(|w| w.id == row.workload_id)
                .map(|w| w.record.clone()),
            quotes: c.considered.iter().copied().chain(c.quote_id).collect(),
        })
        .collect();
    let mut ids: Vec<i64> = weighed.iter().flat_map(|w| w.quotes.iter().copied()).collect();
    ids.sort_unstable();
    ids.dedup();
    let candidates = store::quotes::run_candidates(db, team_id, &ids).await?;
    let mut quotes = dashboard::quotes_to_measure(&weighed, &candidates, today);
    quotes.truncate(WITHOUT_RUN_LIMIT);
    Ok(quotes)
}

/// A stored revision's content (logged when it does not decode: only a hand-edited database
/// can hold such a row).
fn decode(row: &OrderRow) -> Result<OrderRecord, AppError> {
    crate::domain::orders::record::decode(&row.content).map_err(|e| {
        tracing::error!(error = %e, order = row.id, "stored order content does not decode");
        AppError::Internal
    })
}

/// One open order as the to-do builder reads it. `valid_runs` are `(run id, quote id)` of the
/// team's valid runs among those attached; a workload that is gone counts as training on one GPU.
fn order_fact(
    row: &OrderRow,
    quote_valid_until: Option<&str>,
    content: &OrderRecord,
    workloads: &[Stored<Workload>],
    valid_runs: &[(i64, i64)],
) -> OrderFact {
    let workload = workloads.iter().find(|w| w.id == row.workload_id).map(|w| &w.record);
    let valid_run = content.quote_id.is_some_and(|quote| {
        valid_runs
            .iter()
            .any(|(run, of)| *of == quote && content.runs.contains(run))
    });
    OrderFact {
        order_id: row.id,
        title: row.title.clone(),
        revision: row.revision,
        state: row.state,
        submitted: row
            .submitted_by
            .zip(row.submitted_at.as_deref().and_then(dashboard::day_of)),
        decided_on: row.decided_at.as_deref().and_then(dashboard::day_of),
        comment: row.decision_comment.clone(),
        answers: content.answers.values().cloned().collect(),
        kind: workload.map_or(checklist::OrderKind::Training, |w| checklist::workload_kind(w.kind)),
        multi_gpu: workload.is_some_and(|w| w.gpus_needed > 1),
        quote_valid_until: quote_valid_until.and_then(|d| Date::parse(d).ok()),
        run_or_waiver: valid_run || !content.waiver.is_empty(),
    }
}
