//! Orders: create, choose the quote and evidence, answer the checklist, submit, sign off,
//! reopen. Every change is checked against the lifecycle (`domain::audit::transition`) on the
//! server and appends its audit event in the same `BEGIN IMMEDIATE` transaction.

use crate::{
    domain::{
        audit::{Action, canonical_json, sha256_hex},
        checklist::{
            self, BlockerReason, Evidence, EvidenceKind, Expert, FactSources, ItemAnswer, ItemStatus, Prefill,
            PrefillFacts, RunObservation, Suggested, submission_blockers,
        },
        orders::{OrderState, Outcome, Refusal, TransitionCtx, transition},
        quotes::{QuoteDraft, Workload},
        roles::TeamRole,
        runs::RunStatus,
        tco::{ExchangeRate, Scenario, ScenarioResult},
    },
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg},
    store::{self, Db, Tx, orders::OrderRow, runs::RunFilter},
    views::{
        Caller, Membership, RunSummary,
        orders::{EventLine, EvidenceLine, ItemLine, OrderView, SectionLine},
        tco::CostRow,
    },
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::SqliteConnection;
use std::{collections::BTreeMap, str::FromStr};

/// The whole record of one order revision; stored as canonical JSON, hashed at approval.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Content {
    /// The workload.
    pub workload_id: i64,
    /// The chosen quote.
    pub quote_id: Option<i64>,
    /// Its revision row id (pinned when chosen).
    pub quote_revision_id: Option<i64>,
    /// Quotes considered.
    pub considered: Vec<i64>,
    /// Runs that back the choice.
    pub runs: Vec<i64>,
    /// Waiver when no valid run exists.
    pub waiver: String,
    /// Checklist answers by item id.
    pub answers: BTreeMap<String, ItemAnswer>,
    /// The cost comparison frozen at submission (rows as shown).
    pub tco: Option<Vec<CostRow>>,
    /// The comparison procurement chose for this order: the cost page's query (workload,
    /// picked quotes, shared assumptions, per-quote overrides `{field}_{quote}`, typed
    /// throughputs `tp_{quote}`). `None`: the quotes considered under the default assumptions.
    #[serde(default)]
    pub comparison: Option<String>,
    /// What the rows above were computed from, frozen at submission: reruns with
    /// `nodeledger tco` to the same cent.
    #[serde(default)]
    pub frozen: Option<Frozen>,
}

/// One quote revision as it was costed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinnedQuote {
    /// Quote id.
    pub quote_id: i64,
    /// Its revision number.
    pub revision: i64,
}

/// The comparison behind an order's frozen rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frozen {
    /// The comparison's query (see [`Content::comparison`]).
    pub query: String,
    /// The quote revisions costed.
    pub quotes: Vec<PinnedQuote>,
    /// The scenario file (`nodeledger tco FILE` reads it): workload, shared assumptions,
    /// every quote with its price sheet, node, throughput and overrides, the rates with
    /// their dates.
    pub scenario: Scenario,
    /// What the scenario gives; every total equals the frozen rows'.
    pub result: ScenarioResult,
}

impl Content {
    /// Canonical JSON text.
    pub fn canonical(&self) -> Result<String, AppError> {
        let value = serde_json::to_value(self).map_err(|_| AppError::Internal)?;
        canonical_json(&value).map_err(|e| {
            tracing::error!(error = %e, "order content is not canonical");
            AppError::Internal
        })
    }
}

fn now() -> String {
    let at = time::OffsetDateTime::now_utc();
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    at.format(&format).unwrap_or_default()
}

fn refusal(r: Refusal) -> AppError {
    match r {
        Refusal::SelfApproval => AppError::Refused(Msg::OrdersRSelfApproval),
        Refusal::NotManager => AppError::Refused(Msg::OrdersRNotManager),
        Refusal::NotSubmitterOrManager => AppError::Refused(Msg::OrdersRNotSubmitterOrManager),
        Refusal::WrongPassword => AppError::Refused(Msg::OrdersRWrongPassword),
        Refusal::CommentRequired => AppError::InvalidFields(vec![FieldIssue::new("comment", "required")]),
        Refusal::Incomplete => AppError::Invalid(Msg::OrdersRIncomplete),
        Refusal::QuoteExpired => AppError::Invalid(Msg::OrdersRQuoteExpired),
        Refusal::NoValidRun => AppError::Invalid(Msg::OrdersRNoValidRun),
        Refusal::Locked => AppError::Conflict(Msg::OrdersRLocked),
        Refusal::InvalidTransition { .. } => AppError::Conflict(Msg::OrdersRInvalidTransition),
    }
}

fn append_failed(e: store::audit::AppendError) -> AppError {
    match e {
        store::audit::AppendError::Sql(e) => e.into(),
        store::audit::AppendError::Event(msg) => {
            tracing::error!(error = %msg, "cannot build an audit event");
            AppError::Internal
        }
    }
}

async fn record(
    tx: &mut Tx,
    order_id: i64,
    actor: i64,
    at: &str,
    action: Action,
    data: serde_json::Value,
) -> Result<(), AppError> {
    store::audit::append(tx, order_id, actor, at, action, data)
        .await
        .map(|_| ())
        .map_err(append_failed)
}

fn content_of(row: &OrderRow) -> Result<Content, AppError> {
    serde_json::from_str(&row.content).map_err(|e| {
        tracing::error!(error = %e, order = row.id, "stored order content does not decode");
        AppError::Internal
    })
}

