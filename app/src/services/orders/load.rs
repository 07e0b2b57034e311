//! Loading the order page: [`view`] reads one revision and everything it shows through the
//! store, then hands it to the pure builder ([`super::view::build`]).

use super::{
    OrderRecord, comparison,
    content::SignedRows,
    content_of,
    loaded::{ChainCheck, Loaded, Suggestions},
    submit::readiness,
    view::build,
};
use crate::{
    domain::{
        checklist::{self, EvidenceSources, FactSources, PrefillFacts, RunObservation},
        quotes::{self, QUOTE_FIELDS, QuoteDraft, Workload},
        runs::RunStatus,
    },
    error::AppError,
    i18n::Locale,
    services::tco,
    store::{self, Db, runs::RunFilter},
    views::{Caller, Membership, RunSummary, orders::OrderView},
};

/// Most of the workload's runs the page offers to attach (the newest).
const RUN_CHOICES: i64 = 500;

/// The order page for the caller.
pub async fn view(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    revision: Option<i64>,
    locale: Locale,
) -> Result<OrderView, AppError> {
    let loaded = load(db, team.team_id, order_id, revision, locale).await?;
    let mut view = build(&loaded, caller.user_id, team.role, locale);
    // Read with the order, so the sign-off form is whole in the page's first answer.
    if view.can_decide {
        view.sign_off_code = store::second_factors::is_enabled(db, caller.user_id).await?;
    }
    Ok(view)
}

async fn load(db: &Db, team_id: i64, order_id: i64, revision: Option<i64>, locale: Locale) -> Result<Loaded, AppError> {
    let revisions = store::orders::revisions(db, team_id, order_id).await?;
    if revisions.is_empty() {
        return Err(AppError::NotFound);
    }
    let shown = match revision {
        Some(n) => revisions
            .iter()
            .position(|r| r.revision == n)
            .ok_or(AppError::NotFound)?,
        None => 0,
    };
    let content = content_of(&revisions[shown])?;
    let workload = store::workloads::by_id(db, team_id, content.workload_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let quote_labels = store::runs::quote_labels(db, team_id).await?;
    let chosen = content.chosen_quote();
    let pinned_revision = chosen.and_then(|c| c.revision_id);
    let quote = match pinned_revision {
        Some(rev) => store::quotes::revision(db, team_id, rev).await?,
        None => None,
    };
    let filter = RunFilter {
        quote_id: None,
        workload_id: Some(content.workload_id),
    };
    let run_choices = store::runs::list(db, team_id, filter, RUN_CHOICES).await?;
    // By id: an attached run stays listed however many runs the team adds after it.
    let runs = store::runs::attached(db, team_id, &content.runs).await?;
    let documents = match pinned_revision {
        Some(rev) => store::documents::of_revision(db, team_id, rev).await?,
        None => Vec::new(),
    };
    let quote = quote.as_ref().map(|q| &q.draft);
    let (facts, suggest) = suggestions(db, team_id, &workload.record, &content, quote, &runs).await?;
    let names = store::orders::user_names(db, team_id).await?;
    let mut conn = db.acquire().await?;
    let ready = readiness(&mut conn, team_id, &content, &workload.record).await?;
    let quote_revisions = comparison::quote_revisions(&mut conn, team_id, &content).await?;
    drop(conn);
    let tco = match &content.tco {
        // A signed comparison is shown from the record: version 1 as its rows were written,
        // version 2 built for this reader from its values.
        Some(SignedRows::V1(rows)) => (rows.iter().map(tco::shown_v1).collect(), true),
        Some(SignedRows::V2(rows)) => (rows.iter().map(|r| tco::shown(locale, r)).collect(), true),
        None if content.considered.is_empty() && content.comparison.is_none() => (Vec::new(), false),
        None => {
            let request = comparison::comparison_request(&content, quote_revisions.map(|r| r.pinned));
            (comparison::rows(db, team_id, &request, locale).await?, false)
        }
    };
    let events = store::audit::of_order(db, order_id).await?;
    let events = events.into_iter().filter_map(store::audit::decode).collect();
    let chain = chain_check(db, order_id).await?;
    Ok(Loaded {
        revisions,
        shown,
        content,
        workload_id: workload.id,
        workload: workload.record,
        quote_labels,
        run_choices,
        runs,
        documents,
        facts,
        suggest,
        names,
        ready,
        tco,
        quote_revisions,
        events,
        chain,
    })
}

/// Verifies the order's events; a broken chain names its fault and the whole chain's head.
async fn chain_check(db: &Db, order_id: i64) -> Result<ChainCheck, AppError> {
    Ok(match crate::services::audit::verify_order(db, order_id).await? {
        Ok(s) => ChainCheck {
            fault: None,
            events: s.events,
            head_hash: s.head_hash,
        },
        Err(fault) => ChainCheck {
            fault: Some(fault.to_string()),
            events: 0,
            head_hash: store::audit::head(db).await?.head_hash,
        },
    })
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

/// Loads what the checklist pre-fill needs and builds the facts ([`checklist::gather`]), with
/// what its suggestions may cite: the chosen quote's stated fields, and the run backing it when
/// that run is valid and may be cited as a manual answer may cite it.
pub(super) async fn suggestions(
    db: &Db,
    team_id: i64,
    workload: &Workload,
    content: &OrderRecord,
    quote: Option<&QuoteDraft>,
    runs: &[RunSummary],
) -> Result<(PrefillFacts, Suggestions), AppError> {
    let quote_id = content.quote_id;
    let observed = observations(db, team_id, quote_id, runs).await?;
    let facts = checklist::gather(&FactSources {
        workload,
        quote_id,
        quote,
        runs: &observed,
    });
    let backing = checklist::backing_run(&observed, quote_id).filter(|r| r.status == Some(RunStatus::Valid));
    let valid_run = match backing {
        Some(r) => match super::answer::evidence_run(db, team_id, r.id, content.quote_revision_id).await {
            Ok(()) => Some(r.id),
            Err(AppError::InvalidFields(_) | AppError::NotFound) => None,
            Err(e) => return Err(e),
        },
        None => None,
    };
    let stated = quote.map_or_else(Vec::new, |q| {
        QUOTE_FIELDS
            .iter()
            .copied()
            .filter(|f| !quotes::field_text(q, f).trim().is_empty())
            .collect()
    });
    Ok((
        facts,
        Suggestions {
            sources: EvidenceSources {
                quote_revision_id: content.quote_revision_id,
                valid_run,
            },
            stated,
        },
    ))
}
