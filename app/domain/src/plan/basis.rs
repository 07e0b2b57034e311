//! Per quote: the assumptions the expected and the pessimistic finish are costed with, the
//! scaling efficiency, and what the vendor was not asked yet.

use super::input::{PlanRequest, QuoteSupply, RunFigure};
use super::result::{EfficiencySource, Pessimism, VendorQuestion};
use crate::runs::GpuUse;
use crate::tco::{
    Assumptions, Demand, ErrorReason, QuoteGroup, RunThroughput, Scenario, TcoError, WhatIfProfiles, quote_assumptions,
    throughput,
};
use crate::tco::{ComputeBasis, Quote, quote_group};
use rust_decimal::Decimal;

/// Hours in a day of lead time.
const HOURS_PER_DAY: Decimal = Decimal::from_parts(24, 0, 0, false, 0);

/// How one quote is planned, before any node count.
pub(super) struct Basis<'a> {
    pub quote: &'a Quote,
    pub group: QuoteGroup,
    /// The work as costed: the scenario's, with the request's GPU use (which sets how a stated
    /// run length scales with GPUs and nodes, as on the cost page).
    pub workload: Demand,
    /// Expected throughput, efficiency and the quote's overrides.
    pub expected: Assumptions,
    /// The work for the pessimistic finish (an estimated quote's run length × the multiplier).
    pub pessimistic_workload: Demand,
    /// The assumptions with the pessimistic throughput.
    pub pessimistic: Assumptions,
    pub pessimism: Pessimism,
    pub efficiency_source: EfficiencySource,
    pub capacity: Option<u32>,
    pub lead_time_h: Option<Decimal>,
    pub questions: Vec<VendorQuestion>,
    /// When the runs measured the scaling efficiency (one job across GPUs, runs on one node and
    /// on several): the most nodes a valid run ran on; plans on more nodes rest on an efficiency
    /// estimated beyond what was measured.
    pub measured_nodes: Option<u32>,
}

/// The basis of `quote` under `request` (`supply`: its entry in the request, if any).
pub(super) fn basis<'a>(
    s: &'a Scenario,
    quote: &'a Quote,
    request: &PlanRequest,
    supply: Option<&QuoteSupply>,
) -> Result<Basis<'a>, TcoError> {
    let mut expected = quote_assumptions(s, quote)?;
    let runs = runs(supply.map_or(&[][..], |q| q.runs.as_slice()))?;
    let efficiency_source = expected.apply_scaling(request.gpu_use, &runs)?;
    let mut slowest = None;
    if let Some(found) = throughput::from_runs(&runs, expected.scaling())? {
        expected.measured_throughput_per_s = Some(found.expected.per_s);
        expected.n_run = Some(found.expected.nodes);
        slowest = Some(found.slowest);
    }
    let measured = expected.measured_throughput_per_s.is_some() && s.workload.total_work.is_some();
    let basis = if measured {
        ComputeBasis::MeasuredThroughput
    } else {
        ComputeBasis::StatedRunLength
    };
    let group = quote_group(basis, quote.throughput_stated && runs.is_empty());
    let c = costed(s, group, slowest, expected, request.gpu_use)?;
    let (capacity, lead_time_h, questions) = supply_facts(supply)?;
    // Only an efficiency the runs measured has a reach to go beyond; an assumed one is shown as
    // assumed wherever it is used.
    let measured_nodes = (efficiency_source == EfficiencySource::Runs)
        .then(|| runs.iter().map(|r| r.nodes).max())
        .flatten();
    Ok(Basis {
        quote,
        group,
        workload: c.workload,
        expected: c.expected,
        pessimistic_workload: c.pessimistic_workload,
        pessimistic: c.pessimistic,
        pessimism: c.pessimism,
        efficiency_source,
        capacity,
        lead_time_h,
        questions,
        measured_nodes,
    })
}

/// The work and assumptions of the expected and the pessimistic finish.
struct Costed {
    workload: Demand,
    expected: Assumptions,
    pessimistic_workload: Demand,
    pessimistic: Assumptions,
    pessimism: Pessimism,
}

