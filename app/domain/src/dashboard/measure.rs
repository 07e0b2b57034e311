//! Which quotes an engineer is asked to benchmark. A run is work (a node booked, a job run), so
//! the to-do asks for one only where it decides something: a quote
//!
//! 1. that an **open order weighs** — chosen or considered in the comparison of an order whose
//!    latest revision is a draft or submitted. The data model has no shortlist: an open order's
//!    comparison is where procurement says which quotes are in the running. So a quote merely
//!    listed (a catalogue import, a quote nobody compared) never asks for a run, nor does the
//!    quote of an approved order (rented, maybe already released) or of a rejected one;
//! 2. that **passes the workload check** of at least one open order weighing it (no requirement
//!    fails: a node that cannot hold the model is not worth measuring; an order whose workload is
//!    gone checks nothing);
//! 3. that is **unexpired** on the day, and **has no valid run** yet.
//!
//! Listed by vendor, then quote id.

use super::QuoteFact;
use crate::quotes::{self, Date, NodeSpec, RequirementStatus, Workload};

/// One open order's comparison as the engineers' to-do reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighed {
    /// The workload the quotes are checked against (`None`: it was deleted).
    pub workload: Option<Workload>,
    /// The quotes it weighs: the considered ones and the chosen one.
    pub quotes: Vec<i64>,
}

/// A current quote that an open order weighs, as the store loads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCandidate {
    /// What the to-do shows.
    pub fact: QuoteFact,
    /// Its node, for the workload check.
    pub spec: NodeSpec,
    /// Some revision of it has a valid run.
    pub has_valid_run: bool,
}

/// Whether `spec` fails none of `workload`'s requirements.
fn passes(workload: &Workload, spec: &NodeSpec) -> bool {
    quotes::check(workload, spec)
        .iter()
        .all(|r| r.status != RequirementStatus::Fail)
}

/// The quotes of `candidates` an engineer is asked to benchmark on `today` (rules in the module
/// docs), by vendor then id.
#[must_use]
pub fn quotes_to_measure(open: &[Weighed], candidates: &[RunCandidate], today: Date) -> Vec<QuoteFact> {
    let mut out: Vec<&QuoteFact> = candidates
        .iter()
        .filter(|c| !c.has_valid_run && c.fact.valid_until >= today)
        .filter(|c| {
            open.iter()
                .filter(|o| o.quotes.contains(&c.fact.quote_id))
                .any(|o| o.workload.as_ref().is_none_or(|w| passes(w, &c.spec)))
        })
        .map(|c| &c.fact)
        .collect();
    out.sort_by(|a, b| (&a.vendor, a.quote_id).cmp(&(&b.vendor, b.quote_id)));
    out.dedup_by_key(|q| q.quote_id);
    out.into_iter().cloned().collect()
}
