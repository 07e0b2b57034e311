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
        checklist::{self, ComparedChoice, EvidenceSources, FactSources, PrefillFacts, RunObservation},
        quotes::{self, QUOTE_FIELDS, QuoteDraft, Vendor, Workload},
        runs::RunStatus,
    },
    error::AppError,
    i18n::Locale,
    services::tco,
    store::{self, Db, runs::RunFilter},
    views::{Caller, Membership, RunSummary, orders::OrderView, tco::CostRow},
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
    let names = store::orders::user_names(db, team_id).await?;
    let mut conn = db.acquire().await?;
    let ready = readiness(&mut conn, team_id, &content, &workload.record).await?;
    let quote_revisions = comparison::quote_revisions(&mut conn, team_id, &content).await?;
    drop(conn);
    let (tco, base_currency) = shown_rows(db, team_id, &content, quote_revisions, locale).await?;
    let beyond = Beyond {
        order_id,
        vendor: vendor_of(db, team_id, quote).await?,
        compared: comparison::chosen_in(&tco.0, &base_currency, content.quote_id),
    };
    let (facts, suggest) = suggestions(db, team_id, &workload.record, &content, quote, &runs, beyond).await?;
    let events = store::audit::of_order(db, order_id).await?;
    let events = events.into_iter().filter_map(store::audit::decode).collect();
    let chain = chain_check(db, order_id).await?;
    let bid = super::chosen_bid::chosen_bid(db, team_id, pinned_revision).await?;
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
        bid,
    })
}

/// The comparison the page shows, whether it is the signed one, and its compare currency: a
/// signed comparison from the record (version 1 as its rows were written, version 2 built for
/// this reader from its values), else the live one.
async fn shown_rows(
    db: &Db,
    team_id: i64,
    content: &OrderRecord,
    quote_revisions: Option<comparison::QuoteRevisions>,
    locale: Locale,
) -> Result<((Vec<CostRow>, bool), String), AppError> {
    Ok(match &content.tco {
        Some(SignedRows::V1(rows)) => ((rows.iter().map(tco::shown_v1).collect(), true), String::new()),
        Some(SignedRows::V2(rows)) => (
            (rows.iter().map(|r| tco::shown(locale, r)).collect(), true),
            rows.first()
                .map(|r| r.compare_currency.code().to_string())
                .unwrap_or_default(),
        ),
        None => {
            let pinned = quote_revisions.map(|r| r.pinned);
            let (rows, base) = comparison::live_rows(db, team_id, content, pinned, locale).await?;
            ((rows, false), base)
        }
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

/// What the checklist pre-fill reads besides the workload, the quote and the runs: the
/// vendor's record and where the chosen quote stands in the order's comparison.
pub(super) struct Beyond {
    /// The order (its comparison is what a suggestion cites).
    pub order_id: i64,
    /// The chosen quote's vendor, when the team has its record.
    pub vendor: Option<Vendor>,
    /// The chosen quote in the order's comparison.
    pub compared: Option<ComparedChoice>,
}

/// The record of the vendor of `quote`, when the team has one.
pub(super) async fn vendor_of(db: &Db, team_id: i64, quote: Option<&QuoteDraft>) -> Result<Option<Vendor>, AppError> {
    let Some(q) = quote else {
        return Ok(None);
    };
    let Some(id) = store::vendors::id_by_name(db, team_id, &q.vendor).await? else {
        return Ok(None);
    };
    Ok(store::vendors::by_id(db, team_id, id).await?.map(|v| v.vendor()))
}

/// Loads what the checklist pre-fill needs and builds the facts ([`checklist::gather`]), with
/// what its suggestions may cite: the chosen quote's stated fields, the run backing it when
/// that run is valid and may be cited as a manual answer may cite it, the order's comparison
/// and the vendor's contact.
pub(super) async fn suggestions(
    db: &Db,
    team_id: i64,
    workload: &Workload,
    content: &OrderRecord,
    quote: Option<&QuoteDraft>,
    runs: &[RunSummary],
    beyond: Beyond,
) -> Result<(PrefillFacts, Suggestions), AppError> {
    let quote_id = content.quote_id;
    let observed = observations(db, team_id, quote_id, runs).await?;
    let mut facts = checklist::gather(&FactSources {
        workload,
        quote_id,
        quote,
        runs: &observed,
    });
    let contact = beyond.vendor.as_ref().map(|v| v.contact.trim().to_string());
    facts.vendor_contact = contact.filter(|c| !c.is_empty());
    facts.vendor_fault_help = beyond.vendor.and_then(|v| v.support_scope.troubleshooting);
    facts.compared = beyond.compared;
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
    let sources = EvidenceSources {
        quote_revision_id: content.quote_revision_id,
        valid_run,
        comparison: facts.compared.is_some().then_some(beyond.order_id),
    };
    Ok((facts, Suggestions { sources, stated }))
}