/// The pessimistic side of a quote in `group` (`slowest`: its slowest valid run, if runs were
/// given); an estimated quote keeps its stated run length, which the cost engine scales with the
/// GPU use, and is pessimistic with the run length × the what-if's high multiplier.
fn costed(
    s: &Scenario,
    group: QuoteGroup,
    slowest: Option<RunThroughput>,
    expected: Assumptions,
    gpu_use: GpuUse,
) -> Result<Costed, TcoError> {
    let profiles = WhatIfProfiles::default();
    let workload = Demand {
        gpu_use: Some(gpu_use),
        ..s.workload.clone()
    };
    let mut pessimistic = expected.clone();
    let mut pessimistic_workload = workload.clone();
    let pessimism = match (slowest, group) {
        (Some(run), QuoteGroup::Measured | QuoteGroup::Stated) => run_pessimism(&mut pessimistic, run),
        (None, QuoteGroup::Measured) => {
            // One measured figure without its runs: the only, so the slowest, valid run.
            let run = RunThroughput {
                per_s: expected.measured_throughput_per_s.unwrap_or(Decimal::ONE),
                nodes: expected.run_nodes(),
            };
            run_pessimism(&mut pessimistic, run)
        }
        (None, QuoteGroup::Stated) => {
            let share = profiles.throughput_sensitivity;
            pessimistic.measured_throughput_per_s = expected
                .measured_throughput_per_s
                .map(|t| checked(t.checked_mul(Decimal::ONE - share), "plan.pessimistic_throughput_per_s"))
                .transpose()?;
            Pessimism::SlowerThroughput { share }
        }
        (_, QuoteGroup::Estimated) => {
            let multiplier = profiles.high;
            let Some(run_h) = s.workload.run_hours else {
                return Err(TcoError::new("workload.run_hours", ErrorReason::NoWorkSize));
            };
            if run_h <= Decimal::ZERO {
                return Err(TcoError::new("workload.run_hours", ErrorReason::NotPositive));
            }
            let longer = checked(run_h.checked_mul(multiplier), "plan.pessimistic_run_h")?;
            pessimistic_workload.run_hours = Some(longer);
            Pessimism::LongerRun { multiplier }
        }
    };
    Ok(Costed {
        workload,
        expected,
        pessimistic_workload,
        pessimistic,
        pessimism,
    })
}

/// Capacity, lead time in hours, and the vendor questions.
type SupplyFacts = (Option<u32>, Option<Decimal>, Vec<VendorQuestion>);

/// The stated capacity and lead time, and what to ask the vendor for what is not stated.
fn supply_facts(supply: Option<&QuoteSupply>) -> Result<SupplyFacts, TcoError> {
    let capacity = supply.and_then(|q| q.capacity_nodes);
    if capacity == Some(0) {
        return Err(TcoError::new("plan.quotes.capacity_nodes", ErrorReason::NotPositive));
    }
    let lead_time_h = lead_time(supply)?;
    let mut questions = Vec::new();
    if capacity.is_none() {
        questions.push(VendorQuestion::CapacityNotStated);
    }
    if lead_time_h.is_none() {
        questions.push(VendorQuestion::LeadTimeNotStated);
    }
    Ok((capacity, lead_time_h, questions))
}

fn checked(value: Option<Decimal>, field: &'static str) -> Result<Decimal, TcoError> {
    value.ok_or_else(|| TcoError::overflow(field))
}

fn run_pessimism(a: &mut Assumptions, run: RunThroughput) -> Pessimism {
    a.measured_throughput_per_s = Some(run.per_s);
    a.n_run = Some(run.nodes);
    Pessimism::SlowestRun {
        per_s: run.per_s,
        nodes: run.nodes,
    }
}

/// The runs as the cost model takes them, each checked.
fn runs(figures: &[RunFigure]) -> Result<Vec<RunThroughput>, TcoError> {
    figures
        .iter()
        .map(|r| {
            if r.per_s <= Decimal::ZERO {
                return Err(TcoError::new("plan.quotes.runs.per_s", ErrorReason::NotPositive));
            }
            if r.nodes == 0 {
                return Err(TcoError::new("plan.quotes.runs.nodes", ErrorReason::NotPositive));
            }
            Ok(RunThroughput {
                per_s: r.per_s,
                nodes: r.nodes,
            })
        })
        .collect()
}

/// The stated lead time in hours: `lead_time_h`, or `lead_time_days` × 24; not both.
fn lead_time(supply: Option<&QuoteSupply>) -> Result<Option<Decimal>, TcoError> {
    let Some(q) = supply else {
        return Ok(None);
    };
    let hours = match (q.lead_time_h, q.lead_time_days) {
        (Some(_), Some(_)) => {
            let reason = ErrorReason::OutOfRange {
                allowed: "one of lead_time_h and lead_time_days",
            };
            return Err(TcoError::new("plan.quotes.lead_time_days", reason));
        }
        (Some(h), None) => Some(h),
        (None, Some(d)) => Some(checked(d.checked_mul(HOURS_PER_DAY), "plan.quotes.lead_time_days")?),
        (None, None) => None,
    };
    if hours.is_some_and(|h| h < Decimal::ZERO) {
        return Err(TcoError::new("plan.quotes.lead_time_h", ErrorReason::Negative));
    }
    Ok(hours)
}