/// Creates an order (procurement) with its first draft revision; returns its id.
pub async fn create(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    title: &str,
    workload_id: i64,
) -> Result<i64, AppError> {
    let title = title.trim();
    if title.is_empty() || title.chars().count() > 200 {
        return Err(AppError::InvalidFields(vec![FieldIssue::new("title", "required")]));
    }
    let content = Content {
        workload_id,
        ..Content::default()
    }
    .canonical()?;
    let at = now();
    let mut tx = store::begin_write(db).await?;
    let (id, _) = store::orders::insert(&mut tx, team.team_id, title, workload_id, caller.user_id, &content)
        .await?
        .ok_or(AppError::NotFound)?;
    record(
        &mut tx,
        id,
        caller.user_id,
        &at,
        Action::Create,
        serde_json::json!({ "revision": 1, "title": title, "workload_id": workload_id }),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Changes a draft under the lifecycle: loads the latest revision, checks `action` is allowed,
/// applies `change` to the content, stores it and appends the event with `data`.
async fn edit_draft(
    db: &Db,
    team_id: i64,
    actor: i64,
    order_id: i64,
    action: Action,
    change: impl FnOnce(&mut Content, &str) -> Result<serde_json::Value, AppError>,
) -> Result<(), AppError> {
    let at = now();
    let mut tx = store::begin_write(db).await?;
    let row = store::orders::latest(&mut *tx, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let ctx = TransitionCtx {
        actor_id: actor,
        actor_is_manager_of_team: false,
        submitter_id: actor,
        blockers_empty: false,
        quote_unexpired: false,
        has_valid_run_or_waiver: false,
        comment: "",
        password_ok: false,
    };
    transition(row.state, action, &ctx).map_err(refusal)?;
    let mut content = content_of(&row)?;
    let mut data = change(&mut content, &at)?;
    if let Some(obj) = data.as_object_mut() {
        obj.insert("revision".into(), row.revision.into());
    }
    if !store::orders::set_content(&mut tx, row.revision_id, &content.canonical()?).await? {
        return Err(refusal(Refusal::Locked));
    }
    record(&mut tx, order_id, actor, &at, action, data).await?;
    tx.commit().await?;
    Ok(())
}

/// What the preparer chooses: the quote, the alternatives, the runs and a waiver.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Chosen quote.
    pub quote_id: Option<i64>,
    /// Quotes considered.
    pub considered: Vec<i64>,
    /// Runs backing the choice.
    pub runs: Vec<i64>,
    /// Waiver.
    pub waiver: String,
}

/// Sets the chosen quote (pinning its latest revision), alternatives, runs and waiver of a draft.
pub async fn select(db: &Db, caller: &Caller, team: &Membership, order_id: i64, s: &Selection) -> Result<(), AppError> {
    let quote_revision_id = match s.quote_id {
        Some(q) => Some(
            store::quotes::latest(db, team.team_id, q)
                .await?
                .ok_or(AppError::NotFound)?
                .revision_id,
        ),
        None => None,
    };
    for run in &s.runs {
        store::runs::canonical(db, team.team_id, *run)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    for q in &s.considered {
        store::quotes::latest(db, team.team_id, *q)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    let s = s.clone();
    edit_draft(db, team.team_id, caller.user_id, order_id, Action::EvidenceAttached, move |c, _| {
        c.quote_id = s.quote_id;
        c.quote_revision_id = quote_revision_id;
        c.considered = s.considered.clone();
        if let Some(q) = s.quote_id
            && !c.considered.contains(&q)
        {
            c.considered.push(q);
        }
        c.runs = s.runs.clone();
        c.waiver = s.waiver.trim().to_string();
        Ok(serde_json::json!({ "quote_id": c.quote_id, "quote_revision_id": c.quote_revision_id, "considered": c.considered, "runs": c.runs, "waiver": c.waiver }))
    })
    .await
}

/// An answer to one checklist item, as submitted by the form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerForm {
    /// Item id.
    pub item_id: String,
    /// `open`, `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// Reason (not applicable) or note (problem).
    pub status_note: String,
    /// The answer.
    pub answer: String,
    /// A run as evidence.
    pub evidence_run: Option<i64>,
    /// A note as evidence.
    pub evidence_note: String,
    /// A field of the chosen quote revision as evidence (its column name, e.g. `spec.cuda`).
    pub evidence_quote_field: String,
    /// A document of the chosen quote revision as evidence (its id).
    pub evidence_file: Option<i64>,
    /// Cite the order's cost comparison.
    pub evidence_tco: bool,
}

/// Answers one item of a draft; engineers answer the engineers' items, procurement the rest.
pub async fn answer(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    form: &AnswerForm,
) -> Result<(), AppError> {
    let item = checklist::item(&form.item_id).ok_or(AppError::NotFound)?;
    let expert_ok = match item.expert {
        Expert::Engineer => team.role == TeamRole::Engineer,
        Expert::Procurement => team.role == TeamRole::Procurement,
    };
    if !expert_ok {
        return Err(AppError::Refused(match item.expert {
            Expert::Engineer => Msg::OrdersRNotYourItemEngineer,
            Expert::Procurement => Msg::OrdersRNotYourItemProcurement,
        }));
    }
    let note = form.status_note.trim().to_string();
    let status = match form.status.as_str() {
        "open" => ItemStatus::Open,
        "confirmed" => ItemStatus::Confirmed,
        "not_applicable" => ItemStatus::NotApplicable { reason: note },
        "problem" => ItemStatus::Problem { note },
        _ => return Err(AppError::InvalidFields(vec![FieldIssue::new("status", "invalid")])),
    };
    if let Some(run) = form.evidence_run {
        store::runs::canonical(db, team.team_id, run)
            .await?
            .ok_or(AppError::NotFound)?;
    }
    let current = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let current = content_of(&current)?;
    let mut evidence = Vec::new();
    if let Some(run_id) = form.evidence_run {
        evidence.push(Evidence::Run { run_id });
    }
    let field = form.evidence_quote_field.trim();
    if !field.is_empty() {
        let known = crate::domain::quotes::is_quote_field(field);
        let quote_revision_id = current
            .quote_revision_id
            .filter(|_| known)
            .ok_or_else(|| AppError::InvalidFields(vec![FieldIssue::new("evidence_quote_field", "invalid")]))?;
        evidence.push(Evidence::QuoteField {
            quote_revision_id,
            field: field.to_string(),
        });
    }
    if let Some(doc) = form.evidence_file {
        let rev = current.quote_revision_id.ok_or(AppError::NotFound)?;
        let docs = store::documents::of_revision(db, team.team_id, rev).await?;
        let d = docs.into_iter().find(|d| d.id == doc).ok_or(AppError::NotFound)?;
        evidence.push(Evidence::File {
            sha256: d.sha256,
            name: d.file_name,
        });
    }
    if form.evidence_tco {
        evidence.push(Evidence::TcoComparison { id: order_id });
    }
    if !form.evidence_note.trim().is_empty() {
        evidence.push(Evidence::Note {
            text: form.evidence_note.trim().to_string(),
        });
    }
    let item_id = item.id.to_string();
    let answer_text = form.answer.trim().to_string();
    let user = caller.user_id;
    edit_draft(db, team.team_id, user, order_id, Action::ItemAnswered, move |c, at| {
        let a = ItemAnswer {
            item_id: item_id.clone(),
            status,
            answer: answer_text,
            evidence,
            answered_by: user,
            answered_at: at.to_string(),
        };
        let data =
            serde_json::json!({ "item_id": item_id, "status": a.status, "answer": a.answer, "evidence": a.evidence });
        c.answers.insert(item_id, a);
        Ok(data)
    })
    .await
}

/// What blocks submission: checklist items, the quote, the run.
struct Readiness {
    blockers: Vec<checklist::Blocker>,
    quote_missing: bool,
    quote_expired: bool,
    run_or_waiver: bool,
}

/// Reads what submission depends on through `conn` (the submit transaction, so nothing can
/// change between this check and the write). A run counts only when it is attached, of the
/// chosen quote and its verdict is valid: a run with warnings, an invalid one or one the
/// verdict could not judge (no telemetry) backs an order only through a written waiver.
async fn readiness(
    conn: &mut SqliteConnection,
    team_id: i64,
    content: &Content,
    workload: &Workload,
) -> Result<Readiness, AppError> {
    let answers: Vec<ItemAnswer> = content.answers.values().cloned().collect();
    let blockers = submission_blockers(
        &answers,
        checklist::workload_kind(workload.kind),
        workload.gpus_needed > 1,
    );
    let quote = match content.quote_revision_id {
        Some(rev) => store::quotes::revision(&mut *conn, team_id, rev).await?,
        None => None,
    };
    let quote_expired = quote.as_ref().is_some_and(|q| q.draft.is_expired(store::today()));
    let valid_run = match content.quote_id {
        Some(quote_id) if !content.runs.is_empty() => store::runs::list(
            &mut *conn,
            team_id,
            RunFilter {
                quote_id: Some(quote_id),
                workload_id: None,
            },
            500,
        )
        .await?
        .iter()
        .any(|r| content.runs.contains(&r.id) && r.status == RunStatus::Valid),
        _ => false,
    };
    Ok(Readiness {
        blockers,
        quote_missing: quote.is_none(),
        quote_expired,
        run_or_waiver: valid_run || !content.waiver.is_empty(),
    })
}

/// Whether two exact amounts as the page writes them (`CostRow::total_exact`) are equal.
fn same_amount(shown: &str, frozen: Decimal) -> bool {
    Decimal::from_str(shown).is_ok_and(|d| d == frozen)
}

/// Freezes a computed comparison: the scenario that reproduces it, checked to give every
/// shown total to the cent. `None` when it does not (then nothing may be frozen).
fn freeze(computed: &crate::services::tco::Computed, rates: Vec<ExchangeRate>, query: &str) -> Option<Frozen> {
    let (scenario, result) = crate::services::tco::scenario_of(computed, rates)?;
    let rows = &computed.view.rows;
    let exact = rows.len() == result.quotes.len()
        && rows.iter().all(|row| {
            result.quotes.iter().any(|q| {
                q.id == row.quote_id.to_string()
                    && same_amount(&row.total_exact, q.estimate.total)
                    && same_amount(&row.compared_exact, q.compared_total)
            })
        });
    if !exact {
        tracing::error!(
            query,
            "the scenario of a comparison does not reproduce its rows; not frozen"
        );
        return None;
    }
    let quotes = rows
        .iter()
        .map(|r| PinnedQuote {
            quote_id: r.quote_id,
            revision: r.revision,
        })
        .collect();
    Some(Frozen {
        query: query.to_string(),
        quotes,
        scenario,
        result,
    })
}

/// Submits a draft: every required item settled, the chosen quote unexpired, a valid run or a
/// waiver; the comparison chosen for the order is frozen into the record (rows and scenario).
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
    let ctx = TransitionCtx {
        actor_id: caller.user_id,
        actor_is_manager_of_team: false,
        submitter_id: caller.user_id,
        blockers_empty: ready.blockers.is_empty() && !ready.quote_missing,
        quote_unexpired: !ready.quote_expired,
        has_valid_run_or_waiver: ready.run_or_waiver,
        comment: "",
        password_ok: false,
    };
    transition(row.state, Action::Submit, &ctx).map_err(refusal)?;
    let query = comparison_query(&content);
    let computed = crate::services::tco::compute(db, team.team_id, &query, locale, false).await?;
    if !content
        .quote_id
        .is_some_and(|q| computed.view.rows.iter().any(|r| r.quote_id == q))
    {
        return Err(AppError::Invalid(Msg::OrdersRChosenNotCompared));
    }
    let rates: Vec<ExchangeRate> = store::exchange_rates::list(&mut *tx, team.team_id)
        .await?
        .into_iter()
        .map(|r| r.record)
        .collect();
    let frozen = freeze(&computed, rates, &query).ok_or(AppError::Invalid(Msg::OrdersRFrozenMismatch))?;
    content.tco = Some(computed.view.rows);
    content.frozen = Some(frozen);
    let text = content.canonical()?;
    let hash = sha256_hex(&text);
    let at = now();
    if !store::orders::set_content(&mut tx, row.revision_id, &text).await?
        || !store::orders::set_state(
            &mut tx,
            row.revision_id,
            OrderState::Draft,
            OrderState::Submitted,
            caller.user_id,
            &at,
            "",
            None,
        )
        .await?
    {
        return Err(refusal(Refusal::Locked));
    }
    record(
        &mut tx,
        order_id,
        caller.user_id,
        &at,
        Action::Submit,
        serde_json::json!({ "revision": row.revision, "content_hash": hash }),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The query of a comparison link: the part after `?` of a pasted address (`/tco?…` or a
/// full URL of the cost page), or a bare query. `None` when it is not a cost page link.
fn link_query(link: &str) -> Option<String> {
    let link = link.trim();
    let link = link.split_once('#').map_or(link, |(l, _)| l);
    let (path, query) = match link.split_once('?') {
        Some((p, q)) => (p, q),
        None if link.contains('=') && !link.contains('/') => ("", link),
        None => (link, ""),
    };
    let path = match path.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => path,
    };
    let path_ok = path.is_empty() || path == "/tco" || path == "tco";
    path_ok.then(|| query.trim_start_matches('?').to_string())
}

/// Sets the comparison the order is submitted with, from a pasted cost page link (see
/// [`Content::comparison`]); an empty link goes back to the default. The link must be for
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
        let query = link_query(link).ok_or(AppError::Invalid(Msg::OrdersRComparisonInvalid))?;
        let parsed = crate::services::tco::Query::parse(&query);
        let query = match parsed.get("workload") {
            Some(w) if w != workload_id.to_string() => {
                return Err(AppError::Invalid(Msg::OrdersRComparisonOtherWorkload));
            }
            Some(_) => query,
            None if query.is_empty() => format!("workload={workload_id}"),
            None => format!("workload={workload_id}&{query}"),
        };
        let computed = crate::services::tco::compute(db, team.team_id, &query, locale, false).await?;
        let fields_ok = computed.view.assumptions.iter().all(|f| f.error.is_none());
        if !fields_ok || !computed.view.problems.is_empty() || computed.view.rows.is_empty() {
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
            c.comparison = query;
            Ok(serde_json::json!({ "comparison": c.comparison }))
        },
    )
    .await
}

/// Approves or rejects a submitted revision: a manager of the team who did not submit it,
/// with the password re-entered, and a comment when rejecting. An approval pins the hash of the
/// revision's content in its event.
pub async fn decide(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    approve: bool,
    password: String,
    comment: &str,
) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let user = store::users::by_id(db, caller.user_id)
        .await?
        .ok_or(AppError::Unauthenticated)?;
    let is_manager = team.role == TeamRole::Manager;
    // The password is checked only for someone who may decide, so the check cannot be used to
    // guess passwords by anyone else.
    let password_ok = is_manager && crate::auth::password::verify(password, Some(user.password_hash)).await?;
    let action = if approve { Action::Approve } else { Action::Reject };
    let ctx = TransitionCtx {
        actor_id: caller.user_id,
        actor_is_manager_of_team: is_manager,
        submitter_id: row.submitted_by.unwrap_or_default(),
        blockers_empty: true,
        quote_unexpired: true,
        has_valid_run_or_waiver: true,
        comment,
        password_ok,
    };
    let to = match transition(row.state, action, &ctx).map_err(refusal)? {
        Outcome::State(s) => s,
        Outcome::NewDraftRevision => {
            return Err(refusal(Refusal::InvalidTransition {
                from: row.state,
                action,
            }));
        }
    };
    let hash = sha256_hex(&row.content);
    let at = now();
    let comment = comment.trim();
    let mut tx = store::begin_write(db).await?;
    let pinned = approve.then_some(hash.as_str());
    if !store::orders::set_state(
        &mut tx,
        row.revision_id,
        OrderState::Submitted,
        to,
        caller.user_id,
        &at,
        comment,
        pinned,
    )
    .await?
    {
        return Err(refusal(Refusal::Locked));
    }
    let data = if approve {
        serde_json::json!({ "revision": row.revision, "content_hash": hash, "comment": comment })
    } else {
        serde_json::json!({ "revision": row.revision, "comment": comment })
    };
    record(&mut tx, order_id, caller.user_id, &at, action, data).await?;
    tx.commit().await?;
    Ok(())
}

/// Reopens an approved or rejected order as a new draft revision (the decided one stays).
pub async fn reopen(db: &Db, caller: &Caller, team: &Membership, order_id: i64) -> Result<(), AppError> {
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let ctx = TransitionCtx {
        actor_id: caller.user_id,
        actor_is_manager_of_team: team.role == TeamRole::Manager,
        submitter_id: row.submitted_by.unwrap_or_default(),
        blockers_empty: true,
        quote_unexpired: true,
        has_valid_run_or_waiver: true,
        comment: "",
        password_ok: false,
    };
    transition(row.state, Action::Reopen, &ctx).map_err(refusal)?;
    let mut content = content_of(&row)?;
    content.tco = None;
    content.frozen = None;
    let at = now();
    let mut tx = store::begin_write(db).await?;
    store::orders::add_revision(&mut tx, team.team_id, order_id, row.revision + 1, &content.canonical()?).await?;
    record(
        &mut tx,
        order_id,
        caller.user_id,
        &at,
        Action::Reopen,
        serde_json::json!({ "from_revision": row.revision, "revision": row.revision + 1 }),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The default comparison of an order: the quotes considered, default assumptions.
fn default_query(c: &Content) -> String {
    let mut q = format!("workload={}&picked=1", c.workload_id);
    for id in &c.considered {
        q.push_str(&format!("&q={id}"));
    }
    q
}

/// The comparison an order is (or was) submitted with: the frozen one, else the one chosen,
/// else the default.
fn comparison_query(c: &Content) -> String {
    c.frozen
        .as_ref()
        .map(|f| f.query.clone())
        .or_else(|| c.comparison.clone())
        .unwrap_or_else(|| default_query(c))
}

/// What the attached runs of the chosen quote observed, read from their canonical records (a
/// record that does not read is left out and logged; runs of other quotes say nothing about
/// the chosen node).
async fn observations(
    db: &Db,
    team_id: i64,
    quote_id: Option<i64>,
    runs: &[RunSummary],
) -> Result<Vec<RunObservation>, AppError> {
    let mut out = Vec::with_capacity(runs.len());
    for r in runs.iter().filter(|r| quote_id.is_some() && r.quote_id == quote_id) {
        let Some(json) = store::runs::canonical(db, team_id, r.id).await? else {
            continue;
        };
        match RunObservation::from_canonical(r.id, r.quote_id, Some(r.status), &json) {
            Ok(o) => out.push(o),
            Err(e) => tracing::error!(error = %e, run = r.id, "stored canonical run does not read"),
        }
    }
    Ok(out)
}

/// Loads what the checklist pre-fill needs and builds the facts ([`checklist::gather`]).
async fn prefill_facts(
    db: &Db,
    team_id: i64,
    workload: &Workload,
    quote_id: Option<i64>,
    quote: Option<&QuoteDraft>,
    runs: &[RunSummary],
) -> Result<PrefillFacts, AppError> {
    let observed = observations(db, team_id, quote_id, runs).await?;
    Ok(checklist::gather(&FactSources {
        workload,
        quote_id,
        quote,
        runs: &observed,
    }))
}

/// The code of an evidence kind, as forms and pages name it.
fn evidence_kind_code(k: EvidenceKind) -> &'static str {
    match k {
        EvidenceKind::Run => "run",
        EvidenceKind::QuoteField => "quote_field",
        EvidenceKind::Document => "document",
        EvidenceKind::CostComparison => "cost_comparison",
        EvidenceKind::Note => "note",
    }
}

/// "a run or a note", in the reader's language.
fn evidence_kinds(locale: Locale, kinds: &[EvidenceKind]) -> String {
    let names: Vec<&str> = kinds
        .iter()
        .map(|k| {
            locale.t(match k {
                EvidenceKind::Run => Msg::OrdersEvKindRun,
                EvidenceKind::QuoteField => Msg::OrdersEvKindQuoteField,
                EvidenceKind::Document => Msg::OrdersEvKindDocument,
                EvidenceKind::CostComparison => Msg::OrdersEvKindCostComparison,
                EvidenceKind::Note => Msg::OrdersEvKindNote,
            })
        })
        .collect();
    names.join(locale.t(Msg::OrdersEvKindOr))
}

/// An enum value as its serialized code (`pcie`, `nv_link`, `mig`, …).
fn code_of(v: impl Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn yes_no(locale: Locale, b: bool) -> &'static str {
    locale.t(if b { Msg::OrdersYes } else { Msg::OrdersNo })
}

/// What a pre-fill code says, in the reader's language.
fn describe(locale: Locale, code: &checklist::AnswerCode) -> String {
    use checklist::{AnswerCode as C, Mismatch as M};
    let pct = |p: i64| p.to_string();
    match code {
        C::GpuQuoted { model, vram_mib } => locale.fmt(
            Msg::OrdersCGpuQuoted,
            &[("model", model), ("vram", &vram_mib.to_string())],
        ),
        C::FormFactor { form_factor } => locale.fmt(Msg::OrdersCFormFactor, &[("value", &code_of(form_factor))]),
        C::Exclusivity { exclusivity } => locale.fmt(Msg::OrdersCExclusivity, &[("value", &code_of(exclusivity))]),
        C::SlicedForTraining { exclusivity } => {
            locale.fmt(Msg::OrdersCSlicedForTraining, &[("value", &code_of(exclusivity))])
        }
        C::HeadroomWithinRange { pct: p } => locale.fmt(Msg::OrdersCHeadroomWithinRange, &[("pct", &pct(*p))]),
        C::HeadroomBelowRange {
            pct: p,
            wanted_pct,
            required_mib,
        } => locale.fmt(
            Msg::OrdersCHeadroomBelowRange,
            &[
                ("pct", &pct(*p)),
                ("wanted", &wanted_pct.normalize().to_string()),
                ("required", &required_mib.round_dp(0).normalize().to_string()),
            ],
        ),
        C::HeadroomAboveRange { pct: p } => locale.fmt(Msg::OrdersCHeadroomAboveRange, &[("pct", &pct(*p))]),
        C::PeakNearLimit { pct: p } => locale.fmt(Msg::OrdersCPeakNearLimit, &[("pct", &pct(*p))]),
        C::PeakNotNearLimit { pct: p } => locale.fmt(Msg::OrdersCPeakNotNearLimit, &[("pct", &pct(*p))]),
        C::Interconnect { interconnect } => locale.fmt(Msg::OrdersCInterconnect, &[("value", &code_of(interconnect))]),
        C::SingleGpu => locale.t(Msg::OrdersCSingleGpu).to_string(),
        C::NoGpuLink => locale.t(Msg::OrdersCNoGpuLink).to_string(),
        C::ImagePinned { image } => locale.fmt(Msg::OrdersCImagePinned, &[("image", image)]),
        C::ImageVague { image } => locale.fmt(Msg::OrdersCImageVague, &[("image", image)]),
        C::RunPassed => locale.t(Msg::OrdersCRunPassed).to_string(),
        C::RunFailed => locale.t(Msg::OrdersCRunFailed).to_string(),
        C::RunInconclusive => locale.t(Msg::OrdersCRunInconclusive).to_string(),
        C::BenchmarkPassed { minutes } => locale.fmt(Msg::OrdersCBenchmarkPassed, &[("minutes", &minutes.to_string())]),
        C::BenchmarkTooShort { minutes } => {
            locale.fmt(Msg::OrdersCBenchmarkTooShort, &[("minutes", &minutes.to_string())])
        }
        C::NoThrottling => locale.t(Msg::OrdersCNoThrottling).to_string(),
        C::ThrottlingObserved => locale.t(Msg::OrdersCThrottlingObserved).to_string(),
        C::ObservedMatchesQuote {
            quoted_mib,
            observed_mib,
        } => locale.fmt(
            Msg::OrdersCObservedMatchesQuote,
            &[
                ("quoted", &quoted_mib.to_string()),
                ("observed", &observed_mib.to_string()),
            ],
        ),
        C::ObservedDiffers { mismatches } => {
            let parts: Vec<String> = mismatches
                .iter()
                .map(|m| match m {
                    M::GpuModel { quoted, observed } => {
                        locale.fmt(Msg::OrdersMmGpuModel, &[("quoted", quoted), ("observed", observed)])
                    }
                    M::GpuCount { quoted, observed } => locale.fmt(
                        Msg::OrdersMmGpuCount,
                        &[("quoted", &quoted.to_string()), ("observed", &observed.to_string())],
                    ),
                    M::Vram {
                        quoted_mib,
                        observed_mib,
                    } => locale.fmt(
                        Msg::OrdersMmVram,
                        &[
                            ("quoted", &quoted_mib.to_string()),
                            ("observed", &observed_mib.to_string()),
                        ],
                    ),
                    M::Mig { quoted, observed } => locale.fmt(
                        Msg::OrdersMmMig,
                        &[
                            ("quoted", yes_no(locale, *quoted)),
                            ("observed", yes_no(locale, *observed)),
                        ],
                    ),
                    M::Driver { quoted, observed } => {
                        locale.fmt(Msg::OrdersMmDriver, &[("quoted", quoted), ("observed", observed)])
                    }
                    M::Cuda { quoted, observed } => {
                        locale.fmt(Msg::OrdersMmCuda, &[("quoted", quoted), ("observed", observed)])
                    }
                })
                .collect();
            locale.fmt(Msg::OrdersCObservedDiffers, &[("mismatches", &parts.join("; "))])
        }
        C::StoppedBilling { compute, disk } => locale.fmt(
            Msg::OrdersCStoppedBilling,
            &[("compute", yes_no(locale, *compute)), ("disk", yes_no(locale, *disk))],
        ),
        C::NoMinimumDuration => locale.t(Msg::OrdersCNoMinimumDuration).to_string(),
        C::MinimumDurationHours { hours } => {
            locale.fmt(Msg::OrdersCMinimumDurationHours, &[("hours", &hours.to_string())])
        }
        C::AllFeesStated => locale.t(Msg::OrdersCAllFeesStated).to_string(),
        C::FeesNotStated { missing } => locale.fmt(
            Msg::OrdersCFeesNotStated,
            &[("missing", &missing.iter().map(code_of).collect::<Vec<_>>().join(", "))],
        ),
        C::DiskRelease {
            temp_wiped,
            data_survives,
        } => locale.fmt(
            Msg::OrdersCDiskRelease,
            &[
                ("temp", yes_no(locale, *temp_wiped)),
                ("data", yes_no(locale, *data_survives)),
            ],
        ),
        C::Egress { pricing } => locale.fmt(Msg::OrdersCEgress, &[("value", &code_of(pricing))]),
        C::EgressNotStated => locale.t(Msg::OrdersCEgressNotStated).to_string(),
        C::InvalidFact { fact } => locale.fmt(Msg::OrdersCInvalidFact, &[("fact", &fact_name(locale, *fact))]),
    }
}

fn status_code(s: &ItemStatus) -> (&'static str, String) {
    match s {
        ItemStatus::Open => ("open", String::new()),
        ItemStatus::Confirmed => ("confirmed", String::new()),
        ItemStatus::NotApplicable { reason } => ("not_applicable", reason.clone()),
        ItemStatus::Problem { note } => ("problem", note.clone()),
    }
}

fn quote_field_label(locale: Locale, column: &str) -> String {
    Msg::from_key(&format!("qf.{column}")).map_or_else(|| column.to_string(), |m| locale.t(m).to_string())
}

fn fact_name(locale: Locale, fact: checklist::Fact) -> String {
    let key = serde_json::to_value(fact)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    Msg::from_key(&format!("orders.fact_{key}")).map_or(key, |m| locale.t(m).to_string())
}

/// The order page for the caller.
pub async fn view(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    revision: Option<i64>,
    locale: Locale,
) -> Result<OrderView, AppError> {
    let all = store::orders::revisions(db, team.team_id, order_id).await?;
    let latest = all.first().ok_or(AppError::NotFound)?;
    let row = match revision {
        Some(n) => all.iter().find(|r| r.revision == n).ok_or(AppError::NotFound)?,
        None => latest,
    };
    let is_latest = row.revision == latest.revision;
    let content = content_of(row)?;
    let workload = store::workloads::by_id(db, team.team_id, content.workload_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let labels = store::runs::quote_labels(db, team.team_id).await?;
    let label = |id: i64| {
        labels
            .iter()
            .find(|(q, _)| *q == id)
            .map_or_else(|| format!("#{id}"), |(_, l)| l.clone())
    };
    let quote = match content.quote_revision_id {
        Some(rev) => store::quotes::revision(db, team.team_id, rev).await?,
        None => None,
    };
    let run_choices = store::runs::list(
        db,
        team.team_id,
        RunFilter {
            quote_id: None,
            workload_id: Some(content.workload_id),
        },
        500,
    )
    .await?;
    let team_runs = store::runs::list(db, team.team_id, RunFilter::default(), 2000).await?;
    let runs: Vec<RunSummary> = team_runs.into_iter().filter(|r| content.runs.contains(&r.id)).collect();
    let documents = match content.quote_revision_id {
        Some(rev) => store::documents::of_revision(db, team.team_id, rev).await?,
        None => Vec::new(),
    };
    let facts = prefill_facts(
        db,
        team.team_id,
        &workload.record,
        content.quote_id,
        quote.as_ref().map(|q| &q.draft),
        &runs,
    )
    .await?;
    let draft = row.state == OrderState::Draft && is_latest;
    let names = store::orders::user_names(db, team.team_id).await?;
    let name = |id: i64| {
        names
            .iter()
            .find(|(u, _)| *u == id)
            .map_or_else(|| format!("#{id}"), |(_, n)| n.clone())
    };
    let kind = checklist::workload_kind(workload.record.kind);
    let multi = workload.record.gpus_needed > 1;
    let text = |t: &checklist::Text| {
        if locale == Locale::ZhCn {
            t.zh.to_string()
        } else {
            t.en.to_string()
        }
    };
    let sections = checklist::SECTIONS
        .iter()
        .map(|s| SectionLine {
            title: text(&s.title),
            items: checklist::applicable_items(kind, multi)
                .into_iter()
                .filter(|i| i.section == s.section)
                .map(|i| {
                    let a = content.answers.get(i.id);
                    let (status, status_note) = a.map_or(("open", String::new()), |a| status_code(&a.status));
                    let expert_is_mine = matches!(
                        (i.expert, team.role),
                        (Expert::Engineer, TeamRole::Engineer) | (Expert::Procurement, TeamRole::Procurement)
                    );
                    let suggestion = match checklist::prefill(i, &facts) {
                        Prefill::NoSource => None,
                        Prefill::Missing(f) => Some(
                            locale.fmt(
                                Msg::OrdersSuggestMissing,
                                &[(
                                    "facts",
                                    &f.into_iter()
                                        .map(|f| fact_name(locale, f))
                                        .collect::<Vec<_>>()
                                        .join(", "),
                                )],
                            ),
                        ),
                        Prefill::Suggest(s) => Some(locale.fmt(
                            Msg::OrdersSuggest,
                            &[
                                (
                                    "status",
                                    locale.t(match s.status {
                                        Suggested::Open => Msg::OrdersSuggestedOpen,
                                        Suggested::Confirmed => Msg::OrdersSuggestedConfirmed,
                                        Suggested::NotApplicable => Msg::OrdersSuggestedNotApplicable,
                                        Suggested::Problem => Msg::OrdersSuggestedProblem,
                                    }),
                                ),
                                ("what", &describe(locale, &s.code)),
                            ],
                        )),
                    };
                    ItemLine {
                        id: i.id.to_string(),
                        text: text(&i.text),
                        why: text(&i.why),
                        expert: match i.expert {
                            Expert::Engineer => "engineer".into(),
                            Expert::Procurement => "procurement".into(),
                        },
                        required: i.required,
                        evidence_needed: i.evidence.iter().map(|k| evidence_kind_code(*k).to_string()).collect(),
                        evidence_hint: (!i.evidence.is_empty()).then(|| {
                            locale.fmt(
                                Msg::OrdersEvidenceNeeded,
                                &[("kinds", &evidence_kinds(locale, i.evidence))],
                            )
                        }),
                        status: status.into(),
                        status_note,
                        answer: a.map(|a| a.answer.clone()).unwrap_or_default(),
                        evidence: a
                            .map(|a| {
                                a.evidence
                                    .iter()
                                    .map(|e| match e {
                                        Evidence::Run { run_id } => EvidenceLine {
                                            label: locale.fmt(Msg::OrdersEvRun, &[("id", &run_id.to_string())]),
                                            href: Some(format!("/runs/{run_id}")),
                                        },
                                        Evidence::Note { text } => EvidenceLine {
                                            label: locale.fmt(Msg::OrdersEvNote, &[("text", text)]),
                                            href: None,
                                        },
                                        Evidence::QuoteField { field, .. } => EvidenceLine {
                                            label: locale.fmt(
                                                Msg::OrdersEvQuote,
                                                &[("field", &quote_field_label(locale, field))],
                                            ),
                                            href: content.quote_id.map(|q| format!("/quotes/{q}")),
                                        },
                                        Evidence::TcoComparison { .. } => EvidenceLine {
                                            label: locale.t(Msg::OrdersEvTco).to_string(),
                                            href: Some(format!("/tco?{}", comparison_query(&content))),
                                        },
                                        Evidence::File { name, sha256 } => EvidenceLine {
                                            label: format!(
                                                "{} (SHA-256 {}…)",
                                                locale.fmt(Msg::OrdersEvFile, &[("name", name)]),
                                                &sha256[..12.min(sha256.len())]
                                            ),
                                            href: documents
                                                .iter()
                                                .find(|d| &d.sha256 == sha256)
                                                .map(|d| format!("/documents/{}", d.id)),
                                        },
                                    })
                                    .collect()
                            })
                            .unwrap_or_default(),
                        answered: a.map(|a| {
                            locale.fmt(
                                Msg::OrdersAnswered,
                                &[("who", &name(a.answered_by)), ("at", &a.answered_at)],
                            )
                        }),
                        suggestion,
                        can_answer: draft && expert_is_mine,
                    }
                })
                .collect(),
        })
        .filter(|s| !s.items.is_empty())
        .collect();
    let ready = readiness(&mut *db.acquire().await?, team.team_id, &content, &workload.record).await?;
    let mut blockers: Vec<(String, String)> = ready
        .blockers
        .iter()
        .map(|b| {
            let item = checklist::item(b.item_id).map_or_else(|| b.item_id.to_string(), |i| text(&i.text));
            let why = match b.reason {
                BlockerReason::Unanswered => locale.t(Msg::OrdersBUnanswered).to_string(),
                BlockerReason::Open => locale.t(Msg::OrdersBOpen).to_string(),
                BlockerReason::NotApplicableWithoutReason => locale.t(Msg::OrdersBNa).to_string(),
                BlockerReason::Problem => locale.t(Msg::OrdersBProblem).to_string(),
                BlockerReason::EvidenceMissing => {
                    let kinds = checklist::item(b.item_id)
                        .map(|i| evidence_kinds(locale, i.evidence))
                        .unwrap_or_default();
                    locale.fmt(Msg::OrdersBEvidence, &[("kinds", &kinds)])
                }
            };
            (b.item_id.to_string(), format!("{item} — {why}"))
        })
        .collect();
    if ready.quote_missing {
        blockers.insert(0, (String::new(), locale.t(Msg::OrdersBQuoteMissing).to_string()));
    }
    if ready.quote_expired {
        blockers.insert(0, (String::new(), locale.t(Msg::OrdersBQuoteExpired).to_string()));
    }
    if !ready.run_or_waiver {
        blockers.push((String::new(), locale.t(Msg::OrdersBNoRun).to_string()));
    }
    let (tco, tco_frozen) = match &content.tco {
        Some(rows) => (rows.clone(), true),
        None if content.considered.is_empty() && content.comparison.is_none() => (Vec::new(), false),
        None => (
            crate::services::tco::compute(db, team.team_id, &comparison_query(&content), locale, false)
                .await?
                .view
                .rows,
            false,
        ),
    };
    let events = store::audit::of_order(db, order_id).await?;
    let history = events
        .into_iter()
        .filter_map(store::audit::decode)
        .map(|e| {
            let action = locale.t(match e.action {
                Action::Create => Msg::OrdersACreate,
                Action::ItemAnswered => Msg::OrdersAItemAnswered,
                Action::EvidenceAttached => Msg::OrdersAEvidenceAttached,
                Action::Submit => Msg::OrdersASubmit,
                Action::Approve => Msg::OrdersAApprove,
                Action::Reject => Msg::OrdersAReject,
                Action::Reopen => Msg::OrdersAReopen,
            });
            let detail = match e.action {
                Action::ItemAnswered => format!(
                    "{} · {}",
                    e.data.get("item_id").and_then(|v| v.as_str()).unwrap_or_default(),
                    e.data
                        .get("status")
                        .and_then(|v| v.get("kind"))
                        .and_then(|v| v.as_str())
                        .unwrap_or_default()
                ),
                Action::Approve | Action::Reject => e
                    .data
                    .get("comment")
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string(),
                _ => String::new(),
            };
            EventLine {
                seq: e.seq,
                at: e.at,
                actor: name(e.actor_id),
                action: action.to_string(),
                detail,
                hash: e.hash,
            }
        })
        .collect();
    let (chain_ok, chain_message, head_hash) = match crate::services::audit::verify_order(db, order_id).await? {
        Ok(s) => (
            true,
            locale.fmt(Msg::OrdersChainOk, &[("events", &s.events.to_string())]),
            s.head_hash,
        ),
        Err(fault) => (
            false,
            locale.fmt(Msg::OrdersChainBroken, &[("fault", &fault.to_string())]),
            store::audit::head(db).await?.head_hash,
        ),
    };
    let mut decisions = Vec::new();
    if let (Some(by), Some(at)) = (row.submitted_by, &row.submitted_at) {
        decisions.push(locale.fmt(Msg::OrdersSubmittedBy, &[("who", &name(by)), ("at", at)]));
    }
    if let (Some(by), Some(at)) = (row.decided_by, &row.decided_at) {
        let m = if row.state == OrderState::Approved {
            Msg::OrdersApprovedBy
        } else {
            Msg::OrdersRejectedBy
        };
        decisions.push(locale.fmt(m, &[("who", &name(by)), ("at", at), ("comment", &row.decision_comment)]));
    }
    let procurement = team.role == TeamRole::Procurement;
    let manager = team.role == TeamRole::Manager;
    Ok(OrderView {
        id: row.id,
        title: row.title.clone(),
        revision: row.revision,
        state: row.state,
        revisions: all.iter().map(|r| (r.revision, r.state)).collect(),
        workload: (workload.id, workload.record.name.clone()),
        chosen: content.quote_id.map(|q| (q, label(q))),
        considered: content.considered.iter().map(|q| (*q, label(*q))).collect(),
        quote_choices: labels.clone(),
        runs,
        run_choices,
        waiver: content.waiver.clone(),
        quote_fields: if content.quote_revision_id.is_some() {
            crate::domain::quotes::QUOTE_FIELDS
                .iter()
                .map(|c| (c.to_string(), quote_field_label(locale, c)))
                .collect()
        } else {
            Vec::new()
        },
        documents: documents.iter().map(|d| (d.id, d.file_name.clone())).collect(),
        sections,
        blockers,
        tco,
        tco_query: comparison_query(&content),
        comparison_custom: content
            .frozen
            .as_ref()
            .map_or(content.comparison.is_some(), |f| f.query != default_query(&content)),
        has_scenario: content.frozen.is_some(),
        tco_frozen,
        history,
        chain_ok,
        chain_message,
        head_hash,
        content_hash: row.content_hash.clone(),
        decisions,
        can_edit: draft && procurement,
        can_submit: draft && procurement,
        can_decide: is_latest
            && row.state == OrderState::Submitted
            && manager
            && row.submitted_by != Some(caller.user_id),
        can_reopen: is_latest
            && matches!(row.state, OrderState::Approved | OrderState::Rejected)
            && (manager || row.submitted_by == Some(caller.user_id)),
    })
}

/// The scenario frozen when a revision of one of the team's orders was submitted (`revision`
/// `None`: the latest submitted one), as `nodeledger tco FILE` reads it.
pub async fn frozen_scenario(
    db: &Db,
    team_id: i64,
    order_id: i64,
    revision: Option<i64>,
) -> Result<Scenario, AppError> {
    let all = store::orders::revisions(db, team_id, order_id).await?;
    let row = match revision {
        Some(n) => all.iter().find(|r| r.revision == n),
        None => all.iter().find(|r| r.state != OrderState::Draft),
    }
    .ok_or(AppError::NotFound)?;
    content_of(row)?.frozen.map(|f| f.scenario).ok_or(AppError::NotFound)
}

/// The order record for export (the format `nodeledger audit verify --export FILE` checks, see
/// `domain::audit::export`): every revision with its content and hash, and the order's events.
pub async fn export(db: &Db, team_id: i64, order_id: i64) -> Result<serde_json::Value, AppError> {
    store::orders::latest(db, team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let record = crate::services::audit::export_order(db, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    serde_json::to_value(record).map_err(|_| AppError::Internal)
}

#[cfg(test)]
mod tests {
    use super::{describe, link_query};
    use crate::{
        domain::checklist::{
            AnswerCode as C, EgressPricing, Exclusivity, Fact, FeeKind, FormFactor, Interconnect, Mismatch as M,
        },
        i18n::Locale,
    };
    use rust_decimal_macros::dec;

    #[test]
    fn every_prefill_code_reads_as_a_sentence_in_both_languages() {
        let mismatches = vec![
            M::GpuModel {
                quoted: "A10".into(),
                observed: "NVIDIA A100-SXM4-80GB".into(),
            },
            M::GpuCount { quoted: 8, observed: 4 },
            M::Vram {
                quoted_mib: 24_576,
                observed_mib: 20_000,
            },
            M::Mig {
                quoted: false,
                observed: true,
            },
            M::Driver {
                quoted: "535".into(),
                observed: "550.54.15".into(),
            },
            M::Cuda {
                quoted: "12.2".into(),
                observed: "12.4".into(),
            },
        ];
        let codes = [
            C::GpuQuoted {
                model: "L40S".into(),
                vram_mib: 46_068,
            },
            C::FormFactor {
                form_factor: FormFactor::Sxm,
            },
            C::Exclusivity {
                exclusivity: Exclusivity::Mig,
            },
            C::SlicedForTraining {
                exclusivity: Exclusivity::Vgpu,
            },
            C::HeadroomWithinRange { pct: 20 },
            C::HeadroomBelowRange {
                pct: 17,
                wanted_pct: dec!(20),
                required_mib: dec!(24576.0),
            },
            C::HeadroomAboveRange { pct: 40 },
            C::PeakNearLimit { pct: 9 },
            C::PeakNotNearLimit { pct: 20 },
            C::Interconnect {
                interconnect: Interconnect::NvLink,
            },
            C::SingleGpu,
            C::NoGpuLink,
            C::ImagePinned {
                image: "nvcr.io/nvidia/pytorch:24.05-py3".into(),
            },
            C::ImageVague {
                image: "supports CUDA".into(),
            },
            C::RunPassed,
            C::RunFailed,
            C::RunInconclusive,
            C::BenchmarkPassed { minutes: 20 },
            C::BenchmarkTooShort { minutes: 5 },
            C::NoThrottling,
            C::ThrottlingObserved,
            C::ObservedMatchesQuote {
                quoted_mib: 24_576,
                observed_mib: 24_564,
            },
            C::ObservedDiffers { mismatches },
            C::StoppedBilling {
                compute: false,
                disk: true,
            },
            C::NoMinimumDuration,
            C::MinimumDurationHours { hours: 2 },
            C::AllFeesStated,
            C::FeesNotStated {
                missing: vec![FeeKind::Ip, FeeKind::Snapshot],
            },
            C::DiskRelease {
                temp_wiped: true,
                data_survives: false,
            },
            C::Egress {
                pricing: EgressPricing::Metered,
            },
            C::EgressNotStated,
            C::InvalidFact {
                fact: Fact::VramPeakMib,
            },
        ];
        for code in &codes {
            for locale in [Locale::En, Locale::ZhCn] {
                let text = describe(locale, code);
                assert!(
                    !text.is_empty() && !text.contains('{') && !text.contains("orders."),
                    "{locale:?} {code:?}: {text}"
                );
            }
        }
        assert_eq!(
            describe(Locale::En, &codes[5]),
            "usable VRAM leaves 17 % over the peak; the workload asks for 20 % (24576 MiB)"
        );
        let differs = describe(Locale::En, &codes[22]);
        assert!(
            differs.contains("GPU model quoted A10, seen NVIDIA A100-SXM4-80GB")
                && differs.contains("4 GPUs seen, 8 quoted"),
            "{differs}"
        );
        assert_eq!(describe(Locale::ZhCn, &codes[23]), "关机后计算资源仍计费：否；磁盘：是");
    }

    #[test]
    fn a_comparison_link_is_the_cost_pages_query_in_any_form_it_is_pasted() {
        let q = "workload=3&picked=1&q=7&setup_h_7=6";
        for pasted in [
            format!("http://127.0.0.1:3000/tco?{q}"),
            format!("https://ledger.example.com/tco?{q}#ranking"),
            format!("/tco?{q}"),
            format!("?{q}"),
            q.to_string(),
            format!("  /tco?{q}  "),
        ] {
            assert_eq!(link_query(&pasted).as_deref(), Some(q), "{pasted}");
        }
        assert_eq!(link_query("/tco").as_deref(), Some(""));
        assert_eq!(link_query("/quotes?q=7"), None, "another page");
        assert_eq!(link_query("https://evil.example.com/orders/1?x=1"), None);
        assert_eq!(link_query("just some words"), None);
    }
}
