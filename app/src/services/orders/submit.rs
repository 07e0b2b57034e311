//! Submitting a draft: what blocks it, the comparison it is submitted with, and freezing that
//! comparison into the record.

use super::{
    AcknowledgedProblem, Acknowledgement, OrderRecord, comparison, content::SignedRows, content_of, edit_draft, now,
    record, refusal,
};
use crate::{
    domain::{
        audit::{Action, sha256_hex},
        checklist::{self, ItemAnswer, OpenProblem, open_problems, submission_blockers},
        orders::{OrderState, Refusal, TransitionCtx, transition},
        quotes::{Date, QuoteDraft, Workload},
        runs::RunStatus,
        tco::ExchangeRate,
    },
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg},
    store::{self, Db, runs::RunFilter},
    views::{Caller, Membership, RunSummary},
};
use sqlx::SqliteConnection;

/// What blocks submission: checklist items, the quote, the run; and the problems found that the
/// submitter must acknowledge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Readiness {
    pub blockers: Vec<checklist::Blocker>,
    /// Explained problems: they do not block, but are acknowledged at submission.
    pub problems: Vec<OpenProblem>,
    pub quote_missing: bool,
    pub quote_expired: bool,
    pub run_or_waiver: bool,
}

impl Readiness {
    /// Judges a draft: its answers against the workload's checklist, the chosen quote
    /// revision (`None`: none chosen, or it is gone) on `today`, and `quote_runs`, the team's
    /// runs of the chosen quote. A run counts only when it is attached and its verdict is
    /// valid: a run with warnings, an invalid one or one the verdict could not judge (no
    /// telemetry) backs an order only through a written waiver.
    pub fn of(
        content: &OrderRecord,
        workload: &Workload,
        quote: Option<&QuoteDraft>,
        quote_runs: &[RunSummary],
        today: Date,
    ) -> Readiness {
        let answers: Vec<ItemAnswer> = content.answers.values().cloned().collect();
        let (kind, multi_gpu) = (checklist::workload_kind(workload.kind), workload.gpus_needed > 1);
        let blockers = submission_blockers(&answers, kind, multi_gpu);
        let problems = open_problems(&answers, kind, multi_gpu);
        let valid_run = content.quote_id.is_some()
            && quote_runs
                .iter()
                .any(|r| content.runs.contains(&r.id) && r.status == RunStatus::Valid);
        Readiness {
            blockers,
            problems,
            quote_missing: quote.is_none(),
            quote_expired: quote.is_some_and(|q| q.is_expired(today)),
            run_or_waiver: valid_run || !content.waiver.is_empty(),
        }
    }
}

/// Loads what submission depends on through `conn` (the submit transaction, so nothing can
/// change between this check and the write) and judges it ([`Readiness::of`]).
pub(super) async fn readiness(
    conn: &mut SqliteConnection,
    team_id: i64,
    content: &OrderRecord,
    workload: &Workload,
) -> Result<Readiness, AppError> {
    let quote = match content.quote_revision_id {
        Some(rev) => store::quotes::revision(&mut *conn, team_id, rev).await?,
        None => None,
    };
    let quote_runs = match content.quote_id {
        Some(quote_id) if !content.runs.is_empty() => {
            let filter = RunFilter {
                quote_id: Some(quote_id),
                workload_id: None,
            };
            store::runs::list(&mut *conn, team_id, filter, 500).await?
        }
        _ => Vec::new(),
    };
    let quote = quote.as_ref().map(|q| &q.draft);
    Ok(Readiness::of(content, workload, quote, &quote_runs, store::today()))
}

/// The item ids of `problems` as the submit form sends them back when acknowledging them
/// (comma-separated, checklist order).
#[must_use]
pub fn acknowledgement_key(problems: &[OpenProblem]) -> String {
    problems.iter().map(|p| p.item_id).collect::<Vec<_>>().join(",")
}

/// Submits a draft: every required item settled, the chosen quote unexpired, a valid run or a
/// waiver; the comparison chosen for the order is frozen into the record (rows and scenario).
/// Problems found are acknowledged by `acknowledged`, the [`acknowledgement_key`] of the problems
/// the submitter saw: it must name exactly the open ones (one found meanwhile is refused, to be
/// read first). The acknowledgement is stored in the content and in the submit event.
///
/// One `BEGIN IMMEDIATE` transaction: the draft is read through it after the write lock is
/// taken, so an answer saved at the same moment either committed before (and is in the
/// submitted content) or finds the revision submitted and is refused (409). The comparison
/// is computed from the pool meanwhile: no write can commit while the lock is held, so it
/// reads the same state.
pub async fn submit(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    acknowledged: &str,
    locale: Locale,
) -> Result<(), AppError> {
    let mut tx = store::begin_write(db).await?;
    let row = store::orders::latest(&mut *tx, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let mut content = content_of(&row)?;
    let workload = store::workloads::by_id(&mut *tx, team.team_id, content.workload_id)
        .await?
        .ok_or(AppError::NotFound)?
        .record;
    let ready = readiness(&mut tx, team.team_id, &content, &workload).await?;
    let acknowledged = acknowledged.trim();
    transition(
        row.state,
        Action::Submit,
        &submit_ctx(caller.user_id, &ready, acknowledged),
    )
    .map_err(refusal)?;
    if !acknowledged.is_empty() && acknowledged != acknowledgement_key(&ready.problems) {
        return Err(AppError::InvalidFields(vec![FieldIssue::new(
            "acknowledge_problems",
            "changed",
        )]));
    }
    // The order is costed and frozen at the revision it pinned, even when a newer one exists
    // (the page says so beside the submit button, and offers to re-pin instead).
    let revisions = comparison::quote_revisions(&mut tx, team.team_id, &content).await?;
    let pinned = revisions.map(|r| r.pinned);
    let request = comparison::comparison_request(&content, pinned);
    let computed = comparison::compute(db, team.team_id, &request, locale).await?;
    if !comparison::compares(&computed, content.quote_id, pinned) {
        return Err(AppError::Invalid(Msg::OrdersRChosenNotCompared));
    }
    let rates: Vec<ExchangeRate> = store::exchange_rates::list(&mut *tx, team.team_id)
        .await?
        .into_iter()
        .map(|r| r.record)
        .collect();
    let frozen = comparison::freeze(&computed, rates, &request.to_query())
        .ok_or(AppError::Invalid(Msg::OrdersRFrozenMismatch))?;
    content.tco = Some(SignedRows::V2(computed.signed));
    content.frozen = Some(frozen);
    let at = now();
    content.problems_acknowledged = acknowledgement(caller.user_id, &at, &ready.problems);
    let text = content.canonical()?;
    let hash = sha256_hex(&text);
    let (from, to) = (OrderState::Draft, OrderState::Submitted);
    if !store::orders::set_content(&mut tx, row.revision_id, &text).await?
        || !store::orders::set_state(&mut tx, row.revision_id, from, to, caller.user_id, &at, "", None).await?
    {
        return Err(refusal(Refusal::Locked));
    }
    let mut data = serde_json::json!({ "revision": row.revision, "content_hash": hash });
    if let (Some(r), Some(obj)) = (revisions.filter(|r| r.newer_exists()), data.as_object_mut()) {
        // Submitted knowingly at the pinned revision while a newer one existed.
        obj.insert("quote_revision".into(), r.pinned.into());
        obj.insert("newer_quote_revision".into(), r.latest.into());
    }
    if let (Some(ack), Some(obj)) = (&content.problems_acknowledged, data.as_object_mut()) {
        obj.insert(
            "problems_acknowledged".into(),
            serde_json::to_value(&ack.problems).map_err(|_| AppError::Internal)?,
        );
    }
    record(&mut tx, order_id, caller.user_id, &at, Action::Submit, data).await?;
    tx.commit().await?;
    Ok(())
}

/// What [`transition`] is told when `actor` submits a draft judged `ready`, acknowledging the
/// problems `acknowledged` names (empty: none acknowledged).
fn submit_ctx(actor: i64, ready: &Readiness, acknowledged: &str) -> TransitionCtx<'static> {
    let blockers_empty = ready.blockers.is_empty() && !ready.quote_missing;
    TransitionCtx {
        problems_unacknowledged: !ready.problems.is_empty() && acknowledged.is_empty(),
        ..TransitionCtx::submission(actor, blockers_empty, !ready.quote_expired, ready.run_or_waiver)
    }
}

/// The acknowledgement of `problems` by `by` at `at` (`None` when there are none).
fn acknowledgement(by: i64, at: &str, problems: &[OpenProblem]) -> Option<Acknowledgement> {
    (!problems.is_empty()).then(|| Acknowledgement {
        by,
        at: at.to_string(),
        problems: problems
            .iter()
            .map(|p| AcknowledgedProblem {
                item_id: p.item_id.to_string(),
                note: p.note.clone(),
            })
            .collect(),
    })
}

/// Sets the comparison the order is submitted with, from a pasted cost page link (see
/// [`OrderRecord::comparison`]); an empty link goes back to the default. The link must be for
/// the order's workload (added when missing) and must compute: every field valid and at
/// least one quote costed.
pub async fn set_comparison(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    link: &str,
    locale: Locale,
) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let workload_id = content_of(&row)?.workload_id;
    let query = if link.trim().is_empty() {
        None
    } else {
        let query = comparison::link_for_workload(link, workload_id)?;
        let computed = comparison::compute(db, team.team_id, &comparison::request_of(&query), locale).await?;
        if !comparison::is_usable(&computed) {
            return Err(AppError::Invalid(Msg::OrdersRComparisonInvalid));
        }
        Some(query)
    };
    edit_draft(
        db,
        team.team_id,
        caller.user_id,
        order_id,
        Action::EvidenceAttached,
        move |c, _| {
            let plan_cleared = c.comparison != query && super::clear_plan(c);
            c.comparison = query;
            Ok(serde_json::json!({ "comparison": c.comparison, "plan_cleared": plan_cleared }))
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::{Readiness, acknowledgement, acknowledgement_key, submit_ctx};
    use crate::{
        domain::{
            checklist::{BlockerReason, ItemAnswer, ItemStatus},
            quotes::Date,
            runs::RunStatus,
        },
        services::orders::{
            OrderRecord,
            fixtures::{quote, run, workload},
        },
        views::RunSummary,
    };

    fn today() -> Date {
        Date::parse("2026-12-01").expect("date")
    }

    #[test]
    fn an_empty_draft_is_blocked_by_every_required_item_the_quote_and_the_run() {
        let content = OrderRecord {
            workload_id: 3,
            ..OrderRecord::default()
        };
        let ready = Readiness::of(&content, &workload(), None, &[], today());
        assert!(ready.quote_missing && !ready.quote_expired && !ready.run_or_waiver);
        assert!(!ready.blockers.is_empty());
        assert!(ready.blockers.iter().all(|b| b.reason == BlockerReason::Unanswered));
        let ctx = submit_ctx(7, &ready, "");
        assert!(!ctx.problems_unacknowledged && ready.problems.is_empty());
        assert!(!ctx.blockers_empty && ctx.quote_unexpired && !ctx.has_valid_run_or_waiver);
        assert_eq!((ctx.actor_id, ctx.submitter_id), (7, 7));
    }

    #[test]
    fn only_an_attached_valid_run_of_the_chosen_quote_or_a_waiver_backs_the_order() {
        let mut content = OrderRecord {
            workload_id: 3,
            quote_id: Some(9),
            quote_revision_id: Some(90),
            runs: vec![5, 6],
            ..OrderRecord::default()
        };
        let q = quote("2099-12-31");
        let judge =
            |c: &OrderRecord, runs: &[RunSummary]| Readiness::of(c, &workload(), Some(&q), runs, today()).run_or_waiver;
        let valid = [run(5, Some(9), RunStatus::Valid)];
        assert!(judge(&content, &valid));
        assert!(
            !judge(&content, &[run(6, Some(9), RunStatus::Warn)]),
            "warnings need a waiver"
        );
        assert!(!judge(&content, &[run(8, Some(9), RunStatus::Valid)]), "not attached");
        content.waiver = "run booked for next week".into();
        assert!(judge(&content, &[]));
        content.waiver.clear();
        content.quote_id = None;
        assert!(!judge(&content, &valid), "no quote chosen");
    }

    #[test]
    fn a_quote_past_its_last_valid_day_blocks() {
        let content = OrderRecord {
            workload_id: 3,
            ..OrderRecord::default()
        };
        let expired = quote("2026-11-30");
        let last_day = quote("2026-12-01");
        let of = |q| Readiness::of(&content, &workload(), Some(q), &[], today());
        assert!(of(&expired).quote_expired && !of(&expired).quote_missing);
        assert!(!of(&last_day).quote_expired);
        assert!(!submit_ctx(1, &of(&expired), "").quote_unexpired);
    }

    #[test]
    fn an_explained_problem_waits_for_the_acknowledgement_which_names_it() {
        let mut content = OrderRecord {
            workload_id: 3,
            ..OrderRecord::default()
        };
        let answer = |item: &str, status| ItemAnswer {
            item_id: item.into(),
            status,
            answer: String::new(),
            evidence: vec![],
            answered_by: 4,
            answered_at: "2026-12-01T09:00:00Z".into(),
        };
        for (id, note) in [
            ("sec.disk_encryption", "no encryption at rest"),
            ("gpu.model_vram", "12 GB short"),
        ] {
            let status = ItemStatus::Problem { note: note.into() };
            content.answers.insert(id.into(), answer(id, status));
        }
        let ready = Readiness::of(&content, &workload(), None, &[], today());
        assert!(ready.blockers.iter().all(|b| b.item_id != "sec.disk_encryption"));
        assert_eq!(
            acknowledgement_key(&ready.problems),
            "gpu.model_vram,sec.disk_encryption"
        );
        assert!(submit_ctx(1, &ready, "").problems_unacknowledged);
        assert!(!submit_ctx(1, &ready, "gpu.model_vram,sec.disk_encryption").problems_unacknowledged);
        let ack = acknowledgement(1, "2026-12-01T10:00:00Z", &ready.problems).expect("problems");
        assert_eq!((ack.by, ack.problems.len()), (1, 2));
        assert_eq!(ack.problems[0].note, "12 GB short");
        assert_eq!(acknowledgement(1, "t", &[]), None);
    }
}
